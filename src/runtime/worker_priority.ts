/**
 * Scheduling priority of tool workers (threads under Node, processes under Deno), Linux only.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";
import process from "node:process";

/**
 * Nice value of a tool worker: the `nice` command's default. Pool work is throughput work; the protocol
 * thread's work is latency work, and on a busy machine (a pool warming up, 8 costly calls on 2 cores) a cheap
 * call otherwise waits for a core behind the workers (docs/decisions.md, "Cold start and first burst").
 */
export const WORKER_NICE = 10;

/** Only an optimisation: a refusal (a sandbox without the call) leaves the priority as it was. */
function renice(id: number): void {
  try {
    setPriority(id, WORKER_NICE);
  } catch {
    // The worker serves the same calls at its inherited priority.
  }
}

/**
 * Lowers the calling thread's CPU priority to {@link WORKER_NICE}, on Linux only: there the nice value belongs
 * to each thread (setpriority(2), NOTES), elsewhere it would lower the whole process, protocol thread included.
 */
export function yieldCoresToProtocolThread(): void {
  if (process.platform === "linux") renice(0);
}

function threadIds(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [];
  }
}

/**
 * Lowers a just-started worker process's priority from the parent, on Linux: this reaches the child's first
 * thread, usually before the runtime starts its helper threads, which inherit it. {@link lowerThreads}, called
 * by the child itself, catches any thread started sooner.
 */
export function lowerProcessPriority(pid: number): void {
  if (process.platform === "linux") renice(pid);
}

/**
 * Lowers every thread of this process but `except` (a thread id), on Linux.
 *
 * - In a Deno worker process, with no exception: its main thread and the runtime's helper threads (V8's
 *   compiler threads above all, which optimise RDKit's hot functions during the warm-up).
 * - On Node's protocol thread right after `new Worker` (which creates the thread before it returns), with the
 *   protocol thread as the exception: the new worker thread from its birth (its own call comes only once the
 *   runtime has bootstrapped it and loaded its entry, tens of ms of CPU later) and the runtime's helper threads,
 *   which the worker threads share: a fresh pool's first calls have them compile RDKit's hot functions again in
 *   the optimising tier, tens of ms of CPU that a cheap call on the protocol thread waited behind. The protocol
 *   thread's own code still runs while it is optimised in the background.
 *
 * @example
 * ```ts
 * lowerThreads(process.pid); // every thread but the main one
 * ```
 */
export function lowerThreads(except?: number): void {
  if (process.platform !== "linux") return;
  for (const id of threadIds()) if (id !== except) renice(id);
}
