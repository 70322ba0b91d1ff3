/**
 * The MCP Bundle as a user gets it: `deno task bundle` builds `chem-mcp-<version>.mcpb`, `mcpb unpack` unpacks
 * it into an empty temporary folder, `mcpb validate` accepts its manifest, and the server is started exactly as
 * the manifest's `mcp_config` says once `@anthropic-ai/mcpb` (the library hosts use) has substituted its
 * placeholders, with `node` from PATH (Node 20 here, as the oldest Node the package supports) and the working
 * directory outside the bundle and this clone. A client then does what Claude Desktop does: the `initialize`
 * handshake, `tools/list` (20 tools) and one `tools/call`.
 *
 * Builds once (about 15 s), so it is not a `*_test.ts` file run by both suites: scripts/test.ts runs it with
 * `node --test` in its artefact stage.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb/node";
import { IS_DENO, LineClient, ROOT } from "../helpers/process.ts";
import { ALL_TOOLS, TOOLS } from "../../src/tools/registry.ts";

const DENO = IS_DENO ? process.execPath : realpathSync(join(ROOT, "node_modules/.bin/deno"));
const MCPB = join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

let work = "";
let unpacked = "";
let manifest: Parameters<typeof getMcpConfigForManifest>[0]["manifest"];

before(() => {
  work = mkdtempSync(join(tmpdir(), "chem-mcp-mcpb-"));
  const built = execFileSync(DENO, ["run", "-A", "scripts/bundle.ts", "--out-dir", join(work, "out")], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  assert.equal(built, join(work, "out", `chem-mcp-${VERSION}.mcpb`));
  unpacked = join(work, "extension");
  mkdirSync(unpacked);
  execFileSync("node", [MCPB, "unpack", built, unpacked], { stdio: ["ignore", "ignore", "inherit"] });
  manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as typeof manifest;
});

after(() => rmSync(work, { recursive: true, force: true }));

test("mcpb: the bundle holds the manifest, the icon, the package and its runtime dependencies only", () => {
  const top = readdirSync(unpacked).sort();
  for (const entry of ["dist", "icon.png", "manifest.json", "node_modules", "package.json"]) {
    assert.ok(top.includes(entry), `${entry} in ${top.join(", ")}`);
  }
  const modules = readdirSync(join(unpacked, "node_modules")).filter((m) => !m.startsWith("."));
  assert.deepEqual(modules.sort(), ["@rdkit", "@resvg", "@valibot", "valibot"]);
});

test("mcpb: `mcpb validate` accepts the unpacked manifest", () => {
  const out = execFileSync("node", [MCPB, "validate", join(unpacked, "manifest.json")], { encoding: "utf8" });
  assert.match(out, /Manifest schema validation passes/);
});

test("mcpb: started as mcp_config says, on Node 20, it lists the 20 tools and answers a call", async () => {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: unpacked,
    systemDirs: {
      HOME: tmpdir(),
      DATA: tmpdir(),
      DOCUMENTS: tmpdir(),
      DESKTOP: tmpdir(),
      DOWNLOADS: tmpdir(),
    },
    userConfig: {},
    pathSeparator: "/",
  });
  assert.ok(config, "the manifest has an mcp_config");
  assert.equal(config.command, "node");
  const nodeVersion = execFileSync(config.command, ["--version"], { encoding: "utf8" }).trim();
  assert.match(nodeVersion, /^v20\./, "the host's Node here is the oldest the package supports");
  const elsewhere = mkdtempSync(join(tmpdir(), "chem-mcp-host-cwd-"));
  const child = spawn(config.command, config.args ?? [], {
    cwd: elsewhere,
    env: { PATH: process.env.PATH ?? "", ...config.env },
    stdio: "pipe",
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const client = new LineClient(child);
  try {
    const init = await client.request({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "host", version: "1" } },
    }, 60_000);
    assert.equal((init.result as { serverInfo: { version: string } }).serverInfo.version, VERSION, stderr);
    client.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const list = await client.request({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const tools = (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    // The manifest names every tool the bundle can serve; with no user_config.tools it lists the twenty.
    assert.deepEqual(tools, TOOLS.map((t) => t.name));
    const offered = (manifest.tools ?? []).map((t) => t.name);
    assert.deepEqual(offered, ALL_TOOLS.map((t) => t.name));
    assert.equal(tools.length, 20);
    const call = await client.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "canonical_smiles", arguments: { smiles: "OCC" } },
    });
    const text = (call.result as { content: { text: string }[] }).content[0]!.text;
    assert.deepEqual(JSON.parse(text), { smiles: "OCC", canonical_smiles: "CCO" });
    assert.deepEqual(client.garbage, []);
    assert.equal(await client.close(), 0);
  } finally {
    child.kill();
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
