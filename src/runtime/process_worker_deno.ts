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
import {
  serveToolWorker,
  type WorkerHandle,
  type WorkerReply,
  type WorkerRequest,
} from "../tools/isolation.ts";
import { WORKER_TOOLS } from "../tools/registry.ts";
import { WARM_UP_CALLS } from "../tools/placement.ts";
import rdkitWasm from "./rdkit_wasm_deno.js";

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
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let onMessage: (message: WorkerReply) => void = () => {};
  let onFailure: (reason: string) => void = () => {};
  let killed = false;
  const fail = (reason: string) => {
    if (!killed) onFailure(reason);
  };
  void readLines(child.stdout, (line) => {
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
  };
}

/** Calls `onLine` for each newline-terminated line of `stream`. */
async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.length > 0) onLine(line);
    }
  }
}

/**
 * The child's side: serves tool calls from JSON lines on stdin until stdin closes (the parent ended or retired
 * this worker), answering on stdout. Nothing else may write to stdout here.
 */
export async function serveProcessWorker(): Promise<void> {
  const encoder = new TextEncoder();
  let listener: (message: WorkerRequest) => void = () => {};
  let writing = Promise.resolve();
  serveToolWorker(
    {
      post: (message) => {
        const bytes = encoder.encode(`${JSON.stringify(message)}\n`);
        writing = writing.then(() => writeAll(bytes));
      },
      onMessage: (l) => (listener = l),
    },
    WORKER_TOOLS,
    WARM_UP_CALLS,
  );
  await readLines(Deno.stdin.readable, (line) => {
    const message = JSON.parse(line) as { kind: string };
    listener(message.kind === "init" ? { kind: "init", wasm: rdkitWasm } : message as WorkerRequest);
  });
  await writing;
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) written += await Deno.stdout.write(bytes.subarray(written));
}
