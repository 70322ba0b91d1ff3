/**
 * The test command's verdict (scripts/test_report.ts): names read from the JUnit reports Deno and Node write, and
 * the closing lines: skipped with reasons, failed by name, then exactly `N passed, N failed` (`, N skipped` only
 * when something was skipped).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import process from "node:process";
import {
  childEnv,
  denoSummary,
  fileLine,
  junitCases,
  junitOutcome,
  single,
  stillRunningLine,
  sum,
  timedOut,
  verdictLines,
} from "../../scripts/test_report.ts";
import { runFiles, type TestFile } from "../../scripts/test_files.ts";
import { IS_DENO, ROOT } from "../helpers/process.ts";
import { NOTICES_ENV, sayOnce } from "../helpers/skip.ts";

/** As `deno test --junit-path` writes it (Deno 2.9): file as classname, `<skipped/>` without a reason. */
const DENO_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="3" failures="1" errors="0" time="0.017">
    <testsuite name="./tests/webapp/browser_test.ts" tests="3" disabled="1" errors="0" failures="1">
        <testcase name="runs" classname="./tests/webapp/browser_test.ts" time="0.005" line="3" col="1">
        </testcase>
        <testcase name="page &quot;loads&quot;" classname="./tests/webapp/browser_test.ts" time="0.000" line="4" col="1">
            <skipped/>
        </testcase>
        <testcase name="fails &amp; says so" classname="./tests/webapp/browser_test.ts" time="0.003" line="6" col="1">
            <failure message="Uncaught AssertionError">AssertionError: 1 !== 2</failure>
        </testcase>
    </testsuite>
</testsuites>`;

/** As `node --test --test-reporter=junit` writes it (Node 20): classname "test", skip reasons as messages. */
const NODE_REPORT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="runs" time="0.000767" classname="test"/>
	<testcase name="skipped by option" time="0.000084" classname="test">
		<skipped type="skipped" message="no Chromium: this is darwin-arm64"/>
	</testcase>
	<testcase name="fails" time="0.009114" classname="test" failure="1 !== 2">
		<failure type="testCodeFailure" message="1 !== 2">[Error [ERR_TEST_FAILURE]: 1 !== 2]</failure>
	</testcase>
</testsuites>`;

test("JUnit cases from Deno's report: status, names unescaped, the file as classname", () => {
  assert.deepEqual(junitCases(DENO_REPORT), [
    { name: "runs", classname: "./tests/webapp/browser_test.ts", status: "passed" },
    { name: 'page "loads"', classname: "./tests/webapp/browser_test.ts", status: "skipped" },
    {
      name: "fails & says so",
      classname: "./tests/webapp/browser_test.ts",
      status: "failed",
      reason: "AssertionError: 1 !== 2",
    },
  ]);
});

test("JUnit cases from Node's report: self-closing cases pass, skip reasons kept", () => {
  assert.deepEqual(junitCases(NODE_REPORT).map((c) => [c.name, c.status, c.message ?? c.reason]), [
    ["runs", "passed", undefined],
    ["skipped by option", "skipped", "no Chromium: this is darwin-arm64"],
    ["fails", "failed", "1 !== 2"],
  ]);
});

test("JUnit cases whose attributes hold '>' (Node leaves it unescaped) keep their names, and the next failure its own", () => {
  const xml = `<testsuites>
	<testcase name="size bound refuses > 150 heavy atoms" time="0.1" classname="test"/>
	<testcase name="budget" time="0.1" classname="test" failure="is 20042 > 20000">
		<failure type="testCodeFailure" message="is 20042 > 20000">AssertionError</failure>
	</testcase>
</testsuites>`;
  assert.deepEqual(junitCases(xml).map((c) => [c.name, c.status, c.reason]), [
    ["size bound refuses > 150 heavy atoms", "passed", undefined],
    ["budget", "failed", "is 20042 > 20000"],
  ]);
});

test("a failure's reason: Node's message lines, which its report joins with nothing, are parted again", () => {
  const xml = `<testsuites>
	<testcase name="two lines" time="0.01" classname="test" failure="the first line1 !== 2">
		<failure type="testCodeFailure" message="the first line1 !== 2">
Error [ERR_TEST_FAILURE]: the first line

1 !== 2
</failure>
	</testcase>
</testsuites>`;
  assert.deepEqual(junitCases(xml).map((c) => c.reason), ["the first line 1 !== 2"]);
});

test("a stage's outcome names its failures and skips; a non-zero exit without a reported failure is one", () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-report-test-"));
  try {
    writeFileSync(join(dir, "deno.xml"), DENO_REPORT);
    writeFileSync(join(dir, "node.xml"), NODE_REPORT);
    assert.deepEqual(junitOutcome("deno test", join(dir, "deno.xml"), 1), {
      passed: 1,
      failed: 1,
      skipped: 1,
      failures: ["deno test › tests/webapp/browser_test.ts › fails & says so\n      AssertionError: 1 !== 2"],
      skips: ['deno test › tests/webapp/browser_test.ts › page "loads"'],
    });
    const node = junitOutcome("node --test (dist/)", join(dir, "node.xml"), 1);
    assert.deepEqual(node.failures, ["node --test (dist/) › fails\n      1 !== 2"]);
    assert.deepEqual(node.skips, [
      "node --test (dist/) › skipped by option (no Chromium: this is darwin-arm64)",
    ]);
    const crashed = junitOutcome("node --test (dist/)", join(dir, "absent.xml"), 7);
    assert.deepEqual(crashed.failures, ["node --test (dist/): exit 7 before any test reported (see above)"]);
    assert.equal(crashed.failed, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The end of what `deno test` printed (Deno 2.9.5) for a module that threw while loading and one failed test. */
const DENO_OUTPUT = `running 1 test from ./fail_test.ts
fails ... FAILED (538µs)

 ERRORS 

./boom_test.ts (uncaught error)
error: (in promise) Error: no Chromium binary at /nope

 FAILURES 

./boom_test.ts (uncaught error)
fails => ./fail_test.ts:1:6

FAILED | 2 passed | 2 failed | 1 ignored (57ms)

error: Test failed`;

test("Deno's summary: the modules listed as uncaught errors, and its failed count", () => {
  assert.deepEqual(denoSummary(DENO_OUTPUT), { uncaught: ["./boom_test.ts"], failed: 2 });
  // Colour codes, as on a terminal, change nothing.
  const coloured = DENO_OUTPUT.replace(" FAILURES ", "\x1b[1m\x1b[37m\x1b[41m FAILURES \x1b[0m")
    .replace("(uncaught error)\nfails", "\x1b[31m(uncaught error)\x1b[0m\nfails")
    .replace("FAILED |", "\x1b[31mFAILED\x1b[0m |");
  assert.deepEqual(denoSummary(coloured), { uncaught: ["./boom_test.ts"], failed: 2 });
  assert.deepEqual(denoSummary("ok | 3 passed | 0 failed (4ms)\n"), { uncaught: [], failed: 0 });
  assert.deepEqual(denoSummary(""), { uncaught: [] });
  // A list printed by something a test ran, above Deno's own closing lines, is not Deno's.
  const nested = `${DENO_OUTPUT}\n\nmore output\n\nok | 4 passed | 0 failed (1s)\n`;
  assert.deepEqual(denoSummary(nested), { uncaught: [], failed: 0 });
});

/**
 * Runs the Deno this repository pins on the given test files in a temporary directory and returns the stage's
 * outcome from its report and output, as scripts/test.ts reads them.
 */
function denoRun(
  files: Record<string, string>,
): { outcome: ReturnType<typeof junitOutcome>; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-report-test-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const deno = IS_DENO ? process.execPath : join(ROOT, "node_modules/.bin/deno");
    const report = join(dir, "report.xml");
    const run = spawnSync(deno, ["test", "-A", "--no-check", `--junit-path=${report}`, "."], {
      cwd: dir,
      encoding: "utf8",
      env: childEnv(process.env, false),
    });
    const output = `${run.stdout}${run.stderr}`;
    return { outcome: junitOutcome("deno test", report, run.status ?? 1, output), output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a Deno test file that fails while loading is named and counted even when another test fails", () => {
  // As browser_test.ts does when an installed Chromium will not start.
  const { outcome, output } = denoRun({
    "boom_test.ts": 'throw new Error("no Chromium binary at /nope");\n',
    "fail_test.ts":
      'Deno.test("fails", () => {\n  throw new Error("1 !== 2");\n});\nDeno.test("passes", () => {});\n',
    "ok_test.ts": 'Deno.test("fine", () => {});\n',
  });
  assert.match(output, /FAILED \| 2 passed \| 2 failed/, "Deno itself counts both failures");
  // Each failure with its reason on the next line: CI keeps the log's tail, where the verdict is.
  assert.deepEqual(outcome.failures, [
    "deno test › fail_test.ts › fails\n      Error: 1 !== 2",
    "deno test › boom_test.ts (uncaught error)",
  ]);
  assert.equal(outcome.failed, 2);
  assert.equal(outcome.passed, 2);
  assert.deepEqual(verdictLines(outcome).join("\n").split("\n").slice(-6), [
    "Failed (2):",
    "  deno test › fail_test.ts › fails",
    "      Error: 1 !== 2",
    "  deno test › boom_test.ts (uncaught error)",
    "",
    "2 passed, 2 failed",
  ]);
});

test("a test skipped under Deno keeps its reason in the verdict through its name", () => {
  const helper = pathToFileURL(join(ROOT, "tests/helpers/skip.ts")).href;
  const { outcome } = denoRun({
    "skip_test.ts": `import { test } from "node:test";
import { skipName } from ${JSON.stringify(helper)};
const skip = "no Chromium: this is plan9-riscv";
test(skipName("page loads", skip), { skip }, () => {});
test(skipName("always runs", false), { skip: false }, () => {});
`,
  });
  assert.deepEqual(outcome.skips, [
    "deno test › skip_test.ts › page loads (not run: no Chromium: this is plan9-riscv)",
  ]);
  assert.equal(outcome.passed, 1);
});

test("a notice is said once per run of the test command, and always outside it", () => {
  const said: unknown[] = [];
  const error = console.error;
  const saved = process.env[NOTICES_ENV];
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-notices-test-"));
  console.error = (line: unknown) => said.push(line);
  try {
    delete process.env[NOTICES_ENV];
    sayOnce("no-chromium", "first");
    sayOnce("no-chromium", "second");
    process.env[NOTICES_ENV] = dir;
    sayOnce("no-chromium", "third");
    sayOnce("no-chromium", "fourth");
    sayOnce("other", "fifth");
  } finally {
    console.error = error;
    if (saved === undefined) delete process.env[NOTICES_ENV];
    else process.env[NOTICES_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(said, ["first", "second", "third", "fifth"]);
});

test("a failure Deno counts but names nowhere still counts, so the tally agrees with Deno's", () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-report-test-"));
  try {
    writeFileSync(join(dir, "deno.xml"), DENO_REPORT);
    const outcome = junitOutcome(
      "deno test",
      join(dir, "deno.xml"),
      1,
      "FAILED | 1 passed | 3 failed (9ms)\n",
    );
    assert.equal(outcome.failed, 3);
    assert.deepEqual(outcome.failures.slice(1), [
      "deno test: 2 more failed by Deno's own count than it named (see above)",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the verdict: failed names right above the tally, which is exactly `N passed, N failed` with no skip", () => {
  const lines = verdictLines(sum([single("format (exit 0)", true), single("lint (exit 1)", false)]));
  assert.deepEqual(lines, ["", "Failed (1):", "  lint (exit 1)", "", "1 passed, 1 failed"]);
  assert.deepEqual(verdictLines(single("tsc", true)), ["", "1 passed, 0 failed"]);
});

test("the verdict with skips: listed with reasons before the failures, counted after the tally", () => {
  const outcome = {
    passed: 5,
    failed: 1,
    skipped: 2,
    failures: ["deno test › a"],
    skips: ["deno test › b (no Chromium)", "deno test › c (no Chromium)"],
  };
  const lines = verdictLines(outcome);
  assert.equal(lines.at(-1), "5 passed, 1 failed, 2 skipped");
  assert.match(lines.at(-1)!, /^\d+ passed, \d+ failed(, \d+ skipped)?$/);
  assert.ok(lines.indexOf("Skipped (2):") < lines.indexOf("Failed (1):"));
  assert.equal(lines.at(-3), "  deno test › a");
});

test("children get no colour codes when the output is not a terminal, and never a Rust backtrace", () => {
  const inherited = { PATH: "/bin", FORCE_COLOR: "1", RUST_BACKTRACE: "1", GONE: undefined };
  assert.deepEqual(childEnv(inherited, false), {
    PATH: "/bin",
    RUST_BACKTRACE: "0",
    NO_COLOR: "1",
    NODE_DISABLE_COLORS: "1",
  });
  assert.deepEqual(childEnv(inherited, true), { PATH: "/bin", FORCE_COLOR: "1", RUST_BACKTRACE: "0" });
});

test('a report of one known file names that file, also where Node\'s classname is only "test"', () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-report-test-"));
  try {
    writeFileSync(join(dir, "node.xml"), NODE_REPORT);
    const node = junitOutcome("node --test", join(dir, "node.xml"), 1, "", "dist/tests/e2e/cancel_test.js");
    assert.deepEqual(node.failures, ["node --test › dist/tests/e2e/cancel_test.js › fails\n      1 !== 2"]);
    const crashed = junitOutcome("node --test", join(dir, "absent.xml"), 7, "", "dist/tests/e2e/x_test.js");
    assert.deepEqual(crashed.failures, [
      "node --test › dist/tests/e2e/x_test.js: exit 7 before any test reported (see above)",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file killed at its time limit is one failure naming it, in the verdict and in its line", () => {
  const outcome = timedOut("deno test (e2e)", "tests/e2e/cancel_test.ts", 600);
  assert.deepEqual(verdictLines(sum([single("lint", true), outcome])), [
    "",
    "Failed (1):",
    "  deno test (e2e) › tests/e2e/cancel_test.ts: timed out after 600 s (killed with everything it started)",
    "",
    "1 passed, 1 failed",
  ]);
  assert.equal(
    fileLine("deno", "tests/e2e/cancel_test.ts", 600.04, outcome, 600),
    "TIMED OUT  600.0 s  deno  tests/e2e/cancel_test.ts (killed at its limit of 600 s)",
  );
});

test("a line per finished file: status, seconds, runtime, file and what its tests did", () => {
  const outcome = { passed: 10, failed: 0, skipped: 0, failures: [], skips: [] };
  assert.equal(
    fileLine("node", "dist/tests/unit/qed_test.js", 3.21, outcome),
    "ok           3.2 s  node  dist/tests/unit/qed_test.js (10 passed)",
  );
  assert.equal(
    fileLine("deno", "tests/webapp/browser_test.ts", 12, { ...outcome, failed: 1, skipped: 2 }),
    "FAILED      12.0 s  deno  tests/webapp/browser_test.ts (10 passed, 1 failed, 2 skipped)",
  );
  assert.equal(
    stillRunningLine([["deno tests/docs/documented_commands.ts", 312.4], ["node dist/x_test.js", 61]]),
    "… still running: deno tests/docs/documented_commands.ts (312 s), node dist/x_test.js (61 s)",
  );
});

/** A test file stand-in: a Node program the runner starts as it would a test runner, writing no report. */
function fakeFile(path: string, program: string, limitS: number): TestFile {
  return { stage: "fake", runtime: "node", path, limitS, command: () => ["node", ["-e", program]] };
}

test("files run to their end or their limit: a hung file is killed with what it started and named", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-files-test-"));
  let reports = 0;
  const started = performance.now();
  // A duration of this run's own: the same test may run under the other runtime at the same time.
  const nap = (300 + Math.random()).toFixed(6);
  try {
    const outcome = await runFiles([
      // Hangs for ever, with a child of its own that would hold the pipes open.
      fakeFile(
        "stand-in/hangs_test.js",
        `require("node:child_process").spawn("sleep", ["${nap}"], { stdio: "inherit" }); setInterval(() => {}, 1000);`,
        2,
      ),
      // Exits at once, leaving a child that holds its stdout: the file is done when the runner is.
      fakeFile(
        "stand-in/leaves_test.js",
        `require("node:child_process").spawn("sleep", ["${nap}"], { stdio: "inherit" }).unref(); process.exitCode = 3;`,
        60,
      ),
      fakeFile("stand-in/passes_test.js", "", 60),
    ], {
      concurrency: 2,
      env: childEnv(process.env, false),
      reportPath: () => join(dir, `r${++reports}.xml`),
    });
    assert.deepEqual(outcome.failures, [
      "fake › stand-in/hangs_test.js: timed out after 2 s (killed with everything it started)",
      "fake › stand-in/leaves_test.js: exit 3 before any test reported (see above)",
    ]);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 30, `the run ended ${seconds.toFixed(1)} s after it started, not after the sleeps`);
    const left = spawnSync("pgrep", ["-f", `^sleep ${nap}$`], { encoding: "utf8" }).stdout.trim();
    assert.equal(left, "", "no sleep of these files is left running");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
