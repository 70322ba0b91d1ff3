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

/**
 * Set for the test files that run beside the load: how many CPU-bound programs already run, so a test that makes
 * its own busy machine (tests/adversarial/busy_machine_test.ts) only tops the load up to what it asks for.
 */
export const BACKGROUND_LOAD_ENV = "CHEM_MCP_TEST_BACKGROUND_LOAD";

/** How many programs `perCore` per core makes on this machine. */
export function loadCount(perCore: number): number {
  return perCore * availableParallelism();
}

/** A set of spinning programs whose number can change while they run. */
export interface Load {
  /** How many spin now. */
  readonly count: number;
  /** Starts or stops programs until `count` spin (at least none). */
  set(count: number): void;
  /** Stops every program and waits until each has exited. */
  stop(): Promise<void>;
}

const spin = (): ChildProcess => spawn("node", ["-e", SPIN], { stdio: "ignore" });

function kill(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGKILL");
  });
}

/**
 * Starts `count` spinning programs. The test command's loaded stage tops them up around its CPU-bound test files
 * (scripts/test.ts), so the machine stays as busy as asked whatever else runs.
 */
export function startLoad(count: number): Load {
  const spinners: ChildProcess[] = [];
  const stopping: Promise<void>[] = [];
  const load: Load = {
    get count() {
      return spinners.length;
    },
    set(count: number) {
      while (spinners.length < count) spinners.push(spin());
      while (spinners.length > Math.max(0, count)) stopping.push(kill(spinners.pop()!));
    },
    async stop() {
      load.set(0);
      await Promise.all(stopping);
    },
  };
  load.set(count);
  return load;
}
