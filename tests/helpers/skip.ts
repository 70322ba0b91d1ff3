/**
 * Skipped tests that say why in the test command's verdict, and notices said once per run of it.
 *
 * The verdict (scripts/test_report.ts) reads the runners' JUnit reports. Node records a skip's reason there; Deno
 * writes a bare `<skipped/>`, so the reason has to travel in the test's name. And the whole suite runs under both
 * runtimes, so a notice printed by a test file would otherwise appear once per runtime.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/**
 * Set by scripts/test.ts for everything it runs: a directory where each notice leaves a file named after it once
 * it has been printed.
 */
export const NOTICES_ENV = "CHEM_MCP_NOTICES_DIR";

/** The name a test is registered under: with ` (not run: <reason>)` when it is skipped. */
export function skipName(name: string, skip: string | false): string {
  return skip ? `${name} (not run: ${skip})` : name;
}

/**
 * Prints `line` on stderr unless another test process of the same run of scripts/test.ts printed the notice `key`
 * already; outside that script it is always printed.
 */
export function sayOnce(key: string, line: string): void {
  const dir = process.env[NOTICES_ENV];
  if (dir) {
    try {
      // "wx" fails when the file exists: whoever created it has said it.
      writeFileSync(join(dir, key), `${line}\n`, { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    }
  }
  console.error(line);
}
