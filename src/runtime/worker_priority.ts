/**
 * Scheduling priority of tool-worker threads, set by both worker entries (Deno and Node provide `node:os`)
 * before they load the tools (src/tools/tool_worker.ts).
 *
 * @module
 */
import { setPriority } from "node:os";
import process from "node:process";

/**
 * Nice value of a tool-worker thread: the `nice` command's default. Pool work is throughput work; the protocol
 * thread's work is latency work, and on a busy machine (a pool warming up, 8 costly calls on 2 cores) a cheap
 * call otherwise waits for a core behind the workers (docs/decisions.md, "Cold start and first burst").
 */
export const WORKER_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to {@link WORKER_NICE}, on Linux only: there the nice value belongs
 * to each thread (setpriority(2), NOTES), elsewhere it would lower the whole process, protocol thread included.
 * A refusal (a sandbox without the call) leaves the priority as it was.
 */
export function yieldCoresToProtocolThread(): void {
  if (process.platform !== "linux") return;
  try {
    setPriority(WORKER_NICE);
  } catch {
    // Only an optimisation: the worker serves the same calls at its inherited priority.
  }
}
