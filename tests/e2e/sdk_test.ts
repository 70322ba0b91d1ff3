/**
 * The official MCP TypeScript SDK clients against the real server process over stdio: the v2 client in the
 * modern dialect (pinned and auto-negotiated) and the v1 client in the legacy dialect. Each lists the tools and
 * calls every one; every result is checked against the tool's outputSchema with an independent validator.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import type { StdioClientTransport as StdioV1Type } from "@modelcontextprotocol/sdk/client/stdio";
// The v1 package maps ".js" subpaths to types through a wildcard Deno cannot follow; the import itself is fine.
// @ts-ignore: types come from the extensionless import above
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";

const StdioClientTransportV1 = StdioV1 as unknown as typeof StdioV1Type;
import { serverCommand } from "../helpers/process.ts";
import { exampleFor } from "../helpers/examples.ts";
import { startLookupStub } from "../helpers/lookup_stub.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { TOOLS } from "../../src/tools/registry.ts";
import { toolRegistry } from "../../src/create_server.ts";
import { DRUGS50 } from "../data/drugs50.ts";

process.env.CHEM_MCP_NAME_LOOKUP_URL = await startLookupStub();
const [command, args] = serverCommand();
const cwd = process.env.CHEM_MCP_SERVER_CWD;
const env = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
);

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

function checkListing(tools: ListedTool[], withOutputSchema: boolean): Map<string, ListedTool> {
  assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
  for (const tool of tools) {
    assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a usable description`);
    assert.equal(tool.inputSchema.type, "object");
    assert.equal(tool.outputSchema?.type, withOutputSchema ? "object" : undefined);
  }
  return new Map(tools.map((t) => [t.name, t]));
}

const published = new Map(toolRegistry().descriptors.map((d) => [d.name, d]));

test("SDK v2 client, pinned 2026-07-28: discover, list and call every tool", async () => {
  const client = new Client({ name: "chem-mcp-e2e", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new StdioClientTransport({ command, args, env, ...(cwd ? { cwd } : {}) }));
  try {
    assert.equal(client.getProtocolEra(), "modern");
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    const { tools } = await client.listTools();
    const byName = checkListing(tools as ListedTool[], true);
    for (const [name, tool] of byName) {
      const result = await client.callTool({ name, arguments: exampleFor(name) });
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      assert.deepEqual(schemaErrors(tool.outputSchema!, result.structuredContent), [], name);
      const text = (result.content as { type: string; text: string }[])[0]!;
      assert.equal(text.type, "text");
      assert.deepEqual(
        JSON.parse(text.text),
        result.structuredContent,
        `${name}: text mirrors structuredContent`,
      );
    }
    const bad = await client.callTool({ name: "parse_smiles", arguments: { smiles: "C1CC" } });
    assert.equal(bad.isError, true);
    assert.equal((bad.structuredContent as { error: { code: string } }).error.code, "INVALID_SMILES");
  } finally {
    await client.close();
  }
});

test("SDK v2 client, auto negotiation: picks the modern era", async () => {
  const client = new Client({ name: "chem-mcp-e2e", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto", probe: { timeoutMs: 20_000 } },
  } as never);
  await client.connect(new StdioClientTransport({ command, args, env, ...(cwd ? { cwd } : {}) }));
  try {
    assert.equal(client.getProtocolEra(), "modern");
    const r = await client.callTool({ name: "canonical_smiles", arguments: { smiles: "C(O)C" } });
    assert.equal((r.structuredContent as { canonical_smiles: string }).canonical_smiles, "CCO");
  } finally {
    await client.close();
  }
});

test("SDK v2 client, legacy mode: the 2024-11-05 handshake works too", async () => {
  const client = new Client({ name: "chem-mcp-e2e", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, env, ...(cwd ? { cwd } : {}) }));
  try {
    assert.equal(client.getProtocolEra(), "legacy");
    assert.equal(client.getNegotiatedProtocolVersion(), "2024-11-05");
    const { tools } = await client.listTools();
    checkListing(tools as ListedTool[], false);
    const r = await client.callTool({ name: "canonical_smiles", arguments: { smiles: "C(O)C" } });
    assert.equal(JSON.parse((r.content as { text: string }[])[0]!.text).canonical_smiles, "CCO");
  } finally {
    await client.close();
  }
});

test("SDK v1 client (legacy dialect): initialize, list and call every tool", async () => {
  const client = new ClientV1({ name: "chem-mcp-e2e-v1", version: "1.0.0" });
  await client.connect(new StdioClientTransportV1({ command, args, env, ...(cwd ? { cwd } : {}) }));
  try {
    assert.equal(client.getServerVersion()?.name, "chem-mcp");
    assert.equal(client.getServerVersion()?.version, "1.1.0");
    const { tools } = await client.listTools();
    const byName = checkListing(tools as ListedTool[], false);
    for (const name of byName.keys()) {
      const result = await client.callTool({ name, arguments: exampleFor(name) });
      const content = result.content as { type: string; text: string }[];
      assert.equal(content.length, 1, name);
      assert.equal(content[0]!.type, "text");
      const outputSchema = published.get(name)!.outputSchema;
      assert.deepEqual(schemaErrors(outputSchema, JSON.parse(content[0]!.text)), [], name);
    }
    await assert.rejects(
      client.callTool({ name: "parse_smiles", arguments: { smiles: "C1CC" } }),
      (e: { code?: number }) => e.code === -32000,
    );
  } finally {
    await client.close();
  }
});

test("SDK v2 client: batch through the worker pool, in input order, with a failed item in its place", async () => {
  const client = new Client({ name: "chem-mcp-e2e", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(
    new StdioClientTransport({
      command,
      args: [...args, "--tools", "all"],
      env: { ...env, CHEM_MCP_WORKERS: "2" },
      ...(cwd ? { cwd } : {}),
    }),
  );
  try {
    const { tools } = await client.listTools();
    const schemas = new Map(tools.map((t) => [t.name, t.outputSchema as Record<string, unknown>]));
    const drugs = DRUGS50.slice(0, 30);
    const list = [...drugs.map((d) => d.smiles), "C1CC"];
    const result = await client.callTool({
      name: "batch",
      arguments: { tool: "calc_properties", smiles_list: list },
    });
    assert.notEqual(result.isError, true);
    assert.deepEqual(schemaErrors(schemas.get("batch")!, result.structuredContent), []);
    const out = result.structuredContent as { summary: string; columns: string[]; results: unknown[] };
    assert.equal(
      out.summary,
      "31 molecules: 30 answered, 1 failed (index 30). Null in every row, left out: parent_smiles.",
    );
    const mw = out.columns.indexOf("molecular_weight");
    for (const [i, drug] of drugs.entries()) {
      assert.ok(Math.abs((out.results[i] as number[])[mw]! - drug.mw) < 0.01, drug.name);
    }
    assert.equal((out.results[30] as { error: { code: string } }).error.code, "INVALID_SMILES");
    const search = await client.callTool({
      name: "similarity_search",
      arguments: { query: drugs[0]!.smiles, library: drugs.map((d) => d.smiles), top_k: 3 },
    });
    assert.deepEqual(schemaErrors(schemas.get("similarity_search")!, search.structuredContent), []);
    const hits = (search.structuredContent as { hits: { index: number; score: number }[] }).hits;
    assert.deepEqual(hits[0], { index: 0, smiles: drugs[0]!.smiles, score: 1 });
    assert.equal(hits.length, 3);
    assert.ok(hits[1]!.score >= hits[2]!.score);
  } finally {
    await client.close();
  }
});
