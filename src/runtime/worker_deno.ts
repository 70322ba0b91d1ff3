/**
 * Deno tool-worker entry: serves isolated tool calls (src/tools/isolation.ts) inside a Web Worker.
 *
 * @module
 */
import type { WorkerReply, WorkerRequest } from "../tools/isolation.ts";
import { yieldCoresToProtocolThread } from "./worker_priority.ts";

// The worker global, typed here because this file is checked with the window library like the rest.
const scope = globalThis as unknown as {
  postMessage(message: WorkerReply): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

// Messages are delivered once this module has been evaluated, its top-level await included.
yieldCoresToProtocolThread();
const { serveTools } = await import("../tools/tool_worker.ts");
serveTools({
  post: (message) => scope.postMessage(message),
  onMessage: (listener) => {
    scope.onmessage = (event) => listener(event.data);
  },
});
