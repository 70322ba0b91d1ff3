/**
 * Runs the official MCP conformance suite (pinned version, `server --requirements 2026-07-28`) against our
 * Streamable HTTP endpoint with the baseline tests/conformance/expected-failures.yml, and prints one line per
 * scenario, then the figures docs/conformance.md quotes. Exit status: the suite's (0 when every failure is
 * expected and no baseline entry is stale). tests/e2e/conformance_test.ts runs the same in the test command.
 *
 * Usage: deno run -A scripts/conformance.ts
 */
import process from "node:process";
import { startHttpServer } from "../tests/helpers/http.ts";
import {
  baselineEntries,
  REQUIREMENTS,
  runSuite,
  SUITE_VERSION,
  unmet,
} from "../tests/helpers/conformance.ts";

const server = await startHttpServer();
const run = await runSuite(server.port);
await server.stop();

const scenarios = [...new Set(run.checks.map((c) => c.scenario))];
for (const scenario of scenarios) {
  const checks = run.checks.filter((c) => c.scenario === scenario);
  const count = (status: string) => checks.filter((c) => c.status === status).length;
  const expected = checks.filter((c) => baselineEntries().includes(`${scenario}:${c.id}`)).length;
  console.log(
    `${scenario}: ${count("SUCCESS")} passed, ${count("FAILURE")} failed, ${count("WARNING")} warned` +
      (expected ? ` (${expected} expected)` : ""),
  );
}
const count = (status: string) => run.checks.filter((c) => c.status === status).length;
const unexpected = unmet(run.checks).filter((key) => !baselineEntries().includes(key));
console.log(
  `\n@modelcontextprotocol/conformance ${SUITE_VERSION}, requirements ${REQUIREMENTS}: ${scenarios.length} ` +
    `scenarios, ${count("SUCCESS")} checks passed, ${count("FAILURE")} failed, ${count("WARNING")} warned, ` +
    `${
      count("SKIPPED")
    } skipped; ${baselineEntries().length} expected (baseline), ${unexpected.length} unexpected` +
    (unexpected.length ? `: ${unexpected.join(", ")}` : ""),
);
if (run.code !== 0) console.log(run.output.split("\n").slice(-30).join("\n"));
process.exitCode = run.code ?? 1;
