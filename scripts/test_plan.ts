/**
 * The plans of the test command, as data: which stages, what each runs, and what waits for what.
 *
 * - `quick` (`npm test`): the static checks and the Node build; the unit and reference suites under Deno; the
 *   end-to-end suites (stdio and HTTP) under Deno and against the Node build. No spinning programs.
 * - `all` (`npm run test:all`, CI): the same, plus Node's unit pass (the reference suites, one WebAssembly
 *   build's chemistry against RDKit's Python, run once), the JSR dry run, the documented commands (which build
 *   the `deno compile` script's output), Deno's server suites on a busy machine with Node's beside them, the
 *   artefacts (single executable, npm package) and their suites, the web app and browser suites, the
 *   adversarial suites on every target, the siege and the busy machine alone, and the MCP Bundle last.
 * - `files`: only the test files asked for, under every runtime they run on, with no static checks and no
 *   artefact builds (the Node build only when dist/ is stale).
 *
 * @module
 */
import { existsSync, readdirSync } from "node:fs";
import { commandStage, fileStage, type Stage } from "./test_stages.ts";
import type { TestFile } from "./test_files.ts";
import { BACKGROUND_LOAD_ENV, loadCount } from "./load.ts";
import { artefacts } from "./test_artifacts.ts";
import process from "node:process";

/** What a plan is made for. */
export interface PlanOptions {
  /** `--files`: only the test files whose path contains one of these. */
  readonly files?: readonly string[];
  /** `--file-limit`: one time limit for every test file, seconds. */
  readonly limitS?: number;
  /** Where artefacts are built (inside the run directory). */
  readonly artifacts: string;
}

/** Suites that run in the test process: no server, no browser, no wall-clock bound tighter than seconds. */
const IN_PROCESS = ["reference", "unit"];
const IN_PROCESS_STAGES = ["deno: unit, reference", "node: unit"] as const;
/**
 * In-process files of one runtime running at once: with two, the two cores stay busy while the end-to-end files
 * mostly wait on their servers.
 */
const IN_PROCESS_LANES = 2;
/** CPU-bound programs per core beside Deno's server suites in the full plan (the busy machine). */
const LOAD_PER_CORE = Number(process.env.CHEM_MCP_TEST_LOAD_PER_CORE ?? 2);
/** Live files that run alone, after the rest: the siege's figures and the busy machine are the server's own. */
const ALONE = ["siege_test", "busy_machine_test"];
/** Test files no `*_test` name would find: run by the full plan. */
const MCP_BUNDLE = "tests/artifacts/mcpb_bundle.ts";
const DOCUMENTED_COMMANDS = "tests/docs/documented_commands.ts";
/** Files that start a Chromium: the runner unpacks the bundled one once when any is selected. */
export const BROWSER_FILES = /_browser_test|bundled_chromium_test/;

/** Each kind's time limit per file, seconds: at least 2.5 times its longest file on a busy 2-core machine. */
const LIMIT_S = { inProcess: 600, live: 600, docs: 1800 } as const;

const deno = process.execPath;

/** The `*_test.ts` files of the suites under tests/, sorted, or their tsc output under dist/ for Node. */
export function suiteFiles(suites: readonly string[], runtime: "deno" | "node"): string[] {
  const root = runtime === "deno" ? "tests/" : "dist/tests/";
  const ending = runtime === "deno" ? "_test.ts" : "_test.js";
  return suites.flatMap((suite) => {
    const dir = `${root}${suite}`;
    if (!existsSync(dir)) return [];
    return (readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => file.endsWith(ending)).sort().map((file) => `${dir}/${file}`);
  });
}

/** Test directories under tests/ that no plan runs: the run fails naming them. */
export function unlistedSuites(): string[] {
  const listed = new Set([...IN_PROCESS, "e2e", "adversarial", "webapp"]);
  return readdirSync("tests", { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !listed.has(entry.name))
    .filter((entry) => readdirSync(`tests/${entry.name}`).some((file) => file.endsWith("_test.ts")))
    .map((entry) => `tests/${entry.name}/`);
}

/** Makes the file constructors of one plan: its filter and its limits. */
function fileKinds(options: PlanOptions) {
  const selected = (path: string) =>
    !options.files || options.files.some((part) => path.includes(part.replace(/\.(ts|js)$/, "")));
  const limit = (kind: keyof typeof LIMIT_S) => options.limitS ?? LIMIT_S[kind];
  const denoFile = (stage: string, path: string, kind: keyof typeof LIMIT_S, env = {}): TestFile => ({
    stage,
    runtime: "deno",
    path,
    limitS: limit(kind),
    env,
    cpuBound: kind === "inProcess",
    // No type check per file: the static checks' `deno check .` covers every file.
    command: (report) => [deno, ["test", "-A", "--no-check", `--junit-path=${report}`, path]],
  });
  const nodeFile = (stage: string, path: string, kind: keyof typeof LIMIT_S, env = {}): TestFile => ({
    stage,
    runtime: "node",
    path,
    limitS: limit(kind),
    env,
    cpuBound: kind === "inProcess",
    command: (report) => ["node", [
      "--test",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=junit",
      `--test-reporter-destination=${report}`,
      path,
    ]],
  });
  /** The files of `suites` for one runtime, selected, with or without the ones that run alone. */
  const suite = (
    stage: string,
    runtime: "deno" | "node",
    suites: readonly string[],
    kind: keyof typeof LIMIT_S,
    { alone = false, env = {} }: { alone?: boolean; env?: Readonly<Record<string, string>> } = {},
  ): TestFile[] =>
    suiteFiles(suites, runtime).filter(selected)
      .filter((path) => alone === ALONE.some((part) => path.includes(part)))
      .map((path) => (runtime === "deno" ? denoFile : nodeFile)(stage, path, kind, env));
  return { selected, denoFile, nodeFile, suite };
}

/**
 * Set for the documented-commands test by the full plan: the commands the static checks run on this tree in the
 * same run (a JSON list), so it need not run a task made only of them a second time.
 */
export const STATIC_CHECKS_ENV = "CHEM_MCP_STATIC_CHECKS";

const FMT = { label: "deno fmt --check", cmd: deno, args: ["fmt", "--check"] };
const LINT = { label: "deno lint", cmd: deno, args: ["lint"] };
const CHECK = { label: "deno check .", cmd: deno, args: ["check", "."] };
/** The package's checks (slow types, files, exports); its type check is `deno check .`'s, in the same stage. */
const PUBLISH = {
  label: "JSR package (deno publish --dry-run --no-check)",
  cmd: deno,
  args: ["publish", "--dry-run", "--allow-dirty", "--no-check"],
};

/** The Node build (tsc and the entry bundles); with `ifStale`, only when dist/ is older than a source. */
function nodeBuild(ifStale = false): Stage {
  return commandStage("Node build", [{
    label: `tsc and the Node entry bundles (scripts/node_build.ts${ifStale ? " --if-stale" : ""})`,
    cmd: deno,
    args: ["run", "-A", "scripts/node_build.ts", ...(ifStale ? ["--if-stale"] : [])],
  }]);
}

/** `npm test`: static checks, Deno's unit and reference suites, the e2e suites under Deno and Node. */
export function quickPlan(options: PlanOptions): Stage[] {
  const { suite } = fileKinds(options);
  return [
    nodeBuild(),
    commandStage("static checks", [FMT, LINT, CHECK]),
    fileStage(
      IN_PROCESS_STAGES[0],
      () => suite("deno (unit, reference)", "deno", IN_PROCESS, "inProcess"),
      IN_PROCESS_LANES,
    ),
    fileStage("deno: e2e", () => suite("deno (e2e)", "deno", ["e2e"], "live"), 1),
    fileStage("node: e2e", () => suite("node (dist/: e2e)", "node", ["e2e"], "live"), 1, {
      after: ["Node build"],
    }),
  ];
}

/** `npm run test:all`: everything. */
export function fullPlan(options: PlanOptions): Stage[] {
  const { suite, selected, denoFile, nodeFile } = fileKinds(options);
  const built = artefacts(
    options.artifacts,
    (stage, env, suites, alone) => suite(stage, "node", suites, "live", { env, alone }),
  );
  const loaded = "deno: e2e, adversarial, on a busy machine";
  const nodeServers = "node: e2e, adversarial, beside it";
  const live = "live: webapp and browsers (deno, node), the artefacts' suites";
  const background = { [BACKGROUND_LOAD_ENV]: String(loadCount(LOAD_PER_CORE)) };
  const staticChecks = [FMT, LINT, CHECK].map((c) => [c.cmd === deno ? "deno" : c.cmd, ...c.args].join(" "));
  return [
    nodeBuild(),
    commandStage("static checks", [FMT, LINT, CHECK, PUBLISH]),
    // Two lanes: the longest files, the reference suites', are Deno's alone.
    fileStage(
      IN_PROCESS_STAGES[0],
      () => suite("deno (unit, reference)", "deno", IN_PROCESS, "inProcess"),
      IN_PROCESS_LANES,
    ),
    // The reference suites compare the chemistry of one WebAssembly build with RDKit's Python; they run once,
    // under Deno. Node's pass is the unit suite, where its own I/O, workers and build meet the same code.
    fileStage(IN_PROCESS_STAGES[1], () => suite("node (dist/: unit)", "node", ["unit"], "inProcess"), 1, {
      after: ["Node build"],
    }),
    // Builds, servers and waits: CPU-bound most of its time. The tasks that only run the static checks above
    // are not run again on its copy of the same files (STATIC_CHECKS_ENV).
    fileStage("documented commands", () =>
      [DOCUMENTED_COMMANDS].filter(selected).map((path) => ({
        ...denoFile("documented commands", path, "docs", {
          [STATIC_CHECKS_ENV]: JSON.stringify(staticChecks),
        }),
        cpuBound: true,
      })), 1),
    // The in-process files, the documented commands, the builds and then the artefacts' suites are the busy
    // machine while they last; spinning programs (scripts/load.ts) make up the rest. Node's server suites run
    // beside it, so they meet a busy machine too.
    fileStage(loaded, () => suite(loaded, "deno", ["e2e", "adversarial"], "live", { env: background }), 1, {
      loadPerCore: LOAD_PER_CORE,
    }),
    fileStage(
      nodeServers,
      () => suite("node (dist/: e2e, adversarial)", "node", ["e2e", "adversarial"], "live"),
      1,
      {
        after: ["Node build"],
      },
    ),
    ...built.stages,
    // Once the in-process work is done, in its place: two lanes of the web app, browser and artefacts' suites.
    fileStage(
      live,
      () => [
        ...built.files(false),
        ...suite("deno (webapp)", "deno", ["webapp"], "live"),
        ...suite("node (dist/: webapp)", "node", ["webapp"], "live"),
      ],
      2,
      {
        cpuBound: true,
        after: [
          "Node build",
          ...IN_PROCESS_STAGES,
          "documented commands",
          ...built.stages.map((s) => s.name),
        ],
      },
    ),
    fileStage(
      "alone: the siege, the busy machine",
      () => [
        ...suite("node (dist/: adversarial)", "node", ["adversarial"], "live", { alone: true }),
        ...built.files(true),
      ],
      1,
      { after: [live, loaded, nodeServers] },
    ),
    // Last: scripts/bundle.ts packs the npm package, whose prepack rebuilds dist/ when a source changed since
    // the run's Node build, which would pull it from under any file still running from it.
    fileStage(
      "MCP Bundle: built, unpacked and served",
      () =>
        [MCP_BUNDLE].filter(selected).map((path) =>
          nodeFile("MCP Bundle", path.replace(/^tests\/(.*)\.ts$/, "dist/tests/$1.js"), "live")
        ),
      1,
      { after: ["alone: the siege, the busy machine"] },
    ),
  ];
}

/**
 * `--files a,b`: the test files whose path contains one of the parts, under each runtime they run on, with no
 * static checks and no artefact builds; the Node build only when dist/ is older than a source.
 */
export function filesPlan(options: PlanOptions): Stage[] {
  const { suite, selected, denoFile, nodeFile } = fileKinds(options);
  const suites = [...IN_PROCESS, "e2e", "adversarial", "webapp"];
  const listed = (runtime: "deno" | "node") => [
    ...suite(runtime, runtime, suites, "live"),
    ...suite(runtime, runtime, ["adversarial"], "live", { alone: true }),
  ];
  const deno = [
    ...listed("deno"),
    ...[DOCUMENTED_COMMANDS].filter(selected).map((path) => denoFile("documented commands", path, "docs")),
  ];
  // dist/ may not exist yet: whether Node runs anything is read from the sources, its files once it is built.
  const node = () => [
    ...listed("node"),
    ...[MCP_BUNDLE].filter(selected).map((path) =>
      nodeFile("MCP Bundle", path.replace(/^tests\/(.*)\.ts$/, "dist/tests/$1.js"), "live")
    ),
  ];
  const nodeRuns = suiteFiles(suites, "deno").some(selected) || selected(MCP_BUNDLE);
  return [
    ...(nodeRuns ? [nodeBuild(true)] : []),
    fileStage("deno: the files asked for", () => deno, 1),
    ...(nodeRuns ? [fileStage("node: the files asked for", node, 1, { after: ["Node build"] })] : []),
  ];
}
