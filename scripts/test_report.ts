/**
 * The verdict of scripts/test.ts: tallies of each stage, the names of what failed or was skipped (read from the
 * JUnit XML that `deno test --junit-path` and `node --test --test-reporter=junit` write), and the closing lines a
 * person reads: skipped tests with their reasons, failed tests by name, then `N passed, N failed` (with
 * `, N skipped` appended when something was skipped).
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";

/** What one stage of the run contributes to the verdict. */
export interface Outcome {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Names of what failed, prefixed by the stage. */
  readonly failures: readonly string[];
  /** Names of what was skipped, with the reason where the runner gives one. */
  readonly skips: readonly string[];
}

/** An outcome of one named check that passed or failed as a whole. */
export function single(name: string, ok: boolean): Outcome {
  return { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, failures: ok ? [] : [name], skips: [] };
}

/** The sum of several outcomes, names kept in order. */
export function sum(outcomes: readonly Outcome[]): Outcome {
  return {
    passed: outcomes.reduce((n, o) => n + o.passed, 0),
    failed: outcomes.reduce((n, o) => n + o.failed, 0),
    skipped: outcomes.reduce((n, o) => n + o.skipped, 0),
    failures: outcomes.flatMap((o) => o.failures),
    skips: outcomes.flatMap((o) => o.skips),
  };
}

/**
 * Environment for the runners and checks this script starts, from ours: no colour codes unless our own output is
 * a terminal (`NO_COLOR` for Deno, `NODE_DISABLE_COLORS` for Node; an inherited `FORCE_COLOR` is dropped, since
 * Deno colours whenever it is set, even to 0), and no Rust backtrace after Deno's "Test failed" (it says nothing
 * about the test; the failure's own stack is kept).
 */
export function childEnv(
  base: Readonly<Record<string, string | undefined>> = process.env,
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  env.RUST_BACKTRACE = "0";
  if (!stdoutIsTerminal) {
    delete env.FORCE_COLOR;
    env.NO_COLOR = "1";
    env.NODE_DISABLE_COLORS = "1";
  }
  return env;
}

/** One `<testcase>` of a JUnit report. */
export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly status: "passed" | "failed" | "skipped";
  /** The skip reason, when the runner records one. */
  readonly message?: string;
  /** Why it failed: the first line of the failure's message, when the runner records one. */
  readonly reason?: string;
}

function unescapeXml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, "&");
}

function attribute(attributes: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
  return value === undefined ? undefined : unescapeXml(value);
}

/** The test cases of a JUnit XML report (the subset Deno and Node write: flat or nested in suites). */
export function junitCases(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  // Attributes are read as quoted values: Node leaves `>` unescaped in them (a test named "refuses > 150 atoms"),
  // and stopping at the first `>` took such a case's name for its end and the next failure's body for its own.
  for (
    const match of xml.matchAll(/<testcase\b((?:\s+[^\s=/>]+="[^"]*")*)\s*(?:\/>|>([\s\S]*?)<\/testcase>)/g)
  ) {
    const [, attributes = "", body = ""] = match;
    const skipped = /<skipped\b([^>]*)/.exec(body);
    const failed = /<(failure|error)\b/.test(body) || attribute(attributes, "failure") !== undefined;
    const message = skipped ? attribute(skipped[1] ?? "", "message") : undefined;
    const reason = failed ? failureReason(attributes, body) : undefined;
    cases.push({
      name: attribute(attributes, "name") ?? "(unnamed)",
      classname: attribute(attributes, "classname") ?? "",
      status: failed ? "failed" : skipped ? "skipped" : "passed",
      ...(message ? { message } : {}),
      ...(reason ? { reason } : {}),
    });
  }
  return cases;
}

/** Longest failure reason the verdict repeats: one line, enough for an assertion's message and its figures. */
const REASON_CHARS = 300;

/**
 * The first non-empty line of a failed case's message (Deno and Node put it in the `<failure>` element's
 * `message`, Node also in the case's `failure` attribute), so the verdict says why as well as what: CI logs
 * keep only their head and tail, where the verdict is.
 */
function failureReason(attributes: string, body: string): string | undefined {
  const firstLine = (text: string | undefined) =>
    text?.split("\n").map((line) => line.trim()).find(Boolean)?.replace(/^Uncaught /, "");
  const element = /<(?:failure|error)\b((?:\s+[^\s=/>]+="[^"]*")*)\s*>?([\s\S]*)/.exec(body);
  const message = firstLine(
    (element && attribute(element[1] ?? "", "message")) ?? attribute(attributes, "failure"),
  );
  // Deno's message is only "Uncaught AssertionError" when the assertion gave none; its text then says more.
  const text = firstLine(unescapeXml((element?.[2] ?? "").replace(/<[^>]*>/g, "")))
    ?.replace(/^Error \[ERR_TEST_FAILURE\]: /, "");
  // Node joins the message's lines with nothing between them ("the first line1 !== 2"): a space goes back
  // where its text's first line ends.
  const joined = message && text && message.length > text.length && message.startsWith(text)
    ? `${text} ${message.slice(text.length)}`
    : undefined;
  const line = joined ?? (message && text?.startsWith(message) ? text : message ?? text);
  if (!line) return undefined;
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * What Deno's own summary says failed outside its JUnit report: the modules under "FAILURES" marked `(uncaught
 * error)` (a test file that threw while loading, or an error no test caught), and the failed count of its closing
 * `FAILED | N passed | N failed` line. Deno counts such a module as a failure but writes no test case for it.
 */
export function denoSummary(output: string): { uncaught: string[]; failed?: number } {
  const text = output.replace(ANSI, "");
  const tally = [...text.matchAll(/^(?:FAILED|ok) \| \d+ passed[^|\n]*\| (\d+) failed/gm)].at(-1);
  // Deno's list sits right above its tally; a list further up came from something a test ran.
  const before = text.slice(0, tally?.index ?? text.length);
  const heading = before.lastIndexOf("\n FAILURES \n");
  const list = heading < 0 ? "" : before.slice(heading + "\n FAILURES \n".length).trim();
  const uncaught = list.includes("\n\n") ? [] : list.split("\n")
    .flatMap((line) => /^(.+) \(uncaught error\)$/.exec(line.trim())?.[1] ?? []);
  return tally ? { uncaught, failed: Number(tally[1]) } : { uncaught };
}

/**
 * The outcome of a test runner's stage from its JUnit report, and for Deno from its console output too (see
 * {@link denoSummary}): each module it reports as an uncaught error is one failure. A runner that exited non-zero
 * with no failure accounted for (a crash before the report) counts as one failure named after the stage.
 */
export function junitOutcome(
  stage: string,
  reportPath: string,
  exitCode: number,
  denoOutput = "",
  testFile = "",
): Outcome {
  const cases = existsSync(reportPath) ? junitCases(readFileSync(reportPath, "utf8")) : [];
  // Node names its test files' classname "test"; Deno names the file. Only a file name helps the reader, so a
  // report of one known file names it whatever the runner wrote.
  const file = (c: JunitCase) =>
    testFile || (/[/.]/.test(c.classname) ? c.classname.replace(/^\.\//, "") : "");
  const label = (c: JunitCase) => [stage, file(c), c.name].filter(Boolean);
  const failures = cases.filter((c) => c.status === "failed")
    .map((c) => label(c).join(" › ") + (c.reason ? `\n      ${c.reason}` : ""));
  const summary = denoSummary(denoOutput);
  failures.push(
    ...summary.uncaught.map((module) => `${stage} › ${module.replace(/^\.\//, "")} (uncaught error)`),
  );
  // Should Deno ever count a failure that neither its report nor its list names, the tally still agrees with it.
  const named = failures.length;
  if (summary.failed !== undefined && summary.failed > named) {
    failures.push(
      `${stage}: ${summary.failed - named} more failed by Deno's own count than it named (see above)`,
    );
  }
  const skips = cases.filter((c) => c.status === "skipped")
    .map((c) => label(c).join(" › ") + (c.message && !c.name.includes(c.message) ? ` (${c.message})` : ""));
  if (exitCode !== 0 && failures.length === 0) {
    const where = testFile ? `${stage} › ${testFile}` : stage;
    failures.push(`${where}: exit ${exitCode}${cases.length ? "" : " before any test reported"} (see above)`);
  }
  return {
    passed: cases.filter((c) => c.status === "passed").length,
    failed: Math.max(failures.length, summary.failed ?? 0),
    skipped: skips.length,
    failures,
    skips,
  };
}

/** The closing lines: skipped (with reasons), failed by name, then the tally as the very last line. */
export function verdictLines(total: Outcome): string[] {
  const lines: string[] = [];
  if (total.skips.length) {
    lines.push(
      "",
      `Skipped (${total.skips.length}):`,
      ...total.skips.map((s) => `  ${s}`),
    );
  }
  if (total.failures.length) {
    lines.push("", `Failed (${total.failures.length}):`, ...total.failures.map((f) => `  ${f}`));
  }
  const tally = `${total.passed} passed, ${total.failed} failed`;
  lines.push("", total.skipped ? `${tally}, ${total.skipped} skipped` : tally);
  return lines;
}

/** A test file killed at its time limit: one failure that names it, whatever its tests had done by then. */
export function timedOut(stage: string, file: string, limitS: number): Outcome {
  return single(`${stage} › ${file}: timed out after ${limitS} s (killed with everything it started)`, false);
}

/**
 * The line printed when a test file ends: status, seconds, runtime, file and its tallies, e.g.
 * `ok        12.3 s  deno  tests/unit/qed_test.ts (10 passed)`.
 */
export function fileLine(
  runtime: string,
  file: string,
  seconds: number,
  outcome: Outcome,
  timedOutAfterS?: number,
): string {
  const status = timedOutAfterS !== undefined ? "TIMED OUT" : outcome.failed ? "FAILED" : "ok";
  const counts = timedOutAfterS !== undefined ? `killed at its limit of ${timedOutAfterS} s` : [
    `${outcome.passed} passed`,
    ...(outcome.failed ? [`${outcome.failed} failed`] : []),
    ...(outcome.skipped ? [`${outcome.skipped} skipped`] : []),
  ].join(", ");
  return `${status.padEnd(9)} ${seconds.toFixed(1).padStart(6)} s  ${runtime}  ${file} (${counts})`;
}

/** The line said after a minute without output: what still runs, and for how long, in seconds. */
export function stillRunningLine(running: readonly (readonly [string, number])[]): string {
  return `… still running: ${running.map(([name, s]) => `${name} (${s.toFixed(0)} s)`).join(", ")}`;
}
