/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) run against a chem-mcp Streamable HTTP
 * endpoint with the 2026-07-28 requirement set and our baseline of checks that cannot apply
 * (tests/conformance/expected-failures.yml). Shared by tests/e2e/conformance_test.ts and scripts/conformance.ts.
 *
 * The suite needs Node 22 (`fs.globSync`); it runs under Deno, which any machine with our dev dependencies has.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parse } from "yaml";
import { IS_DENO, owned, ROOT } from "./process.ts";

/** The suite version the baseline was made with (an exact pin in package.json). */
export const SUITE_VERSION = "0.2.0-alpha.12";
/** The specification revision whose required scenarios are run. */
export const REQUIREMENTS = "2026-07-28";
/** The expected failures, one `<scenario>:<check-id>` per entry, each group with its reason. */
export const BASELINE_FILE = join(ROOT, "tests/conformance/expected-failures.yml");

const SUITE_DIR = join(ROOT, "node_modules/@modelcontextprotocol/conformance");
const DENO = IS_DENO ? process.execPath : join(ROOT, "node_modules/.bin/deno");

/** One check the suite reported. */
export interface Check {
  readonly scenario: string;
  readonly id: string;
  /** SUCCESS, FAILURE, WARNING, SKIPPED or INFO. */
  readonly status: string;
  readonly errorMessage?: string;
  readonly details?: Record<string, unknown>;
}

/** The outcome of one run of the suite. */
export interface SuiteRun {
  /** The suite's exit status: 0 when every failure is in the baseline and no entry is stale. */
  readonly code: number | null;
  /** What the suite printed, colour codes removed. */
  readonly output: string;
  readonly checks: readonly Check[];
}

/** The installed suite's version, to catch an install that does not match the pin. */
export function installedSuiteVersion(): string {
  return (JSON.parse(readFileSync(join(SUITE_DIR, "package.json"), "utf8")) as { version: string }).version;
}

/** The baseline's entries, `<scenario>:<check-id>`. */
export function baselineEntries(): string[] {
  return (parse(readFileSync(BASELINE_FILE, "utf8")) as { server: string[] }).server;
}

/** Every check of a results directory (`server-<scenario>-<timestamp>/checks.json` per scenario). */
function readChecks(dir: string): Check[] {
  return readdirSync(dir).flatMap((entry) => {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) return [];
    const checks = JSON.parse(readFileSync(join(dir, entry, "checks.json"), "utf8")) as Omit<
      Check,
      "scenario"
    >[];
    return checks.map((check) => ({ ...check, scenario }));
  });
}

/** Runs the suite's `server` command against `http://localhost:<port>/mcp` and collects every check. */
export function runSuite(port: number, timeoutMs = 300_000): Promise<SuiteRun> {
  const results = mkdtempSync(join(tmpdir(), "chem-mcp-conformance-"));
  const args = [
    "run",
    "-A",
    "--no-lock",
    "--node-modules-dir=manual",
    join(SUITE_DIR, "dist/index.js"),
    "server",
    "--url",
    `http://localhost:${port}/mcp`,
    "--requirements",
    REQUIREMENTS,
    "--expected-failures",
    BASELINE_FILE,
    "--output-dir",
    results,
  ];
  return new Promise((resolve) => {
    const child = owned(spawn(DENO, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      timeout: timeoutMs,
    }));
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("close", (code) => {
      const checks = readChecks(results);
      rmSync(results, { recursive: true, force: true });
      // deno-lint-ignore no-control-regex
      resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, ""), checks });
    });
  });
}

/** `<scenario>:<check-id>` of every check that failed or warned (the suite's baseline counts both). */
export function unmet(checks: readonly Check[]): string[] {
  const keys = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")
    .map((c) => `${c.scenario}:${c.id}`);
  return [...new Set(keys)];
}
