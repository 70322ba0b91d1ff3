/**
 * Runs test files for scripts/test.ts, each in a test runner process of its own, in a process group of its own,
 * with a time limit: a file still running at its limit is killed with everything it started (a server a test
 * forgot to stop, a worker, a browser) and counted as one failure that names it. One line per finished file, and
 * a line naming what still runs after a minute without output, so no stage is silent for long.
 *
 * @module
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { fileLine, junitOutcome, type Outcome, stillRunningLine, sum, timedOut } from "./test_report.ts";
import { forgetGroup, killGroup, trackGroup } from "./test_run_dir.ts";

/** One test file and the runner that runs it. */
export interface TestFile {
  /** The stage it belongs to, first in the names of what fails (e.g. `deno test (unit, reference)`). */
  readonly stage: string;
  /** Short runtime name for the per-file line (`deno`, `node`). */
  readonly runtime: string;
  readonly path: string;
  /** The runner's command line for this file, writing its JUnit report to `report`. */
  readonly command: (report: string) => [string, string[]];
  /** Seconds after which the file is killed and counted as timed out. */
  readonly limitS: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Whether it keeps a core busy while it runs (in-process suites): it counts towards a loaded stage's load. */
  readonly cpuBound?: boolean;
}

/** How files run: how many at once, whether their output streams or is printed whole, where it comes from. */
export interface RunOptions {
  /** Files running at once; with 1 a file's output is echoed as it comes, otherwise printed whole at its end. */
  readonly concurrency: number;
  /** The environment every runner gets, under the file's own. */
  readonly env: Readonly<Record<string, string>>;
  /** A fresh path for a JUnit report. */
  readonly reportPath: () => string;
  /** Seconds of silence after which the files still running are named; 60 unless told. */
  readonly quietS?: number;
  /**
   * Whether each file's output is printed whole when it ends, even one at a time: when another run of files
   * prints beside this one, streamed output would interleave with it (with several at once it always is).
   */
  readonly whole?: boolean;
  /** With `whole`: a file that passed shows its line only, a failed one its output too. */
  readonly failuresOnly?: boolean;
  /** Told as each file starts and ends (the loaded stage counts the CPU-bound files running). */
  readonly onStart?: (file: TestFile) => void;
  readonly onEnd?: (file: TestFile) => void;
}

/** When output was last written, for the quiet-time watch, and whether it ended a line. */
let lastOutput = performance.now();
let atLineStart = true;
function write(text: string | Uint8Array): void {
  if (text.length === 0) return;
  lastOutput = performance.now();
  process.stdout.write(text);
  const last = typeof text === "string" ? text.at(-1) : String.fromCharCode(text[text.length - 1]!);
  atLineStart = last === "\n";
}

/** Writes a line of this script's own, on a line of its own even after a runner's unfinished line. */
function writeLine(line: string): void {
  write(`${atLineStart ? "" : "\n"}${line}\n`);
}

/** Runs one file to its end or its limit; its outcome, with its output when it is not echoed. */
function runFile(
  file: TestFile,
  options: RunOptions,
  echo: boolean,
): Promise<{ outcome: Outcome; out: string }> {
  const report = options.reportPath();
  const [cmd, args] = file.command(report);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...options.env, ...file.env },
      // A group of its own, so the limit ends the servers and workers its tests started along with it.
      detached: true,
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    let out = "";
    let killed = false;
    const tee = (chunk: Buffer) => {
      out += chunk.toString();
      if (echo) write(chunk);
    };
    child.stdout.on("data", tee);
    child.stderr.on("data", tee);
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, file.limitS * 1000);
    let finished = false;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (child.pid !== undefined) {
        // Whatever the file left running in its group goes with it: the verdict cannot wait on it.
        killGroup(child.pid);
        forgetGroup(child.pid);
      }
      const seconds = (performance.now() - started) / 1000;
      const outcome = killed
        ? timedOut(file.stage, file.path, file.limitS)
        : junitOutcome(file.stage, report, code, file.runtime === "deno" ? out : "", file.path);
      const line = fileLine(file.runtime, file.path, seconds, outcome, killed ? file.limitS : undefined);
      if (echo) writeLine(line);
      const shown = echo || (options.failuresOnly && outcome.failed === 0) ? "" : out;
      resolve({
        outcome,
        out: echo ? "" : `${shown}${shown.endsWith("\n") || shown === "" ? "" : "\n"}${line}\n`,
      });
    };
    // The runner's exit ends its group, so nothing left behind holds the pipes open; "close" then comes with
    // the output still buffered in them (waited for 5 s at most, for a process that left the group).
    child.on("exit", (code) => {
      if (child.pid !== undefined) killGroup(child.pid);
      const fallback = setTimeout(() => finish(code ?? 1), 5000);
      child.on("close", () => {
        clearTimeout(fallback);
        finish(code ?? 1);
      });
    });
    child.on("error", (error) => {
      out += String(error);
      finish(1);
    });
  });
}

/**
 * Runs `files`, `options.concurrency` at a time in the order given (longest first balances best), and sums their
 * outcomes. With several at once each file's output is printed whole when it ends, followed by its line.
 */
export async function runFiles(files: readonly TestFile[], options: RunOptions): Promise<Outcome> {
  const echo = options.concurrency <= 1 && !options.whole;
  const running = new Map<string, number>();
  const quietMs = (options.quietS ?? 60) * 1000;
  // The stage's title was just printed (output that did not pass through here).
  lastOutput = performance.now();
  const watch = setInterval(() => {
    if (performance.now() - lastOutput < quietMs || running.size === 0) return;
    const now = performance.now();
    writeLine(stillRunningLine([...running].map(([name, since]) => [name, (now - since) / 1000])));
  }, 1000);
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      const name = `${file.runtime} ${file.path}`;
      running.set(name, performance.now());
      options.onStart?.(file);
      const { outcome, out } = await runFile(file, options, echo);
      options.onEnd?.(file);
      running.delete(name);
      if (!echo) write(out);
      // In the given order, whichever ends first, so the verdict lists failures the same way every run.
      outcomes[index] = outcome;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  } finally {
    clearInterval(watch);
  }
  return sum(outcomes);
}
