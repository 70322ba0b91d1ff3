/**
 * The shipped artefacts, built inside the run directory for the full plan (scripts/test_plan.ts): the
 * single-executable binary (its suites run from a directory with no node_modules), the npm tarball installed into
 * an empty project (its suites run `npx chem-mcp`). Each build is a stage; the suites against what it built join
 * the live stages once it passed. `deno compile` through its release script (with the Deno executable standing
 * in for denort) is the documented-commands test's, which runs `deno task compile` so.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { type Outcome, single, sum } from "./test_report.ts";
import { runCommand, type Stage, type StageContext } from "./test_stages.ts";
import type { TestFile } from "./test_files.ts";

/** The suites of a runtime's e2e (and adversarial) directories against a server command, from the plan. */
export type ArtefactSuites = (
  stage: string,
  env: Record<string, string>,
  suites: readonly string[],
  alone: boolean,
) => TestFile[];

const deno = process.execPath;
/**
 * The pool's timing suites, left out against the npm package: its code is the Node build's, byte for byte, and
 * they run against that; what the package adds (its `bin`, npx's launcher, its own node_modules) the other e2e
 * suites meet.
 */
const SAME_AS_NODE = /\/(cancel|isolation|list)_test\.js$/;

/** Runs one build step, saying how it went in a line; its outcome and output. */
async function step(
  context: StageContext,
  label: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  expected = 0,
): Promise<{ outcome: Outcome; out: string; code: number }> {
  const started = performance.now();
  const { code, out } = await runCommand({ label, cmd, args, env }, context.env);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = code === expected;
  if (!ok || context.verbose) process.stdout.write(out);
  console.log(`${(ok ? "ok" : "FAILED").padEnd(9)} ${seconds.padStart(6)} s  run  ${label} (exit ${code})`);
  return { outcome: single(`${label} (exit ${code})`, ok), out, code };
}

/**
 * The artefact builds of the full plan and, once built, the suites against them: the binary's e2e and
 * adversarial suites, the npm package's e2e suites (its code is the Node build's, whose adversarial suites run).
 */
export function artefacts(dir: string, suites: ArtefactSuites): {
  stages: Stage[];
  /** The suites against what was built: those that run alone, or the others. */
  files: (alone: boolean) => TestFile[];
} {
  const sea = join(dir, "sea");
  const npm = join(dir, "npm");
  const built = { binary: false, npm: false };
  const stages: Stage[] = [{
    name: "single executable",
    cpuBound: true,
    run: async (context) => {
      mkdirSync(sea, { recursive: true });
      const { outcome } = await step(
        context,
        "build the single-executable binary (scripts/build_sea.ts)",
        deno,
        [
          "run",
          "-A",
          "scripts/build_sea.ts",
          "--out",
          join(sea, "chem-mcp"),
        ],
      );
      built.binary = outcome.failed === 0;
      return outcome;
    },
  }, {
    name: "npm package",
    cpuBound: true,
    after: ["Node build"],
    run: async (context) => {
      mkdirSync(npm, { recursive: true });
      // This run's Node build is what prepack would make; packed as it stands, not rebuilt under the suites
      // that run from it.
      const pack = ["pack", "--silent", "--ignore-scripts", "--pack-destination", npm];
      const packed = await step(context, "npm pack --ignore-scripts (after the Node build)", "npm", pack);
      const tarball = packed.out.trim().split("\n").pop() ?? "";
      if (packed.code !== 0 || !tarball.endsWith(".tgz")) return single("npm pack", false);
      writeFileSync(
        join(npm, "package.json"),
        JSON.stringify({ name: "chem-mcp-install-test", private: true }),
      );
      const installed = await step(context, "npm install the tarball into an empty project", "npm", [
        "install",
        "--prefix",
        npm,
        "--no-audit",
        "--no-fund",
        join(npm, tarball),
      ]);
      built.npm = installed.outcome.failed === 0;
      return sum([packed.outcome, installed.outcome]);
    },
  }];
  const files = (alone: boolean) => [
    ...(built.binary
      ? suites(
        "e2e against the single-executable binary (no node_modules)",
        {
          CHEM_MCP_SERVER_CMD: JSON.stringify([join(sea, "chem-mcp")]),
          CHEM_MCP_SERVER_CWD: sea,
        },
        ["e2e", "adversarial"],
        alone,
      )
      : []),
    ...(built.npm
      ? suites(
        "e2e against `npx chem-mcp` from the installed tarball",
        {
          CHEM_MCP_SERVER_CMD: JSON.stringify(["npx", "--no-install", "chem-mcp"]),
          CHEM_MCP_SERVER_CWD: npm,
        },
        ["e2e"],
        alone,
      ).filter((file) => !SAME_AS_NODE.test(file.path))
      : []),
  ];
  return { stages, files };
}
