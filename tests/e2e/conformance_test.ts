/**
 * The official MCP conformance suite against our HTTP endpoint, for the scenario that addresses the transport
 * itself. The suite's other server scenarios speak the 2025-era handshake over HTTP, which our spec does not
 * serve there (docs/conformance.md); this test pins both facts so a change in either shows up.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { type HttpServer, startHttpServer } from "../helpers/http.ts";
import { IS_DENO, ROOT } from "../helpers/process.ts";

// The suite needs Node ≥ 22; Deno runs it on any machine that has our dev dependencies.
const DENO = IS_DENO ? process.execPath : join(ROOT, "node_modules/.bin/deno");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

let server: HttpServer;
before(async () => {
  server = await startHttpServer();
});
after(async () => await server.stop());

function scenario(name: string): string {
  const run = spawnSync(
    DENO,
    [
      "run",
      "-A",
      "--no-lock",
      "--node-modules-dir=manual",
      SUITE,
      "server",
      "--url",
      `http://localhost:${server.port}/mcp`,
      "--scenario",
      name,
    ],
    { encoding: "utf8", cwd: ROOT, timeout: 120_000 },
  );
  // deno-lint-ignore no-control-regex
  return (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "");
}

test("conformance dns-rebinding-protection: non-localhost Host/Origin rejected", () => {
  const out = scenario("dns-rebinding-protection");
  assert.match(out, /localhost-host-rebinding-rejected\s*\] SUCCESS/);
  // Its second check posts a 2025-era `initialize` without MCP-Protocol-Version: refused by design (-32020).
  assert.match(out, /localhost-host-valid-accepted\s*\] FAILURE/);
});

test("conformance server-initialize: the 2025-era HTTP handshake is refused as the spec says", () => {
  const out = scenario("server-initialize");
  assert.match(out, /-32020/);
  assert.match(out, /Passed: 0\/1/);
});
