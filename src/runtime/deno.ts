/**
 * Deno entry: binds Deno's stdin/stdout and file reading to the runtime-neutral program.
 *
 * @module
 */
import rdkitWasm from "./rdkit_wasm_deno.js";
import { main, type Platform } from "../main.ts";
import { listenDeno } from "./tcp_deno.ts";
import { PROCESS_WORKER_FLAG, serveProcessWorker, spawnProcessWorker } from "./process_worker_deno.ts";

const encoder = new TextEncoder();

/** Deno bindings of {@link Platform}. */
export const denoPlatform: Platform = {
  stderr: (text) => void Deno.stderr.writeSync(encoder.encode(text)),
  stdout: async (text) => {
    const bytes = encoder.encode(text);
    for (let written = 0; written < bytes.length;) {
      written += await Deno.stdout.write(bytes.subarray(written));
    }
  },
  loadWasm: () => Promise.resolve(rdkitWasm),
  stdinIsTerminal: Deno.stdin.isTerminal(),
  env: Deno.env.toObject(),
  readStdin: async (onChunk) => {
    for await (const chunk of Deno.stdin.readable) {
      const busy = onChunk(chunk);
      if (busy) await busy;
    }
  },
  listen: listenDeno,
  spawnToolWorker: spawnProcessWorker,
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
  Deno.exit(await main(Deno.args, denoPlatform));
}
