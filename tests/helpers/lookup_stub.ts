/**
 * A local stand-in for the PubChem PUG REST name lookup, on 127.0.0.1, so end-to-end suites can call
 * `name_to_smiles` without the internet. It answers like PubChem: a PropertyTable for known names, a 404 fault
 * otherwise.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const KNOWN: Readonly<Record<string, { cid: number; smiles: string }>> = {
  aspirin: { cid: 2244, smiles: "CC(=O)OC1=CC=CC=C1C(=O)O" },
  caffeine: { cid: 2519, smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C" },
};

/** Starts the stub and resolves with the URL template to pass as CHEM_MCP_NAME_LOOKUP_URL. */
export function startLookupStub(): Promise<string> {
  const server = createServer((request, response) => {
    const match = /\/compound\/name\/([^/]+)\/property\//.exec(request.url ?? "");
    const hit = match ? KNOWN[decodeURIComponent(match[1]!).toLowerCase()] : undefined;
    response.setHeader("Content-Type", "application/json");
    if (!hit) {
      response.statusCode = 404;
      response.end(JSON.stringify({ Fault: { Code: "PUGREST.NotFound", Message: "No CID found" } }));
      return;
    }
    response.end(JSON.stringify({ PropertyTable: { Properties: [{ CID: hit.cid, SMILES: hit.smiles }] } }));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      const { port } = server.address() as AddressInfo;
      resolve(`http://127.0.0.1:${port}/rest/pug/compound/name/{name}/property/SMILES/JSON`);
    });
  });
}

/** Text a hostile service puts in its answers; it must never reach a client. */
export const REMOTE_SECRET = "REMOTE-SECRET-7f3a";

/** A hostile lookup service and a second origin it tries to send clients to. */
export interface HostileLookup {
  /** URL template with `{name}` in the path. */
  readonly template: string;
  /** Every request path the service received, raw. */
  readonly paths: string[];
  /** Requests that reached the other origin. */
  readonly elsewhere: string[];
}

/**
 * Starts a lookup service whose behaviour the looked-up name picks: `redirect-away` (302 to another origin),
 * `redirect-same` (302 to `aspirin` on the same origin), `redirect-loop` (302 to itself), `garbage` (HTML),
 * `bad-smiles` (an unparsable SMILES), `fault` (a Fault whose code is not PUG REST's), `ring-300` and
 * `chain-499` (molecules past the size the protocol thread parses), `slow` (a 404 after 5 s), `aspirin`;
 * anything else is a 404. Each answer carries {@link REMOTE_SECRET}.
 */
export async function startHostileLookup(): Promise<HostileLookup> {
  const paths: string[] = [];
  const elsewhere: string[] = [];
  const other = await listen((request, response) => {
    elsewhere.push(request.url ?? "");
    response.end(JSON.stringify({ PropertyTable: { Properties: [{ CID: 1, SMILES: "C" }] }, REMOTE_SECRET }));
  });
  let self = "";
  const port = await listen((request, response) => {
    const url = request.url ?? "";
    paths.push(url);
    const name = decodeURIComponent(/^\/lookup\/([^/]*)\/json$/.exec(url)?.[1] ?? "");
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const redirect = (location: string) => {
      response.writeHead(302, { location });
      response.end(REMOTE_SECRET);
    };
    switch (name) {
      case "redirect-away":
        return redirect(`http://127.0.0.1:${other}/steal?${REMOTE_SECRET}`);
      case "redirect-same":
        return redirect(`${self}/lookup/aspirin/json`);
      case "redirect-loop":
        return redirect(url);
      case "garbage":
        response.writeHead(200, { "content-type": "text/html" });
        return void response.end(`<html>${REMOTE_SECRET}</html>`);
      case "bad-smiles":
        return json(200, { PropertyTable: { Properties: [{ CID: 1, SMILES: `C1CC(${REMOTE_SECRET}` }] } });
      case "fault":
        return json(500, { Fault: { Code: `${REMOTE_SECRET} <script>`, Message: REMOTE_SECRET } });
      case "ring-300":
        return json(200, {
          PropertyTable: { Properties: [{ CID: 1, SMILES: "c1" + "c".repeat(298) + "c1" }] },
        });
      case "chain-499":
        return json(200, { PropertyTable: { Properties: [{ CID: 1, SMILES: "C".repeat(499) }] } });
      case "slow":
        return void setTimeout(() => json(404, { Fault: { Code: "PUGREST.NotFound" } }), 5_000);
      case "aspirin":
        return json(200, { PropertyTable: { Properties: [{ CID: 2244, SMILES: KNOWN.aspirin!.smiles }] } });
      default:
        return json(404, { Fault: { Code: "PUGREST.NotFound", Message: REMOTE_SECRET } });
    }
  });
  self = `http://127.0.0.1:${port}`;
  return { template: `${self}/lookup/{name}/json`, paths, elsewhere };
}

function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve((server.address() as AddressInfo).port);
    });
  });
}
