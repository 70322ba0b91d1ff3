/**
 * Scheduling priority of tool workers (threads under Node, processes under Deno), Linux only.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import process from "node:process";

/**
 * How far below the protocol thread tool workers run, in nice steps. Pool work is throughput work; the protocol
 * thread's work is latency work, and on a busy machine (a pool warming up, 8 costly calls on 2 cores) a cheap
 * call otherwise waits for a core behind the workers (docs/decisions/worker-priority.md). Four
 * steps (weight 423 against the protocol thread's 1024), not the 10 it was: beside other programs at the
 * server's own priority, workers at 10 got a tenth of their share and honest calls took seconds, where a busy
 * machine must not turn honest work away (docs/decisions/worker-priority.md). Relative, not absolute: a
 * server started at nice 17 keeps its workers below itself (at 19, the lowest).
 */
export const WORKER_NICE_STEP = 4;

/** The lowest priority Linux has. */
const LOWEST_NICE = 19;

/** A thread's or process's nice value, or undefined where it cannot be read (a sandbox without the call). */
function niceOf(id: number): number | undefined {
  try {
    return getPriority(id);
  } catch {
    return undefined;
  }
}

/** The nice value for tool workers of the server whose protocol thread is `protocolThread` (a thread id). */
function workerNice(protocolThread: number): number | undefined {
  const nice = niceOf(protocolThread);
  return nice === undefined ? undefined : Math.min(LOWEST_NICE, nice + WORKER_NICE_STEP);
}

/**
 * Lowers a thread or process to `target`, never raising it. Only an optimisation: a refusal leaves the priority
 * as it was, and the worker serves the same calls at its inherited priority.
 */
function lower(id: number, target: number | undefined): void {
  const nice = niceOf(id);
  if (target === undefined || nice === undefined || nice >= target) return;
  try {
    setPriority(id, target);
  } catch {
    // As it was.
  }
}

/**
 * Lowers the calling worker thread below the protocol thread (the process's main thread), on Linux only: there
 * the nice value belongs to each thread (setpriority(2), NOTES), elsewhere it would lower the whole process,
 * protocol thread included.
 */
export function yieldCoresToProtocolThread(): void {
  if (process.platform === "linux") lower(0, workerNice(process.pid));
}

function threadIds(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [];
  }
}

/**
 * Lowers a just-started worker process below the calling protocol thread, from the parent, on Linux: this
 * reaches the child's first thread, usually before the runtime starts its helper threads, which inherit it.
 * {@link joinMainThreadPriority}, called by the child itself, catches any thread started sooner.
 */
export function lowerProcessPriority(pid: number): void {
  if (process.platform === "linux") lower(pid, workerNice(process.pid));
}

/**
 * In a Deno worker process, lowered by its parent: brings every other thread of the process to its main
 * thread's priority, the runtime's helper threads above all (V8's compiler threads, which optimise RDKit's hot
 * functions during the warm-up).
 */
export function joinMainThreadPriority(): void {
  if (process.platform !== "linux") return;
  const target = niceOf(process.pid);
  for (const id of threadIds()) lower(id, target);
}

/**
 * On Node's protocol thread right after `new Worker` (which creates the thread before it returns), lowers every
 * other thread of the process, on Linux: the new worker thread from its birth (its own call comes only once the
 * runtime has bootstrapped it and loaded its entry, tens of ms of CPU later) and the runtime's helper threads,
 * which the worker threads share: a fresh pool's first calls have them compile RDKit's hot functions again in
 * the optimising tier, tens of ms of CPU that a cheap call on the protocol thread waited behind. The protocol
 * thread's own code still runs while it is optimised in the background.
 *
 * @example
 * ```ts
 * lowerThreads(process.pid); // every thread but the main one
 * ```
 */
export function lowerThreads(protocolThread: number): void {
  if (process.platform !== "linux") return;
  const target = workerNice(protocolThread);
  for (const id of threadIds()) if (id !== protocolThread) lower(id, target);
}
