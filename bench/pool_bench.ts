/**
 * The worker pool's policy through real server processes over stdio, each figure a ratio to a baseline measured
 * in the same run (rounds interleaved), for Deno, Node and, when built, the single executable:
 *
 * - `one-worker`: 200 sequential `smarts_match` calls with `CHEM_MCP_WORKERS=1` against 2: wall and CPU (the
 *   server's whole process tree, /proc) per call, and the ratio (target ≤ 3×); workers started meanwhile.
 * - `lists`: `generate_3d` over 100 molecules as `batch` calls of 10 sent at once, 2 workers against 1, set
 *   against two plain one-worker servers sharing the same 100 against one (the machine's own ceiling; target
 *   ≥ 0.85×).
 * - `overhead`: the CPU a pooled `smarts_match` costs the server's process tree per call, sequential calls on
 *   a warm server, against the same RDKit work in a plain Node script (parse, query, match, JSON), so what the
 *   protocol, the schemas and the worker round trip add is the difference.
 * - `memory`: a started, idle server with 2 workers: RSS and PSS of its process tree (Linux smaps_rollup).
 * - `busy`: with 2 CPU-bound programs per core beside it, a fresh server's 100 calls at once over every tool and
 *   a warm one's 300 calls 16 in flight: calls refused or failed, and the time taken.
 * - `deadline`: how far past its `timeout_seconds` of 1 a runaway `smarts_match` and a runaway `find_mcs` are
 *   answered, timed by the client of a settled server, on a quiet machine and beside 2 CPU-bound programs per
 *   core (what the tests' `HANDOVER_MS` allows for, tests/helpers/timing.ts).
 * - `cancel`: on a settled one-worker server, a runaway `smarts_match` (limit 20 s) cancelled after 500 ms, then
 *   `calc_properties`: ms from the cancel to its answer (the 1 s rule of issue 24), against the same call after a
 *   search retired its worker at a 1 s limit instead; quiet and beside 2 CPU-bound programs per core.
 *
 * Run: npx deno run -A bench/pool_bench.ts [--rounds 3]
 * [--sections one-worker,lists,memory,busy,overhead,deadline,cancel]
 * [--runtimes deno,node,sea]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import process from "node:process";
import { available, type Call, type Server, type StdioServer, stdioServer } from "./servers.ts";
import { processTree, treeUsage } from "../tests/helpers/process.ts";
import { HUNDRED_MOLECULES } from "../tests/helpers/budget.ts";
import { TOOL_EXAMPLES } from "../tests/helpers/examples.ts";
import { startLookupStub } from "../tests/helpers/lookup_stub.ts";
import { SPARE_LINGER_MS } from "../src/pool/policy.ts";
import { RUNAWAY_MCS, RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../tests/data/runaway.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const ROUNDS = Number(option("--rounds", "3")) || 3;
const SECTIONS = option("--sections", "one-worker,lists,memory,busy,overhead,deadline,cancel").split(",");
const RUNTIMES = option("--runtimes", "deno,node,sea").split(",").filter(available);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

/** Starts a server and waits until its pool has started and gone quiet. */
async function settledServer(
  runtime: string,
  workers: number,
  env: Record<string, string> = {},
): Promise<StdioServer> {
  // `batch` beside the twenty, for the lists.
  const server = stdioServer(runtime, { CHEM_MCP_WORKERS: String(workers), ...env }, [
    "--tools",
    "spec,batch",
  ]);
  await server.call({ name: "canonical_smiles", arguments: { smiles: "CCO" } });
  // Work for every worker, then quiet: on a loaded machine the niced workers' start can look quiet by itself.
  // (settled: a search refused behind a slow one on a loaded machine changes nothing here)
  const work = ["molecule_context_pack", "generate_3d", "smarts_match", "calc_properties"];
  await Promise.allSettled(
    work.flatMap((name) => [0, 1].map(() => server.call({ name, arguments: TOOL_EXAMPLES[name]! }))),
  );
  await server.settled();
  return server;
}

const SEARCH: Call = {
  name: "smarts_match",
  arguments: { smiles: "CC(=O)Oc1ccccc1C(=O)O", smarts: "[OX2H]" },
};

/** Wall and CPU ms per call of `count` sequential searches. */
async function perSearch(server: Server, count: number): Promise<{ wall: number; cpu: number }> {
  const cpu = treeUsage(server.pid).cpuMs;
  const started = performance.now();
  for (let i = 0; i < count; i++) await server.call(SEARCH);
  return { wall: (performance.now() - started) / count, cpu: (treeUsage(server.pid).cpuMs - cpu) / count };
}

async function oneWorker(): Promise<void> {
  console.log("\n## one worker: 200 sequential smarts_match calls, per call\n");
  console.log("| runtime | workers | wall ms (median) | range | CPU ms (median) | range |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const runtime of RUNTIMES) {
    const figures: Record<number, { wall: number[]; cpu: number[] }> = {
      1: { wall: [], cpu: [] },
      2: { wall: [], cpu: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const workers of [1, 2]) {
        const server = await settledServer(runtime, workers);
        try {
          const { wall, cpu } = await perSearch(server, 200);
          figures[workers]!.wall.push(wall);
          figures[workers]!.cpu.push(cpu);
        } finally {
          await server.stop();
        }
      }
    }
    for (const workers of [1, 2]) {
      const f = figures[workers]!;
      console.log(
        `| ${runtime} | ${workers} | ${median(f.wall).toFixed(2)} | ${range(f.wall, 2)} | ${
          median(f.cpu).toFixed(2)
        } | ${range(f.cpu, 2)} |`,
      );
    }
    const ratio = (key: "wall" | "cpu") => median(figures[1]![key]) / median(figures[2]![key]);
    console.log(`| ${runtime} | 1 vs 2 | ${ratio("wall").toFixed(2)}× | | ${ratio("cpu").toFixed(2)}× | |`);
  }
}

const MOLECULES = Array.from({ length: 100 }, (_, i) => HUNDRED_MOLECULES[i % HUNDRED_MOLECULES.length]!);

/** ms for `molecules` through generate_3d on `server`, as `batch` calls of at most 10 (its cap) sent at once. */
async function run3d(server: Server, molecules: readonly string[]): Promise<number> {
  const started = performance.now();
  const lists = Array.from(
    { length: Math.ceil(molecules.length / 10) },
    (_, i) => molecules.slice(10 * i, 10 * i + 10),
  );
  await Promise.all(
    lists.map((list) =>
      server.call({ name: "batch", arguments: { tool: "generate_3d", smiles_list: list } })
    ),
  );
  return performance.now() - started;
}

async function lists(): Promise<void> {
  console.log("\n## generate_3d over 100 molecules, 10 batch calls at once\n");
  console.log(
    "| runtime | 1 worker ms | 2 workers ms | speed-up | two plain 1-worker servers | ceiling | ratio |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const runtime of RUNTIMES) {
    const one: number[] = [];
    const two: number[] = [];
    const plainOne: number[] = [];
    const plainTwo: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const w1 = await settledServer(runtime, 1);
      const w2 = await settledServer(runtime, 2);
      const other = await settledServer(runtime, 1);
      try {
        // Warm every server on the same work first: the force field reaches its optimised form on the way.
        await Promise.all([w1, w2, other].map((s) => run3d(s, MOLECULES.slice(0, 10))));
        one.push(await run3d(w1, MOLECULES));
        two.push(await run3d(w2, MOLECULES));
        plainOne.push(await run3d(other, MOLECULES));
        const started = performance.now();
        await Promise.all([run3d(w1, MOLECULES.slice(0, 50)), run3d(other, MOLECULES.slice(50))]);
        plainTwo.push(performance.now() - started);
      } finally {
        await Promise.all([w1, w2, other].map((s) => s.stop()));
      }
    }
    const speedUp = median(one) / median(two);
    const ceiling = median(plainOne) / median(plainTwo);
    console.log(
      `| ${runtime} | ${median(one).toFixed(0)} (${range(one)}) | ${median(two).toFixed(0)} (${
        range(two)
      }) | ${speedUp.toFixed(2)}× | ${median(plainTwo).toFixed(0)} against ${median(plainOne).toFixed(0)} | ${
        ceiling.toFixed(2)
      }× | ${(speedUp / ceiling).toFixed(2)} |`,
    );
  }
}

/** RSS and PSS of a process tree, MiB, and the RSS of each process. */
function memory(pid: number): { rss: number; pss: number; each: number[] } {
  let rss = 0;
  let pss = 0;
  const each: number[] = [];
  for (const { pid: p } of processTree(pid)) {
    const rollup = readFileSync(`/proc/${p}/smaps_rollup`, "utf8");
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0) / 1024;
    rss += field("Rss");
    pss += field("Pss");
    each.push(Math.round(field("Rss")));
  }
  return { rss, pss, each };
}

async function memorySection(): Promise<void> {
  if (!existsSync("/proc/self/smaps_rollup")) return console.log("\n(memory: no /proc here)");
  console.log("\n## idle memory, 2 workers started and warm\n");
  console.log("| runtime | RSS MiB (median) | range | PSS MiB (median) | range | RSS per process MiB |");
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  const figures = new Map<string, { rss: number[]; pss: number[]; each: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const runtime of RUNTIMES) {
      const server = await settledServer(runtime, 2);
      try {
        // A spare started while the warm-up work ran goes once its linger has passed.
        await new Promise((resolve) => setTimeout(resolve, SPARE_LINGER_MS + 2_000));
        const m = memory(server.pid);
        const f = figures.get(runtime) ?? { rss: [], pss: [], each: m.each };
        f.rss.push(m.rss);
        f.pss.push(m.pss);
        figures.set(runtime, f);
      } finally {
        await server.stop();
      }
    }
  }
  for (const [runtime, f] of figures) {
    console.log(
      `| ${runtime} | ${median(f.rss).toFixed(0)} | ${range(f.rss)} | ${median(f.pss).toFixed(0)} | ${
        range(f.pss)
      } | ${f.each.join(", ")} |`,
    );
  }
  const node = figures.get("node");
  const deno = figures.get("deno");
  if (node && deno) {
    console.log(
      `\nDeno against Node: RSS ${(median(deno.rss) / median(node.rss)).toFixed(2)}×, PSS ${
        (median(deno.pss) / median(node.pss)).toFixed(2)
      }×`,
    );
  }
}

/** Every tool's example call in turn. */
function honestCalls(count: number): Call[] {
  const tools = Object.keys(TOOL_EXAMPLES).sort();
  return Array.from(
    { length: count },
    (_, i) => ({ name: tools[i % tools.length]!, arguments: TOOL_EXAMPLES[tools[i % tools.length]!]! }),
  );
}

/** Sends `calls`, `inFlight` at a time; resolves with how many failed and the ms taken. */
async function sendAll(
  server: Server,
  calls: Call[],
  inFlight: number,
): Promise<{ failed: string[]; ms: number }> {
  const failed: string[] = [];
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < calls.length) {
      const call = calls[next++]!;
      await server.call(call).catch((error: Error) =>
        failed.push(`${call.name}: ${error.message.slice(0, 160)}`)
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { failed, ms: performance.now() - started };
}

/** How many CPU-bound programs make the busy machine of the sections that measure one: 2 per core. */
const BURNERS = 2 * availableParallelism();

async function busy(): Promise<void> {
  console.log(`\n## beside ${BURNERS} CPU-bound programs (2 per core)\n`);
  console.log("| runtime | trial | fresh: 100 at once failed | ms | warm: 300, 16 in flight failed | ms |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  const lookup = await startLookupStub();
  const burners = startBurners();
  try {
    for (let trial = 1; trial <= ROUNDS; trial++) {
      for (const runtime of RUNTIMES) {
        const server = stdioServer(runtime, { CHEM_MCP_NAME_LOOKUP_URL: lookup });
        try {
          await server.call({ name: "canonical_smiles", arguments: { smiles: "CCO" } });
          const fresh = await sendAll(server, honestCalls(100), 100);
          const warm = await sendAll(server, honestCalls(300), 16);
          console.log(
            `| ${runtime} | ${trial} | ${fresh.failed.length} | ${
              fresh.ms.toFixed(0)
            } | ${warm.failed.length} | ${warm.ms.toFixed(0)} |`,
          );
          for (const failure of [...fresh.failed, ...warm.failed].slice(0, 3)) console.log(`  ${failure}`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    stopBurners(burners);
  }
}

/** {@link BURNERS} CPU-bound programs that never end. */
function startBurners(): ChildProcess[] {
  return Array.from(
    { length: BURNERS },
    () => spawn(process.execPath, ["eval", "for (;;) {}"], { stdio: "ignore" }),
  );
}

function stopBurners(burners: ChildProcess[]): void {
  for (const burner of burners) burner.kill("SIGKILL");
}

/** What `measure` gives on a quiet machine, then beside {@link BURNERS} CPU-bound programs. */
async function quietThenBusy<T>(measure: () => Promise<T>): Promise<{ quiet: T; busy: T }> {
  const quiet = await measure();
  const burners = startBurners();
  return { quiet, busy: await measure().finally(() => stopBurners(burners)) };
}

/** A table row of the quiet-then-busy sections: median and max of each, ms. */
function quietBusyRow(runtime: string, label: string, quiet: number[], busy: number[]): string {
  const figures = [median(quiet), Math.max(...quiet), median(busy), Math.max(...busy)].map((ms) =>
    ms.toFixed(0)
  );
  return `| ${runtime} | ${label} | ${figures.join(" | ")} |`;
}

/** The RDKit work of {@link SEARCH} in a plain Node script: CPU ms per call, `count` calls after a warm-up. */
function plainSearchCpuMs(count: number): Promise<number> {
  const script = `
const rdkit = await require("@rdkit/rdkit")();
const run = () => {
  const mol = rdkit.get_mol(${JSON.stringify(SEARCH.arguments.smiles)});
  const query = rdkit.get_qmol(${JSON.stringify(SEARCH.arguments.smarts)});
  JSON.parse(mol.get_substruct_matches(query));
  mol.delete();
  query.delete();
};
for (let i = 0; i < 200; i++) run();
const before = process.cpuUsage();
for (let i = 0; i < ${count}; i++) run();
const used = process.cpuUsage(before);
console.log((used.user + used.system) / 1000 / ${count});`;
  return new Promise((resolve, reject) => {
    const child = spawn("node", ["--input-type=commonjs", "-e", `(async () => {${script}})()`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("close", (code) => code === 0 ? resolve(Number(out.trim())) : reject(new Error(`exit ${code}`)));
  });
}

async function overhead(): Promise<void> {
  console.log("\n## a pooled smarts_match's CPU per call, against the same RDKit work in a plain script\n");
  console.log("| runtime | server CPU ms (median) | range | plain RDKit ms (median) | added ms | ratio |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  const plain: number[] = [];
  const server = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await plainSearchCpuMs(2000));
    for (const runtime of RUNTIMES) {
      const s = await settledServer(runtime, 2);
      try {
        await perSearch(s, 200); // warm: the same call's path compiled and optimised
        const { cpu } = await perSearch(s, 1000);
        server.set(runtime, [...server.get(runtime) ?? [], cpu]);
      } finally {
        await s.stop();
      }
    }
  }
  for (const [runtime, cpu] of server) {
    console.log(
      `| ${runtime} | ${median(cpu).toFixed(3)} | ${range(cpu, 3)} | ${median(plain).toFixed(3)} | ${
        (median(cpu) - median(plain)).toFixed(3)
      } | ${(median(cpu) / median(plain)).toFixed(2)}× |`,
    );
  }
}

/** Runaway calls with a 1 s limit: each ends at its deadline (the pool's, or the search's own). */
const RUNAWAYS: Call[] = [
  {
    name: "smarts_match",
    arguments: { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 1 },
  },
  {
    name: "find_mcs",
    arguments: { ...RUNAWAY_MCS, timeout_seconds: 1 },
  },
];

/** Ms past the 1 s limit at which each of {@link RUNAWAYS} was answered, `ROUNDS` times each in turn. */
async function overshoots(server: Server): Promise<Map<string, number[]>> {
  const past = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const call of RUNAWAYS) {
      const started = performance.now();
      await server.call(call).catch(() => {}); // COMPUTATION_TIMEOUT is the expected answer of a search
      past.set(call.name, [...past.get(call.name) ?? [], performance.now() - started - 1_000]);
    }
  }
  return past;
}

async function deadline(): Promise<void> {
  console.log(
    `\n## ms past a 1 s timeout_seconds, as the client sees it: quiet, and beside ${BURNERS} CPU-bound programs\n`,
  );
  console.log("| runtime | tool | quiet median | quiet max | busy median | busy max |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  const measure = async (runtime: string) => {
    const server = await settledServer(runtime, 2);
    try {
      return await overshoots(server);
    } finally {
      await server.stop();
    }
  };
  for (const runtime of RUNTIMES) {
    const { quiet, busy } = await quietThenBusy(() => measure(runtime));
    for (const { name } of RUNAWAYS) {
      console.log(quietBusyRow(runtime, name, quiet.get(name)!, busy.get(name)!));
    }
  }
}

const HONEST: Call = { name: "calc_properties", arguments: { smiles: "CCO" } };

/**
 * Ms from a runaway search's cancel to the answer of the honest call sent right after it, and from a search's
 * timeout to the same call's answer, `ROUNDS` times each on one settled one-worker server.
 */
async function afterRetirement(runtime: string): Promise<{ cancel: number[]; timeout: number[] }> {
  const server = await settledServer(runtime, 1);
  const cancel: number[] = [];
  const timeout: number[] = [];
  const search = RUNAWAYS[0]!;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await server.cancelAfter({ ...search, arguments: { ...search.arguments, timeout_seconds: 20 } }, 500);
      cancel.push(await server.call(HONEST));
      await server.settled(); // the replaced worker's warm-up calls done
      await server.call(search).catch(() => {}); // COMPUTATION_TIMEOUT is the expected answer
      timeout.push(await server.call(HONEST));
      await server.settled();
    }
    return { cancel, timeout };
  } finally {
    await server.stop();
  }
}

async function cancelSection(): Promise<void> {
  console.log(
    `\n## one worker: ms from a search's end to the next pooled answer, quiet and beside ${BURNERS} CPU-bound programs\n`,
  );
  console.log("| runtime | search ended by | quiet median | quiet max | busy median | busy max |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const runtime of RUNTIMES) {
    const { quiet, busy } = await quietThenBusy(() => afterRetirement(runtime));
    for (const key of ["cancel", "timeout"] as const) {
      console.log(quietBusyRow(runtime, key, quiet[key], busy[key]));
    }
  }
}

console.log(`load average before: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
if (SECTIONS.includes("one-worker")) await oneWorker();
if (SECTIONS.includes("lists")) await lists();
if (SECTIONS.includes("memory")) await memorySection();
if (SECTIONS.includes("busy")) await busy();
if (SECTIONS.includes("overhead")) await overhead();
if (SECTIONS.includes("deadline")) await deadline();
if (SECTIONS.includes("cancel")) await cancelSection();
console.log(
  `\nload average after: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
process.exit(0);
