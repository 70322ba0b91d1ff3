/**
 * Baseline for bench/stdio_bench.ts: the same `canonical_smiles` tool (same valibot schemas, same chemistry
 * function) served by the official MCP TypeScript SDK v2 server over stdio. Not part of the product.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { canonicalSmilesTool } from "../src/tools/canonical_smiles.ts";

await loadRDKit(readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm")));
const server = new McpServer({ name: "sdk-baseline", version: "0.0.0" });
server.registerTool(
  canonicalSmilesTool.name,
  {
    description: canonicalSmilesTool.description,
    inputSchema: toStandardJsonSchema(canonicalSmilesTool.input),
    outputSchema: toStandardJsonSchema(canonicalSmilesTool.output),
  },
  (args) => {
    const result = canonicalSmilesTool.run(args as { smiles: string }) as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  },
);
await server.connect(new StdioServerTransport());
