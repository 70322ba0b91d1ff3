/**
 * canonical_smiles over stdio: requests/s and p50/p99 latency, one request at a time and 64 in flight, for
 * chem-mcp under Deno and Node and for the official SDK v2 server, plus the raw RDKit call in one process.
 * The servers of a row run side by side, each warmed up and settled first, and are timed in turns, so the
 * machine's other work weighs on all of them; each row also gives the server's CPU time per call (Linux).
 * Prints ratios. Run: deno run -A bench/stdio_bench.ts [--n 2000] [--node dist/src/runtime/node.js]
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import process from "node:process";
import { loadRDKit, rdkit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { loadPrevious } from "./previous.ts";

const N = Number(process.argv[process.argv.indexOf("--n") + 1]) || 2000;
/** The Node server's entry: the build's bundle unless `--node <path>` names another. */
const NODE_ENTRY = process.argv.includes("--node")
  ? process.argv[process.argv.indexOf("--node") + 1]!
  : "dist/src/runtime/node.js";
/** Untimed calls each server makes before any is timed. */
const WARM_UP = 500;
const SMILES = ["CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "CC(C)Cc1ccc(cc1)C(C)C(=O)O", "OCC"];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};

interface Latency {
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function figures(latencies: number[], elapsedMs: number): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rps: (latencies.length / elapsedMs) * 1000,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

function rawRdkit(): Latency {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < N * 5; i++) {
    const t = performance.now();
    const mol = rdkit().get_mol(SMILES[i % SMILES.length]!)!;
    mol.get_smiles();
    mol.delete();
    latencies.push(performance.now() - t);
  }
  return figures(latencies, performance.now() - start);
}

/** CPU time used so far by a process and every process below it, ms (Linux /proc; 0 elsewhere). */
function treeCpuMs(pid: number): number {
  if (!existsSync("/proc/self/stat")) return 0;
  const fields = (path: string) => {
    const stat = readFileSync(path, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  };
  let total = 0;
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(fields(`/proc/${entry}/stat`)[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while the table was read.
    }
  }
  for (const stack = [pid]; stack.length > 0;) {
    const next = stack.pop()!;
    try {
      const f = fields(`/proc/${next}/stat`);
      total += ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
    } catch {
      continue;
    }
    stack.push(...(children.get(next) ?? []));
  }
  return total;
}

/** Linux's USER_HZ, the unit of CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS = 100;

/**
 * Waits until the server has settled: its process tree uses under 5% of a core over a quarter of a second (at
 * most 60 s). What a server starts beside its first answers (chem-mcp's tool workers loading RDKit and making
 * their warm-up calls) is start-up, measured by bench/cold_start_bench.ts, not the protocol path timed here.
 */
async function settled(pid: number): Promise<void> {
  const until = performance.now() + 60_000;
  let before = treeCpuMs(pid);
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = treeCpuMs(pid);
    if (now - before < 12.5) return;
    before = now;
  }
}

/** One server process over stdio, kept running while the rows are measured in turns. */
class StdioServer {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #sentAt = new Map<number, number>();
  #buffer = "";
  #nextId = 0;
  #onAnswer: ((id: number, ms: number) => void) | undefined;

  constructor(cmd: string, args: string[]) {
    this.#child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.#child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.#read(chunk));
  }

  /** A discover round trip (RDKit loaded), then `calls` untimed calls (the call path compiled). */
  async warmUp(calls: number, inFlight: number): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#onAnswer = () => resolve();
      this.#child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: -1, method: "server/discover", params: { _meta: META } })}\n`,
      );
    });
    await this.run(calls, inFlight);
  }

  /** `count` calls with `inFlight` outstanding: their latencies, the wall time and the server's CPU time. */
  async run(count: number, inFlight: number): Promise<{ latencies: number[]; ms: number; cpuMs: number }> {
    const latencies: number[] = [];
    const cpuBefore = treeCpuMs(this.#child.pid!);
    const start = performance.now();
    let sent = 0;
    await new Promise<void>((resolve) => {
      this.#onAnswer = (_, ms) => {
        latencies.push(ms);
        if (latencies.length === count) resolve();
        else if (sent < count) sent += this.#send();
      };
      while (sent < Math.min(inFlight, count)) sent += this.#send();
    });
    const ms = performance.now() - start;
    return { latencies, ms, cpuMs: treeCpuMs(this.#child.pid!) - cpuBefore };
  }

  async close(): Promise<void> {
    this.#child.stdin.end();
    await new Promise((resolve) => this.#child.on("close", resolve));
  }

  get pid(): number {
    return this.#child.pid!;
  }

  #send(): 1 {
    const id = this.#nextId++;
    const smiles = SMILES[id % SMILES.length]!;
    this.#sentAt.set(id, performance.now());
    const params = { name: "canonical_smiles", arguments: { smiles }, _meta: META };
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`);
    return 1;
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let nl: number;
    while ((nl = this.#buffer.indexOf("\n")) !== -1) {
      const message = JSON.parse(this.#buffer.slice(0, nl)) as {
        id: number;
        result?: { structuredContent?: unknown };
      };
      this.#buffer = this.#buffer.slice(nl + 1);
      if (message.id !== -1 && !message.result?.structuredContent) {
        throw new Error(`bad answer: ${JSON.stringify(message)}`);
      }
      const sentAt = this.#sentAt.get(message.id);
      this.#sentAt.delete(message.id);
      this.#onAnswer?.(message.id, sentAt === undefined ? 0 : performance.now() - sentAt);
    }
  }
}

/** Rows measured in turns, each server getting ROUNDS slices of N calls, so load on the machine hits all alike. */
const ROUNDS = 4;

/** What one server did over its turns. */
interface Row extends Latency {
  /** The server's CPU time (its process tree) per call, µs; 0 where /proc is missing. */
  cpuUs: number;
}

/**
 * Every server at `inFlight`: started together, warmed up (WARM_UP untimed calls each) and left to settle, then
 * timed in ROUNDS turns (the order rotating each round), so a burst of other work on the machine falls on all.
 */
async function measureInTurns(
  servers: readonly [string, string, string[]][],
  inFlight: number,
): Promise<Record<string, Row>> {
  const running = servers.map(([, cmd, args]) => new StdioServer(cmd, args));
  for (const server of running) await server.warmUp(WARM_UP, inFlight);
  for (const server of running) await settled(server.pid);
  const totals = running.map(() => ({ latencies: [] as number[], ms: 0, cpuMs: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < running.length; turn++) {
      const index = (round + turn) % running.length;
      const slice = await running[index]!.run(Math.ceil(N / ROUNDS), inFlight);
      totals[index]!.latencies.push(...slice.latencies);
      totals[index]!.ms += slice.ms;
      totals[index]!.cpuMs += slice.cpuMs;
    }
  }
  await Promise.all(running.map((server) => server.close()));
  return Object.fromEntries(servers.map(([name], i) => {
    const { latencies, ms, cpuMs } = totals[i]!;
    return [`${name}, ${inFlight} in flight`, {
      ...figures(latencies, ms),
      cpuUs: (cpuMs * 1000) / latencies.length,
    }];
  }));
}

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const deno = process.execPath;
const servers: [string, string, string[]][] = [
  ["chem-mcp (Deno)", deno, ["run", "-A", "mod.ts"]],
  ["official SDK v2 server (Deno)", deno, ["run", "-A", "bench/sdk_server.ts"]],
];
if (existsSync(NODE_ENTRY)) {
  servers.push(["chem-mcp (Node)", "node", [NODE_ENTRY]]);
}

const raw = rawRdkit();
const rows: Record<string, Latency & Partial<Row>> = { "raw RDKit call (in process)": raw };
for (const inFlight of [1, 64]) Object.assign(rows, await measureInTurns(servers, inFlight));

const previous = loadPrevious("stdio");
const sdk1 = rows["official SDK v2 server (Deno), 1 in flight"]!;
const sdk64 = rows["official SDK v2 server (Deno), 64 in flight"]!;
console.log(`canonical_smiles over stdio, ${N} requests per row (${ROUNDS} turns of ${N / ROUNDS})\n`);
console.log(
  "| row | req/s | p50 ms | p99 ms | server CPU µs/req | vs raw RDKit | vs SDK (same in-flight) | vs previous run |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, f] of Object.entries(rows)) {
  const sdk = name.endsWith("64 in flight") ? sdk64 : name.endsWith("1 in flight") ? sdk1 : undefined;
  const cpu = f.cpuUs ? f.cpuUs.toFixed(0) : "–";
  console.log(
    `| ${name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(3)} | ${f.p99.toFixed(3)} | ${cpu} | ${
      (f.rps / raw.rps).toFixed(3)
    }× | ` +
      `${sdk ? (f.rps / sdk.rps).toFixed(2) + "×" : "–"} | ${previous.speedup(name, f.rps)} |`,
  );
}
previous.save(Object.fromEntries(Object.entries(rows).map(([name, f]) => [name, f.rps])));
