/**
 * The web app's computations as tools a pool worker serves (src/pool/tool_worker.ts), so the served app runs
 * them with the MCP server's pool (src/pool/runner.ts): off the request thread, under the same cost model and
 * deadlines. They are never listed to MCP clients; their arguments were validated by the app's own schemas.
 *
 * @module
 */
import * as v from "valibot";
import { LOCAL_COMPUTATION, type Tool } from "../tools/tool.ts";
import { type ComputeJob, WEBAPP_JOBS, type WebAppJob } from "./handler.ts";

const ANY = v.looseObject({});

/** One tool per web-app computation, named as {@link WEBAPP_JOBS}. */
export const WEBAPP_TOOLS: readonly Tool[] = Object.entries(WEBAPP_JOBS).map(([name, run]) => ({
  name,
  title: name,
  description: "Web-app computation (not listed to MCP clients).",
  annotations: LOCAL_COMPUTATION,
  input: ANY,
  output: ANY,
  run: run as Tool["run"],
}));

/** Names of {@link WEBAPP_TOOLS}: the web app's pool runs each of them in a worker. */
export const WEBAPP_POOLED: ReadonlySet<string> = new Set(Object.keys(WEBAPP_JOBS));

/** Anything that runs a tool call the way `IsolatedRunner.run` does. */
export interface ToolRunner {
  run(tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

/**
 * The web app's {@link ComputeJob} on a pool.
 *
 * @example
 * ```ts
 * const runner = new IsolatedRunner({ spawn, wasm, size: 2, pooled: WEBAPP_POOLED });
 * const app = createWebApp({ compute: computeInPool(runner) });
 * ```
 */
export function computeInPool(runner: ToolRunner): ComputeJob {
  const byName = new Map(WEBAPP_TOOLS.map((tool) => [tool.name as WebAppJob, tool]));
  return (job, args, signal) => runner.run(byName.get(job)!, args, signal);
}
