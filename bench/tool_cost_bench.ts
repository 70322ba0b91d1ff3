/**
 * What each tool costs on the drug set (tests/data/drugs50.ts), in place and through one warm pool worker: p50
 * and p99 per call after warm-up, and each tool's first call in a fresh process (one-time tables). The line
 * between tools that run in the pool and tools that stay on the protocol thread (src/tools/dispatch.ts) is drawn
 * from this table. name_to_smiles is left out: it waits on the network, not on a core.
 * Run: deno run -A bench/tool_cost_bench.ts [--reps 3]
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { TOOLS } from "../src/tools/registry.ts";
import { IsolatedRunner } from "../src/tools/isolation.ts";
import { denoPlatform } from "../src/runtime/deno.ts";
import { smilesToMoljsonTool } from "../src/tools/smiles_to_moljson.ts";
import type { Tool } from "../src/tools/tool.ts";
import { type Figures, loadPrevious } from "./previous.ts";

const REPS = Number(process.argv[process.argv.indexOf("--reps") + 1]) || 3;
const FIRST = process.argv.indexOf("--first");
const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
await loadRDKit(wasm);
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

async function timings(call: (i: number) => unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await call(i); // warm-up: JIT, lazily built tables
  const times: number[] = [];
  for (let i = 0; i < DRUGS50.length * REPS; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

const runner = new IsolatedRunner({ spawn: denoPlatform.spawnToolWorker!, wasm, size: 1 });
const previous = loadPrevious("tool_cost");
const figures: Figures = {};
console.log(`${DRUGS50.length} drugs × ${REPS} per tool, ms\n`);
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
  const pooled = { ...tool, isolation: { deadlineMs: () => 60_000 } } as Tool;
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
