/**
 * The web app's computations as tools a pool worker serves (src/pool/tool_worker.ts), so the served app runs
 * them with the MCP server's pool (src/pool/runner.ts): off the request thread, under the same cost model and
 * deadlines. They are never listed to MCP clients; their arguments were validated by the app's own schemas.
 *
 * @module
 */
import * as v from "valibot";
import { LOCAL_COMPUTATION, type Tool } from "../tools/tool.ts";
import { IsolatedRunner, type SpawnWorker } from "../pool/runner.ts";
import { type ComputeJob, createWebApp, WEBAPP_JOBS, type WebAppJob } from "./handler.ts";

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

/** What {@link pooledWebApp} needs from the runtime entry. */
export interface PooledWebAppOptions {
  /** Creates a tool worker (the runtime's own, as the MCP server's pool uses). */
  readonly spawn: SpawnWorker;
  /** RDKit's compiled WebAssembly, handed to every worker. */
  readonly wasm: WebAssembly.Module;
  /** Workers in the pool. */
  readonly workers: number;
  /** Whether the app is bound to a loopback address (then only a loopback Host is served). */
  readonly loopbackBind: boolean;
}

/**
 * The served web app: its pool of tool workers started, its chemistry computed there. The one assembly both
 * runtime entries (src/webapp/serve_deno.ts, serve_node.ts) use.
 */
export function pooledWebApp(options: PooledWebAppOptions): (request: Request) => Promise<Response> {
  const runner = new IsolatedRunner({
    spawn: options.spawn,
    wasm: options.wasm,
    size: options.workers,
    pooled: WEBAPP_POOLED,
    log: (message) => console.error(`webapp: ${message}`),
  });
  runner.start();
  return createWebApp({
    onError: (error) => console.error("webapp: unexpected error:", error),
    compute: computeInPool(runner),
    loopbackBind: options.loopbackBind,
  });
}
