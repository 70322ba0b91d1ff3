/**
 * Command-line options of the web application entries (src/runtime/webapp_*.ts), read by the same parser
 * as the server's (src/options.ts) so both entries, and both programs, accept options the same way.
 *
 * @module
 */
import { integerOption, parseOptions } from "../options.ts";

/** Parsed options. */
export interface ServeOptions {
  /** TCP port; 0 asks the OS for a free one. */
  port: number;
  /** Address to bind; default 127.0.0.1 (loopback only). */
  bind: string;
}

/** Default port when `--port` is not given. */
export const DEFAULT_PORT = 8080;

/** Usage text printed on `--help` and after an argument error. */
export const USAGE = "usage: serve [--port N] [--bind IP]\n" +
  "  --port N   TCP port (0 = any free port; default 8080)\n" +
  "  --bind IP  address to listen on (default 127.0.0.1)";

/**
 * Parses `--port N`, `--port=N`, `--bind IP`, `--bind=IP`. Throws an Error whose message says what to fix.
 *
 * @example
 * ```ts
 * parseServeArgs(["--port", "0"]); // { port: 0, bind: "127.0.0.1" }
 * ```
 */
export function parseServeArgs(argv: readonly string[]): ServeOptions {
  const parsed = parseOptions(argv, { port: { type: "string" }, bind: { type: "string" } });
  if (!parsed.ok) throw new Error(`${parsed.message}\n${USAGE}`);
  const { port: rawPort, bind = "127.0.0.1" } = parsed.values;
  const port = integerOption(rawPort, DEFAULT_PORT, 0, 65535);
  if (port === undefined) throw new Error(`--port must be an integer from 0 to 65535, got '${rawPort}'`);
  if (typeof bind !== "string" || bind === "") throw new Error(`--bind needs a value\n${USAGE}`);
  return { port, bind };
}

/**
 * The URL announced on stderr once listening.
 *
 * @example
 * ```ts
 * listeningLine("127.0.0.1", 8080); // "chem-mcp webapp listening on http://127.0.0.1:8080/"
 * ```
 */
export function listeningLine(host: string, port: number): string {
  const h = host.includes(":") ? `[${host}]` : host;
  return `chem-mcp webapp listening on http://${h}:${port}/`;
}

/**
 * Tool workers of the web app's pool: the server's count (`CHEM_MCP_WORKERS` or the cores), at least two, so a
 * possibly long computation never leaves a second visitor without a worker.
 *
 * @example
 * ```ts
 * webAppWorkers(1); // 2
 * ```
 */
export function webAppWorkers(serverWorkers: number): number {
  return Math.max(2, serverWorkers);
}
