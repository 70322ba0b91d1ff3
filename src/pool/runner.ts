/**
 * Running tool calls in workers with a wall-clock deadline.
 *
 * Some inputs make RDKit compute for as long as they like: a SMARTS query with a large wildcard ring searched
 * in a big polycyclic molecule is exponential in the ring size, and RDKit's substructure matcher has no time
 * limit. WebAssembly cannot be interrupted from outside, so such a tool runs in a worker (its own RDKit
 * instance); when the call's deadline passes, the worker is terminated and the call answers
 * `COMPUTATION_TIMEOUT`. The process keeps serving meanwhile: the main thread never waits on the computation.
 *
 * The same pool also keeps costly tools (src/pool/placement.ts) off the thread that reads and answers requests,
 * and spreads them over the machine's cores.
 *
 * This module is runtime-neutral: the runtime entries create workers ({@link SpawnWorker}) and run
 * {@link serveToolWorker} inside them.
 *
 * @module
 */
import * as v from "valibot";
import { CancelledError, ChemError, type ChemErrorCode, ChemMcpError } from "../errors.ts";
import { loadRDKit, takeLargestMolecule } from "../chem/rdkit.ts";
import {
  isCostlyInput,
  ITEMS_SUFFIX,
  LARGE_INPUT_ATOMS,
  POOLED_DEADLINE_MS,
  POOLED_TOOLS,
  QUEUE_DEADLINE_MS,
  type WarmUpCall,
} from "./placement.ts";
import type { Tool } from "../tools/tool.ts";

/** Main thread → worker. */
export type WorkerRequest =
  | { readonly kind: "init"; readonly wasm: WebAssembly.Module }
  | { readonly kind: "call"; readonly tool: string; readonly args: unknown };

/** Worker → main thread. */
export type WorkerReply =
  | { readonly kind: "ready" }
  | { readonly kind: "warm" }
  | { readonly kind: "result"; readonly value: unknown; readonly retire?: boolean }
  | {
    readonly kind: "chem_error";
    readonly code: ChemErrorCode;
    readonly message: string;
    readonly details?: Record<string, unknown>;
    readonly retire?: boolean;
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
      takeLargestMolecule();
      const value = await tool.run(message.args as never);
      endpoint.post({ kind: "result", value, ...retireFlag() });
    } catch (error) {
      endpoint.post(
        error instanceof ChemError
          ? {
            kind: "chem_error",
            code: error.code,
            message: error.message,
            details: error.details,
            ...retireFlag(),
          }
          : {
            kind: "failure",
            message: error instanceof Error ? error.stack ?? error.message : String(error),
          },
      );
    }
  });
}

/** `retire: true` when this call built a molecule large enough to have damaged RDKit without a trap. */
function retireFlag(): { retire?: true } {
  return takeLargestMolecule() > LARGE_INPUT_ATOMS ? { retire: true } : {};
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
  /** Workers kept for the pool (one more may start for bounded calls when `size` is 1, see {@link IsolatedRunner}). */
  readonly size: number;
  /** Longest a new worker may take to load RDKit, ms. */
  readonly startupMs?: number;
  /** Tools run in the pool for their cost (default {@link POOLED_TOOLS}). */
  readonly pooled?: ReadonlySet<string>;
  /** Deadline of those tools, ms (default {@link POOLED_DEADLINE_MS}). */
  readonly pooledDeadlineMs?: number;
  /** Longest a pooled call waits for a worker before it is answered `SERVER_BUSY`, ms (default {@link QUEUE_DEADLINE_MS}). */
  readonly queueDeadlineMs?: number;
  /** Told once, when every worker of {@link IsolatedRunner.start} has made its warm-up calls, how long it took. */
  readonly onWarm?: (elapsedMs: number) => void;
  /** Diagnostics: a worker that failed or died, the protocol thread's RDKit failing (then every call is pooled). */
  readonly log?: (message: string) => void;
}

/** How one call in a worker ended: the worker's reply, the worker dying, the deadline passing, or a cancel. */
type CallOutcome =
  | WorkerReply
  | { readonly kind: "died"; readonly reason: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "cancelled" }
  | { readonly kind: "busy" };

interface Slot {
  /** The worker, once started: starts are queued, one per macrotask (see `#pump`). */
  handle?: WorkerHandle;
  readonly ready: Promise<void>;
  /** Settles the running call when the worker answers or dies. */
  settle?: (outcome: CallOutcome) => void;
  /** Resolves when the worker has made its warm-up calls. */
  readonly warm: Promise<void>;
  /** Stops waiting for the worker to start (a retired worker must not hold the process until the limit). */
  stopWaiting: () => void;
  dead: boolean;
}

/** A pooled call waiting for a worker. */
interface Waiter {
  /** Whether the call may run to its own long time limit (a tool with `isolation`). */
  readonly runaway: boolean;
  readonly take: (slot: Slot) => void;
}

/**
 * Runs each tool call: in the calling thread for cheap tools on small inputs, in a pooled worker with a deadline
 * for tools with {@link Tool.isolation}, for the costly ones named in `pooled`, and for any call whose input is
 * larger than {@link LARGE_INPUT_ATOMS}.
 *
 * No wait is unbounded and no call can leave damage behind:
 * - a call waits for a worker at most `queueDeadlineMs`, for one to come free and to finish starting alike, then
 *   is answered `SERVER_BUSY` with a retry hint;
 * - tools that can run to a long time limit (`isolation`) hold at most `size - 1` workers (at least one), so a
 *   bounded call always finds a worker they cannot take; with `size` 1 a second worker starts for bounded calls
 *   while the only one runs such a search, and stops when it falls idle;
 * - a worker is retired (terminated, replaced) after a timeout, a cancel, a failure that is not a typed
 *   chemistry error (a WebAssembly trap), and after any call in which RDKit built a molecule larger than
 *   {@link LARGE_INPUT_ATOMS}, whose damage to RDKit's memory could be silent;
 * - if RDKit on the calling thread ever fails that way, every later call goes to the pool.
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
  readonly #waiting: Waiter[] = [];
  #alive = 0;
  #runaway = 0;
  #keepFull = false;
  #inPlaceBroken = false;
  /** Worker starts not yet made, in order (see `#pump`). */
  readonly #starts: (() => void)[] = [];
  #pumping = false;

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

  /** The deadline of a call of `tool` in the pool, ms, or `undefined` when the call runs in place. */
  deadlineMs(tool: Tool, args: Record<string, unknown>): number | undefined {
    if (tool.isolation) return tool.isolation.deadlineMs(args as never);
    if (this.#pooled.has(tool.name) || this.#inPlaceBroken || isCostlyInput(args)) {
      return this.#options.pooledDeadlineMs ?? POOLED_DEADLINE_MS;
    }
    return undefined;
  }

  /**
   * Runs `tool` on validated `args`. Throws `ChemError("COMPUTATION_TIMEOUT")` when the deadline passes,
   * `ChemError("SERVER_BUSY")` when no worker came free in time, and {@link CancelledError} when `signal` aborts
   * first (the worker running the call is retired at once).
   */
  async run(tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const deadlineMs = this.deadlineMs(tool, args);
    if (deadlineMs === undefined) return await this.#runInPlace(tool, args);
    if (signal?.aborted) throw new CancelledError();
    const runaway = tool.isolation !== undefined;
    // One deadline for the whole wait: for a worker to come free, then for it to finish starting.
    const queueEnd = performance.now() + this.#queueDeadlineMs();
    const slot = await this.#acquire(runaway, signal, queueEnd); // counted in #runaway from here when runaway
    if (runaway) this.#keepReserve();
    let reply: CallOutcome;
    try {
      reply = await this.#call(slot, tool, args, deadlineMs, signal, queueEnd);
    } finally {
      if (runaway) this.#runaway--;
    }
    if (reply.kind === "busy") {
      // The worker was never used: it finishes starting for the next call.
      this.#release(slot);
      throw this.#busy();
    }
    // After a timeout, a cancel, a death or an exception (possibly a WebAssembly trap) the worker's RDKit is not
    // trusted; nor after it built a very large molecule, which may have damaged it without a trap.
    const trusted = (reply.kind === "result" || reply.kind === "chem_error") && reply.retire !== true;
    if (trusted) this.#release(slot);
    else this.#discard(slot);
    if (reply.kind === "died" || reply.kind === "failure") {
      this.#options.log?.(
        `'${tool.name}' broke its worker, which was replaced: ${
          reply.kind === "died" ? reply.reason : reply.message
        }`,
      );
    }
    return unwrap(tool, reply, deadlineMs);
  }

  /** Stops every idle worker (busy ones stop when their call ends or times out) and replaces none. */
  close(): void {
    this.#keepFull = false;
    for (const slot of this.#idle.splice(0)) this.#discard(slot);
  }

  async #runInPlace(tool: Tool, args: Record<string, unknown>): Promise<unknown> {
    try {
      return await tool.run(args);
    } catch (error) {
      if (!(error instanceof ChemMcpError)) {
        this.#inPlaceBroken = true;
        this.#options.log?.(
          `'${tool.name}' failed on the protocol thread (${
            describe(error)
          }); every later call runs in the pool`,
        );
      }
      throw error;
    }
  }

  async #call(
    slot: Slot,
    tool: Tool,
    args: Record<string, unknown>,
    deadlineMs: number,
    signal: AbortSignal | undefined,
    queueEnd: number,
  ): Promise<CallOutcome> {
    try {
      if (!(await settlesBy(slot.ready, queueEnd))) return { kind: "busy" };
    } catch (error) {
      return { kind: "died", reason: describe(error) };
    }
    const outcome = await new Promise<CallOutcome>((resolve) => {
      // Every way out clears the deadline: a cancelled call's timer left pending kept a Node process that had
      // read its last line alive until the cancelled search's limit (20 s), with nothing left to do.
      const finish = (outcome: CallOutcome) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const timer = setTimeout(() => finish({ kind: "timeout" }), deadlineMs);
      const onAbort = () => finish({ kind: "cancelled" });
      signal?.addEventListener("abort", onAbort, { once: true });
      slot.settle = finish;
      if (signal?.aborted) onAbort();
      slot.handle!.hold(true);
      slot.handle!.post({ kind: "call", tool: tool.name, args });
    });
    slot.settle = undefined;
    slot.handle!.hold(false);
    return outcome;
  }

  /** A worker for a call: an idle one, a new one within the limits, or the first to come free in time. */
  #acquire(runaway: boolean, signal: AbortSignal | undefined, queueEnd: number): Promise<Slot> {
    const now = this.#tryTake(runaway);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
      };
      const timer = setTimeout(() => {
        leave();
        reject(this.#busy());
      }, Math.max(0, queueEnd - performance.now()));
      const onAbort = () => {
        leave();
        reject(new CancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const waiter: Waiter = {
        runaway,
        take: (slot) => {
          leave();
          resolve(slot);
        },
      };
      this.#waiting.push(waiter);
    });
  }

  #queueDeadlineMs(): number {
    return this.#options.queueDeadlineMs ?? QUEUE_DEADLINE_MS;
  }

  #busy(): ChemError {
    const waitMs = this.#queueDeadlineMs();
    return new ChemError(
      "SERVER_BUSY",
      `No tool worker was ready within ${
        waitMs / 1000
      } s (other calls are running long searches, or workers ` +
        "are still starting); retry in a few seconds.",
      { retry_after_ms: waitMs, workers: this.#options.size },
    );
  }

  /**
   * In a started pool, a search that took the last free worker gets a warm spare started beside it (within the
   * capacity bounded calls may use), so a bounded call, or the next call after a cancel, finds one ready.
   */
  #keepReserve(): void {
    if (this.#keepFull && this.#idle.length === 0 && this.#alive < this.#capacity(false)) {
      this.#idle.unshift(this.#spawn());
    }
  }

  /** Most workers alive for a call of this kind (see the class notes on reserved capacity). */
  #capacity(runaway: boolean): number {
    const size = this.#options.size;
    return runaway ? size : Math.max(size, this.#runawayLimit() + 1);
  }

  #runawayLimit(): number {
    return Math.max(1, this.#options.size - 1);
  }

  #tryTake(runaway: boolean): Slot | undefined {
    if (runaway && this.#runaway >= this.#runawayLimit()) return undefined;
    const slot = this.#idle.pop() ?? (this.#alive < this.#capacity(runaway) ? this.#spawn() : undefined);
    if (slot && runaway) this.#runaway++;
    return slot;
  }

  /** The first waiting call that may take a worker now. */
  #nextWaiter(): Waiter | undefined {
    return this.#waiting.find((w) => !w.runaway || this.#runaway < this.#runawayLimit());
  }

  /** Hands a free worker to the first waiting call that may take it, else keeps it idle (or stops a surplus one). */
  #release(slot: Slot): void {
    const waiter = this.#nextWaiter();
    if (waiter) {
      if (waiter.runaway) this.#runaway++;
      waiter.take(slot);
      return;
    }
    if (this.#alive > this.#options.size) this.#retire(slot);
    else this.#idle.push(slot);
  }

  /** Retires a worker; a call waiting for one, or a started pool, gets a fresh one in its place. */
  #discard(slot: Slot): void {
    this.#retire(slot);
    for (let waiter = this.#nextWaiter(); waiter; waiter = this.#nextWaiter()) {
      if (this.#alive >= this.#capacity(waiter.runaway)) break;
      this.#release(this.#spawn());
    }
    if (this.#keepFull && this.#alive < this.#options.size) this.#idle.unshift(this.#spawn());
  }

  #retire(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.stopWaiting();
    slot.handle?.terminate();
    this.#alive--;
  }

  /**
   * A slot for a new worker, whose start is queued: calls can be handed the slot at once and wait for it to be
   * ready like any starting worker.
   */
  #spawn(): Slot {
    this.#alive++;
    let started: () => void = () => {};
    let failed: (error: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    ready.catch(() => {}); // observed in run(); never an unhandled rejection
    const startup = setTimeout(() => {
      failed(new Error("a tool worker did not start in time"));
      // Left idle, it would hand its failure to the next call: stop it, and start another when one is asked for.
      slot.handle?.terminate();
      this.#forget(slot);
    }, this.#options.startupMs ?? 30_000);
    let warmed: () => void = () => {};
    const warm = new Promise<void>((resolve) => (warmed = resolve));
    const slot: Slot = { ready, warm, dead: false, stopWaiting: () => clearTimeout(startup) };
    this.#starts.push(() => {
      if (slot.dead) return;
      try {
        this.#startWorker(slot, started, failed, warmed);
      } catch (error) {
        // Out of threads or processes: fail like a worker that died while starting (the call holding the slot
        // gets a typed error), never an exception on the event loop.
        slot.stopWaiting();
        failed(new Error(`a tool worker could not be started: ${describe(error)}`));
        this.#forget(slot);
      }
    });
    this.#pump();
    return slot;
  }

  /**
   * Starts the queued workers, one per macrotask. Creating a worker blocks the calling thread for 3–15 ms (a
   * thread's isolate and message ports, or a process), and a pool starts right after the first answer, when a
   * client's first calls arrive: done in one go, both starts and the first calls' own work would come before
   * any of those calls is answered. One start per turn lets the event loop read and answer requests between
   * them.
   */
  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    setTimeout(() => {
      this.#pumping = false;
      this.#starts.shift()?.();
      if (this.#starts.length > 0) this.#pump();
    }, 0);
  }

  #startWorker(slot: Slot, started: () => void, failed: (error: Error) => void, warmed: () => void): void {
    const handle = this.#options.spawn();
    slot.handle = handle;
    handle.onMessage((message) => {
      if (message.kind === "ready") {
        slot.stopWaiting();
        started();
      } else if (message.kind === "warm") warmed();
      else slot.settle?.(message);
    });
    handle.onFailure((reason) => {
      slot.stopWaiting();
      failed(new Error(`a tool worker died while starting: ${reason}`));
      if (slot.settle) {
        slot.settle({ kind: "died", reason }); // run() discards it
        return;
      }
      // Died while idle: forget it, so the next call gets a fresh worker (not at once: a worker that cannot
      // start would otherwise be respawned for ever).
      this.#forget(slot);
    });
    handle.post({ kind: "init", wasm: this.#options.wasm });
  }

  /** Drops a worker that died or never started from the pool's count, without replacing it. */
  #forget(slot: Slot): void {
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
    if (!slot.dead) {
      slot.dead = true;
      this.#alive--;
    }
  }
}

/** Whether `promise` resolves before `end` (a `performance.now()` time); rejects as it does. */
async function settlesBy(promise: Promise<void>, end: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, end - performance.now()));
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function unwrap(
  tool: Tool,
  reply: CallOutcome,
  deadlineMs: number,
): unknown {
  // A list call's chunk answers in the name of the tool the caller called.
  const name = tool.name.replace(ITEMS_SUFFIX, "");
  switch (reply.kind) {
    case "result":
      return reply.value;
    case "chem_error":
      throw new ChemError(reply.code, reply.message, reply.details);
    case "timeout":
      throw new ChemError(
        "COMPUTATION_TIMEOUT",
        `${name} was stopped after ${deadlineMs / 1000} s: ` +
          (tool.isolation
            ? "this input makes the computation grow exponentially (for example a large wildcard ring in a " +
              "SMARTS). Simplify the input or raise its time limit."
            : "the longest any call may compute. Try a smaller molecule."),
        { limit_ms: deadlineMs },
      );
    case "cancelled":
      throw new CancelledError();
    case "died":
    case "failure":
      throw new ChemError(
        "UNSUPPORTED_MOLECULE",
        `RDKit failed on this input inside ${name} (its worker was replaced; nothing else was affected). ` +
          "Try a smaller or simpler molecule or pattern.",
        { cause: reply.kind === "died" ? "worker_died" : "worker_failure" },
      );
    default:
      throw new Error(`unexpected worker reply '${reply.kind}'`);
  }
}
