/**
 * Time as the pool and the list machinery see it: the current time and timers, injected so that their rules can
 * be proven on a model clock (tests/helpers/model_clock.ts) with no real time passing.
 *
 * @module
 */

/** A timer's handle, as {@link Clock.setTimeout} returns it. */
export type TimerHandle = unknown;

/** The current time and timers. */
export interface Clock {
  /** Milliseconds from an arbitrary origin, never going back. */
  now(): number;
  /** Calls `callback` once `ms` have passed. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer; `undefined` or a timer that has fired is ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** The runtime's own clock: `performance.now()` and the global timers. */
export const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};
