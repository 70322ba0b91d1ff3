/**
 * The Node.js program: binds process stdin/stdout, sockets and worker threads to the runtime-neutral program.
 * Loaded by the entry (src/runtime/node.ts) once RDKit's WebAssembly is compiling.
 *
 * @module
 */
import { availableParallelism } from "node:os";
import process from "node:process";
import { main, type Platform } from "../main.ts";
import { Worker } from "node:worker_threads";
import { listenNode } from "./tcp_node.ts";
import type { WorkerHandle, WorkerReply } from "../pool/messages.ts";
import { lowerThreads } from "./worker_priority.ts";
import { statCpuMs, THREAD_ID_MESSAGE } from "./cpu_time.ts";
import { followLauncher } from "./launcher.ts";
import { libraryIo } from "./library_io.ts";
import { sea, SEA_WORKER_ASSET, type SeaModule } from "./wasm_node.ts";

/**
 * The client closed our stdout: no answer can reach anyone any more, so the process ends at once with status 0
 * and no trace (docs/decisions/connection-faults.md). Any other write failure is a real fault.
 */
function endIfStdoutClosed(error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EPIPE" || code === "ECONNRESET" || code === "ERR_STREAM_DESTROYED") process.exit(0);
}

// A stream 'error' without a listener is thrown from the event loop; these are the listeners.
process.stdout.on("error", (error) => {
  endIfStdoutClosed(error);
  throw error;
});
// Diagnostics nobody reads are dropped; they never decide whether the server keeps serving.
process.stderr.on("error", () => {});

/** Node bindings of {@link Platform}, given the RDKit WebAssembly being compiled. */
const nodePlatform = (wasm: Promise<WebAssembly.Module>): Platform => ({
  stderr: (text) => void process.stderr.write(text),
  stdout: (text) =>
    new Promise((resolve, reject) =>
      process.stdout.write(text, (error) => {
        if (!error) return resolve();
        endIfStdoutClosed(error);
        reject(error);
      })
    ),
  loadWasm: () => wasm,
  stdinIsTerminal: process.stdin.isTTY === true,
  env: process.env,
  readStdin: (onChunk) =>
    new Promise((resolve, reject) => {
      process.stdin.on("data", (chunk: Buffer) => {
        const busy = onChunk(chunk);
        if (!busy) return;
        process.stdin.pause();
        void busy.then(() => process.stdin.resume());
      });
      process.stdin.on("end", resolve);
      process.stdin.on("error", reject);
    }),
  listen: listenNode,
  spawnToolWorker,
  libraryIo,
  parallelism: availableParallelism(),
});

/**
 * Starts the bundled tool-worker script of a single executable, which has no file to point a worker at. The
 * script's bytes go to the new thread, which decodes and compiles them itself: decoding its 3.5 MB to a string
 * for `eval` took the protocol thread 3–4 ms per worker, at the moment a fresh pool starts and a client's first
 * calls arrive.
 */
function seaWorker(sea: SeaModule): Worker {
  const script = sea.getAsset(SEA_WORKER_ASSET); // a copy of the asset's bytes, ours to hand over
  return new Worker(SEA_WORKER_BOOT, { eval: true, workerData: script, transferList: [script] });
}

/** What a single executable's worker thread runs first: the tool-worker script, as a CommonJS module body. */
const SEA_WORKER_BOOT = `const { workerData } = require("node:worker_threads");
const { compileFunction } = require("node:vm");
const params = ["require", "module", "exports", "__filename", "__dirname"];
compileFunction(new TextDecoder().decode(workerData), params, { filename: "${SEA_WORKER_ASSET}" })(
  require, module, exports, __filename, __dirname);`;

/**
 * A worker thread running the tool-worker entry: dist/src/runtime/worker_node.js beside this file, or in a
 * single executable the bundled script stored as an asset.
 */
export function spawnToolWorker(): WorkerHandle {
  const worker = sea ? seaWorker(sea) : new Worker(new URL("./worker_node.js", import.meta.url));
  lowerThreads(process.pid);
  worker.unref();
  let tid: number | undefined;
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) =>
      void worker.on("message", (message: WorkerReply | { kind: typeof THREAD_ID_MESSAGE; tid?: number }) => {
        if (message.kind === THREAD_ID_MESSAGE) tid = message.tid;
        else listener(message);
      }),
    onFailure: (listener) => {
      worker.on("error", (error) => listener(error.stack ?? String(error)));
      worker.on("exit", (code) => listener(`exited with code ${code}`));
    },
    terminate: () => void worker.terminate(),
    // An idle worker must not keep the process alive after stdin ends; a busy one must, until it answers.
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    cpuMs: () => tid === undefined ? undefined : statCpuMs(`/proc/${process.pid}/task/${tid}/stat`),
  };
}

/**
 * Runs the server on the process's arguments and stdio, with RDKit's WebAssembly as the entry started compiling
 * it, and sets the exit status when the program ends.
 */
export function runNode(wasm: Promise<WebAssembly.Module>): void {
  // A container's first process gets no default signal action: without handlers SIGTERM and SIGINT would be
  // ignored there, and a pod would wait out its whole termination grace period before being killed.
  process.once("SIGTERM", () => process.exit(143));
  process.once("SIGINT", () => process.exit(130));
  followLauncher({
    env: process.env,
    parentPid: () => process.ppid,
    exit: (code) => process.exit(code),
    unref: (timer) => timer.unref(),
  });
  void main(process.argv.slice(2), nodePlatform(wasm)).then((code) => (process.exitCode = code));
}
