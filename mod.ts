/**
 * chem-mcp: a cheminformatics tool server for AI agents over MCP, on RDKit.
 *
 * As a library it exports the server factory, the tool registry and the chemistry functions. Run as the main
 * module (`deno run -A jsr:@chem/mcp` or `deno run -A mod.ts`) it starts the stdio server.
 *
 * @example
 * ```ts
 * import { createServer, loadRDKit } from "@chem/mcp";
 * await loadRDKit(wasmBytes);
 * const reply = await createServer().connect().handle(
 *   '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{}}}',
 * );
 * ```
 *
 * @module
 */
export * from "./src/lib.ts";

if (import.meta.main) {
  const { run } = await import("./src/runtime/deno.ts");
  await run();
}
