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
