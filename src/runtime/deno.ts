/**
 * Deno entry: binds Deno's stdin/stdout and file reading to the runtime-neutral program.
 *
 * @module
 */
import rdkitWasm from "./rdkit_wasm_deno.js";
import { main, type Platform } from "../main.ts";
import { listenDeno } from "./tcp_deno.ts";
import { PROCESS_WORKER_FLAG, serveProcessWorker, spawnProcessWorker } from "./process_worker_deno.ts";
import { followLauncher } from "./launcher.ts";
import { libraryIo } from "./library_io.ts";

const encoder = new TextEncoder();

/**
 * The client closed our stdout: no answer can reach anyone any more, so the process ends at once with status 0
 * and no trace (docs/decisions/connection-faults.md). Any other write failure is a real fault.
 */
function endIfStdoutClosed(error: unknown): void {
  if (error instanceof Deno.errors.BrokenPipe || error instanceof Deno.errors.ConnectionReset) Deno.exit(0);
}

/** Deno bindings of {@link Platform}. */
export const denoPlatform: Platform = {
  stderr: (text) => {
    try {
      Deno.stderr.writeSync(encoder.encode(text));
    } catch {
      // Diagnostics nobody reads are dropped; they never decide whether the server keeps serving.
    }
  },
  stdout: async (text) => {
    const bytes = encoder.encode(text);
    try {
      for (let written = 0; written < bytes.length;) {
        written += await Deno.stdout.write(bytes.subarray(written));
      }
    } catch (error) {
      endIfStdoutClosed(error);
      throw error;
    }
  },
  loadWasm: () => Promise.resolve(rdkitWasm),
  stdinIsTerminal: Deno.stdin.isTerminal(),
  env: Deno.env.toObject(),
  readStdin: async (onChunk) => {
    // Read straight into one buffer, used again for every read: stdin's ReadableStream cost a promise chain and a
    // new chunk per read. The session keeps nothing of a chunk once `onChunk` returns (it copies what it keeps).
    const buffer = new Uint8Array(65_536);
    for (;;) {
      const read = await Deno.stdin.read(buffer);
      if (read === null) return;
      const busy = onChunk(buffer.subarray(0, read));
      if (busy) await busy;
    }
  },
  listen: listenDeno,
  spawnToolWorker: spawnProcessWorker,
  libraryIo,
  parallelism: navigator.hardwareConcurrency,
};

/** Runs the server with Deno's arguments and exits with its status. */
export async function run(): Promise<void> {
  if (Deno.args[0] === PROCESS_WORKER_FLAG) {
    await serveProcessWorker();
    Deno.exit(0);
  }
  // As in src/runtime/node.ts: a container's first process has no default signal action. (Windows has no SIGTERM.)
  if (Deno.build.os !== "windows") {
    Deno.addSignalListener("SIGTERM", () => Deno.exit(143));
    Deno.addSignalListener("SIGINT", () => Deno.exit(130));
  }
  followLauncher({
    env: Deno.env.toObject(),
    parentPid: () => Deno.ppid,
    exit: (code) => Deno.exit(code),
    unref: (timer) => Deno.unrefTimer(timer),
  });
  Deno.exit(await main(Deno.args, denoPlatform));
}
