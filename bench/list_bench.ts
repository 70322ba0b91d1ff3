/**
 * `batch` calls through a real server process over stdio (issues 24 and 31):
 *
 * - 1,000 molecules through `calc_properties` with one tool worker and with two (`CHEM_MCP_WORKERS`): wall time
 *   and the ratio (target ≥ 1.6×);
 * - per molecule, the one-worker list call against a single in-process `calc_properties` call on the same
 *   molecules (target ≤ 1.3×), in wall time and in CPU time (the server process's, from /proc on Linux): on a
 *   shared host the CPU figures and the cores actually used (CPU ÷ wall) say what the wall times cannot;
 * - a cheap call (`canonical_smiles`, in place) and a cheap pooled call (`parse_smiles`) sent while the
 *   1,000-molecule list runs on two workers: latency p50 and max (target for the cheap call: 20 ms).
 *
 * Run: npx deno run -A bench/list_bench.ts [--rounds 3] [--sections speed,latency]
 */
import process from "node:process";
import { LineClient, startServer, stopGroup, treeUsage } from "../tests/helpers/process.ts";
import { modern } from "../tests/helpers/protocol.ts";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { HUNDRED_MOLECULES } from "../tests/helpers/budget.ts";
import { calcPropertiesTool } from "../src/tools/calc_properties.ts";
import { loadPrevious } from "./previous.ts";
import { existsSync, readFileSync } from "node:fs";

/** The stored figures, so a run of one section keeps the other's. */
function loadPreviousFigures(): Record<string, number> {
  const path = "bench/results/list.json";
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) as Record<string, number> : {};
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}
const ROUNDS = Number(option("--rounds", "3")) || 3;
const SECTIONS = option("--sections", "speed,latency").split(",");
const MOLECULES = Array.from({ length: 1000 }, (_, i) => HUNDRED_MOLECULES[i % HUNDRED_MOLECULES.length]!);
const previous = loadPrevious("list");
const figures: Record<string, number> = {};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => Math.max(...xs);

/** A server with `workers` tool workers, its pool warmed up. */
interface Server {
  readonly client: LineClient;
  /** CPU time the server (all its threads and worker processes) has used so far, ms (Linux /proc). */
  cpu(): number;
  stop(): Promise<void>;
}

/** A timed measurement: wall time and CPU time, ms. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

async function server(workers: number): Promise<Server> {
  const child = startServer(["--tools", "spec,batch"], { CHEM_MCP_WORKERS: String(workers) }, true);
  const client = new LineClient(child);
  await call(client, "canonical_smiles", { smiles: "CCO" });
  // The pool starts after the first answer; a pooled call per worker waits until they are up.
  await Promise.all(
    Array.from({ length: workers }, () => call(client, "calc_properties", { smiles: "CCO" })),
  );
  // One list call first, so every worker has run the chunk path once.
  await call(client, "batch", { tool: "calc_properties", smiles_list: MOLECULES.slice(0, 200) });
  return { client, cpu: () => treeUsage(child.pid!).cpuMs, stop: () => stopGroup(child) };
}

let nextId = 1;
/** One tool call; resolves with its latency, ms. */
async function call(client: LineClient, name: string, args: Record<string, unknown>): Promise<number> {
  const message = { ...modern("tools/call", { name, arguments: args }), id: `b${nextId++}` };
  const started = performance.now();
  const reply = await client.request(message, 120_000) as { result?: { isError?: boolean } };
  if (!reply.result || reply.result.isError) throw new Error(`${name} failed: ${JSON.stringify(reply)}`);
  return performance.now() - started;
}

/**
 * Times of the 1,000 molecules in process, through one worker and through two, the three alternated round by
 * round so that a change in the host's load between rounds falls on all three.
 */
/** A list call of the 1,000 molecules on `server`: its wall time and the CPU time the server used for it. */
async function listSample(server: Server): Promise<Sample> {
  const before = server.cpu();
  const wall = await call(server.client, "batch", { tool: "calc_properties", smiles_list: MOLECULES });
  return { wall, cpu: server.cpu() - before };
}

async function speedRounds(): Promise<[Sample[], Sample[], Sample[]]> {
  await loadTestRDKit();
  for (const smiles of MOLECULES.slice(0, 200)) calcPropertiesTool.run({ smiles });
  const one = await server(1);
  const two = await server(2);
  try {
    const times: [Sample[], Sample[], Sample[]] = [[], [], []];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (const smiles of MOLECULES) calcPropertiesTool.run({ smiles });
      const used = process.cpuUsage(cpu);
      times[0].push({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 });
      times[1].push(await listSample(one));
      times[2].push(await listSample(two));
    }
    return times;
  } finally {
    await one.stop();
    await two.stop();
  }
}

async function behindList(name: string, args: Record<string, unknown>): Promise<number[]> {
  const { client, stop } = await server(2);
  try {
    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let running = true;
      const list = call(client, "batch", { tool: "calc_properties", smiles_list: MOLECULES }).finally(
        () => (running = false),
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      while (running) {
        const latency = await call(client, name, args);
        if (running) latencies.push(latency);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await list;
    }
    return latencies;
  } finally {
    await stop();
  }
}

async function speed(): Promise<void> {
  const [inProcess, ones, twos] = await speedRounds();
  const wall = (samples: Sample[]) => median(samples.map((x) => x.wall));
  const cpu = (samples: Sample[]) => median(samples.map((x) => x.cpu));
  const rows: [string, Sample[]][] = [
    ["1000 calc_properties in process", inProcess],
    ["1000 calc_properties, 1 worker", ones],
    ["1000 calc_properties, 2 workers", twos],
  ];
  console.log(`\n1,000 molecules through calc_properties (median of ${ROUNDS})\n`);
  console.log("| what | wall ms | CPU ms | cores used | CPU per molecule, ms | wall vs previous run |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [what, samples] of rows) {
    figures[`${what} ms`] = wall(samples);
    figures[`${what} CPU ms`] = cpu(samples);
    console.log(
      `| ${what} | ${wall(samples).toFixed(0)} | ${cpu(samples).toFixed(0)} | ` +
        `${(cpu(samples) / wall(samples)).toFixed(2)} | ${(cpu(samples) / 1000).toFixed(3)} | ` +
        `${previous.speedupFromTime(`${what} ms`, wall(samples))} |`,
    );
  }
  console.log(
    `\n2 workers against 1, wall time: ${(wall(ones) / wall(twos)).toFixed(2)}× faster (target ≥ 1.6×)`,
  );
  console.log(
    `1 worker against in process, per molecule: wall ${(wall(ones) / wall(inProcess)).toFixed(2)}×, CPU ` +
      `${(cpu(ones) / cpu(inProcess)).toFixed(2)}× (target ≤ 1.3×)`,
  );
  console.log(
    "Cores used = CPU ÷ wall; the server's CPU includes its protocol thread and both workers. With fewer than " +
      "two cores free the two-worker speed-up cannot show.",
  );
}

async function latency(): Promise<void> {
  console.log("\nCalls sent while a 1,000-molecule list runs on 2 workers\n");
  console.log("| call | samples | p50 ms | max ms |");
  console.log("| --- | ---: | ---: | ---: |");
  for (
    const [name, args] of [
      ["canonical_smiles", { smiles: "CC(=O)Oc1ccccc1C(=O)O" }],
      ["parse_smiles", { smiles: "CC(=O)Oc1ccccc1C(=O)O" }],
    ] as const
  ) {
    const latencies = await behindList(name, args);
    figures[`${name} behind a list p50 ms`] = median(latencies);
    figures[`${name} behind a list max ms`] = max(latencies);
    console.log(
      `| ${name} | ${latencies.length} | ${median(latencies).toFixed(1)} | ${max(latencies).toFixed(1)} |`,
    );
  }
}

if (SECTIONS.includes("speed")) await speed();
if (SECTIONS.includes("latency")) await latency();
previous.save({ ...loadPreviousFigures(), ...figures });
