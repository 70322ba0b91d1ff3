/**
 * Latency under mixed load, for chem-mcp under Deno, under Node and as the single-executable binary, over stdio
 * and Streamable HTTP:
 *
 * - a cheap call (canonical_smiles of atorvastatin) alone, right behind a burst of 8 heavy calls
 *   (molecule_context_pack of atorvastatin), and while 1, 8 and 32 heavy calls are kept in flight: p50/p99;
 * - heavy calls per second with one tool worker (`CHEM_MCP_WORKERS=1`) and with the default pool, as a ratio;
 * - each pooled tool's first call in a fresh process, sent once the process has gone quiet, its pool started
 *   and warmed up (the time from the process's start to then is printed too), as a ratio to its steady-state time; and the context pack sent at once
 *   with the first answer, before the pool has started;
 * - the memory one more worker costs (RSS with 3 workers against 1, warmed up and used).
 *
 * Prints ratios to the previous run (bench/previous.ts). The binary row needs `.cache/artifacts/sea/chem-mcp`
 * (built by scripts/build_sea.ts or `deno run -A scripts/test.ts --only artifacts`); Node needs `npm run build`.
 * Run: deno run -A bench/mixed_load_bench.ts [--runtimes deno,node,sea] [--transports stdio,http]
 *   [--sections latency,rate,first,memory] [--samples 100]
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { treeUsage } from "../tests/helpers/process.ts";
import { type Figures, loadPrevious } from "./previous.ts";
import { available, httpServer as startHttp, type Server, stdioServer as startStdio } from "./servers.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const RUNTIMES = option("--runtimes", "deno,node,sea").split(",");
const TRANSPORTS = option("--transports", "stdio,http").split(",");
const SECTIONS = option("--sections", "latency,rate,first,memory").split(",");
const SAMPLES = Number(option("--samples", "100"));
const ATORVASTATIN = "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O";
const ROSUVASTATIN = "CC(C)c1nc(N(C)S(C)(=O)=O)nc(-c2ccc(F)cc2)c1/C=C/[C@@H](O)C[C@@H](O)CC(=O)O";
const CHEAP = { name: "canonical_smiles", arguments: { smiles: ATORVASTATIN } };
const HEAVY = { name: "molecule_context_pack", arguments: { smiles: ATORVASTATIN } };
/** Every tool that runs in the pool (its placement, src/tools/placement.ts), with its first call. */
const POOLED_CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  HEAVY,
  { name: "retrosynthesis", arguments: { smiles: ATORVASTATIN } },
  { name: "sa_score", arguments: { smiles: ATORVASTATIN } },
  { name: "pains_check", arguments: { smiles: ATORVASTATIN } },
  { name: "brenk_check", arguments: { smiles: ATORVASTATIN } },
  { name: "representation_router", arguments: { smiles: ATORVASTATIN, task: "deduplicate by identity" } },
  { name: "calc_properties", arguments: { smiles: ATORVASTATIN } },
  { name: "lipinski_check", arguments: { smiles: ATORVASTATIN } },
  { name: "admet_profile", arguments: { smiles: ATORVASTATIN } },
  { name: "boiled_egg", arguments: { smiles: ATORVASTATIN } },
  { name: "parse_smiles", arguments: { smiles: ATORVASTATIN } },
  { name: "smarts_match", arguments: { smiles: ATORVASTATIN, smarts: "c1ccccc1" } },
  { name: "find_mcs", arguments: { smiles_list: [ATORVASTATIN, ROSUVASTATIN] } },
  { name: "generate_3d", arguments: { smiles: ATORVASTATIN } },
];
/** A server over stdio that has answered its first call (RDKit loaded). */
async function stdioServer(runtime: string, env: Record<string, string> = {}): Promise<Server> {
  const server = startStdio(runtime, env);
  await server.call(CHEAP);
  return server;
}

/** A server over HTTP that has answered its first call; more connections than the heaviest load row keeps open. */
async function httpServer(runtime: string, env: Record<string, string> = {}): Promise<Server> {
  const server = await startHttp(runtime, 64, env);
  await server.call(CHEAP);
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/** Cheap-call latencies, one after another, with a short random pause so they meet the load in every phase. */
async function cheapLatencies(server: Server, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    times.push(await server.call(CHEAP));
    await sleep(Math.random() * 4);
  }
  return times;
}

/** Cheap-call latencies while `inFlight` heavy calls are kept running (each answered one is sent again). */
async function underLoad(server: Server, inFlight: number): Promise<number[]> {
  let running = true;
  const loops = Array.from({ length: inFlight }, async () => {
    while (running) await server.call(HEAVY);
  });
  await sleep(300);
  const times = await cheapLatencies(server, SAMPLES);
  running = false;
  await Promise.all(loops);
  return times;
}

/** The case: 8 heavy calls sent, then one cheap call at once; its latency, over several rounds. */
async function behindBurst(server: Server, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const heavy = Array.from({ length: 8 }, () => server.call(HEAVY));
    times.push(await server.call(CHEAP));
    await Promise.all(heavy);
  }
  return times;
}

/** Heavy calls per second with 16 in flight. */
async function heavyRate(server: Server, total: number): Promise<number> {
  let sent = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (sent++ < total) await server.call(HEAVY);
  }));
  return total / ((performance.now() - start) / 1000);
}

/**
 * What the machine gives two threads at the moment: throughput of two CPU-bound processes at once over one
 * alone (2× on two idle cores). The pool's ratio cannot exceed it; other work on the machine lowers it.
 */
async function parallelCeiling(): Promise<number> {
  const busy = () =>
    new Promise<void>((resolve) =>
      spawn("node", ["-e", "let x = 0; for (let i = 0; i < 4e8; i++) x += i;"]).on("close", () => resolve())
    );
  let start = performance.now();
  await busy();
  const one = performance.now() - start;
  start = performance.now();
  await Promise.all([busy(), busy()]);
  return (2 * one) / (performance.now() - start);
}

async function warm(server: Server): Promise<void> {
  await sleep(1000);
  for (let i = 0; i < 10; i++) {
    await Promise.all([server.call(HEAVY), server.call(HEAVY), server.call(CHEAP)]);
  }
}

/** Resident memory of the server and its tool workers (processes under Deno), MiB. */
function rssMiB(pid: number): number {
  return treeUsage(pid).rssKiB / 1024;
}

const previous = loadPrevious("mixed_load");
const figures: Figures = {};
const ms = (value: number) => value.toFixed(1);

for (const runtime of RUNTIMES) {
  if (!available(runtime)) {
    console.log(`\n## ${runtime}: not built, skipped`);
    continue;
  }
  console.log(`\n## ${runtime}\n`);
  const rates: string[] = [];
  for (const [transport, start] of [["stdio", stdioServer], ["http", httpServer]] as const) {
    if (!TRANSPORTS.includes(transport)) continue;
    if (SECTIONS.includes("latency")) {
      console.log(`${transport}: cheap call latency\n`);
      console.log("| cheap call | p50 ms | p99 ms | p99 vs previous run |");
      console.log("| --- | ---: | ---: | ---: |");
      const row = (what: string, times: number[]) => {
        const { p50, p99 } = percentiles(times);
        const key = `${runtime} ${transport} ${what} p99`;
        console.log(`| ${what} | ${ms(p50)} | ${ms(p99)} | ${previous.speedupFromTime(key, p99)} |`);
        figures[key] = p99;
      };
      const server = await start(runtime);
      await warm(server);
      row("alone", await cheapLatencies(server, SAMPLES));
      row("right behind a burst of 8 heavy", await behindBurst(server, 30));
      for (const inFlight of [1, 8, 32]) {
        row(`${inFlight} heavy in flight`, await underLoad(server, inFlight));
      }
      await server.stop();
      console.log();
    }
    if (SECTIONS.includes("rate")) {
      const pooledServer = await start(runtime);
      await warm(pooledServer);
      const pooled = await heavyRate(pooledServer, 160);
      await pooledServer.stop();
      const single = await start(runtime, { CHEM_MCP_WORKERS: "1" });
      await warm(single);
      const one = await heavyRate(single, 160);
      await single.stop();
      const key = `${runtime} ${transport} heavy calls/s, default pool`;
      figures[key] = pooled;
      rates.push(
        `| ${transport} | ${one.toFixed(1)} | ${pooled.toFixed(1)} | ${(pooled / one).toFixed(2)}× | ${
          previous.speedup(key, pooled)
        } |`,
      );
    }
  }
  if (rates.length > 0) {
    console.log(
      `molecule_context_pack calls/s, 16 in flight (two busy processes get ${
        (await parallelCeiling()).toFixed(2)
      }× one on this machine now)\n`,
    );
    console.log("| transport | 1 worker | default pool | ratio | pool vs previous run |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const line of rates) console.log(line);
  }

  if (SECTIONS.includes("first")) {
    console.log(
      "\nfirst call in a fresh process (stdio) once the pool is warm, against the median of the next 10\n",
    );
    console.log(
      "| tool | quiet after ms | first call ms | steady ms | ratio | first call vs previous run |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const call of POOLED_CALLS) {
      const server = await stdioServer(runtime);
      const warmMs = (await server.settled()).toFixed(0);
      const first = await server.call(call);
      const next: number[] = [];
      for (let i = 0; i < 10; i++) next.push(await server.call(call));
      await server.stop();
      const steady = percentiles(next).p50;
      const key = `${runtime} first ${call.name}`;
      figures[key] = first;
      console.log(
        `| ${call.name} | ${warmMs} | ${ms(first)} | ${ms(steady)} | ${(first / steady).toFixed(2)}× | ${
          previous.speedupFromTime(key, first)
        } |`,
      );
    }
    const eager = await stdioServer(runtime);
    const atOnce = await eager.call(HEAVY);
    await eager.stop();
    const atOnceKey = `${runtime} first ${HEAVY.name}, sent with the first cheap answer`;
    figures[atOnceKey] = atOnce;
    console.log(
      `| ${HEAVY.name}, sent with the first cheap answer | | ${ms(atOnce)} | | | ${
        previous.speedupFromTime(atOnceKey, atOnce)
      } |`,
    );
  }
  if (!SECTIONS.includes("memory")) continue;

  const rss: number[] = [];
  for (const workers of ["1", "3"]) {
    const server = await stdioServer(runtime, { CHEM_MCP_WORKERS: workers });
    await warm(server);
    await Promise.all(Array.from({ length: 6 }, () => server.call(HEAVY)));
    await sleep(500);
    rss.push(rssMiB(server.pid));
    await server.stop();
  }
  const perWorker = (rss[1]! - rss[0]!) / 2;
  figures[`${runtime} MiB per worker`] = perWorker;
  console.log(
    `\nRSS warmed up: ${ms(rss[0]!)} MiB with 1 worker, ${ms(rss[1]!)} MiB with 3: ${
      ms(perWorker)
    } MiB per worker`,
  );
}
if (
  process.argv.length > 2 &&
  process.argv.some((arg) => ["--runtimes", "--transports", "--sections"].includes(arg))
) {
  console.log("\n(a partial run: figures not saved for the next comparison)");
} else previous.save(figures);
