/**
 * The official MCP SDK v2 client over Streamable HTTP (which sends the mirrored headers itself) against the real
 * server: discover, list, and call every tool; each structuredContent checked against its outputSchema.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { exampleFor } from "../helpers/examples.ts";
import { type HttpServer, startHttpServer } from "../helpers/http.ts";
import { startLookupStub } from "../helpers/lookup_stub.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { TOOLS } from "../../src/tools/registry.ts";

let server: HttpServer;
before(async () => {
  server = await startHttpServer([], { CHEM_MCP_NAME_LOOKUP_URL: await startLookupStub() });
});
after(async () => await server.stop());

test("SDK v2 client over Streamable HTTP: discover, list and call every tool", async () => {
  const client = new Client({ name: "chem-mcp-http-e2e", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
  try {
    assert.equal(client.getProtocolEra(), "modern");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: exampleFor(tool.name) });
      assert.notEqual(result.isError, true, `${tool.name}: ${JSON.stringify(result.content)}`);
      assert.deepEqual(
        schemaErrors(tool.outputSchema as Record<string, unknown>, result.structuredContent),
        [],
        tool.name,
      );
    }
    const bad = await client.callTool({ name: "canonical_smiles", arguments: { smiles: "C1CC" } });
    assert.equal((bad.structuredContent as { error: { code: string } }).error.code, "INVALID_SMILES");
  } finally {
    await client.close();
  }
});
