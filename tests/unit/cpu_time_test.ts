// The workers' CPU time as the pool reads it (src/runtime/cpu_time.ts): from /proc on Linux, for a process and
// for one thread of this process, growing with the work done and not with the time waited.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import process from "node:process";
import { currentThreadId, statCpuMs } from "../../src/runtime/cpu_time.ts";
import { IS_DENO } from "../helpers/process.ts";

const PROC = existsSync("/proc/thread-self");

/** Works until the process has used `ms` of CPU: on a loaded machine that takes longer than `ms`. */
function spin(ms: number): void {
  const end = process.cpuUsage().user + ms * 1000;
  while (process.cpuUsage().user < end) { /* work */ }
}

/** CPU ms that `path`'s process or thread uses in 300 ms of work, then in 300 ms of waiting. */
async function workThenWait(path: string): Promise<[number, number]> {
  const before = statCpuMs(path)!;
  spin(300);
  const worked = statCpuMs(path)!;
  await new Promise((resolve) => setTimeout(resolve, 300));
  return [worked - before, statCpuMs(path)! - worked];
}

test("statCpuMs counts the work a process does, not the time it waits (Deno's worker processes)", {
  skip: PROC ? false : "needs Linux /proc",
}, async () => {
  const [work, wait] = await workThenWait(`/proc/${process.pid}/stat`);
  assert.ok(work >= 200, `300 ms of work counted ${work} ms`);
  assert.ok(wait < 100, `300 ms of waiting counted ${wait} ms`);
});

test("statCpuMs counts the work of the thread currentThreadId names (Node's worker threads)", {
  skip: !PROC
    ? "needs Linux /proc"
    : IS_DENO
    ? "Node only: `deno test` runs tests on a thread other than the one /proc/thread-self names to them"
    : false,
}, async () => {
  const tid = currentThreadId();
  assert.equal(tid, process.pid, "Node's main thread is the process's first thread");
  const [work, wait] = await workThenWait(`/proc/${process.pid}/task/${tid}/stat`);
  assert.ok(work >= 200, `300 ms of work counted ${work} ms`);
  assert.ok(wait < 100, `300 ms of waiting counted ${wait} ms`);
});

test("statCpuMs and currentThreadId answer undefined where there is nothing to read", () => {
  assert.equal(statCpuMs("/proc/0/no-such-stat"), undefined);
  if (!PROC) assert.equal(currentThreadId(), undefined);
});
