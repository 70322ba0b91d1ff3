/**
 * The official MCP Inspector (npm `@modelcontextprotocol/inspector-cli` 0.15.0, the last release that runs on
 * Node 20) as a client of the real server over stdio, in its command-line mode: `tools/list` and one
 * `tools/call`, exactly as the README shows them. The Inspector opens with the legacy `initialize` handshake, so
 * this is the legacy stdio dialect as a third-party client sees it. The server command is the one the other
 * end-to-end suites use, so the artefact stages run this against the single-executable binary and the npm
 * package too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { ROOT, serverCommand } from "../helpers/process.ts";
import { TOOLS } from "../../src/tools/registry.ts";

/** The Inspector's launcher, as `npx @modelcontextprotocol/inspector-cli@0.15.0` runs it. */
const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");

/** Runs the Inspector CLI against the server and returns what it printed on stdout, parsed. */
function inspect(...methodArgs: string[]): Promise<Record<string, unknown>> {
  const [command, args] = serverCommand();
  return new Promise((resolve, reject) => {
    execFile(
      "node",
      [INSPECTOR, "--cli", command, ...args, ...methodArgs],
      { cwd: process.env.CHEM_MCP_SERVER_CWD ?? ROOT, timeout: 60_000, maxBuffer: 16 * 2 ** 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`inspector failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

test("inspector cli: tools/list shows every tool with a description and an object input schema", async () => {
  const { tools } = await inspect("--method", "tools/list") as {
    tools: { name: string; description: string; inputSchema: { type: string } }[];
  };
  assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.ok(tool.description.length > 20, `${tool.name} has a description`);
  }
});

test("inspector cli: tools/call canonical_smiles answers CCO for OCC", async () => {
  const result = await inspect(
    "--method",
    "tools/call",
    "--tool-name",
    "canonical_smiles",
    "--tool-arg",
    "smiles=OCC",
  ) as { content: { type: string; text: string }[]; isError?: boolean };
  assert.notEqual(result.isError, true);
  assert.equal(result.content.length, 1);
  assert.deepEqual(JSON.parse(result.content[0]!.text), { smiles: "OCC", canonical_smiles: "CCO" });
});
