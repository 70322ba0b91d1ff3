/**
 * Calls waiting for a worker: handed one as soon as one comes free, or answered `SERVER_BUSY` once the pool has
 * stalled for them past the queue deadline (the rule is {@link stalledSince}).
 *
 * @module
 */
import { CancelledError, ChemError } from "../errors.ts";
import type { TimerHandle } from "../clock.ts";
import { BOUNDED_SPARE_AFTER_MS, busyMessage, type CallKind, mayStall } from "./policy.ts";
import type { WorkerSlot } from "./slot.ts";
import { spareIfHeld } from "./spares.ts";
import type { Waiter, WorkerPool } from "./workers.ts";

/** How often a call whose queue deadline passed while a worker was starting looks again, ms. */
const START_RECHECK_MS = 100;

/** A worker for a call: an idle one, a new one within the size, or the first to come free in time. */
export function acquire(
  pool: WorkerPool,
  tool: string,
  kind: CallKind,
  signal: AbortSignal | undefined,
): Promise<WorkerSlot> {
  const hold = (slot: WorkerSlot) => {
    slot.hold({ tool, kind });
    return slot;
  };
  const now = pool.mayTake(kind) ? pool.takeIdle() ?? pool.grow() : undefined;
  if (now) return Promise.resolve(hold(now));
  const { clock } = pool;
  return new Promise((resolve, reject) => {
    const queueMs = pool.settings.queueDeadlineMs;
    const since = clock.now();
    let timer: TimerHandle;
    const leave = () => {
      clock.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const index = pool.waiting.indexOf(waiter);
      if (index >= 0) pool.waiting.splice(index, 1);
    };
    // Even a queue that moves is left once waiting longer would keep the answer from coming within
    // ANSWER_WITHIN_MS (src/tools/placement.ts).
    const cap = since + pool.settings.maxQueueWaitMs;
    const check = () => {
      const now = clock.now();
      if (now >= cap) {
        leave();
        return reject(busy(pool, kind, now - since));
      }
      const stalled = stalledSince(pool, kind, since);
      const left = stalled === undefined ? START_RECHECK_MS : stalled + queueMs - now;
      if (left > 0) return (timer = clock.setTimeout(check, Math.min(left, cap - now)));
      leave();
      reject(busy(pool, kind));
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
        resolve(hold(slot));
      },
    };
    pool.waiting.push(waiter);
    timer = clock.setTimeout(check, queueMs);
    spareIfHeld(pool);
  });
}

/**
 * Since when the pool has been stalled for a call of `kind` waiting since `since`, or `undefined` while it is
 * not. Stalled means held for good as far as the pool can tell: every worker the call may take is held by a
 * possibly long call — a search, a long chunk, or a bounded call past its spare threshold, whose cost its input
 * did not show — that has done a runaway's work where the runtime reports it (`STALL_CPU_MS`), and none has come
 * free since. A worker that is starting is not held (its start is bounded by the start limit, and starts that
 * keep failing end the wait there). A search whose share is full waits for a search to end, and nothing else
 * helps it.
 */
export function stalledSince(pool: WorkerPool, kind: CallKind, since: number): number | undefined {
  const now = pool.clock.now();
  const shareFull = !pool.mayTake(kind);
  const mayHelp = [...pool.slots].filter((slot) => !shareFull || slot.holder?.kind.search);
  // Still starting: loading RDKit or making the warm-up calls no caller asked for.
  const starting = mayHelp.some((slot) => !slot.isWarm && !slot.began);
  const { startupMs, queueDeadlineMs } = pool.settings;
  if (starting && now - since < startupMs + queueDeadlineMs) return undefined;
  let heldLongSince = -Infinity;
  for (const slot of mayHelp) {
    const holder = slot.holder;
    if (!holder) return undefined;
    const longSince = holder.kind.long ? holder.since : holder.since + BOUNDED_SPARE_AFTER_MS;
    // A long call that has done little work yet is slow, not stuck: the machine is busy (STALL_CPU_MS).
    if (longSince > now || !mayStall(slot.callCpuMs())) return undefined;
    heldLongSince = Math.max(heldLongSince, longSince);
  }
  return Math.max(since, heldLongSince, pool.lastStartEnd, shareFull ? pool.searchFreedAt : pool.freedAt);
}

/**
 * The SERVER_BUSY answer to a call of `kind`, saying what holds the workers; `waitedMs` when it waited as long as
 * any call may.
 */
export function busy(pool: WorkerPool, kind: CallKind, waitedMs?: number): ChemError {
  const { queueDeadlineMs, size } = pool.settings;
  const waitMs = waitedMs ?? queueDeadlineMs;
  const holders = [...pool.slots].flatMap((slot) => slot.holder ? [slot.holder] : []);
  return new ChemError("SERVER_BUSY", busyMessage(waitMs, size, holders, kind.search), {
    retry_after_ms: queueDeadlineMs,
    workers: size,
  });
}
