/**
 * Command-line options of the web application entries (serve_deno.ts, serve_node.ts), parsed without any
 * runtime API so both share one definition.
 *
 * @module
 */

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
  const options: ServeOptions = { port: DEFAULT_PORT, bind: "127.0.0.1" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [
        arg,
        undefined,
      ];
    if (name !== "--port" && name !== "--bind") throw new Error(`unknown option '${arg}'\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value\n${USAGE}`);
    if (name === "--port") {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535) {
        throw new Error(`--port must be an integer from 0 to 65535, got '${value}'`);
      }
      options.port = port;
    } else {
      options.bind = value;
    }
  }
  return options;
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
