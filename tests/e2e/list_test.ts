// List calls (`smiles_list`) sent to the real server process over stdio, in both dialects: answers in input
// order with failed molecules in their place, a runaway search in a list stopped without losing the other
// molecules, and a cheap call answered while a 1,000-molecule list runs. Runs against every artefact (source,
// npm package, single executable), so the chunk tools of each worker entry are exercised.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineClient, startServer } from "../helpers/process.ts";
import { initialize, modern, request } from "../helpers/protocol.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";

interface ListAnswer {
  summary: string;
  columns?: string[];
  results: unknown[];
}

function structured(response: Record<string, unknown>): ListAnswer {
  return (response.result as { structuredContent: ListAnswer }).structuredContent;
}

const DRUGS = DRUGS50.slice(0, 40);

test("stdio, modern: calc_properties over 41 molecules with 2 workers, in order, the bad one in place", async () => {
  const client = new LineClient(startServer([], { CHEM_MCP_WORKERS: "2" }));
  const list = [...DRUGS.slice(0, 20).map((d) => d.smiles), "C1CC", ...DRUGS.slice(20).map((d) => d.smiles)];
  const reply = await client.request(
    modern("tools/call", { name: "calc_properties", arguments: { smiles_list: list } }),
  );
  const out = structured(reply);
  assert.equal(out.summary, "41 molecules: 40 answered, 1 failed (indices 20).");
  const mw = out.columns!.indexOf("molecular_weight");
  const drugs = [...DRUGS.slice(0, 20), undefined, ...DRUGS.slice(20)];
  for (const [i, drug] of drugs.entries()) {
    if (!drug) {
      assert.deepEqual((out.results[i] as { index: number; error: { code: string } }).index, 20);
      assert.equal((out.results[i] as { error: { code: string } }).error.code, "INVALID_SMILES");
      continue;
    }
    assert.ok(Math.abs((out.results[i] as number[])[mw]! - drug.mw) < 0.01, drug.name);
  }
  assert.equal(await client.close(), 0);
  assert.deepEqual(client.garbage, []);
});

test("stdio, legacy: a list answer is the text content, the same compact object", async () => {
  const client = new LineClient(startServer());
  await client.request(initialize());
  client.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized", params: {} })}\n`);
  const reply = await client.request(
    request("tools/call", { name: "lipinski_check", arguments: { smiles_list: ["CCO", "C1CC"] } }),
  );
  const text = (reply.result as { content: { text: string }[] }).content[0]!.text;
  const out = JSON.parse(text) as ListAnswer;
  assert.equal(out.summary, "2 molecules: 1 answered, 1 failed (indices 1).");
  assert.deepEqual(out.results[0], [true, 0, [46.069, -0.0014, 1, 1]]);
  assert.equal(await client.close(), 0);
});

test("stdio: a runaway search in a list times out alone; the other molecules are answered", async () => {
  const client = new LineClient(startServer([], { CHEM_MCP_WORKERS: "1" }));
  const reply = await client.request(
    modern("tools/call", {
      name: "smarts_match",
      arguments: {
        smarts: RUNAWAY_SMARTS,
        smiles_list: ["CCO", RUNAWAY_MOLECULE, "CCCC"],
        timeout_seconds: 1,
      },
    }),
    60_000,
  );
  const out = structured(reply);
  assert.equal(out.summary, "3 molecules: 2 answered, 1 failed (indices 1).");
  assert.deepEqual(out.results[0], [false, 0, false]);
  assert.equal((out.results[1] as { error: { code: string } }).error.code, "COMPUTATION_TIMEOUT");
  assert.deepEqual(out.results[2], [false, 0, false]);
  assert.equal(await client.close(), 0);
});

test("stdio: a cheap call sent behind a running 1,000-molecule list is answered long before it", async () => {
  const client = new LineClient(startServer([], { CHEM_MCP_WORKERS: "2" }));
  await client.request(modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "C" } }));
  const list = Array.from({ length: 1000 }, (_, i) => DRUGS50[i % DRUGS50.length]!.smiles);
  const batch = client.request(
    modern("tools/call", { name: "calc_properties", arguments: { smiles_list: list } }),
    120_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  const quick = await client.request(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
  );
  const latency = performance.now() - started;
  const done = await batch;
  assert.equal(
    (quick.result as { structuredContent: { canonical_smiles: string } }).structuredContent
      .canonical_smiles,
    "CCO",
  );
  assert.match(structured(done).summary, /^1000 molecules: 1000 answered, 0 failed\.$/);
  // The rule is 20 ms (bench/list_bench.ts measures it); this bound only catches a protocol thread held by the
  // whole batch, on a shared, loaded test machine.
  assert.ok(latency < 1000, `${latency.toFixed(0)} ms`);
  const order = client.received.map((m) => m.id);
  assert.ok(order.indexOf(quick.id) < order.indexOf(done.id));
  assert.equal(await client.close(), 0);
});
