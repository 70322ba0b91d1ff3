/**
 * One worker of the pool through its life — queued start, starting (loading RDKit), ready, warm (warm-up calls
 * made), retired — as one explicit state with checked transitions, and the one call it runs at a time with its
 * deadline.
 *
 * @module
 */
import type { Clock, TimerHandle } from "../clock.ts";
import type { SpawnWorker, WorkerHandle, WorkerReply } from "./messages.ts";
import type { CallOutcome } from "./outcome.ts";
import { describe } from "./outcome.ts";
import type { Holder } from "./policy.ts";

/** Where a worker is in its life. */
export type SlotState = "queued" | "starting" | "ready" | "warm" | "retired";

/** The states each state may go to. */
const NEXT: Readonly<Record<SlotState, readonly SlotState[]>> = {
  queued: ["starting", "retired"],
  starting: ["ready", "retired"],
  ready: ["warm", "retired"],
  warm: ["retired"],
  retired: [],
};

/** The call that holds a worker, from when the pool handed the worker to it. */
export interface HeldBy extends Holder {
  /** When it was handed the worker, on the pool's clock. */
  readonly since: number;
}

/** A pooled worker and the call it runs. */
export class WorkerSlot {
  /** The worker, once its queued start has been made. */
  handle?: WorkerHandle;
  /** Resolves when RDKit is loaded in the worker; rejects when it failed to start within the start limit. */
  readonly ready: Promise<void>;
  /** Resolves when the worker has made its warm-up calls. */
  readonly warm: Promise<void>;
  #state: SlotState = "queued";
  #holder?: HeldBy;
  /** Whether the running call has begun in the worker (it may wait for a warm-up call first). */
  #began = false;
  /** The worker's CPU time when the running call began, where the runtime tells it. */
  #cpuAtBegin?: number;
  /** The worker's memory once warm, and after its last call, bytes (where the runtime tells it). */
  #warmHeap?: number;
  #heap?: number;
  readonly #clock: Clock;
  readonly #startupMs: number;
  readonly #onLost: (slot: WorkerSlot) => void;
  #started: () => void = () => {};
  #failed: (error: Error) => void = () => {};
  #warmed: () => void = () => {};
  readonly #startup: TimerHandle;
  /** Settles the running call when the worker answers or dies, its deadline passes, or it is withdrawn. */
  #settle?: (outcome: CallOutcome) => void;
  /** Counts the running call's deadline from now (it has begun in the worker). */
  #begin?: () => void;

  /**
   * @param clock The pool's clock.
   * @param startupMs Longest the worker may take to load RDKit.
   * @param onLost Told when the worker died or failed to start while no call held it, so the pool forgets it.
   */
  constructor(clock: Clock, startupMs: number, onLost: (slot: WorkerSlot) => void) {
    this.#clock = clock;
    this.#startupMs = startupMs;
    this.#onLost = onLost;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#started = resolve;
      this.#failed = reject;
    });
    this.ready.catch(() => {}); // observed by the call that waits for it; never an unhandled rejection
    this.warm = new Promise<void>((resolve) => (this.#warmed = resolve));
    this.#startup = clock.setTimeout(() => {
      this.#failed(new Error("a tool worker did not start in time"));
      // Left idle, it would hand its failure to the next call: stop it, and start another when one is asked for.
      this.retire();
      this.#onLost(this);
    }, startupMs);
  }

  /** Where the worker is in its life. */
  get state(): SlotState {
    return this.#state;
  }
  get isReady(): boolean {
    return this.#state === "ready" || this.#state === "warm";
  }
  get isWarm(): boolean {
    return this.#state === "warm";
  }
  get dead(): boolean {
    return this.#state === "retired";
  }
  /** Whether the running call has begun in the worker. */
  get began(): boolean {
    return this.#began;
  }
  /** The call holding the worker, if any. */
  get holder(): HeldBy | undefined {
    return this.#holder;
  }

  /** Hands the worker to a call (before it is ready: the policy counts it held from now). */
  hold(holder: Holder): void {
    this.#holder = { ...holder, since: this.#clock.now() };
  }

  /** No call holds the worker any more. */
  free(): void {
    this.#holder = undefined;
  }

  #to(next: SlotState): void {
    if (!NEXT[this.#state].includes(next)) throw new Error(`worker slot: ${this.#state} → ${next}`);
    this.#state = next;
  }

  /** Creates the worker and sends it RDKit; a runtime that cannot create one fails the start, never throws. */
  start(spawn: SpawnWorker, wasm: WebAssembly.Module): void {
    if (this.dead) return;
    this.#to("starting");
    try {
      const handle = spawn();
      this.handle = handle;
      handle.onMessage((message) => this.#receive(message));
      handle.onFailure((reason) => this.#lose(reason));
      handle.post({ kind: "init", wasm });
    } catch (error) {
      // Out of threads or processes: fail like a worker that died while starting.
      this.#lose(`it could not be created: ${describe(error)}`);
    }
  }

  /**
   * Runs one call, to be answered within `deadlineMs` of when the worker begins it: at once when the worker is
   * warm, else when it reports `begin` (it was making a warm-up call) or `warm`, so that a warm-up the call did
   * not ask for never counts against its limit. The start limit bounds that wait.
   */
  run(tool: string, args: unknown, deadlineMs: number): Promise<CallOutcome> {
    const handle = this.handle!;
    const clock = this.#clock;
    return new Promise<CallOutcome>((resolve) => {
      let timer: TimerHandle;
      const arm = (ms: number) => {
        clock.clearTimeout(timer);
        timer = clock.setTimeout(() => finish({ kind: "timeout" }), ms);
      };
      // Every way out clears the deadline: a pending timer would keep a process that read its last line alive.
      const finish = (outcome: CallOutcome) => {
        clock.clearTimeout(timer);
        this.#settle = this.#begin = undefined;
        this.#began = false;
        handle.hold(false);
        resolve(outcome);
      };
      this.#settle = finish;
      this.#begin = () => {
        this.#begin = undefined;
        this.#markBegun();
        arm(deadlineMs);
      };
      arm(this.isWarm ? deadlineMs : deadlineMs + this.#startupMs);
      if (this.isWarm) {
        this.#begin = undefined;
        this.#markBegun();
      }
      handle.hold(true);
      handle.post({ kind: "call", tool, args });
    });
  }

  /**
   * The CPU time the running call has used in its worker so far, ms; `undefined` before it began or where the
   * runtime cannot tell.
   */
  callCpuMs(): number | undefined {
    if (!this.#began || this.#cpuAtBegin === undefined) return undefined;
    const now = this.handle?.cpuMs?.();
    return now === undefined ? undefined : now - this.#cpuAtBegin;
  }

  #markBegun(): void {
    this.#began = true;
    this.#cpuAtBegin = this.handle?.cpuMs?.();
  }

  /**
   * The worker's memory after its last call and once it was warm, bytes; `undefined` where the runtime cannot
   * tell.
   */
  get heap(): { readonly warm: number; readonly now: number } | undefined {
    return this.#warmHeap === undefined || this.#heap === undefined
      ? undefined
      : { warm: this.#warmHeap, now: this.#heap };
  }

  /** Ends the running call now as withdrawn (the pool then retires the worker, whatever it computes). */
  withdraw(): void {
    this.#settle?.({ kind: "cancelled" });
  }

  /** Stops the worker at once, whatever it is doing. */
  retire(): void {
    if (this.dead) return;
    this.#to("retired");
    this.#clock.clearTimeout(this.#startup);
    this.handle?.terminate();
  }

  #receive(message: WorkerReply): void {
    if (this.dead) return;
    if (message.kind === "ready") {
      this.#clock.clearTimeout(this.#startup);
      this.#to("ready");
      this.#started();
    } else if (message.kind === "warm") {
      this.#to("warm");
      this.#warmHeap = this.#heap = message.heap;
      this.#warmed();
      this.#begin?.();
    } else if (message.kind === "begin") this.#begin?.();
    else {
      if ("heap" in message && message.heap !== undefined) this.#heap = message.heap;
      this.#settle?.(message);
    }
  }

  #lose(reason: string): void {
    this.#clock.clearTimeout(this.#startup);
    this.#failed(new Error(`a tool worker died while starting: ${reason}`));
    if (this.#settle) {
      this.#settle({ kind: "died", reason }); // the pool retires it
      return;
    }
    // Died while idle or starting: forgotten, so the next call gets a fresh worker (not at once: a worker that
    // cannot start would otherwise be respawned for ever).
    this.retire();
    this.#onLost(this);
  }
}
