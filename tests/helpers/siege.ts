/**
 * The siege of the HTTP endpoint (bench/siege_bench.ts, and a short run in tests/adversarial/siege_test.ts): an
 * honest client's success rate and latency while a mix of every attack class of tests/adversarial/ runs for a
 * given time, with the memory of the server's process tree (tool workers included) before, at its peak and
 * after.
 *
 * The mix, all at once against one server (default `--max-concurrency` 16, 2 tool workers):
 * - hostile content: runaway substructure searches (3 s limit), 300-membered aromatic rings through
 *   `molecule_context_pack` and `representation_router`, recursive SMARTS nested 200 deep, 1 MiB lists of
 *   numbers as `find_mcs` arguments, dense dummy-atom graphs that cost RDKit tens of seconds (refused by the
 *   cost model), a JSON document passed as a SMILES;
 * - answers inflated by garbage: 0.9 MB tool names, methods and argument keys, whose answers must stay under
 *   64 KiB: a 4xx, or the concurrency limit's 503 when the server is full ({@link oversizedAnswer});
 * - a memory flood: a complete request that takes seconds to answer (a lookup the hostile service answers
 *   slowly) followed by junk sent as fast as the server takes it (from a process of its own);
 * - hostile connections: 16 connections dripping a head and 8 dripping a body (each reconnecting when dropped);
 *   connect-and-reset at every phase of a request; requests followed by a half-close (their answers counted);
 *   malformed requests (NUL in a value, invalid and empty Host, a hostile absolute-form authority, both
 *   framings, an oversized head, a gzip Content-Encoding, bare-LF line ends); calls with ids a double cannot hold (echo checked); `name_to_smiles` against a
 *   hostile lookup service (redirect to another origin, HTML, dot segments, a redirect loop; its text must never
 *   come back).
 *
 * The honest client's call is `parse_smiles`, a pooled tool, so it competes with the hostile content for the
 * workers; a `SERVER_BUSY` answer counts as a failure.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import process from "node:process";
import { mcpHeaders, post } from "./http.ts";
import { honestRequest, toolCall } from "./attack.ts";
import { REMOTE_SECRET } from "./lookup_stub.ts";
import { MODERN_META } from "./protocol.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";
import { DENSE_DESCRIPTOR_ATTACK, DENSE_PARSE_ATTACK } from "../data/costly.ts";
import { owned, treeUsage } from "./process.ts";

/** What to besiege and for how long. */
export interface SiegeOptions {
  /** The server's command line, before its options. */
  readonly command: readonly string[];
  /** URL template of the hostile lookup service (tests/helpers/lookup_stub.ts). */
  readonly lookupTemplate: string;
  readonly seconds: number;
  /** Prints what failed, and why. */
  readonly debug?: boolean;
}

/** Named figures of one siege (rates in %, times in ms, memory in MiB). */
export type SiegeFigures = Record<string, number>;

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
}

function startServer(command: readonly string[], lookupTemplate: string): Promise<Server> {
  const [cmd, ...args] = command;
  const child = owned(spawn(cmd!, [...args, "--transport", "streamable-http", "--port", "0"], {
    env: { ...process.env, CHEM_MCP_WORKERS: "2", CHEM_MCP_NAME_LOOKUP_URL: lookupTemplate },
    stdio: ["ignore", "ignore", "pipe"],
  }));
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
  honestRequest().replace("Accept:", "Content-Encoding: gzip\r\nAccept:"),
  honestRequest().replace("\r\n", "\n"),
];
const RING300 = "c1" + "c".repeat(298) + "c1";
/** Hostile content: each call must come back as a result or a typed error (never an internal error). */
const HOSTILE_CALLS: [string, Record<string, unknown>][] = [
  ["smarts_match", { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 3 }],
  ["molecule_context_pack", { smiles: RING300 }],
  ["representation_router", { smiles: RING300, task_kind: "identity_dedup" }],
  ["smarts_match", { smiles: "CCO", smarts: "[$(".repeat(200) + "C" + ")]".repeat(200) }],
  ["find_mcs", { smiles_list: Array(500_000).fill(1) }],
  ["canonical_smiles", { smiles: DENSE_PARSE_ATTACK }],
  ["calc_properties", { smiles: DENSE_DESCRIPTOR_ATTACK }],
  ["canonical_smiles", { smiles: '{"commonchem":{"version":10},"molecules":[{"atoms":[{"z":6}]}]}' }],
];

/** The largest answer an invalid request may get. */
const ANSWER_LIMIT = 64 * 1024;

/**
 * What a correct server may answer a request quoting a huge name or key, under 64 KiB in either case: the 4xx
 * that refuses it (`refused`), or, when `--max-concurrency` requests are already in progress, the concurrency
 * limit's 503 with `Retry-After` (`busy`), which the endpoint gives before the request is decoded, so nothing
 * of it is read or echoed and the client is told when to try again. Anything else is undefined.
 */
export function oversizedAnswer(answer: string): "refused" | "busy" | undefined {
  if (answer.length >= ANSWER_LIMIT) return undefined;
  if (/^HTTP\/1\.1 4\d\d /.test(answer)) return "refused";
  return isBusyAnswer(answer) ? "busy" : undefined;
}

/**
 * The concurrency limit's refusal: 503 with `Retry-After` and a short JSON error, given before the request is
 * decoded. A correct answer to any request while `--max-concurrency` others are in progress, as on a loaded
 * machine they can be; the siege counts these apart, so a server that refused everything would not pass.
 */
export function isBusyAnswer(answer: string): boolean {
  return /^HTTP\/1\.1 503 /.test(answer) && /\r\nRetry-After: \d+\r\n/i.test(answer) &&
    /\r\n\r\n\{"error":"[^"]*"\}$/.test(answer);
}
const HUGE = 900_000;
const rpc = (method: string, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: MODERN_META } });
/** Invalid requests that quote a huge name or key the client sent. */
const OVERSIZED: [string, string][] = [
  ["tool name", rpc("tools/call", { name: "t".repeat(HUGE), arguments: {} })],
  [
    "argument key",
    rpc("tools/call", { name: "parse_smiles", arguments: { smiles: "C", ["k".repeat(HUGE)]: 1 } }),
  ],
  ["method", rpc("m".repeat(HUGE), {})],
];

/**
 * The flood, run as a script in a process of its own (it would otherwise hold this event loop, and the honest
 * client's latencies would measure the siege rather than the server). Each round sends the complete request of
 * a lookup the service answers after 5 s (it waits on the protocol thread, so the flood costs no tool worker),
 * then junk for 1.5 s (at most 32 MiB: a faster flood would measure this machine's two cores rather than the
 * server), then resets the connection and waits 1 s. Prints the bytes sent after the requests.
 */
const FLOOD_SCRIPT = `(async () => {
  const { connect } = await import("node:net");
  const { env, stdout } = (await import("node:process")).default;
  const { port, request, seconds } = JSON.parse(env.SIEGE_FLOOD);
  const chunk = new Uint8Array(1 << 20).fill(97);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const round = async () => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(request);
    const end = Date.now() + 1500;
    let sent = 0;
    while (Date.now() < end && sent < 32 * 2 ** 20 && !socket.destroyed) {
      sent += chunk.length;
      if (!socket.write(chunk)) {
        await Promise.race([new Promise((r) => socket.once("drain", r)), closed, sleep(end - Date.now())]);
      }
    }
    socket.resetAndDestroy();
    return sent;
  };
  const end = Date.now() + seconds * 1000;
  let total = 0;
  while (Date.now() < end) {
    total += await round();
    await sleep(1000);
  }
  stdout.write(total + "\\n");
})();`;

/** Runs the flood against `port` for `seconds` in a child of this runtime; resolves with the bytes sent. */
function flood(port: number, seconds: number): Promise<number> {
  const request = post(
    toolCall("name_to_smiles", { name: "slow" }),
    mcpHeaders("tools/call", "name_to_smiles"),
  );
  const inline = "Deno" in globalThis ? ["eval", FLOOD_SCRIPT] : ["-e", FLOOD_SCRIPT];
  const child = owned(spawn(process.execPath, inline, {
    env: { ...process.env, SIEGE_FLOOD: JSON.stringify({ port, request, seconds }) },
    stdio: ["ignore", "pipe", "inherit"],
  }));
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  return new Promise((resolve) => child.on("close", () => resolve(Number(out.trim()) || 0)));
}

const LOOKUP_NAMES = ["redirect-away", "garbage", "..", "redirect-loop", "bad-smiles"];
const BIG_ID = "123456789012345678901234567890";

/** Runs the siege against a new server and stops the server afterwards. */
export async function siege(options: SiegeOptions): Promise<SiegeFigures> {
  const debug = options.debug ?? false;
  const server = await startServer(options.command, options.lookupTemplate);
  const { port } = server;
  for (let i = 0; i < 20; i++) await exchange(port, honestRequest());
  await sleep(1000);
  const rssBefore = rssMiB(server.child.pid!);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(server.child.pid!))), 250);
  const end = Date.now() + options.seconds * 1000;
  const flooded = flood(port, options.seconds);
  const running = () => Date.now() < end;
  for (let i = 0; i < 16; i++) drip(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ", running);
  const bodyHead =
    honestRequest().replace(/Content-Length: \d+/, "Content-Length: 100000").split("\r\n\r\n")[0];
  for (let i = 0; i < 8; i++) drip(port, `${bodyHead}\r\n\r\n`, running);
  let phase = 0;
  let oversizedBusy = 0;
  let hostileBusy = 0;
  let lookupsBusy = 0;
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
      const kind = phase % MALFORMED.length;
      const answer = await exchange(port, MALFORMED[kind]!);
      if (debug && !/^HTTP\/1\.1 4\d\d /.test(answer)) {
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
      if (isBusyAnswer(answer)) lookupsBusy++;
      const clean = (answer.includes('"isError":true') && !answer.includes(REMOTE_SECRET)) ||
        isBusyAnswer(answer);
      if (debug && !clean) {
        console.log("lookup", name, JSON.stringify(answer.slice(0, 300)));
      }
      return clean;
    }),
    loop(running, 100, async () => {
      const [what, body] = OVERSIZED[phase % OVERSIZED.length]!;
      const answer = await exchange(port, post(body, mcpHeaders("tools/call", "parse_smiles")));
      const kind = oversizedAnswer(answer);
      if (kind === "busy") oversizedBusy++;
      // Always said: a miss is rare, and its answer is what tells why.
      if (!kind) console.log("oversized", what, answer.length, JSON.stringify(answer.slice(0, 200)));
      return kind !== undefined;
    }),
    loop(running, 20, async () => {
      const [name, args] = HOSTILE_CALLS[phase % HOSTILE_CALLS.length]!;
      const answer = await exchange(port, post(toolCall(name, args), mcpHeaders("tools/call", name)), 60_000);
      if (isBusyAnswer(answer)) hostileBusy++;
      const typed = (/^HTTP\/1\.1 [24]\d\d /.test(answer) && !answer.includes("-32603")) ||
        isBusyAnswer(answer);
      if (debug && !typed) {
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
    else if (debug) {
      console.log("honest failed", performance.now() - started, JSON.stringify(answer.slice(0, 300)));
    }
    await sleep(20);
  }
  const [resets, halfCloses, malformed, ids, lookups, oversized, hostile] = await attacks;
  const floodBytes = await flooded;
  await sleep(2000);
  clearInterval(sampler);
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
    rss_peak_mib: rssPeak,
    rss_after_mib: rssAfter,
    server_alive: Number(alive),
    resets: resets.rounds,
    half_closes_answered_pct: (100 * (halfCloses.rounds - halfCloses.failed)) /
      Math.max(1, halfCloses.rounds),
    malformed_4xx_pct: (100 * (malformed.rounds - malformed.failed)) / Math.max(1, malformed.rounds),
    ids_exact_pct: (100 * (ids.rounds - ids.failed)) / Math.max(1, ids.rounds),
    lookups_clean_pct: (100 * (lookups.rounds - lookups.failed)) / Math.max(1, lookups.rounds),
    lookups: lookups.rounds,
    lookups_busy: lookupsBusy,
    oversized_requests: oversized.rounds,
    oversized_answers_small_pct: (100 * (oversized.rounds - oversized.failed)) /
      Math.max(1, oversized.rounds),
    oversized_busy: oversizedBusy,
    flood_mib_sent: floodBytes / 2 ** 20,
    hostile_calls: hostile.rounds,
    hostile_typed_pct: (100 * (hostile.rounds - hostile.failed)) / Math.max(1, hostile.rounds),
    hostile_busy: hostileBusy,
  };
}
