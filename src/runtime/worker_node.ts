/**
 * Node.js tool-worker entry: serves isolated tool calls (src/tools/isolation.ts) inside a worker thread.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { serveToolWorker } from "../tools/isolation.ts";
import { WORKER_TOOLS } from "../tools/registry.ts";
import { WARM_UP_CALLS } from "../tools/placement.ts";

const port = parentPort;
if (port) {
  serveToolWorker(
    { post: (message) => port.postMessage(message), onMessage: (l) => port.on("message", l) },
    WORKER_TOOLS,
    WARM_UP_CALLS,
  );
}
