/**
 * chem-mcp server processes for the latency benches (bench/cold_start_bench.ts, bench/mixed_load_bench.ts): started
 * under Deno, under Node or as the single executable, over stdio or Streamable HTTP, each answering modern
 * `tools/call` requests with the call's latency.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { mcpHeaders, post } from "../tests/helpers/http.ts";
import { treeUsage } from "../tests/helpers/process.ts";
import { cancelled } from "../tests/helpers/protocol.ts";

/** A tool and its arguments. */
export type Call = { name: string; arguments: Record<string, unknown> };

/** The single-executable binary the test command builds (scripts/build_sea.ts). */
export const SEA_BINARY: string = resolve(".cache/artifacts/sea/chem-mcp");

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A modern `tools/call` request line (without its newline). */
export function toolCall(id: number, call: Call): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { ...call, _meta: META } });
}

/** Throws unless `text` is a successful tool result. */
function check(text: string): void {
  const message = JSON.parse(text) as { result?: { isError?: boolean } };
  if (!message.result || message.result.isError) throw new Error(`failed call: ${text.slice(0, 300)}`);
}

/** A running server that answers tool calls. */
export interface Server {
  readonly pid: number;
  /** Resolves with the call's latency, ms; rejects when the answer is not a successful result. */
  call(call: Call): Promise<number>;
  /**
   * Resolves, with the ms since the process started, once its process tree has gone quiet (under 20 ms of CPU in
   * 200 ms): the pool has started and made its warm-up calls. Linux; elsewhere at once.
   */
  settled(): Promise<number>;
  stop(): Promise<void>;
}

/** Whether `runtime` (deno, node or sea) can be started here: Node needs `npm run build`, sea the binary. */
export function available(runtime: string): boolean {
  return runtime === "deno" || existsSync(runtime === "node" ? "dist/src/runtime/node.js" : SEA_BINARY);
}

/** Starts the server under `runtime` with `args`; the binary runs from its own directory (no node_modules). */
function launch(runtime: string, args: string[], env: Record<string, string>): ChildProcess {
  const [cmd, base, cwd] = runtime === "deno"
    ? [process.execPath, ["run", "-A", "mod.ts"], "."]
    : runtime === "node"
    ? ["node", ["dist/src/runtime/node.js"], "."]
    : [SEA_BINARY, [], dirname(SEA_BINARY)];
  return spawn(cmd, [...base, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the process tree of `pid` uses under 20 ms of CPU in 200 ms (at once where /proc is missing). */
async function quiet(pid: number): Promise<void> {
  for (let last = treeUsage(pid).cpuMs;;) {
    await sleep(200);
    const now = treeUsage(pid).cpuMs;
    if (!(now - last >= 20)) return;
    last = now;
  }
}

/** A server over stdio, which can also withdraw a call. */
export interface StdioServer extends Server {
  /** Sends `call`, and `notifications/cancelled` for it `afterMs` later; resolves once the cancel is sent. */
  cancelAfter(call: Call, afterMs: number): Promise<void>;
}

/** A server over stdio: one connection, requests answered by id. */
export function stdioServer(
  runtime: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
): StdioServer {
  const launched = performance.now();
  const child = launch(runtime, [...args], env);
  child.stderr!.resume();
  const pending = new Map<number, (text: string) => void>();
  let buffer = "";
  let nextId = 0;
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const id = (JSON.parse(line) as { id: number }).id;
      pending.get(id)?.(line);
      pending.delete(id);
    }
  });
  return {
    pid: child.pid!,
    settled: () => quiet(child.pid!).then(() => performance.now() - launched),
    call: (call) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const start = performance.now();
        pending.set(id, (text) => {
          const ms = performance.now() - start;
          try {
            check(text);
            resolve(ms);
          } catch (error) {
            reject(error);
          }
        });
        child.stdin!.write(`${toolCall(id, call)}\n`);
      }),
    cancelAfter: async (call, afterMs) => {
      const requestId = nextId++;
      child.stdin!.write(`${toolCall(requestId, call)}\n`);
      await sleep(afterMs);
      child.stdin!.write(`${JSON.stringify(cancelled(requestId))}\n`);
    },
    stop: async () => {
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.stdin!.end();
      await closed;
    },
  };
}

/** One request on a fresh connection; resolves with its latency, ms. */
export function httpCall(port: number, call: Call): Promise<number> {
  const message = post(toolCall(1, call), mcpHeaders("tools/call", call.name));
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(message));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const ms = performance.now() - start;
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        if (!text.startsWith("HTTP/1.1 200")) throw new Error(`HTTP answer: ${text.slice(0, 200)}`);
        check(text.slice(text.indexOf("\r\n\r\n") + 4));
        resolve(ms);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A server over Streamable HTTP on a free port, taking up to `maxConcurrency` requests at once. */
export async function httpServer(
  runtime: string,
  maxConcurrency: number,
  env: Record<string, string> = {},
): Promise<Server> {
  const args = ["--transport", "streamable-http", "--port", "0", "--max-concurrency", String(maxConcurrency)];
  const launched = performance.now();
  const child = launch(runtime, args, env);
  child.stdout!.resume();
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const match = /listening on http:\/\/[^ ]*:(\d+)\/mcp/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", () => reject(new Error(`server exited: ${text}`)));
  });
  return {
    pid: child.pid!,
    settled: () => quiet(child.pid!).then(() => performance.now() - launched),
    call: (call) => httpCall(port, call),
    stop: async () => {
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.kill();
      await closed;
    },
  };
}
