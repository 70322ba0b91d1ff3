/**
 * Cold start of each way users run chem-mcp: process start to the first answered request (a modern
 * tools/call canonical_smiles, so RDKit is loaded and used), median of several runs, plus artefact sizes.
 * Expects the artefacts of `deno run -A scripts/test.ts --only artifacts` (or builds the binary if missing).
 * Run: deno run -A bench/cold_start_bench.ts [--runs 7]
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { type Figures, loadPrevious } from "./previous.ts";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 7;
const REQUEST = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "canonical_smiles",
    arguments: { smiles: "OCC" },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
}) + "\n";

function once(cmd: string, args: string[], cwd: string): Promise<number> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: ["pipe", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      done(performance.now() - start);
      child.stdin.end();
    });
    child.on("error", fail);
    child.stdin.write(REQUEST);
  });
}

async function median(cmd: string, args: string[], cwd: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once(cmd, args, cwd));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function size(path: string): string {
  return existsSync(path) ? `${(statSync(path).size / 1_048_576).toFixed(1)} MiB` : "–";
}

const sea = resolve(".cache/artifacts/sea/chem-mcp");
if (!existsSync(sea)) {
  spawnSync(process.execPath, ["run", "-A", "scripts/build_sea.ts", "--out", sea], { stdio: "inherit" });
}
if (!existsSync("dist/src/runtime/node.js")) {
  spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
}
const npmDir = resolve(".cache/artifacts/npm");

const rows: [string, string, string[], string, string][] = [
  ["Deno from a clone (`deno run -A mod.ts`)", process.execPath, ["run", "-A", "mod.ts"], ".", "source tree"],
  ["Node from a clone (`node dist/src/runtime/node.js`)", "node", ["dist/src/runtime/node.js"], ".", "dist/"],
  ["single-executable binary (Node SEA)", sea, [], resolve(".cache/artifacts/sea"), size(sea)],
];
if (existsSync(`${npmDir}/node_modules/.bin/chem-mcp`)) {
  rows.push([
    "npm package via `npx chem-mcp`",
    "npx",
    ["--no-install", "chem-mcp"],
    npmDir,
    "tarball installed",
  ]);
}
console.log(`cold start to first answered tools/call, median of ${RUNS} runs\n`);
const previous = loadPrevious("cold_start");
const figures: Figures = {};
console.log("| way | median ms | size | vs previous run (above 1× is faster) |");
console.log("| --- | ---: | --- | ---: |");
for (const [name, cmd, args, cwd, note] of rows) {
  const ms = figures[name] = await median(cmd, args, cwd);
  console.log(`| ${name} | ${ms.toFixed(0)} | ${note} | ${previous.speedupFromTime(name, ms)} |`);
}
previous.save(figures);
