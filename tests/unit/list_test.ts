/**
 * Lists through `batch` (src/tools/batch.ts, src/tools/list.ts): input order, per-item typed errors, what is
 * shared said once, argument rules, the chunking (in-flight bound, retry of a timed-out chunk one molecule at a
 * time), the list's deadline, the answer's cap, tanimoto's query fingerprinted once; and similarity_search, which
 * answers as the sample web app's POST /similarity.
 */
import { test } from "node:test";
import { type Clock, REAL_CLOCK } from "../../src/clock.ts";
import { ModelClock } from "../helpers/model_clock.ts";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { modern, send } from "../helpers/protocol.ts";
import { createServer } from "../../src/create_server.ts";
import { ALL_TOOLS, TOOLS, WORKER_TOOLS } from "../../src/tools/registry.ts";
import {
  chunkSize,
  LIST_ANSWER_MAX_CHARS,
  LIST_DEADLINE_FACTOR,
  listFormOf,
  runList,
  type RunTool,
} from "../../src/tools/list.ts";
import { CancelledError, ChemError } from "../../src/errors.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { createWebApp } from "../../src/webapp/handler.ts";
import { DRUGS50 } from "../data/drugs50.ts";

await loadTestRDKit();
const conn = createServer({ tools: ALL_TOOLS }).connect();
const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

async function call(name: string, args: Record<string, unknown>) {
  const reply = await send(conn, modern("tools/call", { name, arguments: args }));
  return reply!;
}

function batch(name: string, smiles_list: unknown[], args?: Record<string, unknown>) {
  return call("batch", { tool: name, smiles_list, ...(args ? { arguments: args } : {}) });
}

test("calc_properties over a list: rows in input order, a bad SMILES answered in its place", async () => {
  const list = ["CCO", "C1CC", ASPIRIN];
  const result = (await batch("calc_properties", list)).result!;
  assert.equal(result.isError, false);
  const out = result.structuredContent as {
    summary: string;
    method: string;
    columns: string[];
    results: unknown[];
  };
  // No salt in the list: the component columns, null in every row, are left out and said once.
  assert.match(out.summary, /^3 molecules: 2 answered, 1 failed \(index 1\)\. Null in every row, left out: /);
  assert.ok(!out.columns.includes("parent_smiles"));
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
  // A salt among them: its row names the component it describes, as the single answer does.
  const list = [...DRUGS50.slice(0, 12).map((d) => d.smiles), "CCN(CC)CC.Cl"];
  const out = (await batch("lipinski_check", list)).result!.structuredContent as {
    columns: string[];
    results: unknown[][];
  };
  for (const [i, smiles] of list.entries()) {
    const single = (await call("lipinski_check", { smiles })).result!.structuredContent as {
      passes: boolean;
      violations: number;
      rules: { value: number }[];
      parent_smiles?: string;
    };
    assert.deepEqual(out.results[i], [
      single.passes,
      single.violations,
      ...single.rules.map((r) => r.value),
      single.parent_smiles ?? null,
    ]);
  }
  // Named columns: each rule's value is a column of its own.
  assert.deepEqual(out.columns, [
    "passes",
    "violations",
    "rules.molecular_weight",
    "rules.logp",
    "rules.hbd",
    "rules.hba",
    "parent_smiles",
  ]);
  assert.equal(out.results.at(-1)!.at(-1), "CCN(CC)CC");
});

test("tanimoto: smiles_a in arguments against each molecule, equal to the single calls", async () => {
  const list = ["CCO", ASPIRIN, "not a smiles", "CC(=O)Oc1ccccc1C(=O)OC", "c1ccccc1"];
  const out = (await batch("tanimoto", list, { smiles_a: ASPIRIN })).result!.structuredContent as {
    columns: string[];
    results: unknown[];
    smiles_a: string;
    bits_a: number;
  };
  assert.deepEqual(out.columns, ["similarity", "common_bits", "bits_b"]);
  assert.equal(out.smiles_a, ASPIRIN);
  for (const [i, smiles_b] of list.entries()) {
    const single = (await call("tanimoto", { smiles_a: ASPIRIN, smiles_b })).result!;
    if (single.isError) {
      assert.equal((out.results[i] as { error: { code: string } }).error.code, "INVALID_SMILES");
      continue;
    }
    const s = single.structuredContent as { similarity: number; common_bits: number; bits_b: number };
    assert.deepEqual(out.results[i], [s.similarity, s.common_bits, s.bits_b]);
    assert.equal(out.bits_a, (single.structuredContent as { bits_a: number }).bits_a);
  }
  // An invalid query is every molecule's error, not the call's.
  const bad = (await batch("tanimoto", ["CCO", "CCN"], { smiles_a: "C1CC" })).result!.structuredContent as {
    summary: string;
  };
  assert.equal(bad.summary, "2 molecules: 0 answered, 2 failed (indices 0, 1).");
});

test("tanimoto's query is fingerprinted once for a list of many chunks", async () => {
  const base = tool("tanimoto");
  let prepared = 0;
  const counted: Tool = {
    ...base,
    list: {
      ...base.list!,
      prepare: (args) => {
        prepared++;
        return base.list!.prepare!(args);
      },
    },
  };
  const list = DRUGS50.map((d) => d.smiles);
  let chunks = 0;
  const run: RunTool = async (t, args) => {
    chunks++;
    return await t.run(args);
  };
  const out = await runList(counted, { smiles_a: ASPIRIN, smiles_list: list }, run, 2) as { summary: string };
  assert.equal(out.summary, `${list.length} molecules: ${list.length} answered, 0 failed.`);
  assert.ok(chunks >= 4, `${chunks} chunks`);
  assert.equal(prepared, 1);
});

test("smarts_match: one pattern over the list, the pattern said once", async () => {
  const out = (await batch("smarts_match", ["CCO", "CC", ASPIRIN], { smarts: "[OX2H]" })).result!
    .structuredContent as { smarts: string; results: unknown[][] };
  assert.equal(out.smarts, "[OX2H]");
  assert.deepEqual(out.results.map((r) => r[0]), [true, false, true]);
});

test("object-form tools drop the echo and the shared fields from each item", async () => {
  const out = (await batch("smiles_to_moljson", ["CC(=O)Nc1ccc(O)cc1", "CCO"])).result!
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
  const router = (await batch("representation_router", list, { task })).result!;
  const out = router.structuredContent as { representation: string; columns: string[]; results: string[][] };
  assert.equal(out.representation, "inchi");
  assert.deepEqual(out.columns, ["text"]);
  assert.match(out.results[1]![0]!, /^InChI=1S\/C9H8O4/);
  assert.equal(router.content![0]!.text.split("Standard InChI is").length, 2);
  const pack = (await batch("molecule_context_pack", list, { format: "json" })).result!;
  const admet =
    (pack.structuredContent as { admet: { endpoints: Record<string, { reference: string }> } }).admet;
  assert.equal(admet.endpoints.herg!.reference, "Gleeson 2008");
  assert.equal(pack.content![0]!.text.split('Kazius et al. 2005"').length, 2);
});

test("retrosynthesis rows: each disconnection's fragments and their SA scores, best first", async () => {
  const out = (await batch("retrosynthesis", ["CC(=O)Nc1ccc(O)cc1", "CCO"])).result!
    .structuredContent as { heuristic: true; columns: string[]; results: unknown[][] };
  assert.equal(out.heuristic, true);
  const [parts, found, truncated, fragments, scores] = out.results[0]!;
  assert.deepEqual([parts, found, truncated], [1, 2, false]);
  assert.deepEqual((fragments as string[][])[0], ["[1*]C(C)=O", "[5*]Nc1ccc(O)cc1"]);
  assert.deepEqual((scores as number[][])[0], [4.0275, 2.9133]);
  assert.deepEqual(out.results[1], [1, 0, false, [], []]);
});

test("arguments: required by schema and server alike; each tool's cap; the tool's own arguments checked", async () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{}, /tool/],
    [{ tool: "calc_properties" }, /smiles_list/],
    [{ tool: "calc_properties", smiles_list: [] }, /smiles_list/],
    [{ tool: "calc_properties", smiles_list: Array(1001).fill("C") }, /smiles_list/],
    [{ tool: "generate_3d", smiles_list: Array(11).fill("C") }, /generate_3d takes at most 10 molecules/],
    [{ tool: "find_mcs", smiles_list: ["C", "CC"] }, /tool/],
    [{ tool: "smarts_match", smiles_list: ["C"] }, /smarts_match needs 'smarts' in arguments/],
    [
      { tool: "calc_properties", smiles_list: ["C"], arguments: { smiles: "C" } },
      /takes no argument 'smiles'/,
    ],
    [
      { tool: "smarts_match", smiles_list: ["C"], arguments: { smarts: "C", timeout_seconds: 99 } },
      /timeout/,
    ],
  ];
  for (const [args, message] of bad) {
    const reply = await call("batch", args);
    assert.equal(reply.error?.code, -32602, JSON.stringify(args).slice(0, 80));
    assert.match(reply.error!.message, message);
  }
  // The one-molecule tools require their molecule again, and take no list.
  assert.equal((await call("calc_properties", {})).error?.code, -32602);
  assert.equal((await call("calc_properties", { smiles_list: ["CCO"] })).error?.code, -32602);
  const egg = (await call("boiled_egg", { smiles: ASPIRIN })).result!.structuredContent!;
  assert.deepEqual(Object.keys(egg), ["gi_absorbed", "bbb_penetrant", "logp", "tpsa", "method"]);
});

test("an empty or over-long entry is that item's typed error; the call succeeds", async () => {
  const list = ["", "CCO", "C".repeat(20_001), " "];
  const out = (await batch("calc_properties", list)).result!.structuredContent as {
    summary: string;
    results: ({ error: { code: string } } | unknown[])[];
  };
  assert.ok(out.summary.startsWith("4 molecules: 1 answered, 3 failed (indices 0, 2, 3)."), out.summary);
  const codes = out.results.map((r) => Array.isArray(r) ? "row" : r.error.code);
  assert.deepEqual(codes, ["INVALID_SMILES", "row", "MOLECULE_TOO_LARGE", "INVALID_SMILES"]);
  const large = { tool: "calc_properties", smiles_list: Array(60).fill("C".repeat(20_000)) };
  assert.equal((await call("batch", large)).error?.code, -32600);
});

test("chunks: at most `workers` in flight, results in order, a timed-out chunk retried one by one", async () => {
  const calc = tool("calc_properties");
  const list = DRUGS50.slice(0, 40).map((d) => d.smiles);
  let inFlight = 0;
  let most = 0;
  const calls: number[] = [];
  const run: RunTool = async (t, args) => {
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
    const run: RunTool = async (t, args) => {
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
    assert.ok(
      out.summary.startsWith("8 molecules: 7 answered, 1 failed (index 3)."),
      `${cause}: ${out.summary}`,
    );
    assert.equal((out.results[3] as { error: { code: string } }).error.code, "UNSUPPORTED_MOLECULE");
    assert.ok(sizes.includes(1) && sizes[0]! > 1, `${cause}: chunk sizes ${sizes}`);
  }
});

/** A pool stand-in: a chunk holding `RUNAWAY` runs until its deadline (as the runner stops it) or withdrawal. */
const RUNAWAY = "C1CCCCC1";
function runawayPool(starts: number[] = [], clock: Clock = REAL_CLOCK): RunTool {
  return (t, args, signal) => {
    starts.push(clock.now());
    const items = args.smiles_list as string[];
    if (!items.includes(RUNAWAY)) return Promise.resolve(t.run(args));
    const limit = t.placement!.deadlineMs!(args as never);
    return new Promise((_resolve, reject) => {
      const timer = clock.setTimeout(() => reject(new ChemError("COMPUTATION_TIMEOUT", "stopped")), limit);
      signal?.addEventListener("abort", () => {
        clock.clearTimeout(timer);
        reject(new CancelledError());
      });
    });
  };
}

test("a list ends by its deadline: 30 runaway molecules cost 3 limits, not 30; the others are answered", async () => {
  // smarts_match with timeout_seconds 1: one molecule's limit is 1 s, the list's 3 s (no worker starts here). On
  // the model clock: the list is answered exactly at its deadline, whatever the machine's load.
  const smarts = tool("smarts_match");
  const list = Array.from({ length: 40 }, (_, i) => i % 4 === 0 ? "CCO" : RUNAWAY);
  const clock = new ModelClock();
  type Answer = { summary: string; results: ({ error: { code: string; message: string } } | unknown[])[] };
  const answered: { out?: Answer } = {};
  void runList(
    smarts,
    { smarts: "[OX2H]", max_matches: 1000, timeout_seconds: 1, smiles_list: list },
    runawayPool([], clock),
    2,
    undefined,
    0,
    clock,
  ).then((answer) => (answered.out = answer as Answer));
  await clock.advance(LIST_DEADLINE_FACTOR * 1000 - 1);
  const current = (): Answer | undefined => answered.out;
  assert.equal(current(), undefined, "not before the list's deadline");
  await clock.advance(1);
  const out = current();
  assert.ok(out, "answered at the list's deadline");
  assert.equal(out.results.length, 40);
  for (const [i, entry] of out.results.entries()) {
    if (list[i] === RUNAWAY) {
      assert.equal((entry as { error: { code: string } }).error.code, "COMPUTATION_TIMEOUT", `${i}`);
    } else if (Array.isArray(entry)) {
      assert.deepEqual(entry, [true, 1, false]);
    }
  }
  const late = out.results.find((e) => !Array.isArray(e) && /deadline/.test(e.error.message));
  assert.ok(late, "molecules not reached say the list's deadline passed");
});

test("a runaway molecule among honest ones fails alone, its chunk's others answered", async () => {
  const smarts = tool("smarts_match");
  const list = ["CCO", RUNAWAY, "CCCC", "OCCO"];
  const out = await runList(
    smarts,
    { smarts: "[OX2H]", max_matches: 1000, timeout_seconds: 1, smiles_list: list },
    runawayPool(),
    1,
  ) as { summary: string };
  assert.ok(out.summary.startsWith("4 molecules: 3 answered, 1 failed (index 1)."), out.summary);
});

test("a cancelled list throws at once and starts no further chunk", async () => {
  const smarts = tool("smarts_match");
  const starts: number[] = [];
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const started = performance.now();
  await assert.rejects(
    runList(
      smarts,
      { smarts: "C", max_matches: 1000, timeout_seconds: 5, smiles_list: Array(20).fill(RUNAWAY) },
      runawayPool(starts),
      1,
      controller.signal,
    ),
    CancelledError,
  );
  assert.ok(performance.now() - started < 2000);
  const count = starts.length;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(starts.length, count);
});

test("a list answer is capped: the entries past the cap hold ANSWER_TOO_LARGE in place", async () => {
  const wide: Tool = {
    ...tool("canonical_smiles"),
    name: "wide",
    output: v.object({ smiles: v.string(), canonical_smiles: v.string() }),
    list: { cap: 1000, columns: ["canonical_smiles"] },
    run: (args) => ({ smiles: args.smiles as string, canonical_smiles: "C".repeat(10_000) }),
  };
  const out = await runList(wide, { smiles_list: Array(1000).fill("C") }) as {
    results: ({ error: { code: string } } | unknown[])[];
  };
  const first = out.results.findIndex((e) => !Array.isArray(e));
  // About one 10,000-character row per 10,000 characters of the cap, less the errors that follow them.
  const rowsInCap = LIST_ANSWER_MAX_CHARS / 10_000;
  assert.ok(first > 0.7 * rowsInCap && first < 1.03 * rowsInCap, `${first} rows of about ${rowsInCap}`);
  assert.ok(out.results.slice(first).every((e) => !Array.isArray(e) && e.error.code === "ANSWER_TOO_LARGE"));
  assert.ok(JSON.stringify(out).length <= LIST_ANSWER_MAX_CHARS + 10_000);
});

test("a chunk's deadline is its tool's limit for one molecule, no later than what is left of the list's", () => {
  const chunk = listFormOf(tool("smarts_match"))!.chunk;
  const deadlineMs = chunk.placement!.deadlineMs!;
  assert.equal(deadlineMs({ timeout_seconds: 5 } as never), 5000);
  assert.equal(deadlineMs({ timeout_seconds: 5, left_ms: 1200 } as never), 1200);
  assert.equal(deadlineMs({ timeout_seconds: 1, left_ms: 9000 } as never), 1000);
  // A bounded tool's chunk has no deadline of its own: the pool gives it the pooled deadline.
  assert.equal(listFormOf(tool("calc_properties"))!.chunk.placement?.deadlineMs, undefined);
});

test("workers serve the chunk tools; chunk size is at most a fortieth of the cap, ≥ 4 chunks per worker", () => {
  const names = new Set(WORKER_TOOLS.map((t) => t.name));
  for (const t of TOOLS) if (t.list) assert.ok(names.has(`${t.name}:items`), t.name);
  assert.ok(listFormOf(tool("calc_properties")));
  assert.equal(chunkSize(1000, 1000, 2), 25);
  assert.equal(chunkSize(1000, 100, 2), 13);
  assert.equal(chunkSize(10, 10, 2), 1);
});

test("molecule_context_pack over a list: each section's method is given once, above the items", async () => {
  const list = ["CC(=O)Nc1ccc(O)cc1", ASPIRIN];
  const result = (await batch("molecule_context_pack", list, { format: "json" })).result!;
  const out = result.structuredContent as Record<string, unknown> & {
    results: Record<string, Record<string, unknown>>[];
  };
  assert.equal(out.format, "json");
  assert.match((out.admet as { method: string }).method, /Gleeson/);
  assert.equal((out.pains as { alerts_checked: number }).alerts_checked, 480);
  for (const item of out.results) {
    assert.equal("method" in item.admet!, false);
    assert.equal("method" in item.properties!, false);
    assert.ok("qed" in item.properties!);
  }
  assert.equal(result.content![0]!.text.split("Gleeson, J. Med. Chem. 2008").length, 2);
});

test("similarity_search scores as POST /similarity does (to 4 decimals); top_k keeps the best; bad entries skipped", async () => {
  const library = [...DRUGS50.filter((d) => d.name !== "aspirin").map((d) => d.smiles), ASPIRIN, "CCO"];
  const app = createWebApp();
  for (const threshold of [0, 0.2, 0.5]) {
    const body = { query: ASPIRIN, library, threshold };
    const web = (await (await app(
      new Request("http://127.0.0.1/similarity", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    )).json()) as { score: number }[];
    const all = { ...body, top_k: library.length };
    const tool = (await call("similarity_search", all)).result!.structuredContent as { hits: unknown[] };
    const rounded = web.map((hit) => ({ ...hit, score: Math.round(hit.score * 1e4) / 1e4 }));
    assert.deepEqual(tool.hits, rounded, `threshold ${threshold}`);
  }
  const top = (await call("similarity_search", { query: ASPIRIN, library, top_k: 2 })).result!
    .structuredContent as { hits: { index: number; score: number }[] };
  assert.equal(top.hits.length, 2);
  assert.deepEqual(top.hits[0], { index: library.length - 2, smiles: ASPIRIN, score: 1 });
  assert.ok(top.hits[1]!.score < 1);
  const bad = (await call("similarity_search", { query: ASPIRIN, library: ["CCO", "C1CC"] })).result!;
  assert.equal(bad.isError, false);
  assert.match(JSON.stringify(bad.structuredContent), /"skipped":\[\{"index":1,"error":"INVALID_SMILES/);
  assert.equal(
    (await call("similarity_search", { query: "C", library: Array(10_001).fill("C") })).error?.code,
    -32602,
  );
});
