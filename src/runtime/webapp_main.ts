/**
 * The sample web app's program, shared by its runtime entries (webapp_deno.ts, webapp_node.ts): options, the
 * tool workers' count, RDKit's WebAssembly from the runtime's {@link Platform} as the server loads it, and the
 * pooled app. Each entry then serves the app with its runtime's HTTP server.
 *
 * @module
 */
import { isLoopbackAddress } from "../cli.ts";
import { loadPlatformRDKit, type Platform, toolWorkerCount } from "../main.ts";
import type { SpawnWorker } from "../pool/runner.ts";
import { listeningLine, parseServeArgs, type ServeOptions, webAppWorkers } from "../webapp/args.ts";
import { pooledWebApp } from "../webapp/jobs.ts";

/** What the web app takes from a runtime: the server's platform bindings it uses. */
export type WebAppPlatform = Pick<Platform, "stderr" | "loadWasm" | "env" | "parallelism"> & {
  readonly spawnToolWorker: SpawnWorker;
};

/** A web app ready to serve: its options and its handler. */
export interface PreparedWebApp {
  readonly options: ServeOptions;
  readonly app: (request: Request) => Promise<Response>;
  /** The line to print once the socket listens on `port`. */
  readonly listening: (port: number) => string;
}

/**
 * Reads the options, loads RDKit and starts the pool; resolves to the app, or to exit status 2 after printing
 * what to fix for a bad option or worker count.
 *
 * @example
 * ```ts
 * const prepared = await prepareWebApp(Deno.args, denoPlatform);
 * ```
 */
export async function prepareWebApp(
  args: readonly string[],
  platform: WebAppPlatform,
): Promise<PreparedWebApp | 2> {
  let options: ServeOptions;
  let workers: number;
  try {
    options = parseServeArgs(args);
    workers = webAppWorkers(toolWorkerCount(platform.env, platform.parallelism));
  } catch (error) {
    platform.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const module = await loadPlatformRDKit(platform);
  const app = pooledWebApp({
    spawn: platform.spawnToolWorker,
    wasm: module,
    workers,
    loopbackBind: isLoopbackAddress(options.bind),
    log: (message) => platform.stderr(`${message}\n`),
  });
  return { options, app, listening: (port) => listeningLine(options.bind, port) };
}
