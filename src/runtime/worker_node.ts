/**
 * Node.js tool-worker entry: serves isolated tool calls (src/tools/isolation.ts) inside a worker thread.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { serveToolWorker } from "../tools/isolation.ts";
import { TOOLS } from "../tools/registry.ts";
import { WARM_UP_CALLS } from "../tools/placement.ts";
import { yieldCoresToProtocolThread } from "./worker_priority.ts";

const port = parentPort;
if (port) {
  yieldCoresToProtocolThread();
  serveToolWorker(
    { post: (message) => port.postMessage(message), onMessage: (l) => port.on("message", l) },
    TOOLS,
    WARM_UP_CALLS,
  );
}
