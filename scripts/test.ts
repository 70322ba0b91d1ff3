/**
 * Runs every check and test under both runtimes and closes with the verdict (scripts/test_report.ts): what was
 * skipped and why, what failed by name, then `N passed, N failed` (`, N skipped` appended when something was).
 *
 *   1. static checks: deno fmt --check, deno lint, deno check, deno publish --dry-run, tsc and the esbuild
 *      bundles of the Node entries (the Node build)
 *   2. the in-process suites (unit, reference) of both runtimes and the documented commands, several files at
 *      a time, beside Deno's server suites (e2e, adversarial), one file at a time, on a machine kept at two
 *      CPU-bound programs per core: the running in-process files count as such, spinning programs
 *      (scripts/load.ts) make up the rest, as on a busy machine
 *   3. the shipped artefacts built: the single-executable binary, the npm tarball installed into an empty
 *      project, `deno compile` through its release script as far as this machine allows
 *   4. the live suites, three files at a time: Deno's webapp suite; Node's e2e, adversarial and webapp suites;
 *      the end-to-end and attack suites against the binary run from a directory with no node_modules, the
 *      end-to-end suites against `npx chem-mcp` from the installed tarball; the MCP Bundle built, unpacked and
 *      served as its manifest says (tests/artifacts/mcpb_bundle.ts)
 *
 * The documented commands (tests/docs/documented_commands.ts) run every command of README.md and docs/*.md as
 * written in a temporary copy of the repository, once: the commands are the subject, not the runtime.
 *
 * Every test file runs in a runner process of its own with a time limit (scripts/test_files.ts): at the limit it
 * is killed with whatever it started and named in the verdict as timed out; a line is printed as each file ends.
 *
 * Usage: deno run -A scripts/test.ts [--only <part>,<part>…] [--files <part>,<part>…] [--file-limit <seconds>]
 *   --only          the static checks, then only these parts: deno, node, artifacts, docs, loaded (Deno's server
 *                   suites beside the CPU-bound programs, which `deno` includes)
 *   --files         only the test files whose path contains one of the parts
 *   --file-limit    one time limit for every test file, instead of each kind's own
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { childEnv, type Outcome, single, stillRunningLine, sum, verdictLines } from "./test_report.ts";
import { killGroup, runFiles, type RunOptions, type TestFile } from "./test_files.ts";
import { BACKGROUND_LOAD_ENV, loadCount, startLoad } from "./load.ts";
import { NOTICES_ENV } from "../tests/helpers/skip.ts";

/** The value after a command-line option, if the option is given. */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}
const only = option("--only");
const runs = (part: string) => only === undefined || only.split(",").includes(part);
/**
 * CPU-bound programs per core beside the loaded stage: the busy machine of docs/decisions.md.
 * `CHEM_MCP_TEST_LOAD_PER_CORE` sets another, to see how the suites fare on a busier machine than that.
 */
const LOAD_PER_CORE = Number(process.env.CHEM_MCP_TEST_LOAD_PER_CORE ?? 2);

/**
 * Runs a command (a static check, a build), echoing its output as it comes. Like a test file it runs in a process
 * group of its own and is killed with it after {@link COMMAND_LIMIT_S}, exiting 124 as `timeout` does.
 */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...childEnv(), [NOTICES_ENV]: notices, ...env },
      detached: true,
    });
    let out = "";
    let lastOutput = performance.now();
    const started = lastOutput;
    const tee = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      out += chunk.toString();
      lastOutput = performance.now();
      stream.write(chunk);
    };
    // As for test files: a line after each minute without output, so no check or build is silent for long.
    const watch = setInterval(() => {
      if (performance.now() - lastOutput < 60_000) return;
      lastOutput = performance.now();
      console.log(stillRunningLine([[[cmd, ...args].join(" "), (lastOutput - started) / 1000]]));
    }, 1000);
    child.stdout.on("data", tee(process.stdout));
    child.stderr.on("data", tee(process.stderr));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      console.log(`\n== killed after ${COMMAND_LIMIT_S} s: ${[cmd, ...args].join(" ")}`);
      if (child.pid !== undefined) killGroup(child.pid);
    }, COMMAND_LIMIT_S * 1000);
    // Whatever it left running goes with it, so its pipes close and "close" comes.
    child.on("exit", () => child.pid !== undefined && killGroup(child.pid));
    child.on("close", (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({ code: killed ? 124 : code ?? 1, out });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({ code: 1, out: String(error) });
    });
  });
}

/** The time limit of a single command of the run (a check, a build, `npm pack`), seconds. */
const COMMAND_LIMIT_S = 900;

const deno = process.execPath;
/** The release target this machine can build with a stand-in base binary (the CI and build machines). */
const HOST_TARGET = process.platform === "linux" && process.arch === "x64"
  ? "x86_64-unknown-linux-gnu"
  : undefined;

async function check(name: string, cmd: string, args: string[]): Promise<Outcome> {
  console.log(`\n== ${name}: ${[cmd, ...args].join(" ")}`);
  const started = performance.now();
  const { code } = await run(cmd, args);
  console.log(`== ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} ${took(started)}`);
  return single(`${name} (exit ${code})`, code === 0);
}

/** Where the test runners write their JUnit reports, read back for the names of what failed or was skipped. */
const reports = mkdtempSync(join(tmpdir(), "chem-mcp-test-reports-"));
let reportCount = 0;
const reportPath = (): string => join(reports, `report-${++reportCount}.xml`);
/** Notices the suites print once per run however many runtimes run them (tests/helpers/skip.ts). */
const notices = join(reports, "notices");
mkdirSync(notices);

/**
 * Suites that run in the test process (no server, no browser, no wall-clock bound tighter than seconds): one
 * runtime's run of them can share the two cores with the other's.
 */
const IN_PROCESS_SUITES = ["unit", "reference"];
/** Suites that start servers, workers and browsers and time their answers: one file at a time. */
const LIVE_SUITES = ["e2e", "adversarial", "webapp"];
/** The live suites that run with the background load (scripts/load.ts): the server suites. */
const LOADED_SUITES = ["e2e", "adversarial"];

/**
 * Each test file's time limit, seconds, after which it is killed and named in the verdict as timed out. At least
 * 2.5 times the longest file of its kind on a 2-core machine with other work on it (docs/decisions.md);
 * `--file-limit <s>` sets one limit for every file.
 */
const LIMIT_S = { inProcess: 600, live: 600, docs: 1800 } as const;
const limitOverride = option("--file-limit");
const limit = (kind: keyof typeof LIMIT_S): number =>
  limitOverride === undefined ? LIMIT_S[kind] : Number(limitOverride);
/** `--files a,b`: only the test files whose path contains one of these. */
const fileFilter = option("--files")?.split(",").filter(Boolean);

/** Test directories in neither list: their tests would not run, so the run fails naming them. */
function unlistedSuites(): string[] {
  const listed = new Set([...IN_PROCESS_SUITES, ...LIVE_SUITES]);
  return readdirSync("tests", { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !listed.has(entry.name))
    .filter((entry) => readdirSync(join("tests", entry.name)).some((file) => file.endsWith("_test.ts")))
    .map((entry) => `tests/${entry.name}/`);
}

/** The test files (`*_test.ts` or, under dist/, `*_test.js`) of the suites under `root`, sorted, filtered. */
function suiteFiles(root: string, suites: string[]): string[] {
  const ending = root.startsWith("dist/") ? "_test.js" : "_test.ts";
  return suites.flatMap((suite) => {
    const dir = `${root}${suite}`;
    if (!existsSync(dir)) return [];
    return (readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => file.endsWith(ending))
      .sort()
      .map((file) => `${dir}/${file}`);
  }).filter(selected);
}

/** Whether `--files` (when given) selects a test file. */
const selected = (file: string): boolean => !fileFilter || fileFilter.some((part) => file.includes(part));
const DOCUMENTED_COMMANDS = "tests/docs/documented_commands.ts";

/**
 * A file run by `deno test`. Without type checking: the static checks' `deno check .` has checked every file, and
 * checking again per file would cost a second or two each.
 */
function denoFile(stage: string, path: string, limitS: number, env: Record<string, string> = {}): TestFile {
  return {
    stage,
    runtime: "deno",
    path,
    limitS,
    env,
    command: (report) => [deno, ["test", "-A", "--no-check", `--junit-path=${report}`, path]],
  };
}

/** A file run by `node --test`: spec for the reader (no TAP diagnostics), junit for the names in the verdict. */
function nodeFile(stage: string, path: string, limitS: number, env: Record<string, string> = {}): TestFile {
  return {
    stage,
    runtime: "node",
    path,
    limitS,
    env,
    command: (report) => ["node", [
      "--test",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=junit",
      `--test-reporter-destination=${report}`,
      path,
    ]],
  };
}

/**
 * Runs files, `concurrency` at once (1: echoed as they run unless `more.whole`), under the title printed first.
 */
function runTitled(
  title: string,
  files: TestFile[],
  concurrency = 1,
  more: Pick<RunOptions, "whole" | "onStart" | "onEnd"> = {},
): Promise<Outcome> {
  console.log(`\n== ${title}: ${files.length} file(s)${concurrency > 1 ? `, ${concurrency} at a time` : ""}`);
  const started = performance.now();
  return runFiles(files, {
    concurrency,
    env: { ...childEnv(), [NOTICES_ENV]: notices },
    reportPath,
    ...more,
  }).then((outcome) => {
    console.log(`== ${title}: ${outcome.passed} passed, ${outcome.failed} failed ${took(started)}`);
    return outcome;
  });
}

/** Whole seconds since `started` (a `performance.now()`): where a run's time goes. */
function secondsSince(started: number): string {
  return ((performance.now() - started) / 1000).toFixed(0);
}

/** {@link secondsSince}, as a stage's closing line ends. */
function took(started: number): string {
  return `(${secondsSince(started)} s)`;
}

/** A test file of the in-process suites: CPU-bound while it runs, so it counts towards the loaded stage's load. */
type InProcessFile = TestFile & { readonly cpuBound?: boolean };

/**
 * The in-process suites of both runtimes and the documented commands (tests/docs/documented_commands.ts, which
 * works in a copy of the repository and gives its servers port 0): CPU-bound work that times nothing tightly.
 * The longest first.
 */
function inProcessFiles(): InProcessFile[] {
  const files: InProcessFile[] = [];
  if (runs("docs")) {
    files.push(
      ...[DOCUMENTED_COMMANDS].filter(selected).map((f) => denoFile("documented commands", f, limit("docs"))),
    );
  }
  // Reference suites first: they are the longest after the documented commands.
  for (const suite of ["reference", "unit"]) {
    if (runs("deno")) {
      files.push(
        ...suiteFiles("tests/", [suite]).map((f) => ({
          ...denoFile("deno test (unit, reference)", f, limit("inProcess")),
          cpuBound: true,
        })),
      );
    }
    if (runs("node")) {
      files.push(
        ...suiteFiles("dist/tests/", [suite]).map((f) => ({
          ...nodeFile("node --test (dist/: unit, reference)", f, limit("inProcess")),
          cpuBound: true,
        })),
      );
    }
  }
  return files;
}

/** In-process test files running at once without the loaded stage. */
const IN_PROCESS_LANES = 3;

/**
 * The in-process suites beside Deno's server suites (one file at a time), on a machine kept at
 * {@link LOAD_PER_CORE} CPU-bound programs per core: each running in-process file is one of them and spinning
 * programs (scripts/load.ts) make up the rest once they run out, so the server suites meet a busy machine
 * throughout while the cores do useful work. Both print each file's output whole when it ends.
 */
async function inProcessBesideLoaded(): Promise<Outcome> {
  const unlisted = unlistedSuites();
  if (unlisted.length > 0) console.log(`\n== test directories no stage runs: ${unlisted.join(", ")}`);
  const loaded = runs("deno") || runs("loaded");
  const target = loaded ? loadCount(LOAD_PER_CORE) : 0;
  const load = startLoad(target);
  let cpuBound = 0;
  let serverSuitesRunning = loaded;
  const count = (file: InProcessFile, change: number) => {
    if (!file.cpuBound) return;
    cpuBound += change;
    if (serverSuitesRunning) load.set(target - cpuBound);
  };
  const stage = "deno test (e2e, adversarial, loaded)";
  const files = inProcessFiles();
  // As many CPU-bound files at once as the load asks for, so no spinning program takes a core from them while
  // they last; the documented commands (builds, servers, waits) run beside them in a lane of their own.
  const lanes = Math.max(IN_PROCESS_LANES, target) + (files.some((f) => !f.cpuBound) ? 1 : 0);
  try {
    const [inProcess, server] = await Promise.all([
      runTitled(
        "unit and reference suites under Deno and Node, and the documented commands",
        files,
        lanes,
        {
          onStart: (file) => count(file, 1),
          onEnd: (file) => count(file, -1),
        },
      ),
      loaded
        ? runTitled(
          `${stage}: beside ${target} CPU-bound programs (${LOAD_PER_CORE} per core: the in-process files, ` +
            "topped up by scripts/load.ts)",
          suiteFiles("tests/", LOADED_SUITES).map((f) =>
            denoFile(stage, f, limit("live"), { [BACKGROUND_LOAD_ENV]: String(target) })
          ),
          1,
          { whole: true },
        ).finally(() => {
          // Nothing left to load: the in-process files go on at full speed.
          serverSuitesRunning = false;
          load.set(0);
        })
        : Promise.resolve(sum([])),
    ]);
    return sum([
      single(`test directories no stage runs: ${unlisted.join(", ")}`, unlisted.length === 0),
      inProcess,
      server,
    ]);
  } finally {
    await load.stop();
  }
}

/**
 * End-to-end suites that start the server as a process, so they can target any artefact; with `adversarial`,
 * the attack suites too. Those run under Deno, Node and the single executable, not again for the npm tarball,
 * which runs the same Node build as the Node suite.
 */
function e2eFiles(stage: string, env: Record<string, string>, adversarial = true): TestFile[] {
  return suiteFiles("dist/tests/", adversarial ? ["e2e", "adversarial"] : ["e2e"])
    .map((f) => nodeFile(stage, f, limit("live"), env));
}

/** A stage's test files, or the outcome of the build that failed to make what they test. */
type Prepared = { files: TestFile[] } | { failed: Outcome };

/** Builds the single-executable binary; its end-to-end and attack suites, run from a directory with no node_modules. */
async function seaBinaryFiles(): Promise<Prepared> {
  const dir = resolve(".cache/artifacts/sea");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const built = await check("build single-executable binary", deno, [
    "run",
    "-A",
    "scripts/build_sea.ts",
    "--out",
    `${dir}/chem-mcp`,
  ]);
  if (built.failed) return { failed: built };
  const stage = "e2e against the single-executable binary (no node_modules)";
  return {
    files: e2eFiles(stage, {
      CHEM_MCP_SERVER_CMD: JSON.stringify([`${dir}/chem-mcp`]),
      CHEM_MCP_SERVER_CWD: dir,
    }),
  };
}

/**
 * `deno compile` as far as this machine allows: no `denort` can be downloaded here, so the Deno executable stands
 * in as the base binary for the host target. The result does not run as chem-mcp, but the build goes through the
 * release script end to end and its size shows what was embedded (the runtime dependencies, not the dev tools).
 */
async function compileScriptTests(target: string): Promise<Outcome> {
  const dir = resolve(".cache/artifacts/compile");
  rmSync(dir, { recursive: true, force: true });
  const refused = await run(deno, ["run", "-A", "scripts/compile.ts", "--target", "riscv-unknown-plan9"]);
  const refusedOk = refused.code === 2 && refused.out.includes("unknown target(s): riscv-unknown-plan9");
  console.log(`== compile script refuses an unknown target with exit 2: ${refusedOk ? "ok" : "FAILED"}`);
  const built = await run(deno, [
    "run",
    "-A",
    "scripts/compile.ts",
    "--target",
    target,
    "--out-dir",
    dir,
    "--denort-stand-in",
  ], {
    DENORT_BIN: deno,
  });
  const binary = `${dir}/chem-mcp-linux-x86_64`;
  const embeddedMiB = existsSync(binary) ? (statSync(binary).size - statSync(deno).size) / 2 ** 20 : NaN;
  const builtOk = built.code === 0 && embeddedMiB > 5 && embeddedMiB < 32;
  console.log(
    `== deno compile (${target}, Deno as the base binary): ${embeddedMiB.toFixed(1)} MiB embedded: ` +
      (builtOk ? "ok" : "FAILED (expected exit 0 and 5–32 MiB)"),
  );
  rmSync(dir, { recursive: true, force: true });
  return sum([
    single("compile script refuses an unknown target with exit 2", refusedOk),
    single(`deno compile (${target}, Deno as the base binary)`, builtOk),
  ]);
}

/** Packs and installs the npm tarball into an empty project; the end-to-end suites against `npx chem-mcp`. */
async function npmPackageFiles(): Promise<Prepared> {
  const dir = resolve(".cache/artifacts/npm");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log("\n== npm pack");
  const packed = await run("npm", ["pack", "--silent", "--pack-destination", dir]);
  const tarball = packed.out.trim().split("\n").pop()!;
  if (packed.code !== 0 || !tarball.endsWith(".tgz")) return { failed: single("npm pack", false) };
  writeFileSync(`${dir}/package.json`, JSON.stringify({ name: "chem-mcp-install-test", private: true }));
  const installed = await check("npm install the tarball into an empty project", "npm", [
    "install",
    "--prefix",
    dir,
    "--no-audit",
    "--no-fund",
    `${dir}/${tarball}`,
  ]);
  if (installed.failed) return { failed: installed };
  const stage = "e2e against `npx chem-mcp` from the installed tarball";
  const env = {
    CHEM_MCP_SERVER_CMD: JSON.stringify(["npx", "--no-install", "chem-mcp"]),
    CHEM_MCP_SERVER_CWD: dir,
  };
  return { files: e2eFiles(stage, env, false) };
}

const results: Outcome[] = [];
/** How long each stage took, said at the end: CI has a time budget, and this shows where it goes. */
const timings: string[] = [];
async function timed(name: string, stage: () => Promise<Outcome>): Promise<Outcome> {
  const started = performance.now();
  const outcome = await stage();
  timings.push(`  ${secondsSince(started).padStart(4)} s  ${name}`);
  return outcome;
}
results.push(
  await timed("static checks and the Node build", async () =>
    sum([
      await check("format", deno, ["fmt", "--check"]),
      await check("lint", deno, ["lint"]),
      await check("deno check", deno, ["check", "."]),
      await check("JSR package (deno publish --dry-run)", deno, ["publish", "--dry-run", "--allow-dirty"]),
      await (async () => {
        rmSync("dist", { recursive: true, force: true });
        return await check("tsc (Node build)", "node", [
          "node_modules/typescript/bin/tsc",
          "-p",
          "tsconfig.json",
        ]);
      })(),
      // As `npm run build` ships them, so the Node suite's end-to-end tests run the bundled entries.
      await check("Node entry bundles", deno, ["run", "-A", "scripts/bundle_node.ts"]),
    ])),
);
if (runs("deno") || runs("node") || runs("docs") || runs("loaded")) {
  results.push(
    await timed(
      `unit, reference and documented commands beside Deno's e2e and adversarial under load`,
      inProcessBesideLoaded,
    ),
  );
}
/** The live suites that follow, each file in its own runner, this many at once (docs/decisions.md). */
const LIVE_CONCURRENCY = 3;
const live: TestFile[] = [];
if (runs("deno")) {
  const stage = "deno test (webapp)";
  live.push(...suiteFiles("tests/", ["webapp"]).map((f) => denoFile(stage, f, limit("live"))));
}
if (runs("node")) {
  const stage = "node --test (dist/: e2e, adversarial, webapp)";
  live.push(...suiteFiles("dist/tests/", LIVE_SUITES).map((f) => nodeFile(stage, f, limit("live"))));
}
if (runs("artifacts")) {
  results.push(
    await timed("artefacts built: single executable, npm package, deno compile script", async () => {
      const prepared = [await seaBinaryFiles(), await npmPackageFiles()];
      for (const p of prepared) if ("files" in p) live.push(...p.files);
      const stage = "MCP Bundle: built, unpacked and served on Node";
      live.push(nodeFile(stage, "dist/tests/artifacts/mcpb_bundle.js", limit("live")));
      return sum([
        ...prepared.flatMap((p) => "failed" in p ? [p.failed] : []),
        ...(HOST_TARGET ? [await compileScriptTests(HOST_TARGET)] : []),
      ]);
    }),
  );
}
/**
 * Live files that run alone after the others: the siege's figures (an honest client's success, every answer of
 * its attackers) are the server's under attack, not under other test files too; and the busy-machine test
 * makes its own busy machine (two CPU-bound programs per core), which the time bounds of the files beside it
 * would otherwise meet on top of each other (pool_test's find_mcs margin did, under Node).
 */
const ALONE = ["siege_test", "busy_machine_test"];
const alone = live.filter((file) => ALONE.some((part) => file.path.includes(part)));
if (live.length > 0) {
  results.push(
    await timed(
      `live suites (Deno webapp; Node, the binary, npx: e2e, adversarial, webapp), ${LIVE_CONCURRENCY} at once`,
      () =>
        runTitled(
          "live suites: Deno's webapp, Node's e2e, adversarial and webapp, the single executable's e2e and " +
            "adversarial, the npm package's e2e, the MCP Bundle",
          live.filter((file) => !alone.includes(file)),
          LIVE_CONCURRENCY,
        ),
    ),
  );
}
if (alone.length > 0) {
  results.push(
    await timed(
      "the siege and the busy machine, alone",
      () => runTitled("live suites that run alone: the siege, the busy machine", alone),
    ),
  );
}

rmSync(reports, { recursive: true, force: true });
const total = sum(results);
console.log(`\nTime per stage:\n${timings.join("\n")}`);
console.log(verdictLines(total).join("\n"));
process.exitCode = total.failed === 0 ? 0 : 1;
