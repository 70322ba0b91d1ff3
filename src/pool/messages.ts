/**
 * The messages between the pool (src/pool/runner.ts) and a tool worker (src/pool/serve.ts), and what a runtime
 * provides to create a worker. Runtime-neutral: src/runtime/*worker* implement {@link WorkerHandle} with
 * threads (Node) or processes (Deno).
 *
 * @module
 */
import type { ChemErrorCode } from "../errors.ts";

/** Main thread → worker. */
export type WorkerRequest =
  | { readonly kind: "init"; readonly wasm: WebAssembly.Module }
  | { readonly kind: "call"; readonly tool: string; readonly args: unknown };

/** Worker → main thread. */
export type WorkerReply =
  | { readonly kind: "ready" }
  /** Warm-up made; `heap` is the worker's memory then, bytes, where the runtime tells it. */
  | { readonly kind: "warm"; readonly heap?: number }
  /** A call that arrived during the warm-up begins now (its deadline counts from here, see WorkerSlot). */
  | { readonly kind: "begin" }
  | { readonly kind: "result"; readonly value: unknown; readonly retire?: boolean; readonly heap?: number }
  | {
    readonly kind: "chem_error";
    readonly code: ChemErrorCode;
    readonly message: string;
    readonly details?: Record<string, unknown>;
    readonly retire?: boolean;
    readonly heap?: number;
  }
  | { readonly kind: "failure"; readonly message: string };

/** One worker as the runtime provides it. */
export interface WorkerHandle {
  /** Sends a message to the worker. */
  post(message: WorkerRequest): void;
  /** Registers the listener for the worker's messages. */
  onMessage(listener: (message: WorkerReply) => void): void;
  /** Registers the listener for the worker dying (an uncaught error, a WebAssembly trap, an exit). */
  onFailure(listener: (reason: string) => void): void;
  /** Stops the worker at once, whatever it is computing. */
  terminate(): void;
  /** Whether the worker must keep the process alive (true while a call runs; idle workers must not). */
  hold(busy: boolean): void;
  /**
   * The CPU time the worker has used so far, ms, where the runtime can tell (Linux); `undefined` elsewhere, and
   * then the pool judges a long call by its wall time alone.
   */
  cpuMs?(): number | undefined;
}

/** Creates a worker running `serveToolWorker`. */
export type SpawnWorker = () => WorkerHandle;

/** The worker's side of the message channel. */
export interface WorkerEndpoint {
  /** Sends a message to the main thread. */
  post(message: WorkerReply): void;
  /** Registers the listener for the main thread's messages. */
  onMessage(listener: (message: WorkerRequest) => void): void;
  /**
   * The worker's memory, bytes: its WebAssembly memories and JavaScript heap, where the runtime can tell (a
   * process's resident size, a thread's isolate). Reported after the warm-up and after each call.
   */
  heapBytes?(): number;
}
