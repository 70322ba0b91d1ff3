/**
 * Spare and standby workers beyond the pool's size, and trimming them once they are no longer needed
 * (the rules are src/pool/policy.ts's).
 *
 * @module
 */
import { SPARE_LINGER_MS, spareAfterMs } from "./policy.ts";
import type { WorkerPool } from "./workers.ts";

/** How early a timer may fire against the clock, ms. */
const TIMER_SLACK_MS = 5;

/**
 * Starts one spare worker beyond the size when calls have held every worker past their threshold
 * (src/pool/policy.ts), in a started pool or for a call that waits.
 */
export function spareIfHeld(pool: WorkerPool): void {
  const { size } = pool.settings;
  if (pool.slots.size > size || pool.idle.length > 0) return;
  if (!allHeld(pool)) return;
  // The spare is for bounded calls: chunks of an honest list wait for their own workers, and a spare started
  // for them would only compete for the cores (a Deno worker's start costs seconds of CPU). The standby of a
  // one-worker pool starts ahead, so that it is warm when a bounded call comes.
  const standby = size === 1 && pool.keepFull && [...pool.slots].some((slot) => slot.holder?.kind.search);
  if (!standby && !pool.waiting.some((waiter) => !waiter.kind.long)) return;
  pool.spareNeeded = pool.clock.now();
  pool.release(pool.spawn());
}

/**
 * Whether calls hold every worker in a way that calls for a spare: each past its threshold, or, with one
 * worker, a search holding it (src/pool/policy.ts).
 */
export function allHeld(pool: WorkerPool): boolean {
  const { size } = pool.settings;
  if (size === 1 && [...pool.slots].some((slot) => slot.holder?.kind.search)) return true;
  return heldLong(pool) >= size;
}

/** How many workers calls have held past their spare threshold. */
function heldLong(pool: WorkerPool): number {
  // A timer may fire a little before the clock shows its delay as passed (Node rounds to whole ms): without the
  // slack the check the timer makes would find no call held long enough, and none would follow.
  const now = pool.clock.now() + TIMER_SLACK_MS;
  let held = 0;
  for (const slot of pool.slots) {
    if (slot.holder && now - slot.holder.since >= spareAfterMs(slot.holder.kind)) held++;
  }
  return held;
}

/** Stops surplus idle workers (the one still starting first, the warm one last) once no longer needed. */
export function trimSurplus(pool: WorkerPool): void {
  while (pool.slots.size > pool.settings.size && pool.idle.length > 0) {
    if (allHeld(pool)) return;
    const lingering = pool.spareNeeded + SPARE_LINGER_MS - pool.clock.now();
    if (pool.keepFull && lingering > 0) return trimLater(pool, lingering);
    const surplus = pool.idle.find((s) => !s.isReady) ?? pool.idle[0]!;
    pool.idle.splice(pool.idle.indexOf(surplus), 1);
    pool.retire(surplus);
  }
}

/** Looks at the surplus again once the spare's linger has passed, so an idle server does not keep it. */
function trimLater(pool: WorkerPool, ms: number): void {
  pool.clock.clearTimeout(pool.trimTimer);
  pool.trimTimer = pool.clock.setTimeout(() => trimSurplus(pool), ms + 10);
}
