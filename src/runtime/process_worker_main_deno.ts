/**
 * Entry of a tool-worker process under `deno run` (src/runtime/process_worker_deno.ts): serves tool calls on
 * stdin and stdout until stdin closes.
 *
 * @module
 */
import { serveProcessWorker } from "./process_worker_deno.ts";

await serveProcessWorker();
Deno.exit(0);
