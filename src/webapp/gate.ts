/**
 * The web app's own limit on costly computations: a few may compute at once, a few more may wait a short while
 * for a place, and the rest are answered 503 at once. Without it four searches of 10,000 molecules held every
 * worker of the pool and an honest POST /descriptors waited 9.5–34 s behind them; with at most one worker short
 * of the pool's size taken by costly work, a light computation always finds a worker within seconds.
 *
 * @module
 */
import { type Clock, REAL_CLOCK } from "../clock.ts";
import { CancelledError, ChemError } from "../errors.ts";
import { LIGHT_MAX_TOTAL_ATOMS } from "../chem/cost.ts";
import { LIGHT_LIST_ENTRIES } from "../tools/webapp_jobs.ts";

/** Longest a costly computation waits for a place, ms: the pool's own queue deadline, within a client's 5 s. */
export const COSTLY_WAIT_MS = 4_000;

/** Options of {@link CostlyGate}. */
export interface GateOptions {
  /** Costly computations running at once. */
  readonly running: number;
  /** Costly computations waiting for a place at once; one more is refused without waiting. */
  readonly waiting: number;
  /** Longest wait for a place, ms, before SERVER_BUSY. */
  readonly waitMs: number;
  /** The clock the wait is timed on; default the runtime's (a test passes a model clock). */
  readonly clock?: Clock;
}

interface Waiter {
  readonly admit: () => void;
}

/**
 * Admits at most `running` computations at once, first come first served; a computation that finds no place
 * waits up to `waitMs` (or until its signal aborts), and one that would be the `waiting + 1`th in line is refused
 * at once. Refusals are `ChemError("SERVER_BUSY")`, which the app answers 503 with `Retry-After`.
 *
 * @example
 * ```ts
 * const gate = new CostlyGate({ running: 1, waiting: 2, waitMs: 4_000 });
 * await gate.run(() => search(library));
 * ```
 */
export class CostlyGate {
  readonly #options: GateOptions;
  readonly #clock: Clock;
  readonly #queue: Waiter[] = [];
  #running = 0;

  /** @param options Places and the wait. */
  constructor(options: GateOptions) {
    this.#options = options;
    this.#clock = options.clock ?? REAL_CLOCK;
  }

  /** Computations running now. */
  get running(): number {
    return this.#running;
  }

  /** Computations waiting for a place now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Runs `job` once a place is free, holding the place until `job` settles. */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#enter(signal);
    try {
      return await job();
    } finally {
      this.#leave();
    }
  }

  #enter(signal?: AbortSignal): Promise<void> {
    const { running, waiting, waitMs } = this.#options;
    if (signal?.aborted) {
      return Promise.reject(new CancelledError("the visitor left before the computation began"));
    }
    if (this.#running < running && this.#queue.length === 0) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#queue.length >= waiting) return Promise.reject(this.#busy("no place to wait is left"));
    return new Promise((resolve, reject) => {
      const leaveQueue = () => {
        this.#clock.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
      };
      const waiter: Waiter = {
        admit: () => {
          leaveQueue();
          this.#running++;
          resolve();
        },
      };
      const onAbort = () => {
        leaveQueue();
        reject(new CancelledError("the visitor left while the computation waited"));
      };
      const timer = this.#clock.setTimeout(() => {
        leaveQueue();
        reject(this.#busy(`none came free within ${waitMs / 1000} s`));
      }, waitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #leave(): void {
    this.#running--;
    this.#queue[0]?.admit();
  }

  #busy(why: string): ChemError {
    const { running, waitMs } = this.#options;
    const computations = running === 1 ? "computation is" : "computations are";
    return new ChemError(
      "SERVER_BUSY",
      `The server is busy: ${running} large ${computations} running and ${why}. Retry in ${
        waitMs / 1000
      } s, ` +
        `or split the list: lists of at most ${LIGHT_LIST_ENTRIES} molecules and ` +
        `${LIGHT_MAX_TOTAL_ATOMS.toLocaleString("en")} atoms in all are never held back.`,
      { running, retry_after_ms: waitMs },
    );
  }
}
