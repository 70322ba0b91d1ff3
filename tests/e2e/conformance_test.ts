/**
 * The official MCP conformance suite, pinned version, `server --requirements 2026-07-28` against our Streamable
 * HTTP endpoint, with tests/conformance/expected-failures.yml naming every check that cannot apply to a
 * tools-only, stateless server (docs/conformance.md). A new failure or warning fails, and so does a baseline
 * entry that starts passing; both are checked here over every scenario the run reports, scored or not.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, startHttpServer } from "../helpers/http.ts";
import {
  baselineEntries,
  type Check,
  installedSuiteVersion,
  runSuite,
  SUITE_VERSION,
  type SuiteRun,
  unmet,
} from "../helpers/conformance.ts";

let server: HttpServer;
let run: SuiteRun;
before(async () => {
  server = await startHttpServer();
  run = await runSuite(server.port);
});
after(async () => await server.stop());

function checksOf(scenario: string): Check[] {
  return run.checks.filter((c) => c.scenario === scenario);
}

test(`conformance: the installed suite is ${SUITE_VERSION}, the version the baseline was made with`, () => {
  assert.equal(installedSuiteVersion(), SUITE_VERSION);
});

test("conformance: the suite passes the run with our baseline (exit 0, no stale entry)", () => {
  assert.equal(run.code, 0, run.output.split("\n").slice(-40).join("\n"));
  assert.match(run.output, /Baseline check passed: all failures are expected\./);
});

test("conformance: every failing or warning check, scored or not, is named in the baseline, and every entry fails", () => {
  const baseline = baselineEntries();
  const failing = unmet(run.checks);
  assert.deepEqual(failing.filter((key) => !baseline.includes(key)), [], "failures not in the baseline");
  assert.deepEqual(baseline.filter((key) => !failing.includes(key)), [], "baseline entries that now pass");
});

test("conformance: what applies passes: tools/list, caching hints, discovery, _meta and header validation", () => {
  const passed = (scenario: string) =>
    checksOf(scenario).filter((c) => c.status === "SUCCESS").map((c) => c.id);
  assert.ok(checksOf("tools-list").length > 0 && checksOf("tools-list").every((c) => c.status === "SUCCESS"));
  assert.deepEqual(checksOf("dns-rebinding-protection").map((c) => c.status), ["SUCCESS", "SUCCESS"]);
  for (
    const id of [
      "sep-2575-server-implements-discover",
      "sep-2575-request-meta-invalid-missing-protocol-version",
      "sep-2575-http-server-unsupported-version-400",
      "sep-2575-http-server-header-mismatch-400",
      "sep-2575-http-server-method-not-found-404-initialize",
    ]
  ) {
    assert.ok(passed("server-stateless").includes(id), id);
  }
  assert.ok(passed("caching").includes("sep-2549-tools-list-caching-hints"));
  assert.ok(passed("http-header-validation").includes("sep-2243-header-name-case-insensitive"));
  // Every message we sent is valid against the specification's schema, in every scenario.
  assert.deepEqual(run.checks.filter((c) => c.id === "wire-schema-valid" && c.status !== "SUCCESS"), []);
  const successes = run.checks.filter((c) => c.status === "SUCCESS").length;
  assert.ok(successes >= 95, `${successes} checks passed (95 when the baseline was made)`);
});

test("conformance: the whitespace Mcp-Name check fails on the empty arguments (-32602), not on the header", () => {
  const check = checksOf("http-header-validation").find((c) =>
    c.id === "sep-2243-server-accepts-whitespace-header-value"
  );
  const body = check?.details?.responseBody as { error?: { code: number; message: string } } | undefined;
  assert.equal(check?.details?.headerValue, "  name_to_smiles  ");
  assert.equal(body?.error?.code, -32602);
  assert.match(body?.error?.message ?? "", /missing required argument 'name'/);
});
