/**
 * The list form (src/pool/list.ts): input order, per-item typed errors, what is shared said once, ranking,
 * argument rules, and the chunking (in-flight bound, retry of a timed-out chunk one molecule at a time).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { modern, send } from "../helpers/protocol.ts";
import { createServer } from "../../src/create_server.ts";
import { TOOLS, WORKER_TOOLS } from "../../src/tools/registry.ts";
import { chunkSize, runList } from "../../src/pool/list.ts";
import { ChemError } from "../../src/errors.ts";
import { DRUGS50 } from "../data/drugs50.ts";

await loadTestRDKit();
const conn = createServer().connect();
const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

async function call(name: string, args: Record<string, unknown>) {
  const reply = await send(conn, modern("tools/call", { name, arguments: args }));
  return reply!;
}

test("calc_properties over a list: rows in input order, a bad SMILES answered in its place", async () => {
  const list = ["CCO", "C1CC", ASPIRIN];
  const result = (await call("calc_properties", { smiles_list: list })).result!;
  assert.equal(result.isError, false);
  const out = result.structuredContent as {
    summary: string;
    method: string;
    columns: string[];
    results: unknown[];
  };
  assert.equal(out.summary, "3 molecules: 2 answered, 1 failed (indices 1).");
  assert.match(out.method, /Wildman & Crippen/);
  const mw = out.columns.indexOf("molecular_weight");
  assert.equal((out.results[0] as number[])[mw], 46.069);
  assert.equal((out.results[2] as number[])[mw], 180.159);
  assert.deepEqual(Object.keys(out.results[1] as object), ["index", "error"]);
  assert.equal((out.results[1] as { error: { code: string } }).error.code, "INVALID_SMILES");
  // The method is said once, not per row.
  assert.equal(result.content![0]!.text.split("Wildman & Crippen").length, 2);
});

test("the list answer equals the single answers, column by column", async () => {
  const list = DRUGS50.slice(0, 12).map((d) => d.smiles);
  const out = (await call("lipinski_check", { smiles_list: list })).result!.structuredContent as {
    columns: string[];
    results: unknown[][];
  };
  for (const [i, smiles] of list.entries()) {
    const single = (await call("lipinski_check", { smiles })).result!.structuredContent as {
      passes: boolean;
      violations: number;
      rules: { value: number }[];
    };
    assert.deepEqual(out.results[i], [single.passes, single.violations, single.rules.map((r) => r.value)]);
  }
});

test("tanimoto: smiles_a against smiles_list, ranked and cut by threshold and top_k", async () => {
  const list = ["CCO", ASPIRIN, "not a smiles", "CC(=O)Oc1ccccc1C(=O)OC", "c1ccccc1"];
  const all = (await call("tanimoto", { smiles_a: ASPIRIN, smiles_list: list })).result!
    .structuredContent as {
      columns: string[];
      results: unknown[];
      smiles_a: string;
    };
  assert.deepEqual(all.columns, ["index", "similarity", "common_bits", "bits_b"]);
  assert.equal(all.smiles_a, ASPIRIN);
  const positions = all.results.map((r) => Array.isArray(r) ? r[0] : (r as { index: number }).index);
  assert.deepEqual(positions, [0, 1, 2, 3, 4]);
  assert.equal((all.results[1] as number[])[1], 1);
  const best = (await call("tanimoto", { smiles_a: ASPIRIN, smiles_list: list, threshold: 0.3, top_k: 2 }))
    .result!.structuredContent as { summary: string; results: unknown[] };
  const rows = best.results.filter(Array.isArray) as number[][];
  assert.deepEqual(rows.map((r) => r[0]), [1, 3]);
  assert.ok(rows[0]![1]! >= rows[1]![1]! && rows[1]![1]! >= 0.3);
  assert.deepEqual(best.results.at(-1), {
    index: 2,
    error: {
      code: "INVALID_SMILES",
      message: (best.results.at(-1) as { error: { message: string } }).error.message,
    },
  });
  assert.match(best.summary, /5 molecules: 4 answered, 1 failed \(indices 2\); 2 kept/);
});

test("smarts_match: one pattern over smiles_list, the pattern said once", async () => {
  const out = (await call("smarts_match", { smarts: "[OX2H]", smiles_list: ["CCO", "CC", ASPIRIN] })).result!
    .structuredContent as { smarts: string; results: unknown[][] };
  assert.equal(out.smarts, "[OX2H]");
  assert.deepEqual(out.results.map((r) => r[0]), [true, false, true]);
});

test("object-form tools drop the echo and the shared fields from each item", async () => {
  const out = (await call("smiles_to_moljson", { smiles_list: ["CC(=O)Nc1ccc(O)cc1", "CCO"] })).result!
    .structuredContent as { moljson: Record<string, unknown>; results: Record<string, unknown>[] };
  assert.deepEqual(out.moljson, { format: "moljson", version: 1 });
  assert.equal(out.results.length, 2);
  for (const item of out.results) {
    assert.equal("smiles" in item, false);
    assert.deepEqual(Object.keys(item.moljson as object), ["atoms", "bonds"]);
  }
});

test("what rests on the arguments alone is said once: the router's choice, each ADMET endpoint's reference", async () => {
  const list = ["CC(=O)Nc1ccc(O)cc1", ASPIRIN];
  const task = "look the compound up in a database";
  const router = (await call("representation_router", { smiles_list: list, task })).result!;
  const out = router.structuredContent as { representation: string; columns: string[]; results: string[][] };
  assert.equal(out.representation, "inchi");
  assert.deepEqual(out.columns, ["text"]);
  assert.match(out.results[1]![0]!, /^InChI=1S\/C9H8O4/);
  assert.equal(router.content![0]!.text.split("Standard InChI is").length, 2);
  const pack = (await call("molecule_context_pack", { smiles_list: list, format: "json" })).result!;
  const admet =
    (pack.structuredContent as { admet: { endpoints: Record<string, { reference: string }> } }).admet;
  assert.equal(admet.endpoints.herg!.reference, "Gleeson 2008");
  assert.equal(pack.content![0]!.text.split('Kazius et al. 2005"').length, 2);
});

test("retrosynthesis rows: each disconnection's fragments and their SA scores, best first", async () => {
  const out = (await call("retrosynthesis", { smiles_list: ["CC(=O)Nc1ccc(O)cc1", "CCO"] })).result!
    .structuredContent as { heuristic: true; columns: string[]; results: unknown[][] };
  assert.equal(out.heuristic, true);
  const [parts, found, truncated, fragments, scores] = out.results[0]!;
  assert.deepEqual([parts, found, truncated], [1, 2, false]);
  assert.deepEqual((fragments as string[][])[0], ["[1*]C(C)=O", "[5*]Nc1ccc(O)cc1"]);
  assert.deepEqual((scores as number[][])[0], [4.0275, 2.9133]);
  assert.deepEqual(out.results[1], [1, 0, false, [], []]);
});

test("exactly one of the molecule and smiles_list; caps; ranking only with a list", async () => {
  for (
    const args of [
      { smiles: "CCO", smiles_list: ["CCO"] },
      {},
      { smiles_list: [] },
      { smiles_list: Array(1001).fill("C") },
    ]
  ) {
    assert.equal(
      (await call("calc_properties", args)).error?.code,
      -32602,
      JSON.stringify(args).slice(0, 60),
    );
  }
  assert.equal((await call("tanimoto", { smiles_a: "C", smiles_b: "CC", top_k: 3 })).error?.code, -32602);
  assert.equal((await call("generate_3d", { smiles_list: Array(11).fill("C") })).error?.code, -32602);
  // The spec's single form of parse_smiles and boiled_egg is unchanged.
  const egg = (await call("boiled_egg", { smiles: ASPIRIN })).result!.structuredContent!;
  assert.deepEqual(Object.keys(egg), ["gi_absorbed", "bbb_penetrant", "logp", "tpsa", "method"]);
});

test("an empty or over-long entry is that item's typed error; the call succeeds", async () => {
  const list = ["", "CCO", "C".repeat(20_001), " "];
  const out = (await call("calc_properties", { smiles_list: list })).result!.structuredContent as {
    summary: string;
    results: ({ error: { code: string } } | unknown[])[];
  };
  assert.equal(out.summary, "4 molecules: 1 answered, 3 failed (indices 0, 2, 3).");
  const codes = out.results.map((r) => Array.isArray(r) ? "row" : r.error.code);
  assert.deepEqual(codes, ["INVALID_SMILES", "row", "MOLECULE_TOO_LARGE", "INVALID_SMILES"]);
  // The single form keeps its bounds as argument rules; the list's total length is bounded by the request size.
  assert.equal((await call("calc_properties", { smiles: "" })).error?.code, -32602);
  const large = { smiles_list: Array(60).fill("C".repeat(20_000)) };
  assert.equal((await call("calc_properties", large)).error?.code, -32600);
});

test("chunks: at most `workers` in flight, results in order, a timed-out chunk retried one by one", async () => {
  const calc = tool("calc_properties");
  const list = DRUGS50.slice(0, 40).map((d) => d.smiles);
  let inFlight = 0;
  let most = 0;
  const calls: number[] = [];
  const run = async (t: (typeof TOOLS)[number], args: Record<string, unknown>) => {
    inFlight++;
    most = Math.max(most, inFlight);
    const items = args.smiles_list as string[];
    const nth = calls.push(items.length);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    // The first chunk of several runs out of time, as a runaway molecule would make it.
    if (nth === 1) throw new ChemError("COMPUTATION_TIMEOUT", "stopped");
    return await t.run(args);
  };
  const out = await runList(calc, { smiles_list: list }, run, 2) as {
    results: number[][];
    columns: string[];
  };
  assert.equal(most, 2);
  const size = chunkSize(1000, list.length, 2);
  assert.equal(calls[0], size);
  assert.ok(calls.includes(1), `the timed-out chunk is run again one molecule per call: ${calls}`);
  const mw = out.columns.indexOf("molecular_weight");
  for (const [i, drug] of DRUGS50.slice(0, 40).entries()) {
    assert.ok(Math.abs(out.results[i]![mw]! - drug.mw) < 0.01, drug.name);
  }
});

test("a chunk whose worker dies or traps is run again one molecule per call: only the culprit fails", async () => {
  const calc = tool("calc_properties");
  const list = DRUGS50.slice(0, 8).map((d) => d.smiles);
  const culprit = list[3]!;
  for (const cause of ["worker_died", "worker_failure"]) {
    const sizes: number[] = [];
    // As the pool answers when the worker running the culprit is lost (src/pool/runner.ts).
    const run = async (t: (typeof TOOLS)[number], args: Record<string, unknown>) => {
      const items = args.smiles_list as string[];
      sizes.push(items.length);
      if (items.includes(culprit)) {
        throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit failed on this input", { cause });
      }
      return await t.run(args);
    };
    const out = await runList(calc, { smiles_list: list }, run, 1) as {
      summary: string;
      results: unknown[];
    };
    assert.equal(out.summary, "8 molecules: 7 answered, 1 failed (indices 3).", cause);
    assert.equal((out.results[3] as { error: { code: string } }).error.code, "UNSUPPORTED_MOLECULE");
    assert.ok(sizes.includes(1) && sizes[0]! > 1, `${cause}: chunk sizes ${sizes}`);
  }
});

test("workers serve the chunk tools; chunk size is at most a fortieth of the cap, ≥ 4 chunks per worker", () => {
  const names = new Set(WORKER_TOOLS.map((t) => t.name));
  for (const t of TOOLS) if (t.list) assert.ok(names.has(`${t.name}:items`), t.name);
  assert.equal(chunkSize(1000, 1000, 2), 25);
  assert.equal(chunkSize(1000, 100, 2), 13);
  assert.equal(chunkSize(10, 10, 2), 1);
});

test("molecule_context_pack over a list: each section's method is given once, above the items", async () => {
  const list = ["CC(=O)Nc1ccc(O)cc1", ASPIRIN];
  const out = (await call("molecule_context_pack", { smiles_list: list, format: "json" })).result!
    .structuredContent as Record<string, unknown> & { results: Record<string, Record<string, unknown>>[] };
  assert.equal(out.format, "json");
  assert.match((out.admet as { method: string }).method, /Gleeson/);
  assert.equal((out.pains as { alerts_checked: number }).alerts_checked, 480);
  for (const item of out.results) {
    assert.equal("method" in item.admet!, false);
    assert.equal("method" in item.properties!, false);
    assert.ok("qed" in item.properties!);
  }
  const text =
    (await call("molecule_context_pack", { smiles_list: list, format: "json" })).result!.content![0]!
      .text;
  assert.equal(text.split("Gleeson, J. Med. Chem. 2008").length, 2);
});
