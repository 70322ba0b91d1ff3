import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  configureNameLookup,
  DEFAULT_NAME_LOOKUP_TIMEOUT_MS,
  DEFAULT_NAME_LOOKUP_URL,
  lookupUrl,
  nameLookupConfig,
  nameLookupConfigFromEnv,
  nameToSmiles,
  redactUrl,
} from "../../src/chem/lookup.ts";
import { ChemError } from "../../src/errors.ts";
import { nameToSmilesTool } from "../../src/tools/name_to_smiles.ts";

await loadTestRDKit();

/** A PUG REST-like stand-in on 127.0.0.1: the first path segment picks the behaviour. */
function handler(req: IncomingMessage, res: ServerResponse): void {
  const [, mode = "", name = ""] = (req.url ?? "").split("/");
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  switch (mode) {
    case "ok": // PubChem's answer for aspirin (CID 2244), 2025 field name
      return json(200, {
        PropertyTable: { Properties: [{ CID: 2244, SMILES: "CC(=O)OC1=CC=CC=C1C(=O)O" }] },
      });
    case "echo": // returns ethanol, and the raw request path in a header for the encoding check
      res.setHeader("x-path", req.url ?? "");
      return json(200, { PropertyTable: { Properties: [{ CID: 702, IsomericSMILES: "CCO" }] } });
    case "connectivity":
      return json(200, {
        PropertyTable: {
          Properties: [{ CID: 5950, ConnectivitySMILES: "CC(C(=O)O)N" }, { CID: 1, SMILES: "C" }],
        },
      });
    case "missing":
      return json(404, { Fault: { Code: "PUGREST.NotFound", Message: "No CID found", Details: [name] } });
    case "fault200":
      return json(200, { Fault: { Code: "PUGREST.NotFound", Message: "No CID found" } });
    case "error":
      return json(500, { Fault: { Code: "PUGREST.ServerError", Message: "Internal error" } });
    case "busy":
      return json(503, { Fault: { Code: "PUGREST.ServerBusy", Message: "Too many requests" } });
    case "garbage":
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end("<html><body>Service temporarily unavailable</body></html>");
    case "nosmiles":
      return json(200, { PropertyTable: { Properties: [{ CID: 2244 }] } });
    case "badsmiles":
      return json(200, { PropertyTable: { Properties: [{ CID: 1, SMILES: "C1CC(" }] } });
    case "stall": // never answers
      return;
    case "stallbody": // headers and half a body, then nothing
      res.writeHead(200, { "content-type": "application/json" });
      return void res.write('{"PropertyTable": {"Properties": [');
    default:
      return json(400, { Fault: { Code: "PUGREST.BadRequest" } });
  }
}

let server: Server;
let base = "";
const sockets = new Set<Socket>();

before(async () => {
  server = createServer(handler);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address && typeof address === "object");
  base = `http://127.0.0.1:${address.port}`;
});

after(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  configureNameLookup({ urlTemplate: DEFAULT_NAME_LOOKUP_URL, timeoutMs: DEFAULT_NAME_LOOKUP_TIMEOUT_MS });
});

const use = (mode: string, timeoutMs = 2000) =>
  configureNameLookup({ urlTemplate: `${base}/${mode}/{name}`, timeoutMs });

const rejectsWith = (code: string) => (e: unknown) => {
  assert.ok(e instanceof ChemError, String(e));
  assert.equal(e.code, code, e.message);
  return true;
};

test("defaults: PubChem PUG REST SMILES property URL, 10 s timeout", () => {
  assert.equal(
    DEFAULT_NAME_LOOKUP_URL,
    "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/name/{name}/property/SMILES/JSON",
  );
  assert.equal(DEFAULT_NAME_LOOKUP_TIMEOUT_MS, 10_000);
});

test("OK answer: canonical SMILES by RDKit, CID, field and source", async () => {
  use("ok");
  const r = await nameToSmiles(" aspirin ");
  assert.equal(r.smiles, "CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(r.source_smiles, "CC(=O)OC1=CC=CC=C1C(=O)O");
  assert.equal(r.source_field, "SMILES");
  assert.equal(r.cid, 2244);
  assert.equal(r.name, "aspirin");
  assert.equal(r.match_count, 1);
  assert.equal(r.source, new URL(base).host);
});

test("older field names are accepted; several records → the first, with match_count", async () => {
  use("echo");
  const r = await nameToSmiles("ethyl alcohol");
  assert.equal(r.smiles, "CCO");
  assert.equal(r.source_field, "IsomericSMILES");
  use("connectivity");
  const c = await nameToSmiles("alanine");
  assert.equal(c.smiles, "CC(N)C(=O)O");
  assert.equal(c.source_field, "ConnectivitySMILES");
  assert.equal(c.match_count, 2);
});

test("the name is URL-encoded into the path", async () => {
  let seen = "";
  configureNameLookup({
    urlTemplate: `${base}/echo/{name}`,
    timeoutMs: 2000,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen = response.headers.get("x-path") ?? "";
      return response;
    },
  });
  try {
    await nameToSmiles("2-acetoxybenzoic acid/α & β?");
  } finally {
    configureNameLookup({ fetch: (input, init) => fetch(input, init) });
  }
  assert.equal(seen, `/echo/${encodeURIComponent("2-acetoxybenzoic acid/α & β?")}`);
  assert.ok(seen.includes("%20") && seen.includes("%2F") && seen.includes("%26"));
});

test("404 / PUGREST.NotFound → NAME_NOT_FOUND", async () => {
  use("missing");
  await assert.rejects(nameToSmiles("notacompoundxyz"), rejectsWith("NAME_NOT_FOUND"));
  use("fault200");
  await assert.rejects(nameToSmiles("notacompoundxyz"), rejectsWith("NAME_NOT_FOUND"));
});

test("5xx, non-JSON, missing fields, unusable SMILES → LOOKUP_BAD_RESPONSE", async () => {
  for (const mode of ["error", "busy", "garbage", "nosmiles", "badsmiles", "teapot"]) {
    use(mode);
    await assert.rejects(nameToSmiles("aspirin"), rejectsWith("LOOKUP_BAD_RESPONSE"), mode);
  }
});

test("a server that stalls (before or during the body) → LOOKUP_TIMEOUT, never a hang", async () => {
  use("stall", 300);
  await assert.rejects(nameToSmiles("aspirin"), rejectsWith("LOOKUP_TIMEOUT"));
  use("stallbody", 300);
  await assert.rejects(nameToSmiles("aspirin"), rejectsWith("LOOKUP_TIMEOUT"));
});

test("nothing listening → LOOKUP_UNREACHABLE", async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  assert.ok(address && typeof address === "object");
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  configureNameLookup({ urlTemplate: `http://127.0.0.1:${address.port}/x/{name}`, timeoutMs: 2000 });
  await assert.rejects(nameToSmiles("aspirin"), rejectsWith("LOOKUP_UNREACHABLE"));
});

test("configuration: template needs {name} and http(s); env map supplies CHEM_MCP_NAME_LOOKUP_URL", () => {
  assert.throws(() => configureNameLookup({ urlTemplate: "https://example.org/name" }), TypeError);
  assert.throws(() => configureNameLookup({ urlTemplate: "file:///tmp/{name}" }), TypeError);
  assert.throws(() => configureNameLookup({ timeoutMs: 0 }), TypeError);
  assert.deepEqual(nameLookupConfigFromEnv({}), {});
  assert.deepEqual(nameLookupConfigFromEnv({ CHEM_MCP_NAME_LOOKUP_URL: "  " }), {});
  assert.deepEqual(nameLookupConfigFromEnv({ CHEM_MCP_NAME_LOOKUP_URL: "http://h/{name}" }), {
    urlTemplate: "http://h/{name}",
  });
  use("ok");
  assert.equal(nameLookupConfig().urlTemplate, `${base}/ok/{name}`);
});

test("name_to_smiles tool result validates against its output schema", async () => {
  use("ok");
  const out = await nameToSmilesTool.run(v.parse(nameToSmilesTool.input, { name: "aspirin" }));
  v.parse(nameToSmilesTool.output, out);
  assert.equal(v.safeParse(nameToSmilesTool.input, { name: "" }).success, false);
  assert.equal(v.safeParse(nameToSmilesTool.input, { name: "x".repeat(301) }).success, false);
});

test("lookupUrl keeps a name inside its own path segment or query value, or refuses it", () => {
  const path = "https://h.example/a/{name}/b";
  assert.equal(lookupUrl(path, "a/b?c#d")?.pathname, "/a/a%2Fb%3Fc%23d/b");
  assert.equal(lookupUrl(path, "it's (R)-x*")?.pathname, "/a/it%27s%20%28R%29-x%2A/b");
  assert.equal(lookupUrl(path, "%2e%2e")?.pathname, "/a/%252e%252e/b");
  for (const name of [".", ".."]) assert.equal(lookupUrl(path, name), undefined, name);
  assert.equal(lookupUrl(path, "\ud800"), undefined, "a lone surrogate");
  const query = "https://h.example/q?name={name}&x=1";
  assert.equal(lookupUrl(query, "..")?.search, "?name=..&x=1");
  assert.equal(lookupUrl(query, "a&x=2")?.search, "?name=a%26x%3D2&x=1");
});

test("configuration: {name} outside the path and query, or credentials, are refused without showing them", () => {
  for (
    const template of [
      "http://{name}.example.org/x",
      "http://h:{name}/x",
      "http://{name}@h/x",
      "http://h/x#{name}",
      "http://user:hunter2@h/{name}",
    ]
  ) {
    assert.throws(() => configureNameLookup({ urlTemplate: template }), (e: unknown) => {
      assert.ok(e instanceof TypeError);
      assert.ok(!e.message.includes("hunter2"), e.message);
      return true;
    });
  }
  assert.equal(redactUrl("see http://u:p@h/x and https://h/y"), "see http://***@h/x and https://h/y");
});
