/**
 * The test command: follows one plan of stages (scripts/test_plan.ts) and closes with the verdict
 * (scripts/test_report.ts): notices, what was skipped and why, what failed by name, then `N passed, N failed`
 * (`, N skipped` appended when something was).
 *
 *   npm test                  the quick plan: static checks, the Node build, Deno's unit and reference suites,
 *                             the e2e suites under Deno and against the Node build (about 6 minutes on 2 cores)
 *   npm run test:all          the full plan: everything, as CI runs it (about 15 minutes on 2 cores)
 *
 * Options:
 *   --all                     the full plan
 *   --files <part>,<part>…    only the test files whose path contains a part, under every runtime they run on;
 *                             no static checks and no artefact builds (the Node build only when dist/ is stale)
 *   --only <part>,<part>…     parts of the full plan, after the static checks and the Node build: deno, node,
 *                             docs, loaded (Deno's server suites on a busy machine), artifacts, webapp
 *   --file-limit <seconds>    one time limit for every test file, instead of each kind's own
 *   --verbose                 the output of every file and command, not only of what failed
 *
 * Every file runs in a runner process of its own with a time limit (scripts/test_files.ts); a line is printed as
 * each file ends. Everything runs with TMPDIR in one run directory, removed at the end, on failure and on
 * SIGINT/SIGTERM (scripts/test_run_dir.ts); browser tests share one Chromium unpacked there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { childEnv, type Outcome, single, sum, verdictLines } from "./test_report.ts";
import { endRun, startRun } from "./test_run_dir.ts";
import { runPlan, type Stage } from "./test_stages.ts";
import { BROWSER_FILES, filesPlan, fullPlan, quickPlan, suiteFiles, unlistedSuites } from "./test_plan.ts";
import { NOTICES_ENV } from "../tests/helpers/skip.ts";
import { BUNDLED_CHROMIUM_ENV, unpackBundledChromium } from "../tests/helpers/chromium.ts";

/** The value after a command-line option, if the option is given. */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}
const list = (text: string | undefined) => text?.split(",").filter(Boolean);

const files = list(option("--files"));
const only = list(option("--only"));
const limit = option("--file-limit");
const run = startRun();
const options = {
  artifacts: join(run.root, "artifacts"),
  ...(files ? { files } : {}),
  ...(limit ? { limitS: Number(limit) } : {}),
};

/** Which stages of the full plan each `--only` part keeps (the static checks and the Node build always run). */
const PARTS: Record<string, RegExp> = {
  deno: /^deno: /,
  node: /^node: |^live: /,
  docs: /^documented commands$/,
  loaded: /busy machine/,
  artifacts: /^single executable$|^npm package$|^live: |^MCP Bundle/,
  webapp: /^live: /,
};

function plan(): Stage[] {
  if (files) return filesPlan(options);
  if (!only && !process.argv.includes("--all")) return quickPlan(options);
  const unknown = (only ?? []).filter((part) => !PARTS[part]);
  if (unknown.length) throw new Error(`--only: no part ${unknown.join(", ")}; parts: ${Object.keys(PARTS)}`);
  const keep = (stage: Stage) =>
    !only || /^(static checks|Node build)$/.test(stage.name) ||
    only.some((part) => PARTS[part]!.test(stage.name));
  return fullPlan(options).filter(keep);
}

/**
 * Unpacks the bundled Chromium once into the run directory when a browser test may run (Linux x86_64, where the
 * package has one), and names it for the browser tests; a failure to unpack is one, not a reason to skip.
 */
async function chromiumFor(
  stages: readonly Stage[],
): Promise<{ env: Record<string, string>; outcome: Outcome }> {
  const browsers = files
    ? suiteFiles(["webapp"], "deno").some((f) => BROWSER_FILES.test(f) && files.some((p) => f.includes(p)))
    : stages.some((stage) => stage.name.startsWith("live: "));
  if (!browsers || process.platform !== "linux" || process.arch !== "x64") {
    return { env: {}, outcome: sum([]) };
  }
  try {
    const path = await unpackBundledChromium(join(run.root, "chromium"));
    console.log(`== @sparticuz/chromium unpacked once for this run: ${path}`);
    return { env: { [BUNDLED_CHROMIUM_ENV]: path }, outcome: sum([]) };
  } catch (error) {
    console.log(`== @sparticuz/chromium did not unpack: ${error}`);
    return { env: {}, outcome: single(`unpack @sparticuz/chromium: ${error}`, false) };
  }
}

/** The notices the suites said once (tests/helpers/skip.ts), repeated above the verdict. */
function notices(): string[] {
  const said = readdirSync(run.notices).map((name) => readFileSync(join(run.notices, name), "utf8").trim());
  return said.length ? ["", "Notices:", ...said.map((line) => `  ${line}`)] : [];
}

const started = performance.now();
let reportCount = 0;
try {
  const stages = plan();
  const unlisted = files ? [] : unlistedSuites();
  const chromium = await chromiumFor(stages);
  const { outcome, timings } = await runPlan(stages, {
    env: { ...childEnv(), [NOTICES_ENV]: run.notices, ...chromium.env },
    reportPath: () => join(run.reports, `report-${++reportCount}.xml`),
    verbose: process.argv.includes("--verbose"),
  });
  const total = sum([
    chromium.outcome,
    single(`test directories no stage runs: ${unlisted.join(", ")}`, unlisted.length === 0),
    outcome,
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\nTime per stage (they overlap; ${seconds} s in all):\n${timings.join("\n")}`);
  console.log([...notices(), ...verdictLines(total)].join("\n"));
  process.exitCode = total.failed === 0 ? 0 : 1;
} finally {
  endRun();
}
