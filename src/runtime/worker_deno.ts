/**
 * Deno tool-worker entry: serves isolated tool calls (src/tools/isolation.ts) inside a Web Worker.
 *
 * @module
 */
import { serveToolWorker, type WorkerReply, type WorkerRequest } from "../tools/isolation.ts";
import { WORKER_TOOLS } from "../tools/registry.ts";
import { WARM_UP_CALLS } from "../tools/placement.ts";

// The worker global, typed here because this file is checked with the window library like the rest.
const scope = globalThis as unknown as {
  postMessage(message: WorkerReply): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

serveToolWorker(
  {
    post: (message) => scope.postMessage(message),
    onMessage: (listener) => {
      scope.onmessage = (event) => listener(event.data);
    },
  },
  WORKER_TOOLS,
  WARM_UP_CALLS,
);
