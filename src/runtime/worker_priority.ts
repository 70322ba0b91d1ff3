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

function threadIds(): Set<string> {
  try {
    return new Set(readdirSync("/proc/self/task"));
  } catch {
    return new Set();
  }
}

/**
 * Runs `start`, which creates a worker thread, and lowers the new thread's priority from its birth, on Linux:
 * a thread's own call comes only once the runtime has bootstrapped it and loaded its entry, tens of ms of CPU
 * that a fresh pool would otherwise spend beside the protocol thread at its priority. The new thread is the
 * one `/proc/self/task` gains while `start` runs (Node creates the thread inside `new Worker`).
 */
export function startLowPriorityThread<T>(start: () => T): T {
  if (process.platform !== "linux") return start();
  const before = threadIds();
  const result = start();
  for (const id of threadIds()) if (!before.has(id)) renice(Number(id));
  return result;
}

/**
 * Lowers a just-started worker process's priority from the parent, on Linux: this reaches the child's first
 * thread, usually before the runtime starts its helper threads, which inherit it. {@link lowerEveryThread},
 * called by the child itself, catches any thread started sooner.
 */
export function lowerProcessPriority(pid: number): void {
  if (process.platform === "linux") renice(pid);
}

/**
 * Lowers every thread of this process, on Linux: a worker process's runtime helper threads (V8's compiler
 * threads above all, which optimise RDKit's hot functions during the warm-up) as well as its main thread.
 */
export function lowerEveryThread(): void {
  if (process.platform !== "linux") return;
  for (const id of threadIds()) renice(Number(id));
}

let backgroundLowered = false;

/**
 * Lowers, once, the priority of every thread of this process but the calling one, on Linux: called from the
 * protocol thread as the first worker thread starts, it reaches the runtime's helper threads (V8's compiler and
 * garbage-collector threads). Worker threads share them, and a fresh pool's first calls have them compile
 * RDKit's hot WebAssembly functions again in the optimising tier, tens of ms of CPU at the normal priority that
 * a cheap call on the protocol thread waited behind. Lowered, that work yields to the protocol thread like the
 * workers' own; the protocol thread's own code still runs while it is optimised in the background. Threads
 * started later inherit the protocol thread's priority.
 */
export function lowerHelperThreads(): void {
  if (backgroundLowered || process.platform !== "linux") return;
  backgroundLowered = true;
  const self = String(process.pid);
  for (const id of threadIds()) if (id !== self) renice(Number(id));
}
