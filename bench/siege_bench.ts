/**
 * Siege of the HTTP endpoint: an honest client's success rate and latency while a mix of every attack class of
 * tests/adversarial/ runs for `--seconds`, with the memory of the server's process tree (tool workers included)
 * before and after, under Deno, Node and the single-executable binary.
 *
 * The mix, all at once against one server (default `--max-concurrency` 16, 2 tool workers):
 * - hostile content: runaway substructure searches (3 s limit), 300-membered aromatic rings through
 *   `molecule_context_pack` and `representation_router`, recursive SMARTS nested 200 deep, 1 MiB lists of
 *   numbers as `find_mcs` arguments;
 * - hostile connections: 16 connections dripping a head and 8 dripping a body (each reconnecting when dropped);
 *   connect-and-reset at every phase of a request; requests followed by a half-close (their answers counted);
 *   malformed requests (NUL in a value, invalid and empty Host, a hostile absolute-form authority, both
 *   framings, an oversized head); calls with ids a double cannot hold (echo checked); `name_to_smiles` against a
 *   hostile lookup service (redirect to another origin, HTML, dot segments, a redirect loop; its text must never
 *   come back).
 *
 * The honest client's call is `parse_smiles`, a pooled tool, so it competes with the hostile content for the
 * workers; a `SERVER_BUSY` answer counts as a failure.
 *
 * The binary row needs `.cache/artifacts/sea/chem-mcp` (scripts/build_sea.ts); Node needs `npm run build`.
 * Run: deno run -A bench/siege_bench.ts [--runtimes deno,node,sea] [--seconds 180]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import process from "node:process";
import { mcpHeaders, post } from "../tests/helpers/http.ts";
import { honestRequest, toolCall } from "../tests/helpers/attack.ts";
import { REMOTE_SECRET, startHostileLookup } from "../tests/helpers/lookup_stub.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../tests/data/runaway.ts";
import { treeUsage } from "../tests/helpers/process.ts";
import { loadPrevious } from "./previous.ts";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index > -1 ? process.argv[index + 1]! : fallback;
}

const RUNTIMES = option("--runtimes", "deno,node,sea").split(",");
const SECONDS = Number(option("--seconds", "180"));
const SEA = ".cache/artifacts/sea/chem-mcp";
const COMMANDS: Record<string, string[]> = {
  deno: [process.execPath, "run", "-A", "mod.ts"],
  node: ["node", "dist/src/runtime/node.js"],
  sea: [SEA],
};

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
}

function startServer(runtime: string, lookupTemplate: string): Promise<Server> {
  const [cmd, ...args] = COMMANDS[runtime]!;
  const child = spawn(cmd!, [...args, "--transport", "streamable-http", "--port", "0"], {
    env: { ...process.env, CHEM_MCP_WORKERS: "2", CHEM_MCP_NAME_LOOKUP_URL: lookupTemplate },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/** Resident memory of the server and its descendants (Deno's tool workers are processes), MiB. */
function rssMiB(pid: number): number {
  return treeUsage(pid).rssKiB / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends bytes and resolves with everything received until close (or "" after `timeoutMs`). */
function exchange(port: number, bytes: string, timeoutMs = 10_000, halfClose = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

/** Keeps one connection dripping `prefix` then a byte every 100 ms, reopening it whenever it closes. */
function drip(port: number, prefix: string, running: () => boolean): void {
  if (!running()) return;
  const socket: Socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.on("data", () => {});
  socket.write(prefix);
  const timer = setInterval(() => socket.write("a"), 100);
  socket.on("close", () => {
    clearInterval(timer);
    setTimeout(() => drip(port, prefix, running), 10);
  });
  const stop = setInterval(() => {
    if (running()) return;
    clearInterval(stop);
    socket.destroy();
  }, 500);
}

/** Repeats `attack` every `everyMs` until the siege ends; counts rounds and failures of its own check. */
async function loop(
  running: () => boolean,
  everyMs: number,
  attack: () => Promise<boolean>,
): Promise<{ rounds: number; failed: number }> {
  let rounds = 0;
  let failed = 0;
  while (running()) {
    rounds++;
    if (!(await attack())) failed++;
    await sleep(everyMs);
  }
  return { rounds, failed };
}

const MALFORMED = [
  honestRequest().replace("Accept:", "X-Nul: a\x00b\r\nAccept:"),
  honestRequest("CCO", "127.999.0.1"),
  honestRequest("CCO", ""),
  honestRequest().replace("POST /mcp", "POST http://evil.example/mcp"),
  honestRequest().replace("Accept:", "Transfer-Encoding: chunked\r\nAccept:"),
  honestRequest().replace("Accept:", `X-Big: ${"b".repeat(40_000)}\r\nAccept:`),
];
const RING300 = "c1" + "c".repeat(298) + "c1";
/** Hostile content: each call must come back as a result or a typed error (never an internal error). */
const HOSTILE_CALLS: [string, Record<string, unknown>][] = [
  ["smarts_match", { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 3 }],
  ["molecule_context_pack", { smiles: RING300 }],
  ["representation_router", { smiles: RING300, task_kind: "identity_dedup" }],
  ["smarts_match", { smiles: "CCO", smarts: "[$(".repeat(200) + "C" + ")]".repeat(200) }],
  ["find_mcs", { smiles_list: Array(500_000).fill(1) }],
];

const LOOKUP_NAMES = ["redirect-away", "garbage", "..", "redirect-loop", "bad-smiles"];
const BIG_ID = "123456789012345678901234567890";

async function siege(runtime: string, template: string): Promise<Record<string, number>> {
  const server = await startServer(runtime, template);
  const { port } = server;
  for (let i = 0; i < 20; i++) await exchange(port, honestRequest());
  await sleep(1000);
  const rssBefore = rssMiB(server.child.pid!);
  const end = Date.now() + SECONDS * 1000;
  const running = () => Date.now() < end;
  for (let i = 0; i < 16; i++) drip(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ", running);
  const bodyHead =
    honestRequest().replace(/Content-Length: \d+/, "Content-Length: 100000").split("\r\n\r\n")[0];
  for (let i = 0; i < 8; i++) drip(port, `${bodyHead}\r\n\r\n`, running);
  let phase = 0;
  const attacks = Promise.all([
    loop(running, 20, async () => {
      const full = honestRequest();
      const bytes = full.slice(0, [0, 20, full.length - 5, full.length][phase++ % 4]);
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      if (bytes) socket.write(bytes);
      await sleep(phase % 3);
      socket.resetAndDestroy();
      return true;
    }),
    loop(
      running,
      50,
      async () => (await exchange(port, honestRequest(), 10_000, true)).includes('"atom_count":3'),
    ),
    loop(running, 50, async () => {
      const kind = phase % 6;
      const answer = await exchange(port, MALFORMED[kind]!);
      if (process.env.SIEGE_DEBUG && !/^HTTP\/1\.1 4\d\d /.test(answer)) {
        console.log("malformed", kind, JSON.stringify(answer.slice(0, 200)));
      }
      return /^HTTP\/1\.1 4\d\d /.test(answer);
    }),
    loop(running, 100, async () => {
      const body = toolCall("parse_smiles", { smiles: "C" }, BIG_ID);
      const answer = await exchange(port, post(body, mcpHeaders("tools/call", "parse_smiles")));
      return answer.includes(`"id":${BIG_ID},`);
    }),
    loop(running, 200, async () => {
      const name = LOOKUP_NAMES[phase % LOOKUP_NAMES.length]!;
      const answer = await exchange(
        port,
        post(toolCall("name_to_smiles", { name }), mcpHeaders("tools/call", "name_to_smiles")),
      );
      const clean = answer.includes('"isError":true') && !answer.includes(REMOTE_SECRET);
      if (process.env.SIEGE_DEBUG && !clean) {
        console.log("lookup", name, JSON.stringify(answer.slice(0, 300)));
      }
      return clean;
    }),
    loop(running, 20, async () => {
      const [name, args] = HOSTILE_CALLS[phase % HOSTILE_CALLS.length]!;
      const answer = await exchange(port, post(toolCall(name, args), mcpHeaders("tools/call", name)), 60_000);
      const typed = /^HTTP\/1\.1 [24]\d\d /.test(answer) && !answer.includes("-32603");
      if (process.env.SIEGE_DEBUG && !typed) {
        console.log("hostile", name, JSON.stringify(answer.slice(0, 300)));
      }
      return typed;
    }),
  ]);
  const latencies: number[] = [];
  let honest = 0;
  let ok = 0;
  while (running()) {
    const started = performance.now();
    const answer = await exchange(port, honestRequest());
    latencies.push(performance.now() - started);
    honest++;
    if (answer.startsWith("HTTP/1.1 200 ") && answer.includes('"atom_count":3')) ok++;
    else if (process.env.SIEGE_DEBUG) {
      console.log("honest failed", performance.now() - started, JSON.stringify(answer.slice(0, 300)));
    }
    await sleep(20);
  }
  const [resets, halfCloses, malformed, ids, lookups, hostile] = await attacks;
  await sleep(2000);
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  const rssAfter = alive ? rssMiB(server.child.pid!) : NaN;
  server.child.kill("SIGTERM");
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    honest_calls: honest,
    honest_success_pct: (100 * ok) / Math.max(1, honest),
    honest_p50_ms: at(0.5),
    honest_p99_ms: at(0.99),
    rss_before_mib: rssBefore,
    rss_after_mib: rssAfter,
    server_alive: Number(alive),
    resets: resets.rounds,
    half_closes_answered_pct: (100 * (halfCloses.rounds - halfCloses.failed)) /
      Math.max(1, halfCloses.rounds),
    malformed_4xx_pct: (100 * (malformed.rounds - malformed.failed)) / Math.max(1, malformed.rounds),
    ids_exact_pct: (100 * (ids.rounds - ids.failed)) / Math.max(1, ids.rounds),
    lookups_clean_pct: (100 * (lookups.rounds - lookups.failed)) / Math.max(1, lookups.rounds),
    hostile_calls: hostile.rounds,
    hostile_typed_pct: (100 * (hostile.rounds - hostile.failed)) / Math.max(1, hostile.rounds),
  };
}

const lookup = await startHostileLookup();
const previous = loadPrevious("siege");
const figures: Record<string, number> = {};
for (const runtime of RUNTIMES) {
  if (runtime === "sea" && !existsSync(SEA)) {
    console.log(`${runtime}: skipped (${SEA} not built)`);
    continue;
  }
  const result = await siege(runtime, lookup.template);
  console.log(`\n${runtime}, ${SECONDS} s:`);
  for (const [key, value] of Object.entries(result)) {
    const row = `${runtime}.${key}`;
    figures[row] = value;
    const ratio = key.endsWith("_ms") ? ` (${previous.speedupFromTime(row, value)})` : "";
    console.log(`  ${key.padEnd(26)} ${value.toFixed(1)}${ratio}`);
  }
}
console.log(`\nother origin asked by a redirect: ${lookup.elsewhere.length} times`);
// Runtimes not run this time keep their last figures, so the file always holds every row.
const RESULTS = "bench/results/siege.json";
const kept = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, number> : {};
previous.save({ ...kept, ...figures });
process.exit(0);
