/**
 * The runtime-neutral program: parse options, load RDKit, serve. Each runtime entry (src/runtime/*.ts) supplies a
 * {@link Platform} with its own stdin/stdout, file and socket bindings.
 *
 * @module
 */
import { configureNameLookup, nameLookupConfigFromEnv } from "./chem/lookup.ts";
import { loadRDKit } from "./chem/rdkit.ts";
import { isLoopbackAddress, normalizeOrigin, parseCli, type ServeOptions } from "./cli.ts";
import type { McpServer } from "./protocol/server.ts";
import { type ByteStream, HTTP_TIMEOUT_MS, HttpEndpoint } from "./transport/http_endpoint.ts";
import { createServer } from "./create_server.ts";
import { StdioSession } from "./transport/stdio.ts";
import { IsolatedRunner, type SpawnWorker } from "./pool/runner.ts";
import { startLibrary } from "./chem/library/start.ts";
import type { EntryBatch } from "./chem/library/entries.ts";
import { libraryBuildTool } from "./tools/library_build.ts";
import type { Tool } from "./tools/tool.ts";
import type { LibraryIo } from "./chem/library/load.ts";

/** The environment variable that sets the number of tool workers (default: the available parallelism). */
export const WORKERS_ENV = "CHEM_MCP_WORKERS";

/**
 * Tool workers per process: `CHEM_MCP_WORKERS` when set (an integer from 1 to 256), else one per core the
 * process may use, so costly calls run on every core while the protocol thread, mostly waiting, shares them.
 * Each worker costs an RDKit instance (memory measured in docs/decisions/pool-size-and-warm-up.md).
 *
 * @example
 * ```ts
 * toolWorkerCount({ CHEM_MCP_WORKERS: "3" }, 8); // 3
 * toolWorkerCount({}, 8); // 8
 * ```
 */
export function toolWorkerCount(
  env: Readonly<Record<string, string | undefined>>,
  parallelism: number,
): number {
  const text = env[WORKERS_ENV];
  if (text === undefined || text === "") return Math.max(1, Math.floor(parallelism) || 1);
  const count = Number(text);
  if (!/^\d+$/.test(text.trim()) || count < 1 || count > 256) {
    throw new Error(`${WORKERS_ENV} must be a whole number of tool workers from 1 to 256, not '${text}'.`);
  }
  return count;
}

/** The one stderr line of a stdio server started on a terminal. */
export const WAITING_ON_TERMINAL =
  "waiting for JSON-RPC 2.0 messages on stdin, one per line (this is an MCP server for a client to start; " +
  "--help shows the options, Ctrl-D ends)";

/** What a runtime provides to {@link main}. */
export interface Platform {
  /** Writes diagnostics (never protocol data). */
  readonly stderr: (text: string) => void;
  /** Writes protocol or `--help` output; resolves when flushed. */
  readonly stdout: (text: string) => Promise<void>;
  /** The RDKit WebAssembly bytes or module. */
  readonly loadWasm: () => Promise<BufferSource | WebAssembly.Module>;
  /**
   * Reads stdin to its end, handing each chunk to `onChunk`; when that returns a promise, reads nothing more
   * until it resolves (backpressure from a saturated connection).
   */
  readonly readStdin: (onChunk: (chunk: Uint8Array) => Promise<void> | undefined) => Promise<void>;
  /** True when stdin is a terminal: a person, not a client, is at the other end. */
  readonly stdinIsTerminal: boolean;
  /** The process environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Starts a worker running the tool-worker entry of this runtime (absent: every tool runs in place). */
  readonly spawnToolWorker?: SpawnWorker;
  /** The compound library's file and cache I/O (`--library`). */
  readonly libraryIo?: LibraryIo;
  /** How many threads the process can run at once (cores it may use). */
  readonly parallelism: number;
  /** Listens for TCP connections on `bind:port`; resolves with the bound port. */
  readonly listen: (
    bind: string,
    port: number,
    onConnection: (stream: ByteStream) => void,
  ) => Promise<number>;
}

/**
 * RDKit's WebAssembly from the platform, compiled once and loaded on this thread; resolves to the compiled module,
 * which every tool worker instantiates too. The server and the sample web app (src/runtime/webapp_main.ts) load it
 * this one way.
 *
 * @example
 * ```ts
 * const module = await loadPlatformRDKit(denoPlatform);
 * ```
 */
export async function loadPlatformRDKit(
  platform: Pick<Platform, "loadWasm">,
  log?: (line: string) => void,
): Promise<WebAssembly.Module> {
  const wasm = await platform.loadWasm();
  const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
  await loadRDKit(module, log);
  return module;
}

/**
 * Runs the program and resolves to its exit status.
 *
 * @example
 * ```ts
 * Deno.exit(await main(Deno.args, denoPlatform));
 * ```
 */
export async function main(args: readonly string[], platform: Platform): Promise<number> {
  const plan = parseCli(args, platform.env);
  if (plan.kind === "error") {
    platform.stderr(`${plan.message}\n`);
    return plan.exitCode;
  }
  if (plan.kind === "print") {
    await platform.stdout(plan.text);
    return 0;
  }
  let workers: number;
  try {
    configureNameLookup(nameLookupConfigFromEnv(platform.env));
    workers = toolWorkerCount(platform.env, platform.parallelism);
  } catch (error) {
    platform.stderr(`chem-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const log = (message: string) => platform.stderr(`chem-mcp: ${message}\n`);
  const module = await loadPlatformRDKit(platform, (line) => log(`rdkit: ${line}`));
  const runner = platform.spawnToolWorker
    ? new IsolatedRunner({
      spawn: platform.spawnToolWorker,
      wasm: module,
      size: workers,
      log,
    })
    : undefined;
  // A library index to build is built by every worker at once: the pool starts with the first batch.
  const place = runner && {
    compute: (texts: readonly string[]) => {
      runner.start();
      return runner.run(libraryBuildTool as unknown as Tool, { texts }) as Promise<EntryBatch>;
    },
    parallel: workers,
  };
  if (!(await startLibrary(plan.options.library, platform.libraryIo, log, place))) {
    runner?.close();
    return 2;
  }
  const server = createServer({
    log,
    tools: plan.options.tools,
    ...(runner ? { runTool: (tool, args, signal) => runner.run(tool, args, signal), workers } : {}),
  });
  // The pool starts (each worker loading RDKit and building its one-time tables on its own thread) once the
  // first stdio answer is out, so its start-up does not compete with that answer for the cores, or once the
  // HTTP endpoint listens. A pooled call before then starts a worker itself.
  const startPool = () => runner?.start();
  if (plan.options.transport === "streamable-http") {
    await serveHttp(server, plan.options, platform, log);
    startPool();
    return await new Promise<never>(() => {});
  }
  // A client says nothing until it writes; a person who started the server by hand would see a silent terminal.
  if (platform.stdinIsTerminal) log(WAITING_ON_TERMINAL);
  let first = true;
  const session = new StdioSession(server.connect(), async (text) => {
    await platform.stdout(text);
    if (first) {
      first = false;
      startPool();
    }
  });
  await platform.readStdin((chunk) => session.push(chunk));
  await session.end();
  runner?.close();
  return 0;
}

/** Starts the Streamable HTTP endpoint and reports where it listens on stderr. */
async function serveHttp(
  server: McpServer,
  options: ServeOptions,
  platform: Platform,
  log: (message: string) => void,
): Promise<void> {
  // CHEM_MCP_HTTP_TIMEOUT_MS exists so tests can exercise the 408 path without waiting 30 s.
  const timeoutMs = Number(platform.env.CHEM_MCP_HTTP_TIMEOUT_MS) || HTTP_TIMEOUT_MS;
  const endpoint = new HttpEndpoint(server, {
    loopbackBind: isLoopbackAddress(options.bind),
    allowedOrigins: new Set(options.allowedOrigins.map((origin) => normalizeOrigin(origin)!)),
    maxConcurrency: options.maxConcurrency,
    timeoutMs,
  });
  const port = await platform.listen(options.bind, options.port, (stream) => void endpoint.handle(stream));
  const host = options.bind.includes(":") && !options.bind.startsWith("[")
    ? `[${options.bind}]`
    : options.bind;
  log(`listening on http://${host}:${port}/mcp`);
}
