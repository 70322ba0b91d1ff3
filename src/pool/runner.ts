/**
 * Running tool calls in workers with a wall-clock deadline.
 *
 * Some inputs make RDKit compute for as long as they like: a SMARTS query with a large wildcard ring searched
 * in a big polycyclic molecule is exponential in the ring size, and RDKit's substructure matcher has no time
 * limit. WebAssembly cannot be interrupted from outside, so such a tool runs in a worker (its own RDKit
 * instance); when the call's deadline passes, the worker is terminated and the call answers
 * `COMPUTATION_TIMEOUT`. The process keeps serving meanwhile: the main thread never waits on the computation.
 * The same pool keeps costly tools (src/pool/placement.ts) off the thread that reads and answers requests, and
 * spreads them over the machine's cores. Which workers a call may hold is src/pool/policy.ts; one worker's life
 * is src/pool/slot.ts; what runs inside a worker is src/pool/serve.ts.
 *
 * This module is runtime-neutral: the runtime entries create workers ({@link SpawnWorker}) and run
 * {@link serveToolWorker} inside them.
 *
 * @module
 */
import { CancelledError, ChemError, ChemMcpError } from "../errors.ts";
import { isCostlyInput, POOLED_DEADLINE_MS, POOLED_TOOLS, QUEUE_DEADLINE_MS } from "./placement.ts";
import type { Tool } from "../tools/tool.ts";
import type { SpawnWorker } from "./messages.ts";
import { type CallOutcome, describe, rdkitFailed, trusted, unwrap } from "./outcome.ts";
import {
  busyMessage,
  type CallKind,
  callKind,
  mayStall,
  searchLimit,
  SPARE_LINGER_MS,
  spareAfterMs,
} from "./policy.ts";
import { WorkerSlot } from "./slot.ts";

export type { SpawnWorker, WorkerEndpoint, WorkerHandle, WorkerReply, WorkerRequest } from "./messages.ts";
export { serveToolWorker } from "./serve.ts";

/** How early a timer may fire against `performance.now()`, ms. */
const TIMER_SLACK_MS = 5;

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
  /** Tools run in the pool for their cost (default {@link POOLED_TOOLS}). */
  readonly pooled?: ReadonlySet<string>;
  /** Deadline of those tools, ms (default {@link POOLED_DEADLINE_MS}). */
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
}

/** A pooled call waiting for a worker. */
interface Waiter {
  readonly kind: CallKind;
  readonly take: (slot: WorkerSlot) => void;
}

/**
 * Longest a worker may take to load RDKit, ms. A Deno worker process 10 nice steps below CPU-bound programs (src/runtime/worker_priority.ts) took
 * more than 30 s on a loaded 2-core machine; waiting for it is the caller's wait, so the limit is generous.
 */
const STARTUP_MS = 60_000;

/** Failed starts in a row after which a lost worker is no longer replaced until a call asks for one. */
const MAX_FAILED_STARTS = 3;

const SEARCH: CallKind = { search: true, long: true };

/** How often a call whose queue deadline passed while a worker was starting looks again, ms. */
const START_RECHECK_MS = 100;

/**
 * Runs each tool call: in the calling thread for cheap tools on small inputs, in a pooled worker with a deadline
 * for tools with {@link Tool.isolation}, for the costly ones named in `pooled`, and for any call on a costly
 * input.
 *
 * No call can hold the pool for good and none can leave damage behind:
 * - a waiting call is answered `SERVER_BUSY`, saying what holds the workers, once other calls have held every
 *   worker it may take for `queueDeadlineMs` with none coming free; a worker that is starting is not held (its
 *   start is bounded by the start limit), and a queue that moves is honest load, so neither a cold pool nor a
 *   busy machine refuses honest work;
 * - searches that can run long hold at most `size − 1` workers, and a spare starts when long calls have held
 *   every worker for a while (src/pool/policy.ts);
 * - a worker is retired (terminated, replaced) after a timeout, a withdrawn long call, a failure that is not a
 *   typed chemistry error (a WebAssembly trap), and after a call in which RDKit built a molecule large enough
 *   that its damage to RDKit's memory could be silent; a cancelled bounded call finishes in its worker, which
 *   stays, and its answer is dropped;
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
  readonly #pooled: ReadonlySet<string>;
  /** Every live worker, starting, idle or busy. */
  readonly #slots = new Set<WorkerSlot>();
  /** Live workers no call holds, the most recently freed last. */
  readonly #idle: WorkerSlot[] = [];
  readonly #waiting: Waiter[] = [];
  #keepFull = false;
  #inPlaceBroken = false;
  /** Worker starts not yet made, in order (see `#pump`). */
  readonly #starts: WorkerSlot[] = [];
  #pumping = false;
  /** When a spare or standby was last needed (src/pool/policy.ts), `performance.now()`. */
  #spareNeeded = -Infinity;
  /** When a worker last came free, and one that a search may take, `performance.now()`. */
  #freedAt = -Infinity;
  #searchFreedAt = -Infinity;
  #trimTimer: ReturnType<typeof setTimeout> | undefined;
  /** Worker starts that failed in a row. */
  #failedStarts = 0;
  /** When the last worker start ended (warm-up made, or failed), `performance.now()`. */
  #lastStartEnd = 0;

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
    while (this.#slots.size < this.#options.size) {
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
   * first (a call that can run long is withdrawn with its worker; a bounded one finishes and is dropped).
   */
  async run(tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const deadlineMs = this.deadlineMs(tool, args);
    if (deadlineMs === undefined) return await this.#runInPlace(tool, args);
    if (signal?.aborted) throw new CancelledError();
    const kind = callKind(tool, args);
    const slot = await this.#readyWorker(tool.name, kind, signal);
    slot.holder = { tool: tool.name, kind, since: performance.now() };
    if (kind.search) this.#spareIfHeld();
    // A call that still holds its worker after this may be a runaway: a spare may be due.
    const spare = setTimeout(() => this.#spareIfHeld(), spareAfterMs(kind));
    const outcome = slot.run(tool.name, args, deadlineMs).then((outcome) => {
      clearTimeout(spare);
      this.#settle(slot, tool, outcome);
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
    return unwrap(tool, reply, deadlineMs);
  }

  /**
   * A worker that has loaded RDKit, for a call. A start that fails is not the call's fault: the call takes the
   * next worker, and is answered SERVER_BUSY only when that one fails to start as well.
   */
  async #readyWorker(tool: string, kind: CallKind, signal: AbortSignal | undefined): Promise<WorkerSlot> {
    for (let attempt = 1;; attempt++) {
      const slot = await this.#acquire(tool, kind, signal);
      try {
        await untilAborted(slot.ready, signal);
        return slot;
      } catch (error) {
        if (!slot.dead) this.#release(slot); // cancelled while it starts: it finishes starting for the next call
        if (error instanceof CancelledError || attempt === 2) {
          throw error instanceof CancelledError ? error : this.#startFailed(error);
        }
      }
    }
  }

  /** Stops every idle worker (busy ones stop when their call ends or times out) and replaces none. */
  close(): void {
    this.#keepFull = false;
    clearTimeout(this.#trimTimer);
    for (const slot of this.#idle.splice(0)) this.#retire(slot);
  }

  async #runInPlace(tool: Tool, args: Record<string, unknown>): Promise<unknown> {
    try {
      return await tool.run(args);
    } catch (error) {
      if (!(error instanceof ChemMcpError) && rdkitFailed(error)) {
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

  /** After a call: its worker goes back to the pool, or is retired when its RDKit is no longer trusted. */
  #settle(slot: WorkerSlot, tool: Tool, outcome: CallOutcome): void {
    slot.holder = undefined;
    if (trusted(outcome)) this.#release(slot);
    else this.#discard(slot);
    if (outcome.kind === "died" || outcome.kind === "failure") {
      const reason = outcome.kind === "died" ? outcome.reason : outcome.message;
      this.#options.log?.(`'${tool.name}' broke its worker, which was replaced: ${reason}`);
    }
  }

  /** A worker for a call: an idle one, a new one within the size, or the first to come free in time. */
  #acquire(tool: string, kind: CallKind, signal: AbortSignal | undefined): Promise<WorkerSlot> {
    const now = this.#mayTake(kind) ? this.#takeIdle() ?? this.#grow() : undefined;
    if (now) return Promise.resolve(this.#hold(now, tool, kind));
    return new Promise((resolve, reject) => {
      const queueMs = this.#queueDeadlineMs();
      const since = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
      };
      const check = () => {
        const stalled = this.#stalledSince(kind, since);
        if (stalled === undefined) return (timer = setTimeout(check, START_RECHECK_MS));
        const left = stalled + queueMs - performance.now();
        if (left > 0) return (timer = setTimeout(check, left));
        leave();
        reject(this.#busy(kind));
      };
      const onAbort = () => {
        leave();
        reject(new CancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const waiter: Waiter = {
        kind,
        take: (slot) => {
          leave();
          resolve(this.#hold(slot, tool, kind));
        },
      };
      this.#waiting.push(waiter);
      timer = setTimeout(check, queueMs);
      this.#spareIfHeld();
    });
  }

  /**
   * Since when the pool has been stalled for a call of `kind` waiting since `since`, or `undefined` while it is
   * not. Stalled means held for good as far as the pool can tell: every worker the call may take is held by a
   * call that can run long and has done a runaway's work where the runtime reports it (`STALL_CPU_MS`),
   * and none has come free since (src/pool/policy.ts). A worker that is starting is not held (its start is
   * bounded by the start limit, and starts that keep failing end the wait there), and bounded calls holding
   * workers are honest load however slow the machine makes them: they end within their own deadline. A search
   * whose share is full waits for a search to end, and nothing else helps it.
   */
  #stalledSince(kind: CallKind, since: number): number | undefined {
    const now = performance.now();
    const shareFull = !this.#mayTake(kind);
    const mayHelp = [...this.#slots].filter((slot) => !shareFull || slot.holder?.kind.search);
    // Still starting: loading RDKit or making the warm-up calls no caller asked for.
    const starting = mayHelp.some((slot) => !slot.isWarm && !slot.began);
    if (starting && now - since < this.#startupMs() + this.#queueDeadlineMs()) return undefined;
    let heldLongSince = -Infinity;
    for (const slot of mayHelp) {
      const holder = slot.holder;
      // A long call that has done little work yet is slow, not stuck: the machine is busy (STALL_CPU_MS).
      if (!holder?.kind.long || !mayStall(slot.callCpuMs())) return undefined;
      heldLongSince = Math.max(heldLongSince, holder.since);
    }
    return Math.max(
      since,
      heldLongSince,
      this.#lastStartEnd,
      shareFull ? this.#searchFreedAt : this.#freedAt,
    );
  }

  /** Marks `slot` as held by a call from now, before it is ready (the policy counts it). */
  #hold(slot: WorkerSlot, tool: string, kind: CallKind): WorkerSlot {
    slot.holder = { tool, kind, since: performance.now() };
    return slot;
  }

  /** Whether a call of `kind` may take a worker now (searches keep within their share). */
  #mayTake(kind: CallKind): boolean {
    if (!kind.search) return true;
    let searches = 0;
    for (const slot of this.#slots) if (slot.holder?.kind.search) searches++;
    return searches < searchLimit(this.#options.size);
  }

  /**
   * An idle worker, a warm one first (the most recently freed): a call handed to a worker still warming up waits
   * for one of its warm-up calls before it begins.
   */
  #takeIdle(): WorkerSlot | undefined {
    for (let i = this.#idle.length - 1; i >= 0; i--) {
      if (this.#idle[i]!.isWarm) return this.#idle.splice(i, 1)[0];
    }
    return this.#idle.pop();
  }

  /** A new worker when the pool is below its size. */
  #grow(): WorkerSlot | undefined {
    return this.#slots.size < this.#options.size ? this.#spawn() : undefined;
  }

  #startupMs(): number {
    return this.#options.startupMs ?? STARTUP_MS;
  }

  #queueDeadlineMs(): number {
    return this.#options.queueDeadlineMs ?? QUEUE_DEADLINE_MS;
  }

  #busy(kind: CallKind): ChemError {
    const waitMs = this.#queueDeadlineMs();
    const holders = [...this.#slots].flatMap((slot) => slot.holder ? [slot.holder] : []);
    return new ChemError("SERVER_BUSY", busyMessage(waitMs, this.#options.size, holders, kind.search), {
      retry_after_ms: waitMs,
      workers: this.#options.size,
    });
  }

  #startFailed(error: unknown): ChemError {
    const waitMs = this.#queueDeadlineMs();
    return new ChemError(
      "SERVER_BUSY",
      `A tool worker could not start (${describe(error)}); retry in a few seconds.`,
      { retry_after_ms: waitMs, workers: this.#options.size },
    );
  }

  /**
   * Starts one spare worker beyond the size when calls have held every worker past their threshold
   * (src/pool/policy.ts), in a started pool or for a call that waits.
   */
  #spareIfHeld(): void {
    if (this.#slots.size > this.#options.size || this.#idle.length > 0) return;
    if (!this.#allHeld()) return;
    // The spare is for bounded calls: chunks of an honest list wait for their own workers, and a spare started
    // for them would only compete for the cores (a Deno worker's start costs seconds of CPU). The standby of a
    // one-worker pool starts ahead, so that it is warm when a bounded call comes.
    const standby = this.#options.size === 1 && this.#keepFull &&
      [...this.#slots].some((slot) => slot.holder?.kind.search);
    if (!standby && !this.#waiting.some((waiter) => !waiter.kind.long)) return;
    this.#spareNeeded = performance.now();
    this.#release(this.#spawn());
  }

  /**
   * Whether calls hold every worker in a way that calls for a spare: each past its threshold, or, with one
   * worker, a search holding it (src/pool/policy.ts).
   */
  #allHeld(): boolean {
    if (this.#options.size === 1 && [...this.#slots].some((slot) => slot.holder?.kind.search)) return true;
    return this.#heldLong() >= this.#options.size;
  }

  /** How many workers calls have held past their spare threshold. */
  #heldLong(): number {
    // A timer may fire a little before performance.now() shows its delay as passed (Node rounds to whole ms):
    // without the slack the check the timer makes would find no call held long enough, and none would follow.
    const now = performance.now() + TIMER_SLACK_MS;
    let held = 0;
    for (const slot of this.#slots) {
      if (slot.holder && now - slot.holder.since >= spareAfterMs(slot.holder.kind)) held++;
    }
    return held;
  }

  /** The first waiting call that may take a worker now. */
  #nextWaiter(): Waiter | undefined {
    return this.#waiting.find((w) => this.#mayTake(w.kind));
  }

  /**
   * Hands a free worker to the first waiting call that may take it, else keeps it idle; a surplus worker (the
   * spare, once long calls no longer hold every other) stops, the one still starting first, the warm one last.
   */
  #release(slot: WorkerSlot): void {
    slot.holder = undefined;
    this.#freedAt = performance.now();
    if (this.#mayTake(SEARCH)) this.#searchFreedAt = this.#freedAt;
    const waiter = this.#nextWaiter();
    if (waiter) return waiter.take(slot);
    this.#idle.push(slot);
    this.#trimSurplus();
  }

  #trimSurplus(): void {
    while (this.#slots.size > this.#options.size && this.#idle.length > 0) {
      if (this.#allHeld()) return;
      const lingering = this.#spareNeeded + SPARE_LINGER_MS - performance.now();
      if (this.#keepFull && lingering > 0) return this.#trimLater(lingering);
      const surplus = this.#idle.find((s) => !s.isReady) ?? this.#idle[0]!;
      this.#idle.splice(this.#idle.indexOf(surplus), 1);
      this.#retire(surplus);
    }
  }

  /** Looks at the surplus again once the spare's linger has passed, so an idle server does not keep it. */
  #trimLater(ms: number): void {
    clearTimeout(this.#trimTimer);
    this.#trimTimer = setTimeout(() => this.#trimSurplus(), ms + 10);
  }

  /** Retires a worker; a call waiting for one, or a started pool, gets a fresh one in its place. */
  #discard(slot: WorkerSlot): void {
    this.#retire(slot);
    // A search's share may have come free: idle workers go to the searches waiting for it.
    if (this.#mayTake(SEARCH)) this.#searchFreedAt = performance.now();
    for (let waiter = this.#nextWaiter(); waiter && this.#idle.length > 0; waiter = this.#nextWaiter()) {
      waiter.take(this.#takeIdle()!);
    }
    this.#refill();
  }

  /** Starts workers for the calls waiting, within the size, and keeps a started pool full. */
  #refill(): void {
    for (let waiter = this.#nextWaiter(); waiter && this.#slots.size < this.#options.size;) {
      waiter.take(this.#spawn());
      waiter = this.#nextWaiter();
    }
    if (this.#keepFull && this.#slots.size < this.#options.size) this.#idle.unshift(this.#spawn());
    this.#trimSurplus();
  }

  #retire(slot: WorkerSlot): void {
    this.#slots.delete(slot);
    slot.retire();
  }

  /** Drops a worker that died or never started, without replacing it. */
  #forget(slot: WorkerSlot): void {
    this.#slots.delete(slot);
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
    this.#lastStartEnd = performance.now();
    // Replaced for the calls waiting, unless starts keep failing: then the next call asks for one.
    if (!slot.isWarm && ++this.#failedStarts >= MAX_FAILED_STARTS) return;
    this.#refill();
  }

  /**
   * A slot for a new worker, whose start is queued: calls can be handed the slot at once and wait for it to be
   * ready like any starting worker.
   */
  #spawn(): WorkerSlot {
    const slot = new WorkerSlot(this.#startupMs(), (lost) => this.#forget(lost));
    this.#slots.add(slot);
    void slot.warm.then(() => {
      this.#lastStartEnd = performance.now();
      this.#failedStarts = 0;
    });
    this.#starts.push(slot);
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
      this.#starts.shift()?.start(this.#options.spawn, this.#options.wasm);
      if (this.#starts.length > 0) this.#pump();
    }, 0);
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
