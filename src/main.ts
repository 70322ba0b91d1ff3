/**
 * The runtime-neutral program: parse options, load RDKit, serve. Each runtime entry (src/runtime/*.ts) supplies a
 * {@link Platform} with its own stdin/stdout, file and socket bindings.
 *
 * @module
 */
import { configureNameLookup, nameLookupConfigFromEnv } from "./chem/lookup.ts";
import { loadRDKit } from "./chem/rdkit.ts";
import { parseCli, type ServeOptions } from "./cli.ts";
import type { McpServer } from "./protocol/server.ts";
import { createServer } from "./server.ts";
import { StdioSession } from "./transport/stdio.ts";

/** What a runtime provides to {@link main}. */
export interface Platform {
  /** Writes diagnostics (never protocol data). */
  readonly stderr: (text: string) => void;
  /** Writes protocol or `--help` output; resolves when flushed. */
  readonly stdout: (text: string) => Promise<void>;
  /** The RDKit WebAssembly bytes or module. */
  readonly loadWasm: () => Promise<BufferSource | WebAssembly.Module>;
  /** Reads stdin to its end, handing each chunk to `onChunk`. */
  readonly readStdin: (onChunk: (chunk: Uint8Array) => void) => Promise<void>;
  /** The process environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Serves Streamable HTTP until the process is stopped. */
  readonly serveHttp: (server: McpServer, options: ServeOptions) => Promise<void>;
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
  const plan = parseCli(args);
  if (plan.kind === "error") {
    platform.stderr(`${plan.message}\n`);
    return plan.exitCode;
  }
  if (plan.kind === "print") {
    await platform.stdout(plan.text);
    return 0;
  }
  try {
    configureNameLookup(nameLookupConfigFromEnv(platform.env));
  } catch (error) {
    platform.stderr(`chem-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const log = (message: string) => platform.stderr(`chem-mcp: ${message}\n`);
  await loadRDKit(await platform.loadWasm(), (line) => log(`rdkit: ${line}`));
  const server = createServer({ log });
  if (plan.options.transport === "streamable-http") {
    await platform.serveHttp(server, plan.options);
    return 0;
  }
  const session = new StdioSession(server.connect(), platform.stdout);
  await platform.readStdin((chunk) => session.push(chunk));
  await session.end();
  return 0;
}
