/**
 * Assembles the chem-mcp server from the static tool registry.
 *
 * @module
 */
import { McpServer, type ServerOptions } from "./protocol/server.ts";
import { ToolRegistry, TOOLS } from "./tools/registry.ts";
import { SERVER_NAME, VERSION } from "./version.ts";

/** Guidance returned by `server/discover`. */
export const INSTRUCTIONS =
  "Cheminformatics tools on RDKit. Molecules are passed as SMILES strings. Start with " +
  "parse_smiles or canonical_smiles to validate input; chemistry failures come back as isError results with a " +
  "string error code (for example INVALID_SMILES) and a message saying what to fix.";

let registry: ToolRegistry | undefined;

/** The process-wide registry (built once: JSON Schemas are generated on first use). */
export function toolRegistry(): ToolRegistry {
  registry ??= new ToolRegistry(TOOLS);
  return registry;
}

/**
 * Creates the MCP server with all tools. RDKit must be loaded (`loadRDKit`) before tools are called.
 *
 * @example
 * ```ts
 * await loadRDKit(wasmBytes);
 * const conn = createServer().connect();
 * await conn.handle('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
 * ```
 */
export function createServer(options: Pick<ServerOptions, "log" | "runTool" | "workers"> = {}): McpServer {
  return new McpServer({
    registry: toolRegistry(),
    info: { name: SERVER_NAME, version: VERSION },
    instructions: INSTRUCTIONS,
    ...options,
  });
}
