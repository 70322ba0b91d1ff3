/**
 * Which workers a pooled call may hold: the pool's policy, apart from the mechanics of workers and queues.
 *
 * A call is one of three kinds:
 * - `bounded`: a tool without a time limit of its own on an input of ordinary cost. It may take any worker.
 * - `search`: a single call that can run to a long time limit — a tool with `isolation` (smarts_match, find_mcs,
 *   generate_3d), or a bounded tool on a costly input (src/tools/placement.ts). Searches hold at most
 *   `size − 1` workers (at least one), so a bounded call always finds a worker they cannot take.
 * - `chunk`: one chunk of a list call (`<tool>:items`). A list keeps at most as many chunks in flight as there
 *   are workers and each chunk stops at its own limit, so chunks may take every worker: an honest list uses
 *   every core, and its own items never wait for a reservation. A chunk of a tool that can run long is `long`.
 *
 * When every worker is held by a long call (a search or a long chunk) that has run past {@link SPARE_AFTER_MS}
 * (or a bounded call past {@link BOUNDED_SPARE_AFTER_MS}: a cost the input's text did not show), one spare worker
 * beyond the pool's size starts for the bounded calls waiting (not for an honest list's own chunks, which wait
 * for their workers). With one worker, `size − 1` would leave searches nothing, so a
 * search takes the only worker and a standby starts beside it at once — the reserve larger pools have. A spare or
 * standby stays, idle, while it keeps being needed ({@link SPARE_LINGER_MS} after the last need), so sequential
 * searches on one worker start and retire nothing: per call, one worker costs what two do, and the second's
 * memory only while searches come.
 *
 * @module
 */
import type { Plan } from "../tools/placement.ts";

/** What a call may hold, see the module notes. */
export interface CallKind {
  /** A single call that can run to a long limit: counted against the searches' share of the pool. */
  readonly search: boolean;
  /** Whether it can run long at all (a search, or a chunk of a tool that can): a cancel withdraws it. */
  readonly long: boolean;
}

/** The kind of a pooled call planned as `plan`. */
export function callKind(plan: Plan): CallKind {
  return { search: plan.kind === "possibly_long", long: plan.long };
}

/** Most workers searches may hold at once in a pool of `size`. */
export function searchLimit(size: number): number {
  return Math.max(1, size - 1);
}

/**
 * How long a long call holds every worker before a spare starts, ms: searches and chunks of honest inputs end
 * well within it (a drug-sized generate_3d takes tens of ms), so the spare starts only for what may be a
 * runaway, and then early enough that a bounded call queued behind it is answered within the 5 s bound.
 */
export const SPARE_AFTER_MS = 1_000;

/**
 * The same for a bounded call: honest ones take well under a second even on a loaded machine, so one still
 * running after this is an input whose cost the text did not show, and it is treated as long from then on.
 */
export const BOUNDED_SPARE_AFTER_MS = 3_000;

/** How long a call of `kind` may hold its worker before it counts towards starting a spare, ms. */
export function spareAfterMs(kind: CallKind): number {
  return kind.long ? SPARE_AFTER_MS : BOUNDED_SPARE_AFTER_MS;
}

/**
 * CPU time a long call must have used in its worker before it counts as holding the pool for good, ms, where the
 * runtime reports workers' CPU time (Linux). Wall time alone cannot tell a runaway search from an honest one
 * that a busy machine makes slow: beside CPU-bound programs a worker may get a fifth of a core, and an honest
 * search of a few hundred ms of work then holds its worker past the queue deadline, refusing the searches
 * behind it. An honest search's work is well below this (a drug-sized generate_3d takes tens of ms); a runaway
 * reaches it within a second on a quiet machine, so the queue deadline still refuses a search behind it there,
 * and on a busy machine once the runaway has done as much work.
 */
export const STALL_CPU_MS = 1_000;

/**
 * Whether a long call that has used `cpuMs` of CPU in its worker (`undefined`: not reported) may stall the
 * pool: see {@link STALL_CPU_MS}.
 */
export function mayStall(cpuMs: number | undefined): boolean {
  return cpuMs === undefined || cpuMs >= STALL_CPU_MS;
}

/**
 * Longest a pooled call waits while calls hold every worker it may take and none comes free, ms, before it is
 * answered `SERVER_BUSY` with this as its retry hint (src/pool/queue.ts). Below the 5 s within which every call
 * must be answered, whatever runs beside it.
 */
export const QUEUE_DEADLINE_MS = 4_000;

/**
 * How much a worker's memory may grow past its warm size before it is retired after its call and replaced while
 * idle: {@link HEAP_GROWTH_FACTOR} times it, and {@link HEAP_SLACK_BYTES} more. WebAssembly memories only grow,
 * so what a worker holds beyond its warm size stays; a largest PNG grid (16 drugs, 500 × 500 px) takes a Deno
 * worker process from 200 to 245 MiB and a Node worker thread's isolate from 63 to 126 MiB, where later grids
 * reuse it (bench/worker_memory_bench.ts). Past this bound the growth is more than one such call's working set,
 * and replacing the worker gives it back.
 */
export const HEAP_GROWTH_FACTOR = 2;

/** Added to the bound of {@link HEAP_GROWTH_FACTOR}, bytes: a small warm worker may hold one largest picture. */
export const HEAP_SLACK_BYTES = 32 * 2 ** 20;

/** Whether a worker whose memory went from `warm` to `now` bytes should be retired (see {@link HEAP_GROWTH_FACTOR}). */
export function heapGrown(heap: { readonly warm: number; readonly now: number } | undefined): boolean {
  return heap !== undefined && heap.now > HEAP_GROWTH_FACTOR * heap.warm + HEAP_SLACK_BYTES;
}

/** How long a spare or standby stays, idle, after it was last needed, ms. */
export const SPARE_LINGER_MS = 30_000;

/** What one busy worker is doing, for {@link busyMessage}. */
export interface Holder {
  readonly tool: string;
  readonly kind: CallKind;
}

/**
 * The `SERVER_BUSY` message: what actually holds the workers, so the caller (a model) knows whether waiting
 * helps. `search` says whether the caller's own call was a search held back by the searches' share.
 */
export function busyMessage(
  waitMs: number,
  size: number,
  holders: readonly Holder[],
  search: boolean,
): string {
  const names = (of: readonly Holder[]) => [...new Set(of.map((h) => h.tool))].join(", ");
  const searching = holders.filter((h) => h.kind.search);
  const searches = searching.length;
  const what = search && searches >= searchLimit(size)
    ? `searches that may run to their time limit may hold ${searchLimit(size)} of ${size} workers, and ` +
      `${searches} ${searches === 1 ? "is" : "are"} running (${names(searching)})`
    : `${holders.length} of ${size} workers ${holders.length === 1 ? "is" : "are"} running other calls (${
      names(holders) || "none"
    })`;
  return `No tool worker came free within ${waitMs / 1000} s: ${what}; retry in a few seconds.`;
}
