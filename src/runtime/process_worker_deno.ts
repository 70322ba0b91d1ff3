/**
 * Tool workers as child processes under Deno.
 *
 * Deno's `Worker.terminate()` does not stop a worker that is computing: the thread runs on, holding a core and
 * its memory, until the computation ends by itself (hours, for a runaway substructure search). A process can be
 * killed whatever it is doing, so under Deno each pool worker is a child process running this same program with
 * {@link PROCESS_WORKER_FLAG}; messages are JSON lines on its stdin and stdout. Node's `worker_threads` do stop
 * on `terminate()`, so the Node entry keeps threads.
 *
 * @module
 */
import type { WorkerHandle, WorkerReply, WorkerRequest } from "../pool/messages.ts";
import { MAX_REQUEST_BYTES } from "../protocol/jsonrpc.ts";
import { LineSplitter } from "../transport/lines.ts";
import rdkitWasm from "./rdkit_wasm_deno.js";
import { joinMainThreadPriority, lowerProcessPriority } from "./worker_priority.ts";
import { provideRasterWasm } from "../chem/raster.ts";
import { statCpuMs } from "./cpu_time.ts";

/** The hidden first argument that makes the program serve as a tool worker on stdin/stdout. */
export const PROCESS_WORKER_FLAG = "--tool-worker-process";

/**
 * The command that starts a worker: the program itself with {@link PROCESS_WORKER_FLAG}. Under `deno run` that
 * is Deno running this module's entry; a `deno compile` binary is the program, so it runs itself.
 */
function workerCommand(): { command: string; args: string[] } {
  const exec = Deno.execPath();
  const name = exec.split(/[\\/]/).pop() ?? "";
  if (/^deno(\.exe)?$/i.test(name)) {
    const entry = new URL("./process_worker_main_deno.ts", import.meta.url).href;
    return { command: exec, args: ["run", "-A", "--quiet", entry, PROCESS_WORKER_FLAG] };
  }
  return { command: exec, args: [PROCESS_WORKER_FLAG] };
}

/**
 * Starts one worker process. The `init` message's compiled module cannot cross a process boundary, so the child
 * loads its own copy of RDKit's WebAssembly and the parent sends `init` without it.
 *
 * @example
 * ```ts
 * const runner = new IsolatedRunner({ spawn: spawnProcessWorker, wasm, size: 2 });
 * ```
 */
export function spawnProcessWorker(): WorkerHandle {
  const { command, args } = workerCommand();
  const child = new Deno.Command(command, { args, stdin: "piped", stdout: "piped", stderr: "inherit" })
    .spawn();
  lowerProcessPriority(child.pid);
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let onMessage: (message: WorkerReply) => void = () => {};
  let onFailure: (reason: string) => void = () => {};
  let killed = false;
  const fail = (reason: string) => {
    if (!killed) onFailure(reason);
  };
  void readLines(child.stdout, MAX_REPLY_BYTES, (line) => {
    let message: WorkerReply;
    try {
      message = JSON.parse(line) as WorkerReply;
    } catch {
      return fail("worker process wrote a line that is not JSON");
    }
    onMessage(message);
  }).catch((error) => fail(`worker process output failed: ${String(error)}`));
  void child.status.then((status) =>
    fail(`worker process exited with ${status.signal ?? `code ${status.code}`}`)
  );
  child.unref();
  return {
    post: (message) => {
      const wire = message.kind === "init" ? { kind: "init" } : message;
      writer.write(encoder.encode(`${JSON.stringify(wire)}\n`)).catch(() => {});
    },
    onMessage: (listener) => (onMessage = listener),
    onFailure: (listener) => (onFailure = listener),
    terminate: () => {
      if (killed) return;
      killed = true;
      writer.close().catch(() => {});
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    },
    // A busy worker keeps the program alive until it answers; an idle one must not.
    hold: (busy) => (busy ? child.ref() : child.unref()),
    cpuMs: () => statCpuMs(`/proc/${child.pid}/stat`),
  };
}

/**
 * Calls `onLine` for each line of `stream`, framed by the stdio transport's splitter. A line over `maxBytes` or
 * not UTF-8 ends the reading with an error: the other side is broken.
 */
async function readLines(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  onLine: (line: string) => void,
): Promise<void> {
  const splitter = new LineSplitter(maxBytes);
  for await (const chunk of stream) {
    for (const event of splitter.push(chunk)) {
      if (event.kind !== "line") throw new Error(`a line that is ${event.kind.replace("_", " ")}`);
      if (event.text.length > 0) onLine(event.text);
    }
  }
}

/** Largest reply line a worker may write: far above any answer the atom and list caps allow. */
const MAX_REPLY_BYTES = 64 * 2 ** 20;
/**
 * Largest request line a worker accepts: a call carries the arguments of one message (at most
 * `MAX_REQUEST_BYTES`) in an envelope of its own, so twice that is room enough.
 */
const MAX_WORKER_REQUEST_BYTES = 2 * MAX_REQUEST_BYTES;

/**
 * The child's side: serves tool calls from JSON lines on stdin until stdin closes (the parent ended or retired
 * this worker), answering on stdout. Nothing else may write to stdout here.
 */
export async function serveProcessWorker(): Promise<void> {
  // As in the thread workers: lower the priority before loading the tools, most of a worker's start, and here
  // the runtime's compiler threads too, which belong to this process alone.
  joinMainThreadPriority();
  // Compiled on the first PNG only: a dynamic import keeps it out of the worker's start, and a literal
  // specifier keeps it in the module graph `deno compile` embeds.
  provideRasterWasm(() => import("./resvg_wasm_deno.js").then((m) => m.default));
  const { serveTools } = await import("../pool/tool_worker.ts");
  const encoder = new TextEncoder();
  let listener: (message: WorkerRequest) => void = () => {};
  serveTools({
    // Written at once, not queued: a `begin` posted just before a long synchronous computation must reach the
    // parent before that computation ends, or the call's deadline would not start (src/pool/slot.ts).
    post: (message) => writeAllSync(encoder.encode(`${JSON.stringify(message)}\n`)),
    onMessage: (l) => (listener = l),
    // The worker is a process of its own: its resident size is its WebAssembly memories and heap.
    heapBytes: () => Deno.memoryUsage().rss,
  });
  await readLines(Deno.stdin.readable, MAX_WORKER_REQUEST_BYTES, (line) => {
    const message = JSON.parse(line) as { kind: string };
    listener(message.kind === "init" ? { kind: "init", wasm: rdkitWasm } : message as WorkerRequest);
  });
}

function writeAllSync(bytes: Uint8Array): void {
  for (let written = 0; written < bytes.length;) written += Deno.stdout.writeSync(bytes.subarray(written));
}
