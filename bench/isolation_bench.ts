/**
 * The cost of running a tool in a worker (src/pool/runner.ts): smarts_match on aspirin, 2,000 calls in place
 * and through the worker pool, one at a time and 64 at once, as ratios; the first call's worker start-up; and how
 * close to its deadline a runaway search is stopped. Compared with the previous run.
 * Run: deno run -A bench/isolation_bench.ts
 */
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { IsolatedRunner } from "../src/pool/runner.ts";
import { smartsMatchTool } from "../src/tools/smarts_match.ts";
import { denoPlatform } from "../src/runtime/deno.ts";
import type { Tool } from "../src/tools/tool.ts";
import { loadPrevious } from "./previous.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../tests/data/runaway.ts";

const N = 2000;
const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
await loadRDKit(wasm);
const tool = smartsMatchTool as unknown as Tool;
const args = {
  smiles: "CC(=O)Oc1ccccc1C(=O)O",
  smarts: "[CX3](=O)[OX2H1]",
  max_matches: 1000,
  timeout_seconds: 10,
};
const runner = new IsolatedRunner({ spawn: denoPlatform.spawnToolWorker!, wasm, size: 2 });

const t0 = performance.now();
await runner.run(tool, args);
const startupMs = performance.now() - t0;

async function rate(call: () => Promise<unknown>, inFlight: number): Promise<number> {
  for (let i = 0; i < 200; i++) await call(); // warm-up
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next++ < N) await call();
  }));
  return N / ((performance.now() - start) / 1000);
}

const inPlace = await rate(async () => await tool.run(args as never), 1);
const rows: [string, number][] = [
  ["in place, 1 at a time", inPlace],
  ["worker pool, 1 at a time", await rate(() => runner.run(tool, args), 1)],
  ["worker pool, 64 at once", await rate(() => runner.run(tool, args), 64)],
];

const stopStart = performance.now();
await runner.run(tool, {
  ...args,
  smiles: RUNAWAY_MOLECULE,
  smarts: RUNAWAY_SMARTS,
  timeout_seconds: 1,
})
  .catch(() => {});
const stoppedAfterMs = performance.now() - stopStart;
const afterStart = performance.now();
await runner.run(tool, args);
const respawnMs = performance.now() - afterStart;
runner.close();

const previous = loadPrevious("isolation");
console.log(`smarts_match on aspirin, ${N} calls per row\n`);
console.log("| row | calls/s | ratio to in place | vs previous run |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, r] of rows) {
  console.log(`| ${name} | ${r.toFixed(0)} | ${(r / inPlace).toFixed(3)}× | ${previous.speedup(name, r)} |`);
}
console.log(
  `\nfirst call (worker start-up, RDKit instantiation): ${startupMs.toFixed(0)} ms; runaway search with ` +
    `timeout_seconds 1 answered after ${stoppedAfterMs.toFixed(0)} ms; next call on a fresh worker ${
      respawnMs.toFixed(0)
    } ms`,
);
previous.save(Object.fromEntries(rows));
