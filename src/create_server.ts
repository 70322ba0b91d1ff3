/**
 * Assembles the chem-mcp server from the static tool registry.
 *
 * @module
 */
import { McpServer, type ServerOptions } from "./protocol/server.ts";
import { ToolRegistry, TOOLS } from "./tools/registry.ts";
import type { Tool } from "./tools/tool.ts";
import { SERVER_NAME, VERSION } from "./version.ts";

/** Guidance returned by `server/discover`. */
export const INSTRUCTIONS =
  "Cheminformatics tools on RDKit. Molecules are passed as SMILES strings. Start with " +
  "parse_smiles or canonical_smiles to validate input; chemistry failures come back as isError results with a " +
  "string error code (for example INVALID_SMILES) and a message saying what to fix.";

const registries = new WeakMap<readonly Tool[], ToolRegistry>();

/**
 * The registry of `tools` (default: the specification's twenty), built once per selection, so JSON Schemas are
 * generated on first use and a process's listing never changes.
 */
export function toolRegistry(tools: readonly Tool[] = TOOLS): ToolRegistry {
  let registry = registries.get(tools);
  if (!registry) registries.set(tools, registry = new ToolRegistry(tools));
  return registry;
}

/** Options of {@link createServer}: the runtime's runner and log, and the tools to serve (`--tools`). */
export type CreateServerOptions = Pick<ServerOptions, "log" | "runTool" | "workers"> & {
  readonly tools?: readonly Tool[];
};

/**
 * Creates the MCP server with the tools selected (default: the specification's twenty). RDKit must be loaded
 * (`loadRDKit`) before tools are called.
 *
 * @example
 * ```ts
 * await loadRDKit(wasmBytes);
 * const conn = createServer().connect();
 * await conn.handle('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
 * ```
 */
export function createServer(options: CreateServerOptions = {}): McpServer {
  const { tools, ...rest } = options;
  return new McpServer({
    registry: toolRegistry(tools),
    info: { name: SERVER_NAME, version: VERSION },
    instructions: INSTRUCTIONS,
    ...rest,
  });
}
