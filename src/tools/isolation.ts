/**
 * Running tool calls in workers with a wall-clock deadline.
 *
 * Some inputs make RDKit compute for as long as they like: a SMARTS query with a large wildcard ring searched
 * in a big polycyclic molecule is exponential in the ring size, and RDKit's substructure matcher has no time
 * limit. WebAssembly cannot be interrupted from outside, so such a tool runs in a worker (its own RDKit
 * instance); when the call's deadline passes, the worker is terminated and the call answers
 * `COMPUTATION_TIMEOUT`. The process keeps serving meanwhile: the main thread never waits on the computation.
 *
 * The same pool also keeps costly tools (src/tools/placement.ts) off the thread that reads and answers requests,
 * and spreads them over the machine's cores.
 *
 * This module is runtime-neutral: the runtime entries create workers ({@link SpawnWorker}) and run
 * {@link serveToolWorker} inside them.
 *
 * @module
 */
import * as v from "valibot";
import { ChemError, type ChemErrorCode } from "../errors.ts";
import { loadRDKit } from "../chem/rdkit.ts";
import { POOLED_DEADLINE_MS, POOLED_TOOLS, type WarmUpCall } from "./placement.ts";
import type { Tool } from "./tool.ts";

/** Main thread → worker. */
export type WorkerRequest =
  | { readonly kind: "init"; readonly wasm: WebAssembly.Module }
  | { readonly kind: "call"; readonly tool: string; readonly args: unknown };

/** Worker → main thread. */
export type WorkerReply =
  | { readonly kind: "ready" }
  | { readonly kind: "warm" }
  | { readonly kind: "result"; readonly value: unknown }
  | {
    readonly kind: "chem_error";
    readonly code: ChemErrorCode;
    readonly message: string;
    readonly details?: Record<string, unknown>;
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
}

/** Creates a worker running {@link serveToolWorker}. */
export type SpawnWorker = () => WorkerHandle;

/** The worker's side of the message channel. */
export interface WorkerEndpoint {
  /** Sends a message to the main thread. */
  post(message: WorkerReply): void;
  /** Registers the listener for the main thread's messages. */
  onMessage(listener: (message: WorkerRequest) => void): void;
}

/**
 * Serves tool calls inside a worker: loads RDKit from the module sent with `init` and reports ready, then makes
 * the `warmUp` calls (so one-time tables are built before users' calls need them), and runs one call per
 * message, answering with its result or error. Each warm-up call runs in a task of its own, so a call that
 * arrives meanwhile waits for one warm-up call at most, never for the whole warm-up.
 *
 * @example
 * ```ts
 * // In the Deno worker entry:
 * serveToolWorker({ post: (m) => self.postMessage(m), onMessage: (l) => (self.onmessage = (e) => l(e.data)) }, TOOLS);
 * ```
 */
export function serveToolWorker(
  endpoint: WorkerEndpoint,
  tools: readonly Tool[],
  warmUp: readonly WarmUpCall[] = [],
): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let ready: Promise<unknown> | undefined;
  endpoint.onMessage(async (message) => {
    if (message.kind === "init") {
      ready = loadRDKit(message.wasm);
      await ready;
      endpoint.post({ kind: "ready" });
      await warm(byName, warmUp);
      endpoint.post({ kind: "warm" });
      return;
    }
    try {
      await ready;
      const tool = byName.get(message.tool);
      if (!tool) throw new Error(`no tool named '${message.tool}' in the worker`);
      endpoint.post({ kind: "result", value: await tool.run(message.args as never) });
    } catch (error) {
      endpoint.post(
        error instanceof ChemError
          ? { kind: "chem_error", code: error.code, message: error.message, details: error.details }
          : {
            kind: "failure",
            message: error instanceof Error ? error.stack ?? error.message : String(error),
          },
      );
    }
  });
}

/** Makes each warm-up call with its validated arguments, yielding to waiting messages before each. */
async function warm(byName: ReadonlyMap<string, Tool>, calls: readonly WarmUpCall[]): Promise<void> {
  for (const call of calls) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tool = byName.get(call.tool);
    try {
      await tool?.run(v.parse(tool.input, call.args));
    } catch {
      // Nothing to answer: a user's call of that tool builds what is missing and reports its own error.
      // tests/unit/isolation_test.ts checks that every warm-up call succeeds.
    }
  }
}

/** Options of {@link IsolatedRunner}. */
export interface IsolatedRunnerOptions {
  /** Creates a worker. */
  readonly spawn: SpawnWorker;
  /** The compiled RDKit module, sent to each worker so none compiles it again. */
  readonly wasm: WebAssembly.Module;
  /** Most workers alive at once; further pooled calls wait for one. */
  readonly size: number;
  /** Longest a new worker may take to load RDKit, ms. */
  readonly startupMs?: number;
  /** Tools run in the pool for their cost (default {@link POOLED_TOOLS}). */
  readonly pooled?: ReadonlySet<string>;
  /** Deadline of those tools, ms (default {@link POOLED_DEADLINE_MS}). */
  readonly pooledDeadlineMs?: number;
  /** Told once, when every worker of {@link IsolatedRunner.start} has made its warm-up calls, how long it took. */
  readonly onWarm?: (elapsedMs: number) => void;
}

/** How one call in a worker ended: the worker's reply, the worker dying, or the deadline passing. */
type CallOutcome = WorkerReply | { readonly kind: "died"; readonly reason: string } | {
  readonly kind: "timeout";
};

interface Slot {
  readonly handle: WorkerHandle;
  readonly ready: Promise<void>;
  /** Settles the running call when the worker answers or dies. */
  settle?: (outcome: CallOutcome) => void;
  /** Resolves when the worker has made its warm-up calls. */
  readonly warm: Promise<void>;
  /** Stops waiting for the worker to start (a retired worker must not hold the process until the limit). */
  stopWaiting: () => void;
  dead: boolean;
}

/**
 * Runs each tool call: in the calling thread for cheap tools, in a pooled worker with a deadline for tools with
 * {@link Tool.isolation} and for the costly ones named in `pooled`.
 *
 * Workers start on first use, or all at once with {@link IsolatedRunner.start}; a started pool replaces each
 * worker it retires at once, so later calls find warm workers too.
 *
 * @example
 * ```ts
 * const runner = new IsolatedRunner({ spawn, wasm, size: 2 });
 * runner.start();
 * const server = createServer({ runTool: (tool, args) => runner.run(tool, args) });
 * ```
 */
export class IsolatedRunner {
  readonly #options: IsolatedRunnerOptions;
  readonly #pooled: ReadonlySet<string>;
  readonly #idle: Slot[] = [];
  readonly #waiting: ((slot: Slot) => void)[] = [];
  #alive = 0;
  #keepFull = false;

  /** @param options How to create workers, and how many. */
  constructor(options: IsolatedRunnerOptions) {
    this.#options = options;
    this.#pooled = options.pooled ?? POOLED_TOOLS;
  }

  /** Starts every worker now (each loads RDKit and warms up on its own thread) and keeps the pool full. */
  start(): void {
    this.#keepFull = true;
    const started = performance.now();
    const warming: Promise<void>[] = [];
    while (this.#alive < this.#options.size) {
      const slot = this.#spawn();
      warming.push(slot.warm);
      this.#idle.unshift(slot);
    }
    const onWarm = this.#options.onWarm;
    if (onWarm) void Promise.all(warming).then(() => onWarm(performance.now() - started), () => {});
  }

  /** The deadline of a call of `tool` in the pool, ms, or `undefined` when the tool runs in place. */
  deadlineMs(tool: Tool, args: Record<string, unknown>): number | undefined {
    if (tool.isolation) return tool.isolation.deadlineMs(args as never);
    if (!this.#pooled.has(tool.name)) return undefined;
    return this.#options.pooledDeadlineMs ?? POOLED_DEADLINE_MS;
  }

  /** Runs `tool` on validated `args`; throws `ChemError("COMPUTATION_TIMEOUT")` when the deadline passes. */
  async run(tool: Tool, args: Record<string, unknown>): Promise<unknown> {
    const deadlineMs = this.deadlineMs(tool, args);
    if (deadlineMs === undefined) return await tool.run(args);
    const slot = await this.#acquire();
    try {
      await slot.ready;
    } catch (error) {
      this.#discard(slot);
      throw error;
    }
    const reply = await new Promise<CallOutcome>(
      (resolve) => {
        const timer = setTimeout(() => resolve({ kind: "timeout" }), deadlineMs);
        slot.settle = (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        };
        slot.handle.hold(true);
        slot.handle.post({ kind: "call", tool: tool.name, args });
      },
    );
    slot.settle = undefined;
    slot.handle.hold(false);
    // After a timeout, a death or an exception (possibly a WebAssembly trap) the worker's RDKit is not trusted.
    if (reply.kind === "result" || reply.kind === "chem_error") this.#release(slot);
    else this.#discard(slot);
    return unwrap(tool, reply, deadlineMs);
  }

  /** Stops every idle worker (busy ones stop when their call ends or times out) and replaces none. */
  close(): void {
    this.#keepFull = false;
    for (const slot of this.#idle.splice(0)) this.#discard(slot);
  }

  #acquire(): Promise<Slot> {
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.#alive < this.#options.size) return Promise.resolve(this.#spawn());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(slot: Slot): void {
    const next = this.#waiting.shift();
    if (next) next(slot);
    else this.#idle.push(slot);
  }

  /** Retires a worker; a call waiting for one, or a started pool, gets a fresh one in its place. */
  #discard(slot: Slot): void {
    if (!slot.dead) {
      slot.dead = true;
      slot.stopWaiting();
      slot.handle.terminate();
      this.#alive--;
    }
    if (this.#waiting.length > 0 || (this.#keepFull && this.#alive < this.#options.size)) {
      this.#release(this.#spawn());
    }
  }

  #spawn(): Slot {
    const handle = this.#options.spawn();
    this.#alive++;
    let started: () => void = () => {};
    let failed: (error: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    ready.catch(() => {}); // observed in run(); never an unhandled rejection
    const startup = setTimeout(
      () => failed(new Error("a tool worker did not start in time")),
      this.#options.startupMs ?? 30_000,
    );
    let warmed: () => void = () => {};
    const warm = new Promise<void>((resolve) => (warmed = resolve));
    const slot: Slot = { handle, ready, warm, dead: false, stopWaiting: () => clearTimeout(startup) };
    handle.onMessage((message) => {
      if (message.kind === "ready") {
        clearTimeout(startup);
        started();
      } else if (message.kind === "warm") warmed();
      else slot.settle?.(message);
    });
    handle.onFailure((reason) => {
      clearTimeout(startup);
      failed(new Error(`a tool worker died while starting: ${reason}`));
      if (slot.settle) {
        slot.settle({ kind: "died", reason }); // run() discards it
        return;
      }
      // Died while idle: forget it, so the next call gets a fresh worker (not at once: a worker that cannot
      // start would otherwise be respawned for ever).
      const index = this.#idle.indexOf(slot);
      if (index >= 0) this.#idle.splice(index, 1);
      if (!slot.dead) {
        slot.dead = true;
        this.#alive--;
      }
    });
    handle.post({ kind: "init", wasm: this.#options.wasm });
    return slot;
  }
}

function unwrap(
  tool: Tool,
  reply: CallOutcome,
  deadlineMs: number,
): unknown {
  switch (reply.kind) {
    case "result":
      return reply.value;
    case "chem_error":
      throw new ChemError(reply.code, reply.message, reply.details);
    case "timeout":
      throw new ChemError(
        "COMPUTATION_TIMEOUT",
        `${tool.name} was stopped after ${deadlineMs / 1000} s: ` +
          (tool.isolation
            ? "this input makes the computation grow exponentially (for example a large wildcard ring in a " +
              "SMARTS). Simplify the input or raise its time limit."
            : "the longest any call may compute. Try a smaller molecule."),
        { limit_ms: deadlineMs },
      );
    case "died":
      throw new Error(`the worker running '${tool.name}' died: ${reply.reason}`);
    case "failure":
      throw new Error(`'${tool.name}' threw in its worker: ${reply.message}`);
    default:
      throw new Error(`unexpected worker reply '${reply.kind}'`);
  }
}
