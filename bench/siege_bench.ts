/**
 * Siege: an honest client's success rate and latency while a mix of attacks runs against the same Streamable
 * HTTP server for several minutes, with the memory of the server's process tree (workers included) before and
 * after.
 *
 * The attackers, all at once, each in a loop until the time is up:
 * - runaway substructure searches (`smarts_match`, 3 s limit) and 300-atom aromatic rings through
 *   `molecule_context_pack` and `representation_router`;
 * - recursive SMARTS nested 200 deep, and 1 MiB lists of numbers as `find_mcs` arguments;
 * - 16 slow clients dripping header bytes, reconnecting whenever dropped;
 * - connections reset as soon as they open (RST), and requests half-closed after sending.
 *
 * The honest client sends one `calc_properties` and one `canonical_smiles` call at a time, back to back; a call
 * succeeds when it gets HTTP 200 with the right answer. SERVER_BUSY and 503 count as failures.
 *
 * Prints the figures and ratios to the previous run (bench/previous.ts). Run:
 *   deno run -A bench/siege_bench.ts [--runtimes deno,node,sea] [--seconds 180] [--workers 2]
 * The `sea` row needs `.cache/artifacts/sea/chem-mcp` (scripts/build_sea.ts); Node needs `npm run build`.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import process from "node:process";
import { mcpHeaders, post } from "../tests/helpers/http.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../tests/data/runaway.ts";
import { type Figures, loadPrevious } from "./previous.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const RUNTIMES = option("--runtimes", "deno,node,sea").split(",");
const SECONDS = Number(option("--seconds", "180"));
const WORKERS = option("--workers", "2");
const RING300 = "c1" + "c".repeat(298) + "c1";

const COMMANDS: Record<string, string[]> = {
  deno: [process.execPath, "run", "-A", "mod.ts"],
  node: ["node", "dist/src/runtime/node.js"],
  sea: [".cache/artifacts/sea/chem-mcp"],
};

function body(name: string, args: unknown, id = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
}

function request(name: string, args: unknown): string {
  return post(body(name, args), mcpHeaders("tools/call", name));
}

/** Sends one request on a fresh connection; resolves with the status and body, or status 0 on a socket error. */
function send(port: number, raw: string, halfClose = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => resolve({ status: 0, body: "" }));
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.write(raw, () => {
      if (halfClose) socket.end();
    });
  });
}

/** Starts the server on a free port and resolves once it listens. */
function startServer(cmd: string[]): Promise<{ port: number; pid: number; stop: () => void }> {
  const child = spawn(cmd[0]!, [...cmd.slice(1), "--transport", "streamable-http", "--port", "0"], {
    env: { ...process.env, CHEM_MCP_WORKERS: WORKERS },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      const port = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr)?.[1];
      if (port) resolve({ port: Number(port), pid: child.pid!, stop: () => child.kill("SIGKILL") });
    });
    child.on("close", (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}

/** Resident memory of a process and all its descendants, MiB. */
function treeRssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  let kib = 0;
  const visit = (p: number) => {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return kib / 1024;
}

/** Runs `attack` over and over until `until`. */
async function loop(until: number, attack: () => Promise<unknown>): Promise<number> {
  let count = 0;
  while (Date.now() < until) {
    await attack();
    count++;
  }
  return count;
}

/** One dripping client: a header byte every 2 s, reconnecting when dropped. */
async function drip(port: number, until: number): Promise<number> {
  let connections = 0;
  while (Date.now() < until) {
    connections++;
    await new Promise<void>((done) => {
      const socket: Socket = connect(port, "127.0.0.1");
      const head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: " + "a".repeat(10_000);
      let i = 0;
      const timer = setInterval(() => {
        if (Date.now() >= until || socket.destroyed) {
          clearInterval(timer);
          socket.destroy();
          return done();
        }
        socket.write(head[i++ % head.length]!);
      }, 2_000);
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(timer);
        done();
      });
    });
  }
  return connections;
}

function reset(port: number): Promise<void> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.resetAndDestroy();
      done();
    });
    socket.on("error", () => done());
  });
}

const HONEST = [
  {
    call: request("calc_properties", { smiles: "CC(=O)Oc1ccccc1C(=O)O" }),
    expect: '"molecular_weight":180.159',
  },
  { call: request("canonical_smiles", { smiles: "OCC" }), expect: '"canonical_smiles":"CCO"' },
];

interface Outcome {
  honest: number;
  succeeded: number;
  p50: number;
  p99: number;
  rssBefore: number;
  rssAfter: number;
  attacks: Record<string, number>;
}

async function siege(runtime: string): Promise<Outcome> {
  const server = await startServer(COMMANDS[runtime]!);
  const { port } = server;
  // Warm up, then settle: the pool starts once the endpoint listens.
  for (let i = 0; i < 5; i++) await send(port, HONEST[0]!.call);
  await new Promise((r) => setTimeout(r, 5_000));
  const rssBefore = treeRssMiB(server.pid);
  const until = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let succeeded = 0;
  const honest = loop(until, async () => {
    const probe = HONEST[latencies.length % HONEST.length]!;
    const started = performance.now();
    const answer = await send(port, probe.call);
    latencies.push(performance.now() - started);
    if (
      answer.status === 200 && answer.body.includes(probe.expect) && !answer.body.includes('"isError":true')
    ) {
      succeeded++;
    }
    await new Promise((r) => setTimeout(r, 50));
  });
  const attackers: Record<string, Promise<number>> = {
    runaway: loop(
      until,
      () =>
        send(
          port,
          request("smarts_match", { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 3 }),
        ),
    ),
    huge_ring: loop(until, () => send(port, request("molecule_context_pack", { smiles: RING300 }))),
    huge_router: loop(
      until,
      () => send(port, request("representation_router", { smiles: RING300, task_kind: "identity_dedup" })),
    ),
    deep_smarts: loop(
      until,
      () =>
        send(
          port,
          request("smarts_match", { smiles: "CCO", smarts: "[$(".repeat(200) + "C" + ")]".repeat(200) }),
        ),
    ),
    garbage: loop(until, () => send(port, request("find_mcs", { smiles_list: Array(500_000).fill(1) }))),
    resets: loop(until, async () => {
      await reset(port);
      await new Promise((r) => setTimeout(r, 20));
    }),
    half_close: loop(until, () => send(port, request("parse_smiles", { smiles: "c1ccccc1" }), true)),
    drip_connections: Promise.all(Array.from({ length: 16 }, () => drip(port, until))).then((n) =>
      n.reduce((a, b) => a + b, 0)
    ),
  };
  await honest;
  const attacks: Record<string, number> = {};
  for (const [name, count] of Object.entries(attackers)) attacks[name] = await count;
  await new Promise((r) => setTimeout(r, 5_000));
  const rssAfter = treeRssMiB(server.pid);
  server.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { honest: latencies.length, succeeded, p50: at(0.5), p99: at(0.99), rssBefore, rssAfter, attacks };
}

const previous = loadPrevious("siege");
const figures: Figures = {};
for (const runtime of RUNTIMES) {
  if (runtime === "sea" && !existsSync(COMMANDS.sea![0]!)) {
    console.log(`${runtime}: skipped (no binary at ${COMMANDS.sea![0]})`);
    continue;
  }
  const o = await siege(runtime);
  const rate = (100 * o.succeeded) / o.honest;
  Object.assign(figures, { [`${runtime}.rate`]: rate, [`${runtime}.p50`]: o.p50, [`${runtime}.p99`]: o.p99 });
  console.log(`\n${runtime}, ${SECONDS} s, ${WORKERS} workers`);
  console.log(
    `  honest calls: ${o.succeeded}/${o.honest} succeeded = ${rate.toFixed(1)}% ` +
      `(${previous.speedup(`${runtime}.rate`, rate)} previous)`,
  );
  console.log(
    `  latency p50 ${o.p50.toFixed(1)} ms (${previous.speedupFromTime(`${runtime}.p50`, o.p50)} previous), ` +
      `p99 ${o.p99.toFixed(1)} ms (${previous.speedupFromTime(`${runtime}.p99`, o.p99)} previous)`,
  );
  console.log(
    `  RSS (server and workers) before ${o.rssBefore.toFixed(0)} MiB, after ${o.rssAfter.toFixed(0)} MiB`,
  );
  console.log(`  attacks sent: ${Object.entries(o.attacks).map(([k, v]) => `${k} ${v}`).join(", ")}`);
}
previous.save(figures);
