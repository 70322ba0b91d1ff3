/**
 * The test command's run directory and the processes it starts. One directory per run, made in the system's
 * temporary directory: every child gets it as its TMPDIR (TEMP, TMP), so whatever a test, a build or a browser
 * writes there goes with the directory when the run ends: normally, on a failure, or on SIGINT/SIGTERM (the
 * process groups still running are killed first, so none writes into a directory being removed).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** The places of one run. */
export interface RunDir {
  /** The directory itself, removed at the end. */
  readonly root: string;
  /** The children's TMPDIR. */
  readonly tmp: string;
  /** The runners' JUnit reports. */
  readonly reports: string;
  /** Notices said once per run (tests/helpers/skip.ts). */
  readonly notices: string;
}

/** Process groups still running (test runners, checks, builds): killed before the run directory goes. */
const groups = new Set<number>();

/** Kills a process group, or the process alone when it is no group leader any more. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** Counts a process group as running until {@link forgetGroup}: a signal to the run ends it. */
export function trackGroup(pid: number): void {
  groups.add(pid);
}

/** The group has ended. */
export function forgetGroup(pid: number): void {
  groups.delete(pid);
}

/** Removes a directory, retrying while processes killed a moment ago still close their files in it. */
function remove(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

let current: RunDir | undefined;

/** Ends every group still running and removes the run directory; safe to call more than once. */
export function endRun(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
  if (current) remove(current.root);
  current = undefined;
}

/**
 * Makes the run directory and points this process's TMPDIR, TEMP and TMP at its `tmp`, so every child inherits
 * them. It is removed by {@link endRun}, which runs at exit and on SIGINT/SIGTERM whatever else happened.
 */
export function startRun(): RunDir {
  const root = mkdtempSync(join(tmpdir(), "chem-mcp-test-"));
  const run: RunDir = {
    root,
    tmp: join(root, "tmp"),
    reports: join(root, "reports"),
    notices: join(root, "notices"),
  };
  for (const dir of [run.tmp, run.reports, run.notices]) mkdirSync(dir);
  current = run;
  for (const name of ["TMPDIR", "TEMP", "TMP"]) process.env[name] = run.tmp;
  process.on("exit", endRun);
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.on(signal, () => {
      console.log(`\n== ${signal}: stopping the test processes and removing ${root}`);
      endRun();
      process.exit(code);
    });
  }
  return run;
}
