/**
 * CPU time of a tool worker, read from Linux's /proc: the pool tells a search that holds its worker for long
 * because it computes long from one that a busy machine only makes slow (src/pool/policy.ts).
 *
 * @module
 */
import { readFileSync, readlinkSync } from "node:fs";

/** Clock ticks per second of /proc's times: USER_HZ, 100 on every Linux architecture's user interface. */
const TICKS_PER_SECOND = 100;

/**
 * The fields of a `/proc/…/stat` file that follow the command name (proc(5)'s third field on, so the state is
 * at index 0 and the parent's id at 1); `undefined` where there is no such file (not Linux, or it has gone).
 */
export function statFields(path: string): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces: the fields that follow it start after the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The CPU time (user and system) in {@link statFields}' fields, ms: utime and stime, proc(5)'s 14 and 15. */
export function cpuMsOf(fields: readonly string[]): number {
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The CPU time (user and system) a process or thread has used, ms, from its `/proc/…/stat`; `undefined` where
 * there is no such file (not Linux, or the process has gone).
 *
 * @example
 * ```ts
 * statCpuMs(`/proc/${pid}/stat`); // e.g. 1230
 * ```
 */
export function statCpuMs(path: string): number | undefined {
  const fields = statFields(path);
  const ms = fields && cpuMsOf(fields);
  return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
}

/** The calling thread's id on Linux (its `/proc/thread-self`), or `undefined` elsewhere. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `kind` of the message a Node worker thread posts first, with its thread id, so the protocol thread can read
 * the worker's CPU time (src/runtime/node_main.ts); it never reaches the pool.
 */
export const THREAD_ID_MESSAGE = "thread_id";
