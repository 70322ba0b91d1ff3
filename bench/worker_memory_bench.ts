/**
 * A tool worker's memory as the pool sees it (src/pool/policy.ts, `HEAP_GROWTH_FACTOR`): what a worker reports
 * once warm and after each of four largest PNG depiction grids (16 drugs, 500 × 500 px each), under Deno (a
 * worker process: its RSS) or Node (a worker thread: its isolate's heap and external memory, WebAssembly
 * memories included), and whether the pool would retire it (`heapGrown`).
 *
 * Run: npx deno run -A bench/worker_memory_bench.ts
 *      node .cache/dist-<you>/bench/worker_memory_bench.js (after tsc --outDir .cache/dist-<you>)
 *
 * @module
 */
import process from "node:process";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import type { WorkerHandle, WorkerReply } from "../src/pool/messages.ts";
import { heapGrown } from "../src/pool/policy.ts";

const MIB = 2 ** 20;

/** A worker of this runtime, as the server's pool creates it. */
async function spawnWorker(): Promise<{ handle: WorkerHandle; wasm: WebAssembly.Module }> {
  if ("Deno" in globalThis) {
    const { spawnProcessWorker } = await import("../src/runtime/process_worker_deno.ts");
    return { handle: spawnProcessWorker(), wasm: {} as WebAssembly.Module };
  }
  // The worker thread entry, compiled beside this file (tsc --outDir): as node_main.ts starts it.
  const { Worker } = await import("node:worker_threads");
  const { readFileSync } = await import("node:fs");
  const { RDKIT_WASM_PATH } = await import("../tests/helpers/rdkit.ts");
  const worker = new Worker(new URL("../src/runtime/worker_node.js", import.meta.url));
  const handle: WorkerHandle = {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) =>
      void worker.on("message", (message: WorkerReply | { kind: "thread_id" }) => {
        if (message.kind !== "thread_id") listener(message as WorkerReply);
      }),
    onFailure: () => {},
    terminate: () => void worker.terminate(),
    hold: () => {},
  };
  return { handle, wasm: await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH)) };
}

const { handle, wasm } = await spawnWorker();
const replies: WorkerReply[] = [];
let wake: () => void = () => {};
handle.onMessage((message) => {
  replies.push(message);
  wake();
});
const next = (kind: string) =>
  new Promise<WorkerReply>((resolve) => {
    const look = () => {
      const index = replies.findIndex((m) => m.kind === kind || (kind === "answer" && "heap" in m));
      if (index < 0) return void (wake = look);
      resolve(replies.splice(index, 1)[0]!);
    };
    look();
  });
handle.post({ kind: "init", wasm });
const warm = await next("warm") as { heap?: number };
const rows = [`| warm | ${((warm.heap ?? 0) / MIB).toFixed(0)} MiB | |`];
const grid = DRUGS50.slice(0, 16).map((drug) => drug.smiles);
for (let round = 1; round <= 4; round++) {
  handle.post({
    kind: "call",
    tool: "depict",
    args: { smiles: grid, format: "png", width: 500, height: 500 },
  });
  const reply = await next("answer") as { kind: string; heap?: number };
  const heap = reply.heap ?? 0;
  const retire = heapGrown(warm.heap === undefined ? undefined : { warm: warm.heap, now: heap });
  rows.push(
    `| grid ${round} (${reply.kind}) | ${(heap / MIB).toFixed(0)} MiB | ${retire ? "retired" : "kept"} |`,
  );
}
console.log(`${"Deno" in globalThis ? "Deno" : "Node"} tool worker, largest PNG grids:`);
console.log("| after | memory | pool |\n|---|---|---|\n" + rows.join("\n"));
handle.terminate();
process.exit(0);
