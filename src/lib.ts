/**
 * The library surface of chem-mcp, shared by the JSR module (mod.ts) and the npm package.
 *
 * @module
 */
export { createServer, type CreateServerOptions, INSTRUCTIONS, toolRegistry } from "./create_server.ts";
export { Connection, McpServer, type Reply, type ServerInfo, type ServerOptions } from "./protocol/server.ts";
export {
  ALL_TOOLS,
  selectTools,
  type ToolDescriptor,
  ToolRegistry,
  TOOLS,
  type ToolSelection,
} from "./tools/registry.ts";
export { defineTool, type Tool } from "./tools/tool.ts";
export {
  IsolatedRunner,
  type IsolatedRunnerOptions,
  serveToolWorker,
  type SpawnWorker,
  type WorkerEndpoint,
  type WorkerHandle,
  type WorkerReply,
  type WorkerRequest,
} from "./pool/runner.ts";
export { ChemError, type ChemErrorCode, ChemMcpError, ProtocolError } from "./errors.ts";
export { loadRDKit, rdkit, withMol } from "./chem/rdkit.ts";
export { canonicalSmiles, summarize } from "./chem/identity.ts";
export { ecfp4, tanimoto } from "./chem/fingerprint.ts";
export { type SimilarityHit, similaritySearch } from "./chem/similarity.ts";
export { smartsMatch } from "./chem/substructure.ts";
export { STDIO_LIMITS, type StdioLimits, StdioSession } from "./transport/stdio.ts";
export { SERVER_NAME, VERSION } from "./version.ts";
