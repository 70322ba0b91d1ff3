/**
 * The served web app: its chemistry (src/tools/webapp_jobs.ts) run by the MCP server's pool (src/pool/runner.ts),
 * off the request thread under the same cost model and deadlines, with its costly computations held to the
 * places of {@link CostlyGate}.
 *
 * @module
 */
import type { Tool } from "../tools/tool.ts";
import { WEBAPP_TOOLS, type WebAppJob, webAppJobCost } from "../tools/webapp_jobs.ts";
import { IsolatedRunner, type SpawnWorker } from "../pool/runner.ts";
import { type ComputeJob, createWebApp } from "./handler.ts";
import { COSTLY_WAIT_MS, CostlyGate } from "./gate.ts";

/** Anything that runs a tool call the way `IsolatedRunner.run` does. */
export interface ToolRunner {
  run(tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

/**
 * The web app's {@link ComputeJob} on a pool.
 *
 * @example
 * ```ts
 * const runner = new IsolatedRunner({ spawn, wasm, size: 2 });
 * const app = createWebApp({ compute: computeInPool(runner) });
 * ```
 */
export function computeInPool(runner: ToolRunner): ComputeJob {
  const byName = new Map(WEBAPP_TOOLS.map((tool) => [tool.name as WebAppJob, tool]));
  return (job, args, signal) => runner.run(byName.get(job)!, args, signal);
}

/**
 * `compute` with its costly computations (by {@link webAppJobCost}) passed through `gate`. A costly computation is not
 * handed the visitor's signal: the pool would answer a cancel at once while the worker computed on, and the place
 * it held would be free for the next one; it keeps its place until its worker is done (30 s at most).
 *
 * @example
 * ```ts
 * const compute = gatedCompute(computeInPool(runner), new CostlyGate({ running: 1, waiting: 2, waitMs: 4_000 }));
 * ```
 */
export function gatedCompute(compute: ComputeJob, gate: CostlyGate): ComputeJob {
  return (job, args, signal) =>
    webAppJobCost(args) === "costly"
      ? gate.run(() => compute(job, args), signal)
      : compute(job, args, signal);
}

/**
 * Places of the web app's costly computations in a pool of `workers`: one worker is always left to light ones,
 * and twice as many may wait as run.
 *
 * @example
 * ```ts
 * costlyPlaces(2); // { running: 1, waiting: 2, waitMs: 4000 }
 * ```
 */
export function costlyPlaces(workers: number): { running: number; waiting: number; waitMs: number } {
  const running = Math.max(1, workers - 1);
  return { running, waiting: 2 * running, waitMs: COSTLY_WAIT_MS };
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
  /** Diagnostics (a worker that failed, an unexpected error). */
  readonly log: (message: string) => void;
}

/**
 * The served web app: its pool of tool workers started, its chemistry computed there, its costly computations
 * gated. The one assembly both runtime entries (src/runtime/webapp_deno.ts, webapp_node.ts) use.
 */
export function pooledWebApp(options: PooledWebAppOptions): (request: Request) => Promise<Response> {
  const runner = new IsolatedRunner({
    spawn: options.spawn,
    wasm: options.wasm,
    size: options.workers,
    log: (message) => options.log(`webapp: ${message}`),
  });
  runner.start();
  return createWebApp({
    onError: (error) =>
      options.log(`webapp: unexpected error: ${error instanceof Error ? error.stack : error}`),
    compute: gatedCompute(computeInPool(runner), new CostlyGate(costlyPlaces(options.workers))),
    loopbackBind: options.loopbackBind,
  });
}
