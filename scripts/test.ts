/**
 * Runs every check and test under both runtimes and closes with the verdict (scripts/test_report.ts): what was
 * skipped and why, what failed by name, then `N passed, N failed` (`, N skipped` appended when something was).
 *
 *   1. static checks: deno fmt --check, deno lint, deno check, deno publish --dry-run, tsc and the esbuild
 *      bundles of the Node entries (the Node build)
 *   2. the whole suite under Deno (`deno test`) and the same suite under Node (`node --test` on the tsc output):
 *      first the in-process suites (unit, reference) of both runtimes side by side, one process each, then the
 *      suites that start servers and time their answers (e2e, adversarial, webapp), one runtime at a time
 *   4. the end-to-end suites (stdio, SDK clients, HTTP) against the shipped artefacts: the single-executable
 *      binary run from a directory with no node_modules, and the npm tarball installed into an empty project and
 *      started with `npx chem-mcp`; the MCP Bundle built, unpacked and served as its manifest says
 *      (tests/artifacts/mcpb_bundle.ts)
 *   5. every command of README.md and docs/*.md, run as written in a temporary copy of the repository
 *      (tests/docs/documented_commands.ts, once: the commands are the subject, not the runtime), beside the
 *      in-process suites of step 2
 *
 * Usage: deno run -A scripts/test.ts [--only deno|node|artifacts|docs]
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { childEnv, junitOutcome, type Outcome, single, sum, verdictLines } from "./test_report.ts";
import { NOTICES_ENV } from "../tests/helpers/skip.ts";

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const runs = (part: string) => only === undefined || only === part;

/**
 * Runs a command, echoing its output as it comes, or, with `echo` false (a command running beside another),
 * keeping it for the caller to print whole.
 */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  echo = true,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...childEnv(), [NOTICES_ENV]: notices, ...env },
    });
    let out = "";
    const tee = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      out += chunk.toString();
      if (echo) stream.write(chunk);
    };
    child.stdout.on("data", tee(process.stdout));
    child.stderr.on("data", tee(process.stderr));
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
    child.on("error", (error) => resolve({ code: 1, out: String(error) }));
  });
}

const deno = process.execPath;
/** The release target this machine can build with a stand-in base binary (the CI and build machines). */
const HOST_TARGET = process.platform === "linux" && process.arch === "x64"
  ? "x86_64-unknown-linux-gnu"
  : undefined;

async function check(name: string, cmd: string, args: string[]): Promise<Outcome> {
  console.log(`\n== ${name}: ${[cmd, ...args].join(" ")}`);
  const { code } = await run(cmd, args);
  console.log(`== ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}`);
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
/** Suites that start servers, workers and browsers and time their answers: one runtime at a time. */
const LIVE_SUITES = ["e2e", "adversarial", "webapp"];

/** Test directories in neither list: their tests would not run, so the run fails naming them. */
function unlistedSuites(): string[] {
  const listed = new Set([...IN_PROCESS_SUITES, ...LIVE_SUITES]);
  return readdirSync("tests", { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !listed.has(entry.name))
    .filter((entry) => readdirSync(join("tests", entry.name)).some((file) => file.endsWith("_test.ts")))
    .map((entry) => `tests/${entry.name}/`);
}

/** A suite run's outcome, with its output when it was kept rather than echoed. */
type SuiteRun = Promise<{ outcome: Outcome; out: string }>;

async function denoTests(title: string, paths: string[], echo = true): SuiteRun {
  if (echo) console.log(`\n== ${title}`);
  const report = reportPath();
  const { code, out } = await run(deno, ["test", "-A", `--junit-path=${report}`, ...paths], {}, echo);
  return { outcome: junitOutcome(title, report, code, out), out: `\n== ${title}\n${out}` };
}

async function nodeTests(
  title: string,
  paths: string[],
  env: Record<string, string> = {},
  echo = true,
): SuiteRun {
  if (echo) console.log(`\n== ${title}`);
  const report = reportPath();
  // spec for the reader (no TAP diagnostics), junit for the names in the verdict.
  const reporters = ["--test-reporter=spec", "--test-reporter-destination=stdout"];
  const junit = ["--test-reporter=junit", `--test-reporter-destination=${report}`];
  const { code, out } = await run(
    "node",
    ["--test", "--test-concurrency=1", ...reporters, ...junit, ...paths],
    env,
    echo,
  );
  return { outcome: junitOutcome(title, report, code), out: `\n== ${title}\n${out}` };
}

/** The suites' directories under `root` that exist and hold files. */
function suiteDirs(root: string, suites: string[]): string[] {
  return suites.map((suite) => `${root}${suite}/`).filter((dir) =>
    existsSync(dir) && readdirSync(dir).length > 0
  );
}

/**
 * The in-process suites of both runtimes and the documented commands (tests/docs/documented_commands.ts, which
 * works in a copy of the repository and gives its servers port 0) side by side: CPU-bound work that times
 * nothing tightly. Each run's output is printed whole when all are done, in that order.
 */
async function inProcessSuites(): Promise<Outcome> {
  console.log(
    "\n== unit and reference suites under Deno and Node, and the documented commands, side by side (each " +
      "one's output when all are done)",
  );
  const unlisted = unlistedSuites();
  if (unlisted.length > 0) console.log(`\n== test directories no stage runs: ${unlisted.join(", ")}`);
  const lanes: SuiteRun[] = [
    Promise.resolve({
      outcome: single(`test directories no stage runs: ${unlisted.join(", ")}`, unlisted.length === 0),
      out: "",
    }),
  ];
  if (runs("deno")) {
    lanes.push(denoTests("deno test (unit, reference)", suiteDirs("tests/", IN_PROCESS_SUITES), false));
  }
  if (runs("node")) {
    lanes.push(
      nodeTests(
        "node --test (dist/: unit, reference)",
        suiteDirs("dist/tests/", IN_PROCESS_SUITES),
        {},
        false,
      ),
    );
  }
  if (runs("docs")) {
    lanes.push(denoTests("documented commands", ["tests/docs/documented_commands.ts"], false));
  }
  const done = await Promise.all(lanes);
  for (const { out } of done) process.stdout.write(out);
  return sum(done.map(({ outcome }) => outcome));
}

/**
 * End-to-end suites that start the server as a process, so they can target any artefact; with `adversarial`,
 * the attack suites too. Those run under Deno, Node and the single executable, not again for the npm tarball,
 * which runs the same Node build as the Node suite.
 */
function e2ePaths(adversarial = true): string[] {
  return suiteDirs("dist/tests/", adversarial ? ["e2e", "adversarial"] : ["e2e"]);
}

async function seaBinaryTests(): Promise<Outcome> {
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
  if (built.failed) return built;
  return (await nodeTests("e2e against the single-executable binary (no node_modules)", e2ePaths(), {
    CHEM_MCP_SERVER_CMD: JSON.stringify([`${dir}/chem-mcp`]),
    CHEM_MCP_SERVER_CWD: dir,
  })).outcome;
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

async function npmPackageTests(): Promise<Outcome> {
  const dir = resolve(".cache/artifacts/npm");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log("\n== npm pack");
  const packed = await run("npm", ["pack", "--silent", "--pack-destination", dir]);
  const tarball = packed.out.trim().split("\n").pop()!;
  if (packed.code !== 0 || !tarball.endsWith(".tgz")) return single("npm pack", false);
  writeFileSync(`${dir}/package.json`, JSON.stringify({ name: "chem-mcp-install-test", private: true }));
  const installed = await check("npm install the tarball into an empty project", "npm", [
    "install",
    "--prefix",
    dir,
    "--no-audit",
    "--no-fund",
    `${dir}/${tarball}`,
  ]);
  if (installed.failed) return installed;
  return (await nodeTests("e2e against `npx chem-mcp` from the installed tarball", e2ePaths(false), {
    CHEM_MCP_SERVER_CMD: JSON.stringify(["npx", "--no-install", "chem-mcp"]),
    CHEM_MCP_SERVER_CWD: dir,
  })).outcome;
}

const results: Outcome[] = [];
/** How long each stage took, said at the end: CI has a time budget, and this shows where it goes. */
const timings: string[] = [];
async function timed(name: string, stage: () => Promise<Outcome>): Promise<Outcome> {
  const started = performance.now();
  const outcome = await stage();
  timings.push(`  ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${name}`);
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
if (runs("deno") || runs("node") || runs("docs")) {
  results.push(
    await timed("unit and reference (Deno, Node) and documented commands, side by side", inProcessSuites),
  );
}
if (runs("deno")) {
  results.push(
    await timed(
      "deno test: e2e, adversarial, webapp",
      async () =>
        (await denoTests("deno test (e2e, adversarial, webapp)", suiteDirs("tests/", LIVE_SUITES))).outcome,
    ),
  );
}
if (runs("node")) {
  results.push(
    await timed(
      "node --test: e2e, adversarial, webapp",
      async () =>
        (await nodeTests(
          "node --test (dist/: e2e, adversarial, webapp)",
          suiteDirs("dist/tests/", LIVE_SUITES),
        ))
          .outcome,
    ),
  );
}
if (runs("artifacts")) {
  results.push(await timed("single executable", seaBinaryTests));
  results.push(await timed("npm package", npmPackageTests));
  if (HOST_TARGET) results.push(await timed("deno compile script", () => compileScriptTests(HOST_TARGET)));
  results.push(
    await timed("MCP Bundle", async () =>
      (await nodeTests("MCP Bundle: built, unpacked and served on Node", [
        "dist/tests/artifacts/mcpb_bundle.js",
      ])).outcome),
  );
}

rmSync(reports, { recursive: true, force: true });
const total = sum(results);
console.log(`\nTime per stage:\n${timings.join("\n")}`);
console.log(verdictLines(total).join("\n"));
process.exitCode = total.failed === 0 ? 0 : 1;
