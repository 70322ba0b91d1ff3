/**
 * Background load for the test command's loaded stage: CPU-bound programs beside the tests, at the same priority,
 * as a user's build or another job on the same machine would run. Each is a Node process spinning on one core;
 * each checks now and then that the process that started it is still its parent and exits when it is not, so
 * none outlives a test command that was killed.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";

/** The spinning program: a busy loop that checks its parent every few milliseconds of work. */
const SPIN = "const parent = process.ppid; let n = 0;" +
  "for (;;) { if (++n % 5e6 === 0 && process.ppid !== parent) process.exit(0); }";

/** How many programs `perCore` per core makes on this machine. */
export function loadCount(perCore: number): number {
  return perCore * availableParallelism();
}

/** Starts `loadCount(perCore)` spinning programs; the returned function stops them and waits until they have. */
export function startLoad(perCore = 2): () => Promise<void> {
  const spinners: ChildProcess[] = Array.from(
    { length: loadCount(perCore) },
    () => spawn("node", ["-e", SPIN], { stdio: "ignore" }),
  );
  return () =>
    Promise.all(spinners.map((child) =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGKILL");
      })
    )).then(() => undefined);
}
