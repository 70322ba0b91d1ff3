/**
 * Cold start and first burst of each way users run chem-mcp.
 *
 * - Cold start: process start to the first answered request (a modern tools/call canonical_smiles of OCC, so
 *   RDKit is loaded and used), for Deno, Node, the single executable and `npx` from the packed tarball, against
 *   the floor measured in the same run: bare Node loading `@rdkit/rdkit` and answering the same SMILES. `npx`
 *   starts npm's own CLI before the server, so it is also set against the floor started through `npx`.
 * - First burst: in a fresh process, right after that first answer, 8 molecule_context_pack calls and a
 *   canonical_smiles (atorvastatin both) at once; the latency of the canonical_smiles, and the same in the
 *   process's second burst; over stdio and Streamable HTTP, under Deno, Node and the single executable.
 *
 * The host has 2 cores shared with other work, so rounds are interleaved (each round starts every way once, in
 * turn, so a busy moment falls on all of them), and each figure is a median with its range. The CPU time each
 * process had used by its first answer (Linux) moves much less with the other work than wall time does.
 *
 * Expects the artefacts of `deno run -A scripts/test.ts --only artifacts` (builds the binary and `npm run build`
 * if missing; the npx rows need the installed tarball in .cache/artifacts/npm).
 * Run: deno run -A bench/cold_start_bench.ts [--rounds 9] [--burst-rounds 5] [--sections start,burst]
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { type Figures, loadPrevious } from "./previous.ts";
import { type Call, httpServer, SEA_BINARY, type Server, stdioServer, toolCall } from "./servers.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const ROUNDS = Number(option("--rounds", "9"));
const BURST_ROUNDS = Number(option("--burst-rounds", "5"));
const SECTIONS = option("--sections", "start,burst").split(",");
const FIRST: Call = { name: "canonical_smiles", arguments: { smiles: "OCC" } };
const ATORVASTATIN = "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O";
const CHEAP: Call = { name: "canonical_smiles", arguments: { smiles: ATORVASTATIN } };
const HEAVY: Call = { name: "molecule_context_pack", arguments: { smiles: ATORVASTATIN } };

/** The floor: RDKit loaded by bare Node, answering the request's SMILES canonicalised (CommonJS, run from a file). */
function floorScript(root: string): string {
  return `#!/usr/bin/env node
const init = require("node:module").createRequire(${JSON.stringify(`${root}/package.json`)})("@rdkit/rdkit");
const ready = init();
process.stdin.once("data", async (chunk) => {
  const request = JSON.parse(String(chunk));
  const rdkit = await ready;
  const mol = rdkit.get_mol(request.params.arguments.smiles);
  const text = mol.get_smiles();
  mol.delete();
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text }] } }) + "\\n");
  process.stdin.pause();
});
`;
}

/** Writes the floor as a script and as the `bin` of a local project, so `npx` can start it too. */
function writeFloor(): { script: string; npxDir: string } {
  const dir = resolve(".cache/bench/floor");
  mkdirSync(`${dir}/node_modules/.bin`, { recursive: true });
  const script = `${dir}/floor.cjs`;
  writeFileSync(script, floorScript(resolve(".")));
  const bin = `${dir}/node_modules/.bin/chem-mcp-floor`;
  writeFileSync(bin, floorScript(resolve(".")));
  chmodSync(bin, 0o755);
  writeFileSync(`${dir}/package.json`, JSON.stringify({ name: "cold-start-floor", private: true }));
  return { script, npxDir: dir };
}

/**
 * CPU time the process has used so far, all its threads, ms (Linux: `/proc/<pid>/task/<tid>/schedstat`, whose
 * first field is the thread's time on a CPU in ns); NaN where there is no such file.
 */
function cpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/**
 * Process start to the first line on stdout, and the CPU time the process had used by then, ms; waits for
 * the process to exit before resolving.
 */
function once(cmd: string, args: string[], cwd: string): Promise<[number, number]> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: ["pipe", "pipe", "ignore"] });
    let ms = NaN;
    let cpu = NaN;
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      if (!Number.isNaN(ms) || !text.includes("\n")) return;
      ms = performance.now() - start;
      cpu = cpuMs(child.pid!);
      child.stdin.end();
    });
    child.on("error", fail);
    child.on("close", () => {
      if (text.includes("CCO")) done([ms, cpu]);
      else fail(new Error(`${cmd} ${args.join(" ")}: no answer (${text.slice(0, 200)})`));
    });
    child.stdin.write(`${toolCall(1, FIRST)}\n`);
  });
}

interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}

const ms = (value: number) => value.toFixed(0);
const range = (s: Spread) => `${ms(s.min)}–${ms(s.max)}`;

function size(path: string): string {
  return existsSync(path) ? `${(statSync(path).size / 1_048_576).toFixed(1)} MiB` : "–";
}

const sea = SEA_BINARY;
if (!existsSync(sea)) {
  spawnSync(process.execPath, ["run", "-A", "scripts/build_sea.ts", "--out", sea], { stdio: "inherit" });
}
if (!existsSync("dist/src/runtime/node.js")) {
  spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
}
const npmDir = resolve(".cache/artifacts/npm");
const hasNpx = existsSync(`${npmDir}/node_modules/.bin/chem-mcp`);
const previous = loadPrevious("cold_start");
const figures: Figures = {};

interface Way {
  readonly name: string;
  readonly cmd: string;
  readonly args: string[];
  readonly cwd: string;
  readonly note: string;
  /** The way this one is compared with (the floor, or the floor through the same launcher). */
  readonly baseline?: string;
}

const FLOOR = "floor: bare Node loading @rdkit/rdkit";
const NPX_FLOOR = "floor through `npx`";

async function coldStart(): Promise<void> {
  const floor = writeFloor();
  const ways: Way[] = [
    { name: FLOOR, cmd: "node", args: [floor.script], cwd: ".", note: "RDKit only" },
    {
      name: "Deno from a clone (`deno run -A mod.ts`)",
      cmd: process.execPath,
      args: ["run", "-A", "mod.ts"],
      cwd: ".",
      note: "source tree",
    },
    {
      name: "Node from a clone (`node dist/src/runtime/node.js`)",
      cmd: "node",
      args: ["dist/src/runtime/node.js"],
      cwd: ".",
      note: "esbuild bundle (entry and shared chunk)",
    },
    {
      name: "single-executable binary (Node SEA)",
      cmd: sea,
      args: [],
      cwd: dirname(sea),
      note: size(sea),
    },
  ];
  if (hasNpx) {
    ways.push(
      {
        name: NPX_FLOOR,
        cmd: "npx",
        args: ["--no-install", "chem-mcp-floor"],
        cwd: floor.npxDir,
        note: "npm's CLI, then the floor",
      },
      {
        name: "npm package via `npx chem-mcp`",
        cmd: "npx",
        args: ["--no-install", "chem-mcp"],
        cwd: npmDir,
        note: "tarball installed",
        baseline: NPX_FLOOR,
      },
    );
  }
  const times = new Map<string, number[]>(ways.map((way) => [way.name, []]));
  const cpu = new Map<string, number[]>(ways.map((way) => [way.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ways) {
      const [wall, used] = await once(way.cmd, way.args, way.cwd);
      times.get(way.name)!.push(wall);
      cpu.get(way.name)!.push(used);
    }
  }
  const floorMedian = spread(times.get(FLOOR)!).median;
  const floorCpu = spread(cpu.get(FLOOR)!).median;
  console.log(
    `cold start to the first answered tools/call: median and range of ${ROUNDS} interleaved rounds; CPU: ` +
      "what the process's threads had used by then (npx: npm's process only, so not shown)\n",
  );
  console.log(
    "| way | median ms | range ms | vs floor | CPU ms | CPU vs floor | what runs | median vs previous run |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const way of ways) {
    const s = spread(times.get(way.name)!);
    const baseline = way.baseline ? spread(times.get(way.baseline)!).median : floorMedian;
    const ratio = `${(s.median / floorMedian).toFixed(2)}×` +
      (way.baseline ? ` (${(s.median / baseline).toFixed(2)}× ${way.baseline})` : "");
    const used = way.cmd === "npx" ? NaN : spread(cpu.get(way.name)!).median;
    const cpuText = Number.isNaN(used) ? "– | –" : `${ms(used)} | ${(used / floorCpu).toFixed(2)}×`;
    figures[way.name] = s.median;
    console.log(
      `| ${way.name} | ${ms(s.median)} | ${range(s)} | ${ratio} | ${cpuText} | ${way.note} | ${
        previous.speedupFromTime(way.name, s.median)
      } |`,
    );
  }
  console.log();
}

// ---------------------------------------------------------------------------------------------------------
// First burst

/** 8 heavy calls and the cheap one sent at once; the cheap call's latency once every call is answered. */
async function burst(server: Server): Promise<number> {
  const heavy = Array.from({ length: 8 }, () => server.call(HEAVY));
  const cheap = await server.call(CHEAP);
  await Promise.all(heavy);
  return cheap;
}

/** A fresh process: its first answer, then its first and second bursts (the cheap call's latency in each). */
async function firstBursts(runtime: string, transport: string): Promise<[number, number]> {
  const server = transport === "stdio" ? stdioServer(runtime) : await httpServer(runtime, 16);
  await server.call(FIRST);
  const first = await burst(server);
  const second = await burst(server);
  await server.stop();
  return [first, second];
}

async function firstBurst(): Promise<void> {
  const cases = ["deno", "node", "sea"].flatMap((runtime) =>
    ["stdio", "http"].map((transport) => [runtime, transport] as const)
  );
  const times = new Map(
    cases.map(([r, t]) => [`${r} ${t}`, { first: [] as number[], second: [] as number[] }]),
  );
  for (let round = 0; round < BURST_ROUNDS; round++) {
    for (const [runtime, transport] of cases) {
      const [first, second] = await firstBursts(runtime, transport);
      times.get(`${runtime} ${transport}`)!.first.push(first);
      times.get(`${runtime} ${transport}`)!.second.push(second);
    }
  }
  console.log(
    "a canonical_smiles sent with 8 molecule_context_pack calls right after a fresh process's first answer: " +
      `its latency, median and range of ${BURST_ROUNDS} processes per row, interleaved\n`,
  );
  console.log(
    "| runtime | transport | first burst ms | range | second burst ms | range | first vs previous run |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [runtime, transport] of cases) {
    const { first, second } = times.get(`${runtime} ${transport}`)!;
    const a = spread(first);
    const b = spread(second);
    const key = `first burst ${runtime} ${transport}`;
    figures[key] = a.median;
    console.log(
      `| ${runtime} | ${transport} | ${a.median.toFixed(1)} | ${range(a)} | ${b.median.toFixed(1)} | ${
        range(b)
      } | ${previous.speedupFromTime(key, a.median)} |`,
    );
  }
  console.log();
}

if (SECTIONS.includes("start")) await coldStart();
if (SECTIONS.includes("burst")) await firstBurst();
if (process.argv.includes("--sections")) {
  console.log("(a partial run: figures not saved for the next comparison)");
} else previous.save(figures);
