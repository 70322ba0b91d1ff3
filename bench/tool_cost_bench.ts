/**
 * What each tool costs on the drug set (tests/data/drugs50.ts), in place and through one warm pool worker: p50
 * and p99 over the molecules of each one's fastest call out of `--reps` passes (so that other processes' load
 * does not count as the tool's work; with 63 molecules the p99 is the slowest one), and each tool's first call
 * in a fresh process (one-time tables). The line between tools that run in the pool and tools that stay on the
 * protocol thread (src/tools/placement.ts) is drawn from this table. Also the start-up work of a pool worker
 * (RDKit instantiated, the tools' warm-up calls made) in a fresh process. name_to_smiles is left out: it waits on the
 * network, not on a core.
 * Run: deno run -A bench/tool_cost_bench.ts [--reps 3]
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { TOOLS, WORKER_TOOLS } from "../src/tools/registry.ts";
import { warmUpCalls } from "../src/tools/placement.ts";
import * as v from "valibot";
import { IsolatedRunner } from "../src/pool/runner.ts";
import { denoPlatform } from "../src/runtime/deno.ts";
import { smilesToMoljsonTool } from "../src/tools/smiles_to_moljson.ts";
import type { Tool } from "../src/tools/tool.ts";
import { type Figures, loadPrevious } from "./previous.ts";

const REPS = Number(process.argv[process.argv.indexOf("--reps") + 1]) || 3;
const FIRST = process.argv.indexOf("--first");
const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
const loadStart = performance.now();
await loadRDKit(wasm);
const loadMs = performance.now() - loadStart;
const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** Arguments of `tool` for drug `i` of the set. */
function argsFor(tool: string, i: number): Record<string, unknown> {
  const smiles = DRUGS50[i % DRUGS50.length]!.smiles;
  switch (tool) {
    case "tanimoto":
      return { smiles_a: smiles, smiles_b: "CC(=O)Oc1ccccc1C(=O)O" };
    case "smarts_match":
      return { smiles, smarts: "[OX2H]" };
    case "find_mcs":
      return { smiles_list: [smiles, DRUGS50[(i + 1) % DRUGS50.length]!.smiles] };
    case "moljson_to_smiles":
      return {
        moljson:
          (runQuiet(smilesToMoljsonTool as unknown as Tool, { smiles }) as { moljson: unknown }).moljson,
      };
    case "representation_router":
      return { smiles, task: "deduplicate a compound list by identity" };
    default:
      return { smiles };
  }
}

function runQuiet(tool: Tool, args: Record<string, unknown>): unknown {
  try {
    return tool.run(args as never);
  } catch (error) {
    return error;
  }
}

if (process.argv.includes("--warm")) {
  // Child mode: a pool worker's start-up work in this fresh process.
  const parts = [`RDKit instantiated ${loadMs.toFixed(0)} ms`];
  for (const call of warmUpCalls(WORKER_TOOLS)) {
    const tool = byName.get(call.tool)!;
    const start = performance.now();
    await tool.run(v.parse(tool.input, call.args));
    parts.push(`${call.tool} ${(performance.now() - start).toFixed(0)} ms`);
  }
  console.log(parts.join(", "));
  process.exit(0);
}

if (FIRST > -1) {
  // Child mode: one tool's first call in this fresh process, after RDKit is loaded.
  const name = process.argv[FIRST + 1]!;
  const args = argsFor(name, 0);
  const start = performance.now();
  await runQuiet(byName.get(name)!, args);
  console.log(performance.now() - start);
  process.exit(0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Per molecule the fastest of REPS calls, then the median and p99 over the molecules. */
async function timings(call: (i: number) => unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await call(i); // warm-up: JIT, lazily built tables
  const fastest = new Array<number>(DRUGS50.length).fill(Infinity);
  for (let rep = 0; rep < REPS; rep++) {
    for (let i = 0; i < DRUGS50.length; i++) {
      const start = performance.now();
      await call(i);
      fastest[i] = Math.min(fastest[i]!, performance.now() - start);
    }
  }
  fastest.sort((a, b) => a - b);
  return { p50: percentile(fastest, 0.5), p99: percentile(fastest, 0.99) };
}

const runner = new IsolatedRunner({ spawn: denoPlatform.spawnToolWorker!, wasm, size: 1 });
const previous = loadPrevious("tool_cost");
const figures: Figures = {};
const warmUp = spawnSync(process.execPath, ["run", "-A", "bench/tool_cost_bench.ts", "--warm"], {
  encoding: "utf8",
});
console.log(`pool worker start-up (fresh process): ${warmUp.stdout.trim()}\n`);
console.log(`${DRUGS50.length} drugs, fastest of ${REPS} calls each, ms\n`);
console.log(
  "| tool | first call (fresh process) | in place p50 | in place p99 | worker p50 | worker p99 | p99 vs previous run |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const tool of TOOLS) {
  if (tool.name === "name_to_smiles") continue;
  const child = spawnSync(process.execPath, ["run", "-A", "bench/tool_cost_bench.ts", "--first", tool.name], {
    encoding: "utf8",
  });
  const first = Number(child.stdout.trim());
  const argsList = Array.from({ length: DRUGS50.length }, (_, i) => argsFor(tool.name, i));
  const local = await timings((i) => runQuiet(tool, argsList[i % argsList.length]!));
  // A copy with a deadline, so the runner sends it to the worker whatever its placement.
  const pooled = { ...tool, placement: { where: "pool", deadlineMs: () => 60_000 } } as Tool;
  const remote = await timings((i) => runner.run(pooled, argsList[i % argsList.length]!).catch((e) => e));
  figures[tool.name] = local.p99;
  console.log(
    `| ${tool.name} | ${first.toFixed(1)} | ${local.p50.toFixed(2)} | ${local.p99.toFixed(2)} | ${
      remote.p50.toFixed(2)
    } | ${remote.p99.toFixed(2)} | ${previous.speedupFromTime(tool.name, local.p99)} |`,
  );
}
runner.close();
previous.save(figures);
