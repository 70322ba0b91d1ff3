/**
 * The pool's workers and their starts: the live slots, the idle ones, the calls waiting, and the mechanics of
 * starting, handing out, freeing, retiring and replacing workers. What a call may hold is src/pool/policy.ts;
 * waiting and stalls are src/pool/queue.ts; spares and trimming are src/pool/spares.ts.
 *
 * @module
 */
import type { Clock, TimerHandle } from "../clock.ts";
import type { SpawnWorker } from "./messages.ts";
import { type CallKind, searchLimit } from "./policy.ts";
import { WorkerSlot } from "./slot.ts";
import { trimSurplus } from "./spares.ts";

/** Failed starts in a row after which a lost worker is no longer replaced until a call asks for one. */
const MAX_FAILED_STARTS = 3;

/** The kind of a search, for the share checks. */
export const SEARCH: CallKind = { search: true, long: true };

/** A pooled call waiting for a worker. */
export interface Waiter {
  readonly kind: CallKind;
  readonly take: (slot: WorkerSlot) => void;
}

/** What the pool's mechanics need to know. */
export interface PoolSettings {
  readonly spawn: SpawnWorker;
  readonly wasm: WebAssembly.Module;
  readonly size: number;
  readonly startupMs: number;
  readonly queueDeadlineMs: number;
  /** Longest any call waits for a worker, even in a queue that moves. */
  readonly maxQueueWaitMs: number;
  readonly clock: Clock;
}

/** The workers of one pool and the calls waiting for them. */
export class WorkerPool {
  readonly settings: PoolSettings;
  readonly clock: Clock;
  /** Every live worker, starting, idle or busy. */
  readonly slots = new Set<WorkerSlot>();
  /** Live workers no call holds, the most recently freed last. */
  readonly idle: WorkerSlot[] = [];
  readonly waiting: Waiter[] = [];
  /** Whether retired workers are replaced at once (a started pool). */
  keepFull = false;
  /** When a spare or standby was last needed (src/pool/policy.ts). */
  spareNeeded = -Infinity;
  /** When a worker last came free, and one that a search may take. */
  freedAt = -Infinity;
  searchFreedAt = -Infinity;
  trimTimer: TimerHandle;
  /** When the last worker start ended (warm-up made, or failed). */
  lastStartEnd = 0;
  /** Worker starts not yet made, in order (see {@link WorkerPool.pump}). */
  readonly #starts: WorkerSlot[] = [];
  #pumping = false;
  #failedStarts = 0;

  constructor(settings: PoolSettings) {
    this.settings = settings;
    this.clock = settings.clock;
  }

  /** Whether a call of `kind` may take a worker now (searches keep within their share). */
  mayTake(kind: CallKind): boolean {
    if (!kind.search) return true;
    let searches = 0;
    for (const slot of this.slots) if (slot.holder?.kind.search) searches++;
    return searches < searchLimit(this.settings.size);
  }

  /** The first waiting call that may take a worker now. */
  nextWaiter(): Waiter | undefined {
    return this.waiting.find((w) => this.mayTake(w.kind));
  }

  /**
   * An idle worker, a warm one first (the most recently freed): a call handed to a worker still warming up waits
   * for one of its warm-up calls before it begins.
   */
  takeIdle(): WorkerSlot | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i]!.isWarm) return this.idle.splice(i, 1)[0];
    }
    return this.idle.pop();
  }

  /** A new worker when the pool is below its size. */
  grow(): WorkerSlot | undefined {
    return this.slots.size < this.settings.size ? this.spawn() : undefined;
  }

  /**
   * Hands a free worker to the first waiting call that may take it (a spare: the first bounded one), else keeps
   * it idle; a surplus worker (the spare, once long calls no longer hold every other) stops.
   */
  release(slot: WorkerSlot): void {
    slot.free();
    this.freedAt = this.clock.now();
    if (this.mayTake(SEARCH)) this.searchFreedAt = this.freedAt;
    // Beyond the size, a worker is a spare, there for bounded calls: a long call waiting before them, come first,
    // would take it and leave them waiting behind every worker again.
    const spare = this.slots.size > this.settings.size;
    const waiter = spare ? this.waiting.find((w) => !w.kind.long) : this.nextWaiter();
    if (waiter) return waiter.take(slot);
    this.idle.push(slot);
    trimSurplus(this);
  }

  /** Retires a worker; a call waiting for one, or a started pool, gets a fresh one in its place. */
  discard(slot: WorkerSlot): void {
    this.retire(slot);
    // A search's share may have come free: idle workers go to the searches waiting for it.
    if (this.mayTake(SEARCH)) this.searchFreedAt = this.clock.now();
    for (let waiter = this.nextWaiter(); waiter && this.idle.length > 0; waiter = this.nextWaiter()) {
      waiter.take(this.takeIdle()!);
    }
    this.refill();
  }

  /** Starts workers for the calls waiting, within the size, and keeps a started pool full. */
  refill(): void {
    for (let waiter = this.nextWaiter(); waiter && this.slots.size < this.settings.size;) {
      waiter.take(this.spawn());
      waiter = this.nextWaiter();
    }
    if (this.keepFull && this.slots.size < this.settings.size) this.idle.unshift(this.spawn());
    trimSurplus(this);
  }

  retire(slot: WorkerSlot): void {
    this.slots.delete(slot);
    slot.retire();
  }

  /** Drops a worker that died or never started, without replacing it. */
  forget(slot: WorkerSlot): void {
    this.slots.delete(slot);
    const index = this.idle.indexOf(slot);
    if (index >= 0) this.idle.splice(index, 1);
    this.lastStartEnd = this.clock.now();
    // Replaced for the calls waiting, unless starts keep failing: then the next call asks for one.
    if (!slot.isWarm && ++this.#failedStarts >= MAX_FAILED_STARTS) return;
    this.refill();
  }

  /**
   * A slot for a new worker, whose start is queued: calls can be handed the slot at once and wait for it to be
   * ready like any starting worker.
   */
  spawn(): WorkerSlot {
    const slot = new WorkerSlot(this.clock, this.settings.startupMs, (lost) => this.forget(lost));
    this.slots.add(slot);
    void slot.warm.then(() => {
      this.lastStartEnd = this.clock.now();
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
    this.clock.setTimeout(() => {
      this.#pumping = false;
      this.#starts.shift()?.start(this.settings.spawn, this.settings.wasm);
      if (this.#starts.length > 0) this.#pump();
    }, 0);
  }
}
