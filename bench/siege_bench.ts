/**
 * Siege of the HTTP endpoint under Deno, Node and the single-executable binary: an honest client's success rate
 * and latency while every attack class of tests/adversarial/ runs at once for `--seconds`, with the memory of
 * the server's process tree before, at its peak and after. The mix is described in tests/helpers/siege.ts; a
 * 20 s run under Node is part of the test suite (tests/adversarial/siege_test.ts).
 *
 * The binary row needs `.cache/artifacts/sea/chem-mcp` (scripts/build_sea.ts); Node needs `npm run build`.
 * `--no-save` prints the figures without storing them in bench/results/siege.json (for short trial runs).
 * Run: deno run -A bench/siege_bench.ts [--runtimes deno,node,sea] [--seconds 180] [--no-save]
 */
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { startHostileLookup } from "../tests/helpers/lookup_stub.ts";
import { siege } from "../tests/helpers/siege.ts";
import { loadPrevious } from "./previous.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const RUNTIMES = option("--runtimes", "deno,node,sea").split(",");
const SECONDS = Number(option("--seconds", "180"));
const SAVE = !process.argv.includes("--no-save");
const SEA = ".cache/artifacts/sea/chem-mcp";
const COMMANDS: Record<string, string[]> = {
  deno: [process.execPath, "run", "-A", "mod.ts"],
  node: ["node", "dist/src/runtime/node.js"],
  sea: [SEA],
};

const lookup = await startHostileLookup();
const previous = loadPrevious("siege");
const figures: Record<string, number> = {};
for (const runtime of RUNTIMES) {
  if (runtime === "sea" && !existsSync(SEA)) {
    console.log(`${runtime}: skipped (${SEA} not built)`);
    continue;
  }
  const result = await siege({
    command: COMMANDS[runtime]!,
    lookupTemplate: lookup.template,
    seconds: SECONDS,
    debug: Boolean(process.env.SIEGE_DEBUG),
  });
  console.log(`\n${runtime}, ${SECONDS} s:`);
  for (const [key, value] of Object.entries(result)) {
    const row = `${runtime}.${key}`;
    figures[row] = value;
    const ratio = key.endsWith("_ms") ? ` (${previous.speedupFromTime(row, value)})` : "";
    console.log(`  ${key.padEnd(28)} ${value.toFixed(1)}${ratio}`);
  }
}
console.log(`\nother origin asked by a redirect: ${lookup.elsewhere.length} times`);
if (SAVE) {
  // Runtimes not run this time keep their last figures, so the file always holds every row.
  const RESULTS = "bench/results/siege.json";
  const kept = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, number> : {};
  previous.save({ ...kept, ...figures });
}
process.exit(0);
