/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against our Streamable HTTP
 * endpoint, scenario by scenario, and prints one line per check. The suite drives the 2025-era handshake
 * (`initialize` without the 2026-07-28 headers) that our HTTP transport does not serve by specification, so only
 * transport-level checks can pass; docs/conformance.md records the outcome.
 *
 * The suite needs Node ≥ 22; it runs here under Deno. Usage: deno run -A scripts/conformance.ts
 */
import { spawnSync } from "node:child_process";
import process from "node:process";
import { startHttpServer } from "../tests/helpers/http.ts";

const server = await startHttpServer();
const port = server.port;
const suite = [
  "run",
  "-A",
  "--no-lock",
  "--node-modules-dir=manual",
  "node_modules/@modelcontextprotocol/conformance/dist/index.js",
];
const list = spawnSync(process.execPath, [...suite, "list", "--server"], { encoding: "utf8" }).stdout;
const scenarios = [...list.matchAll(/^\s*[-•*]?\s*([a-z0-9-]+)\s*(?:\[|$)/gm)].map((m) => m[1]!).filter((s) =>
  s.includes("-") || s === "ping"
);
for (const scenario of scenarios) {
  const run = spawnSync(process.execPath, [
    ...suite,
    "server",
    "--url",
    `http://localhost:${port}/mcp`,
    "--scenario",
    scenario,
  ], {
    encoding: "utf8",
  });
  // deno-lint-ignore no-control-regex
  const text = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "");
  const summary = /Passed: (\d+)\/(\d+)/.exec(text);
  const checks = [...text.matchAll(/\[([^\]]+?)\s*\] (SUCCESS|FAILURE|WARNING) (.*)/g)].map((m) =>
    `${m[2]} ${m[1]!.trim()}: ${m[3]}`
  );
  console.log(`${scenario}: ${summary ? `${summary[1]}/${summary[2]} passed` : "no result"}`);
  for (const check of checks) console.log(`    ${check}`);
}
await server.stop();
