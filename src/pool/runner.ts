/**
 * Running tool calls in workers with a wall-clock deadline.
 *
 * Some inputs make RDKit compute for as long as they like: a SMARTS query with a large wildcard ring searched
 * in a big polycyclic molecule is exponential in the ring size, and RDKit's substructure matcher has no time
 * limit. WebAssembly cannot be interrupted from outside, so such a tool runs in a worker (its own RDKit
 * instance); when the call's deadline passes, the worker is terminated and the call answers
 * `COMPUTATION_TIMEOUT`. The process keeps serving meanwhile: the main thread never waits on the computation.
 * The same pool keeps costly tools off the thread that reads and answers requests, and spreads them over the
 * machine's cores. Where each call runs is its plan (src/tools/placement.ts); which workers a call may hold is
 * src/pool/policy.ts; the workers and their starts src/pool/workers.ts; waiting src/pool/queue.ts; spares
 * src/pool/spares.ts; one worker's life src/pool/slot.ts; what runs inside a worker src/pool/serve.ts. Time is
 * the injected {@link Clock}, so every rule can be proven on a model clock.
 *
 * This module is runtime-neutral: the runtime entries create workers ({@link SpawnWorker}) and run
 * {@link serveToolWorker} inside them.
 *
 * @module
 */
import { CancelledError, ChemError, ChemMcpError } from "../errors.ts";
import { type Clock, REAL_CLOCK } from "../clock.ts";
import {
  ANSWER_WITHIN_MS,
  MAX_QUEUE_WAIT_MS,
  type Plan,
  planCall,
  type PlanOptions,
} from "../tools/placement.ts";
import { type LazySignal, signalOf, type Tool } from "../tools/tool.ts";
import { rdkitRefusal } from "../chem/rdkit_errors.ts";
import type { SpawnWorker } from "./messages.ts";
import { type CallOutcome, describe, rdkitFailed, trusted, unwrap } from "./outcome.ts";
import { callKind, heapGrown, QUEUE_DEADLINE_MS, spareAfterMs } from "./policy.ts";
import type { WorkerSlot } from "./slot.ts";
import { acquire } from "./queue.ts";
import { spareIfHeld } from "./spares.ts";
import { WorkerPool } from "./workers.ts";

export type { SpawnWorker, WorkerEndpoint, WorkerHandle, WorkerReply, WorkerRequest } from "./messages.ts";
export { serveToolWorker } from "./serve.ts";
export { QUEUE_DEADLINE_MS } from "./policy.ts";

/** Options of {@link IsolatedRunner}. */
export interface IsolatedRunnerOptions {
  /** Creates a worker. */
  readonly spawn: SpawnWorker;
  /** The compiled RDKit module, sent to each worker so none compiles it again. */
  readonly wasm: WebAssembly.Module;
  /** Workers kept for the pool (one spare may start beyond it, see src/pool/policy.ts). */
  readonly size: number;
  /** Longest a new worker may take to load RDKit, ms (default 60 s). */
  readonly startupMs?: number;
  /** Tools run in the pool whatever their placement says (the web app's computations). */
  readonly pooled?: ReadonlySet<string>;
  /** Deadline of pooled calls without a limit of their own, ms (default: src/tools/placement.ts's). */
  readonly pooledDeadlineMs?: number;
  /**
   * Longest the pool may stall for a waiting call, ms — no worker it may take coming free and none starting —
   * before the call is answered `SERVER_BUSY` (default {@link QUEUE_DEADLINE_MS}). A queue that moves is not
   * refused, however long it is.
   */
  readonly queueDeadlineMs?: number;
  /** Told once, when every worker of {@link IsolatedRunner.start} has made its warm-up calls, how long it took. */
  readonly onWarm?: (elapsedMs: number) => void;
  /** Diagnostics: a worker that failed or died, the protocol thread's RDKit failing (then every call is pooled). */
  readonly log?: (message: string) => void;
  /** The pool's time: the runtime's clock by default, a model clock in tests. */
  readonly clock?: Clock;
}

/**
 * Longest a worker may take to load RDKit, ms. A Deno worker process 10 nice steps below CPU-bound programs
 * (src/runtime/worker_priority.ts) took more than 30 s on a loaded 2-core machine; waiting for it is the caller's
 * wait, so the limit is generous.
 */
const STARTUP_MS = 60_000;

/**
 * Runs each tool call as its plan says (src/tools/placement.ts): in the calling thread, or in a pooled worker
 * with a deadline.
 *
 * No call can hold the pool for good and none can leave damage behind:
 * - a waiting call is answered `SERVER_BUSY`, saying what holds the workers, once possibly long calls have held
 *   every worker it may take for `queueDeadlineMs` with none coming free (src/pool/queue.ts); a worker that is
 *   starting is not held, and a queue that moves is honest load, so neither a cold pool nor a busy machine
 *   refuses honest work;
 * - possibly long calls hold at most `size − 1` workers, and a spare starts when calls have held every worker for
 *   a while (src/pool/policy.ts);
 * - a worker is retired (terminated, replaced) after a timeout, a withdrawn long call, a failure that is not a
 *   typed error (a WebAssembly trap), and after a call in which RDKit built a molecule large enough that its
 *   damage to RDKit's memory could be silent; a cancelled bounded call finishes in its worker, which stays, and
 *   its answer is dropped;
 * - if RDKit on the calling thread ever fails (a trap, not a typed error), every later call goes to the pool.
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
  readonly #pool: WorkerPool;
  #inPlaceBroken = false;

  /** @param options How to create workers, and how many. */
  constructor(options: IsolatedRunnerOptions) {
    this.#options = options;
    this.#pool = new WorkerPool({
      spawn: options.spawn,
      wasm: options.wasm,
      size: options.size,
      startupMs: options.startupMs ?? STARTUP_MS,
      queueDeadlineMs: options.queueDeadlineMs ?? QUEUE_DEADLINE_MS,
      maxQueueWaitMs: MAX_QUEUE_WAIT_MS,
      clock: options.clock ?? REAL_CLOCK,
    });
  }

  /** Starts every worker now (each loads RDKit and warms up on its own thread) and keeps the pool full. */
  start(): void {
    const pool = this.#pool;
    pool.keepFull = true;
    const started = pool.clock.now();
    const warming: Promise<void>[] = [];
    while (pool.slots.size < pool.settings.size) {
      const slot = pool.spawn();
      warming.push(slot.warm);
      pool.idle.unshift(slot);
    }
    const onWarm = this.#options.onWarm;
    if (onWarm) void Promise.all(warming).then(() => onWarm(pool.clock.now() - started), () => {});
  }

  /** How a call of `tool` on validated `args` runs: where, within which deadline, of which kind. */
  plan(tool: Tool, args: Record<string, unknown>): Plan {
    // Built once per state rather than spread anew for every call.
    return planCall(tool, args, this.#planOptions ??= this.#planOptionsNow());
  }

  #planOptions: PlanOptions | undefined;

  #planOptionsNow(): PlanOptions {
    const { pooled, pooledDeadlineMs } = this.#options;
    return {
      ...(pooled ? { pooled } : {}),
      ...(pooledDeadlineMs ? { pooledDeadlineMs } : {}),
      inPlaceBroken: this.#inPlaceBroken,
    };
  }

  /**
   * Runs `tool` on validated `args`. Throws `ChemError("COMPUTATION_TIMEOUT")` when the deadline passes,
   * `ChemError("SERVER_BUSY")` when no worker came free in time, and {@link CancelledError} when `signal` aborts
   * first (a call that can run long is withdrawn with its worker; a bounded one finishes and is dropped). The
   * signal may come as the function that makes it, called only for a call that goes to a worker.
   */
  async run(
    tool: Tool,
    args: Record<string, unknown>,
    lazySignal?: LazySignal,
  ): Promise<unknown> {
    const planned = this.plan(tool, args);
    if (planned.where === "in_place") return await this.#runInPlace(tool, args);
    const signal = signalOf(lazySignal);
    if (signal?.aborted) throw new CancelledError();
    const pool = this.#pool;
    const arrived = pool.clock.now();
    const kind = callKind(planned);
    const label = planned.kind === "chunk" ? `${planned.name} (list)` : planned.name;
    const slot = await this.#readyWorker(label, kind, signal);
    slot.hold({ tool: label, kind });
    // What is left of ANSWER_WITHIN_MS after the wait for a worker caps the call's own deadline.
    const leftMs = ANSWER_WITHIN_MS - (pool.clock.now() - arrived);
    const plan = { ...planned, deadlineMs: Math.max(1, Math.min(planned.deadlineMs, leftMs)) };
    if (kind.search) spareIfHeld(pool);
    // A call that still holds its worker after this may be a runaway: a spare may be due.
    const spare = pool.clock.setTimeout(() => spareIfHeld(pool), spareAfterMs(kind));
    const outcome = slot.run(tool.name, args, plan.deadlineMs).then((outcome) => {
      pool.clock.clearTimeout(spare);
      this.#settle(slot, plan, outcome);
      return outcome;
    });
    // A bounded call lasts a second at most: on a cancel it finishes and its answer is dropped, where
    // withdrawing it would retire a warm worker. A call that can run long is withdrawn with its worker.
    const reply = await untilAborted(outcome, signal, () => {
      if (kind.long) slot.withdraw();
    }).catch((error: unknown) => {
      if (error instanceof CancelledError) return { kind: "cancelled" } as const;
      throw error;
    });
    return unwrap(plan, reply);
  }

  /**
   * A worker that has loaded RDKit, for a call. A start that fails is not the call's fault: the call takes the
   * next worker, and is answered SERVER_BUSY only when that one fails to start as well.
   */
  async #readyWorker(
    tool: string,
    kind: ReturnType<typeof callKind>,
    signal: AbortSignal | undefined,
  ): Promise<WorkerSlot> {
    for (let attempt = 1;; attempt++) {
      const slot = await acquire(this.#pool, tool, kind, signal);
      try {
        await untilAborted(slot.ready, signal);
        return slot;
      } catch (error) {
        if (!slot.dead) this.#pool.release(slot); // cancelled while it starts: it finishes starting for the next call
        if (error instanceof CancelledError || attempt === 2) {
          throw error instanceof CancelledError ? error : this.#startFailed(error);
        }
      }
    }
  }

  /** Stops every idle worker (busy ones stop when their call ends or times out) and replaces none. */
  close(): void {
    const pool = this.#pool;
    pool.keepFull = false;
    pool.clock.clearTimeout(pool.trimTimer);
    for (const slot of pool.idle.splice(0)) pool.retire(slot);
  }

  async #runInPlace(tool: Tool, args: Record<string, unknown>): Promise<unknown> {
    try {
      return await tool.run(args);
    } catch (thrown) {
      const error = rdkitRefusal(thrown) ?? thrown;
      if (!(error instanceof ChemMcpError) && rdkitFailed(error)) {
        this.#inPlaceBroken = true;
        this.#planOptions = undefined;
        this.#options.log?.(
          `'${tool.name}' failed on the protocol thread (${
            describe(error)
          }); every later call runs in the pool`,
        );
      }
      throw error;
    }
  }

  /** After a call: its worker goes back to the pool, or is retired when its RDKit is no longer trusted. */
  #settle(slot: WorkerSlot, plan: Plan, outcome: CallOutcome): void {
    slot.free();
    const grown = heapGrown(slot.heap);
    if (trusted(outcome) && !grown) this.#pool.release(slot);
    else this.#pool.discard(slot);
    if (grown) {
      const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
      this.#options.log?.(
        `a worker's memory grew from ${mib(slot.heap!.warm)} to ${
          mib(slot.heap!.now)
        } MiB ('${plan.name}'); ` +
          "it was replaced",
      );
    }
    if (outcome.kind === "died" || outcome.kind === "failure") {
      const reason = outcome.kind === "died" ? outcome.reason : outcome.message;
      this.#options.log?.(`'${plan.name}' broke its worker, which was replaced: ${reason}`);
    }
  }

  #startFailed(error: unknown): ChemError {
    const { queueDeadlineMs, size } = this.#pool.settings;
    return new ChemError(
      "SERVER_BUSY",
      `A tool worker could not start (${describe(error)}); retry in a few seconds.`,
      { retry_after_ms: queueDeadlineMs, workers: size },
    );
  }
}

/**
 * `promise`, or a {@link CancelledError} as soon as `signal` aborts (calling `onAbort` first); the promise runs
 * on either way.
 */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort?: () => void,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(new CancelledError());
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
