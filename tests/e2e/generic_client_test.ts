/**
 * A generic client: it knows nothing of chem-mcp's tools. It reads `tools/list` from a server started with
 * `--tools all` and builds every call from the tool's inputSchema alone (required properties, their types,
 * enums, consts, defaults and examples; a string that must be a molecule says so by its `examples`), then
 * expects a result, not an error, from every tool. Runs against whatever tests/helpers/process.ts starts: the
 * source under Deno, the Node build, the single executable or the npm package.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineClient, startServer } from "../helpers/process.ts";
import { modern } from "../helpers/protocol.ts";
import { startLookupStub } from "../helpers/lookup_stub.ts";

/** The part of JSON Schema a generic client reads. */
interface Schema {
  type?: string | string[];
  examples?: unknown[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  items?: Schema;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
}

/**
 * A value `schema` accepts, from what it says: an example, a const, the first enum value, the default, the first
 * of its alternatives, or its type.
 */
function valueOf(schema: Schema): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  // One of several shapes (a format or a list of them): the first is as good as any.
  if (schema.anyOf?.length) return valueOf(schema.anyOf[0]!);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    case "number":
    case "integer":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => valueOf(schema.items ?? {}));
    default:
      return objectOf(schema);
  }
}

/** An object with the required properties of `schema` only: what a schema-driven client must send. */
function objectOf(schema: Schema): Record<string, unknown> {
  const properties = schema.properties ?? {};
  return Object.fromEntries((schema.required ?? []).map((name) => [name, valueOf(properties[name] ?? {})]));
}

test("a generic client gets a result from every tool of --tools all, each call built from its inputSchema", async () => {
  const lookup = await startLookupStub();
  const client = new LineClient(startServer(["--tools", "all"], { CHEM_MCP_NAME_LOOKUP_URL: lookup }));
  try {
    const list = await client.request(modern("tools/list"));
    const tools = (list.result as { tools: { name: string; inputSchema: Schema }[] }).tools;
    assert.ok(tools.length > 20, `${tools.length} tools`);
    for (const name of ["batch", "similarity_search", "parse_smiles", "find_mcs"]) {
      assert.ok(tools.some((tool) => tool.name === name), name);
    }
    const failed: string[] = [];
    for (const tool of tools) {
      const args = objectOf(tool.inputSchema);
      const reply = await client.request(modern("tools/call", { name: tool.name, arguments: args }), 60_000);
      const result = reply.result as { isError?: boolean; structuredContent?: unknown } | undefined;
      if (!result || result.isError !== false || typeof result.structuredContent !== "object") {
        failed.push(
          `${tool.name} ${JSON.stringify(args)}: ${JSON.stringify(reply.error ?? result).slice(0, 300)}`,
        );
      }
    }
    assert.deepEqual(failed, []);
  } finally {
    assert.equal(await client.close(), 0);
  }
});

test("every required argument that holds a molecule, a list of them or a pattern carries an example", async () => {
  const client = new LineClient(startServer(["--tools", "all"]));
  try {
    const list = await client.request(modern("tools/list"));
    const tools = (list.result as { tools: { name: string; inputSchema: Schema }[] }).tools;
    // The arguments that hold a molecule or a pattern carry an example, so a client need not guess a SMILES.
    for (const tool of tools) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        if (
          /smiles|^query$|^library$|^smarts$/.test(name) && (tool.inputSchema.required ?? []).includes(name)
        ) {
          assert.ok(schema.examples?.length, `${tool.name}.${name} has an example`);
        }
      }
    }
  } finally {
    assert.equal(await client.close(), 0);
  }
});
