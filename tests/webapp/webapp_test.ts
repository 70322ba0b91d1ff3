/**
 * End-to-end tests of the sample web application over real HTTP: the entry for the running runtime is spawned
 * (src/runtime/webapp_deno.ts under Deno, dist/src/runtime/webapp_node.js under Node) and every route and status is exercised.
 *
 * Reference values: aspirin MW 180.16 g/mol, TPSA 63.6 Å² (PubChem CID 2244, computed by Cactvs), Crippen logP
 * 1.31 (Wildman & Crippen 1999 as implemented in RDKit), Lipinski donors 1 (COOH) and acceptors 4 (O atoms).
 * Cyclosporin A MW 1202.6 g/mol (PubChem CID 5284373), Lipinski donors 5 (4 NH + 1 OH) and acceptors 23
 * (11 N + 12 O): a textbook rule-of-five failure. Diazepam TPSA 32.7 Å² (PubChem CID 3016), inside the BOILED-Egg
 * yolk (a drug that acts in the brain); lactulose, a laxative that is not absorbed, outside the white.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { boiledEgg } from "../../src/chem/boiled_egg.ts";
import { startWebApp, type WebAppServer } from "./webapp_process.ts";

const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const SALICYLIC_ACID = "OC(=O)c1ccccc1O";
const BENZENE = "c1ccccc1";
const CYCLOSPORIN_A = "CC[C@H]1C(=O)N(CC(=O)N([C@H](C(=O)N[C@H](C(=O)N([C@H](C(=O)N[C@H](C(=O)N[C@@H](C(=O)" +
  "N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N1)[C@@H]([C@H](C)C/C=C/C)O)C)C(C)C)C)CC(C)C)C)CC(C)C)C)" +
  "C)C)CC(C)C)C)C(C)C)CC(C)C)C)C";

let server: WebAppServer;

before(async () => {
  await loadTestRDKit();
  server = await startWebApp();
});
after(async () => {
  await server?.stop();
});

function post(path: string, body: unknown, contentType = "application/json"): Promise<Response> {
  return fetch(new URL(path, server.url), {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function expectError(res: Response, status: number, code: string): Promise<string> {
  const text = await res.text();
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${text}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = JSON.parse(text) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.deepEqual(Object.keys(body.error).sort(), ["code", "message"]);
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 10, "message says what to fix");
  return body.error.message;
}

/** Independent Tanimoto on RDKit Morgan r=2, 2048 bits, counted bit by bit in the test process. */
function referenceTanimoto(a: string, b: string): number {
  const bits = (smiles: string): Set<number> => {
    const mol = rdkit().get_mol(smiles)!;
    try {
      const fp = mol.get_morgan_fp(JSON.stringify({ radius: 2, nBits: 2048 }));
      return new Set([...fp].flatMap((c, i) => (c === "1" ? [i] : [])));
    } finally {
      mol.delete();
    }
  };
  const x = bits(a);
  const y = bits(b);
  const both = [...x].filter((i) => y.has(i)).length;
  return both / (x.size + y.size - both);
}

test("POST /descriptors: aspirin: published values, Lipinski counts, passes", async () => {
  const res = await post("/descriptors", { smiles: ASPIRIN });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const d = await res.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(d).sort(), ["hba", "hbd", "lipinski_passes", "logp", "mw", "tpsa"]);
  assert.ok(Math.abs((d.mw as number) - 180.16) < 0.01, `mw ${d.mw}`);
  assert.ok(Math.abs((d.logp as number) - 1.31) < 0.01, `logp ${d.logp}`);
  assert.ok(Math.abs((d.tpsa as number) - 63.6) < 0.01, `tpsa ${d.tpsa}`);
  assert.equal(d.hbd, 1);
  assert.equal(d.hba, 4);
  assert.equal(d.lipinski_passes, true);
});

test("POST /descriptors: cyclosporin A fails the rule of five (MW 1202.6, 23 N+O acceptors)", async () => {
  const res = await post("/descriptors", { smiles: CYCLOSPORIN_A });
  assert.equal(res.status, 200);
  const d = await res.json() as { mw: number; hba: number; hbd: number; lipinski_passes: boolean };
  assert.ok(Math.abs(d.mw - 1202.6) < 0.1, `mw ${d.mw}`);
  assert.equal(d.hba, 23);
  assert.equal(d.hbd, 5);
  assert.equal(d.lipinski_passes, false);
});

test("POST /descriptors: a single violated criterion already fails (logP of hexadecane > 5)", async () => {
  const d = await (await post("/descriptors", { smiles: "CCCCCCCCCCCCCCCC" })).json() as {
    logp: number;
    mw: number;
    lipinski_passes: boolean;
  };
  assert.ok(d.logp > 5 && d.mw < 500);
  assert.equal(d.lipinski_passes, false);
});

test("POST /descriptors: a salt is described by its largest component", async () => {
  const salt = await (await post("/descriptors", { smiles: "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]" })).json() as {
    hba: number;
    mw: number;
  };
  assert.ok(Math.abs(salt.mw - 179.15) < 0.01, `mw ${salt.mw}`);
  assert.equal(salt.hba, 4);
});

test("POST /descriptors: Content-Type with charset is accepted", async () => {
  const res = await post("/descriptors", { smiles: "CCO" }, "application/json; charset=utf-8");
  assert.equal(res.status, 200);
  assert.equal((await res.json() as { hbd: number }).hbd, 1);
});

test("POST /descriptors: 400 INVALID_SMILES for unparsable and empty SMILES", async () => {
  const msg = await expectError(await post("/descriptors", { smiles: "C1CC" }), 400, "INVALID_SMILES");
  assert.match(msg, /unclosed ring/); // RDKit's own reason
  await expectError(await post("/descriptors", { smiles: "" }), 400, "INVALID_SMILES");
});

test("POST /descriptors: 400 MOLECULE_TOO_LARGE over 500 heavy atoms", async () => {
  await expectError(await post("/descriptors", { smiles: "C".repeat(600) }), 400, "MOLECULE_TOO_LARGE");
});

test("POST /descriptors: 400 INVALID_JSON for malformed JSON", async () => {
  const msg = await expectError(await post("/descriptors", '{"smiles": "CCO"'), 400, "INVALID_JSON");
  assert.match(msg, /not valid JSON/);
});

test("POST /descriptors: 400 INVALID_REQUEST for schema violations, naming the field", async () => {
  assert.match(await expectError(await post("/descriptors", {}), 400, "INVALID_REQUEST"), /smiles/);
  assert.match(
    await expectError(await post("/descriptors", { smiles: 42 }), 400, "INVALID_REQUEST"),
    /'smiles' must be a string/,
  );
  assert.match(
    await expectError(await post("/descriptors", { smiles: "CCO", extra: 1 }), 400, "INVALID_REQUEST"),
    /extra/,
  );
  await expectError(await post("/descriptors", ["CCO"]), 400, "INVALID_REQUEST");
});

test("POST /descriptors: 415 for a wrong or missing Content-Type", async () => {
  const msg = await expectError(
    await post("/descriptors", JSON.stringify({ smiles: "CCO" }), "text/plain"),
    415,
    "UNSUPPORTED_MEDIA_TYPE",
  );
  assert.match(msg, /application\/json/);
  const res = await fetch(new URL("/descriptors", server.url), {
    method: "POST",
    body: new Blob([JSON.stringify({ smiles: "CCO" })]),
  });
  await expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
});

test("POST /descriptors: 413 for a body over 2 MiB (declared length)", async () => {
  const big = JSON.stringify({ smiles: "C".repeat(2 * 1024 * 1024) });
  const msg = await expectError(await post("/descriptors", big), 413, "PAYLOAD_TOO_LARGE");
  assert.match(msg, /2 MiB/);
  // The advice fits the route: one molecule here, no library to split.
  assert.match(msg, /send one molecule: a SMILES of at most 20000 characters/);
  const library = JSON.stringify({ query: "C", library: ["C".repeat(2 * 1024 * 1024)], threshold: 0 });
  assert.match(
    await expectError(await post("/similarity", library), 413, "PAYLOAD_TOO_LARGE"),
    /smaller library/,
  );
});

test("POST /descriptors: 413 for a chunked body over 2 MiB (no Content-Length)", async () => {
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(new URL("/descriptors", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c)).on(
        "end",
        () => resolve({ status: res.statusCode ?? 0, body: text }),
      );
    });
    req.on("error", reject);
    const chunk = "C".repeat(64 * 1024);
    req.write('{"smiles":"');
    // Written until the server answers or 3 MiB are sent, whichever comes first.
    let sent = 0;
    const pump = () => {
      while (sent < 3 * 1024 * 1024) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end('"}');
    };
    pump();
  });
  assert.equal(status, 413, body);
  assert.equal((JSON.parse(body) as { error: { code: string } }).error.code, "PAYLOAD_TOO_LARGE");
});

test("POST /similarity: scores are ECFP4 Tanimoto, sorted by score desc then index asc, filtered by threshold", async () => {
  const library = [BENZENE, ASPIRIN, SALICYLIC_ACID, ASPIRIN, "CCO"];
  const res = await post("/similarity", { query: ASPIRIN, library, threshold: 0.2 });
  assert.equal(res.status, 200);
  const hits = await res.json() as { index: number; smiles: string; score: number }[];
  const expected = library
    .map((smiles, index) => ({ index, smiles, score: referenceTanimoto(ASPIRIN, smiles) }))
    .filter((h) => h.score >= 0.2)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  assert.deepEqual(hits.map((h) => h.index), expected.map((h) => h.index));
  assert.deepEqual(hits.slice(0, 2).map((h) => [h.index, h.score]), [[1, 1], [3, 1]]);
  for (const [i, hit] of hits.entries()) {
    assert.deepEqual(Object.keys(hit).sort(), ["index", "score", "smiles"]);
    assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-12);
    assert.equal(hit.smiles, library[hit.index]);
  }
  assert.ok(hits.every((h) => h.index !== 0 && h.index !== 4), "benzene and ethanol are below 0.2");
});

test("POST /similarity: threshold is inclusive; threshold 1 keeps only identical fingerprints; empty library", async () => {
  const exact = await (await post("/similarity", { query: "CCO", library: ["OCC", "CCN"], threshold: 1 }))
    .json() as { index: number; score: number }[];
  assert.deepEqual(exact, [{ index: 0, smiles: "OCC", score: 1 }]);
  const none = await (await post("/similarity", { query: "CCO", library: [], threshold: 0 })).json();
  assert.deepEqual(none, []);
});

test("POST /similarity: 400 naming the index of an invalid library entry", async () => {
  const msg = await expectError(
    await post("/similarity", { query: ASPIRIN, library: ["CCO", "C1CC", "CCN"], threshold: 0.1 }),
    400,
    "INVALID_SMILES",
  );
  assert.match(msg, /library\[1\]/);
});

test("POST /similarity: one entry RDKit refuses among 10,000 stops the search: 400 naming it, no partial answer", async () => {
  // Hexacoordinate neutral aluminium: a valence RDKit's WebAssembly build refuses. The app's contract is the
  // documented error, not the similarity_search tool's skipping (docs/webapp.md says why).
  const library = Array.from({ length: 10_000 }, (_, i) => (i === 2339 ? "[Al](F)(F)(F)(F)(F)F" : ASPIRIN));
  const msg = await expectError(
    await post("/similarity", { query: ASPIRIN, library, threshold: 0.5 }),
    400,
    "INVALID_SMILES",
  );
  assert.match(msg, /^library\[2339\]: /);
  assert.match(msg, /valence/);
});

test("POST /similarity: 400 for an invalid query, threshold out of range, missing fields, non-string entries", async () => {
  assert.match(
    await expectError(
      await post("/similarity", { query: "Xx", library: ["CCO"], threshold: 0.1 }),
      400,
      "INVALID_SMILES",
    ),
    /query/,
  );
  assert.match(
    await expectError(
      await post("/similarity", { query: "CCO", library: ["CCO"], threshold: 1.5 }),
      400,
      "INVALID_REQUEST",
    ),
    /threshold/,
  );
  assert.match(
    await expectError(
      await post("/similarity", { query: "CCO", library: ["CCO"] }),
      400,
      "INVALID_REQUEST",
    ),
    /threshold/,
  );
  assert.match(
    await expectError(
      await post("/similarity", { query: "CCO", library: ["CCO", 7], threshold: 0.1 }),
      400,
      "INVALID_REQUEST",
    ),
    /library\.1/,
  );
});

test("POST /similarity: 413 LIBRARY_TOO_LARGE over 10,000 entries; exactly 10,000 is searched", async () => {
  const msg = await expectError(
    await post("/similarity", { query: "CCO", library: Array(10_001).fill("C"), threshold: 0.5 }),
    413,
    "LIBRARY_TOO_LARGE",
  );
  assert.match(msg, /10001 entries; at most 10000/);
  const res = await post("/similarity", {
    query: "CCO",
    library: Array(10_000).fill("CCO"),
    threshold: 0.5,
  });
  assert.equal(res.status, 200);
  const hits = await res.json() as { index: number }[];
  assert.equal(hits.length, 10_000);
  assert.equal(hits[9_999]!.index, 9_999);
});

test("POST /boiled-egg: one point per SMILES in order, as the boiled_egg tool computes them", async () => {
  const DIAZEPAM = "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21";
  const LACTULOSE = "OCC1OC(OC2C(CO)OC(O)(CO)C2O)C(O)C(O)C1O";
  const CAFFEINE = "Cn1cnc2c1c(=O)n(C)c(=O)n2C";
  const res = await post("/boiled-egg", { smiles: [DIAZEPAM, LACTULOSE, CAFFEINE, `${DIAZEPAM}.Cl`] });
  assert.equal(res.status, 200);
  const points = await res.json() as Record<string, unknown>[];
  assert.deepEqual(points.map((p) => p.smiles), [DIAZEPAM, LACTULOSE, CAFFEINE, `${DIAZEPAM}.Cl`]);
  assert.deepEqual(Object.keys(points[0]!).sort(), [
    "bbb_penetrant",
    "gi_absorbed",
    "smiles",
    "tpsa",
    "wlogp",
  ]);
  assert.ok(Math.abs((points[0]!.tpsa as number) - 32.7) < 0.05, `diazepam TPSA ${points[0]!.tpsa}`);
  assert.deepEqual(points.map((p) => [p.gi_absorbed, p.bbb_penetrant]), [
    [true, true],
    [false, false],
    [true, false],
    [true, true],
  ]);
  for (const [i, smiles] of [DIAZEPAM, LACTULOSE, CAFFEINE].entries()) {
    const tool = boiledEgg(smiles);
    assert.deepEqual(
      [points[i]!.wlogp, points[i]!.tpsa, points[i]!.gi_absorbed, points[i]!.bbb_penetrant],
      [tool.logp, tool.tpsa, tool.gi_absorbed, tool.bbb_penetrant],
      smiles,
    );
  }
  assert.deepEqual(
    { ...points[3], smiles: DIAZEPAM },
    points[0],
    "a salt is plotted as its largest component",
  );
});

test("POST /boiled-egg: 400 naming the invalid entry; 413 over 10,000 entries; empty list", async () => {
  assert.match(
    await expectError(await post("/boiled-egg", { smiles: ["CCO", "c1cccc1"] }), 400, "INVALID_SMILES"),
    /^smiles\[1\]: /,
  );
  await expectError(await post("/boiled-egg", { smiles: "CCO" }), 400, "INVALID_REQUEST");
  await expectError(await post("/boiled-egg", { smiles: Array(10_001).fill("C") }), 413, "LIBRARY_TOO_LARGE");
  assert.deepEqual(await (await post("/boiled-egg", { smiles: [] })).json(), []);
});

test("POST /depict: returns RDKit SVG of 300 x 220", async () => {
  const res = await post("/depict", { smiles: ASPIRIN });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/svg+xml");
  const svg = await res.text();
  assert.match(svg, /<svg[^>]*width='300px'[^>]*height='220px'/);
  assert.match(svg, /<\/svg>/);
});

test("POST /depict: 400 for invalid SMILES", async () => {
  await expectError(await post("/depict", { smiles: "c1cccc1" }), 400, "INVALID_SMILES");
});

test("page, methods and paths: GET / serves the page with CSP; HEAD has no body", async () => {
  const res = await fetch(server.url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const html = await res.text();
  assert.match(html, /<label for="smiles">/);
  assert.match(html, /aria-live="polite"/);
  const head = await fetch(server.url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

test("page, methods and paths: 405 with Allow for a wrong method", async () => {
  const get = await fetch(new URL("/descriptors", server.url));
  assert.equal(get.headers.get("allow"), "POST");
  assert.match(await expectError(get, 405, "METHOD_NOT_ALLOWED"), /use POST/);
  const put = await fetch(new URL("/similarity", server.url), { method: "PUT", body: "{}" });
  assert.equal(put.headers.get("allow"), "POST");
  await expectError(put, 405, "METHOD_NOT_ALLOWED");
  const postRoot = await post("/", { smiles: "CCO" });
  assert.equal(postRoot.headers.get("allow"), "GET, HEAD");
  await expectError(postRoot, 405, "METHOD_NOT_ALLOWED");
});

test("page, methods and paths: 404 for an unknown path, listing the paths", async () => {
  const msg = await expectError(await fetch(new URL("/nope", server.url)), 404, "NOT_FOUND");
  assert.match(msg, /POST \/descriptors/);
  assert.match(msg, /POST \/boiled-egg/);
  await expectError(await post("/descriptors/", { smiles: "CCO" }), 404, "NOT_FOUND");
});

test("page, methods and paths: the server printed exactly its listening line", () => {
  assert.match(
    server.stderr(),
    new RegExp(`^chem-mcp webapp listening on http://127\\.0\\.0\\.1:${server.port}/\\n`),
  );
});
