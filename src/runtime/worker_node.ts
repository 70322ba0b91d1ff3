/**
 * Node.js tool-worker entry: serves isolated tool calls (src/pool/serve.ts) inside a worker thread.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { yieldCoresToProtocolThread } from "./worker_priority.ts";
import { resvgWasmNode } from "./wasm_node.ts";
import { provideRasterWasm } from "../chem/raster.ts";
import { currentThreadId, THREAD_ID_MESSAGE } from "./cpu_time.ts";
import { getHeapStatistics } from "node:v8";

/** This thread's memory: its isolate's heap and what lives outside it (its WebAssembly memories among them). */
function isolateBytes(): number {
  const heap = getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

const port = parentPort;
if (port) {
  // The main thread's messages wait in the port until serveTools listens.
  yieldCoresToProtocolThread();
  port.postMessage({ kind: THREAD_ID_MESSAGE, tid: currentThreadId() });
  provideRasterWasm(resvgWasmNode);
  void import("../pool/tool_worker.ts").then(({ serveTools }) =>
    serveTools({
      post: (message) => port.postMessage(message),
      onMessage: (l) => port.on("message", l),
      heapBytes: isolateBytes,
    })
  );
}
