/**
 * List calls through a real server process over stdio (issue 24):
 *
 * - 1,000 molecules through `calc_properties` with one tool worker and with two (`CHEM_MCP_WORKERS`): wall time
 *   and the ratio (target ≥ 1.6×);
 * - per molecule, the one-worker list call against a single in-process `calc_properties` call on the same
 *   molecules (target ≤ 1.3×);
 * - a cheap call (`canonical_smiles`, in place) and a cheap pooled call (`parse_smiles`) sent while the
 *   1,000-molecule list runs on two workers: latency p50 and max (target for the cheap call: 20 ms).
 *
 * Run: npx deno run -A bench/list_bench.ts [--rounds 3] [--sections speed,latency]
 */
import process from "node:process";
import { LineClient, startServer, stopGroup } from "../tests/helpers/process.ts";
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
async function server(workers: number): Promise<{ client: LineClient; stop: () => Promise<void> }> {
  const child = startServer([], { CHEM_MCP_WORKERS: String(workers) }, true);
  let stderr = "";
  const warmed = new Promise<void>((resolve) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (/warmed up/.test(stderr)) resolve();
    });
  });
  const client = new LineClient(child);
  await call(client, "canonical_smiles", { smiles: "CCO" });
  await warmed;
  // One list call first, so every worker has run the chunk path once.
  await call(client, "calc_properties", { smiles_list: MOLECULES.slice(0, 200) });
  return { client, stop: () => stopGroup(child) };
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
async function speedRounds(): Promise<[number[], number[], number[]]> {
  await loadTestRDKit();
  for (const smiles of MOLECULES.slice(0, 200)) calcPropertiesTool.run({ smiles });
  const one = await server(1);
  const two = await server(2);
  try {
    const times: [number[], number[], number[]] = [[], [], []];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      for (const smiles of MOLECULES) calcPropertiesTool.run({ smiles });
      times[0].push(performance.now() - started);
      times[1].push(await call(one.client, "calc_properties", { smiles_list: MOLECULES }));
      times[2].push(await call(two.client, "calc_properties", { smiles_list: MOLECULES }));
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
      const list = call(client, "calc_properties", { smiles_list: MOLECULES }).finally(
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
  const one = median(ones);
  const two = median(twos);
  const single = median(inProcess);
  figures["1000 calc_properties, 1 worker ms"] = one;
  figures["1000 calc_properties, 2 workers ms"] = two;
  figures["1000 calc_properties in process ms"] = single;

  console.log(`\n1,000 molecules through calc_properties (median of ${ROUNDS})\n`);
  console.log("| what | ms | per molecule, ms | vs previous run |");
  console.log("| --- | ---: | ---: | ---: |");
  const row = (what: string, ms: number) =>
    console.log(
      `| ${what} | ${ms.toFixed(0)} | ${(ms / 1000).toFixed(3)} | ${
        previous.speedupFromTime(`${what} ms`, ms)
      } |`,
    );
  row("1000 calc_properties in process", single);
  row("1000 calc_properties, 1 worker", one);
  row("1000 calc_properties, 2 workers", two);
  console.log(`\n2 workers against 1: ${(one / two).toFixed(2)}× faster (target ≥ 1.6×)`);
  console.log(`1 worker per molecule against in process: ${(one / single).toFixed(2)}× (target ≤ 1.3×)`);
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
