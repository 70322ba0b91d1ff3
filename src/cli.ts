/**
 * The server's command-line options, read by the shared parser of src/options.ts and validated into a plan.
 * Pure: returns a plan, never exits.
 *
 * @module
 */
import { integerOption, type OptionSpec, type OptionValues, parseOptions } from "./options.ts";
import { SERVER_NAME, VERSION } from "./version.ts";
import { selectTools } from "./tools/registry.ts";
import type { Tool } from "./tools/tool.ts";
import type { LibrarySettings } from "./chem/library/load.ts";
import { librarySearchTool } from "./tools/library_search.ts";

/** Validated options for a server run. */
export interface ServeOptions {
  readonly transport: "stdio" | "streamable-http";
  readonly bind: string;
  readonly port: number;
  readonly allowNonLoopback: boolean;
  readonly allowedOrigins: readonly string[];
  readonly maxConcurrency: number;
  /** The tools `tools/list` shows and `tools/call` serves, for the life of the process. */
  readonly tools: readonly Tool[];
  /** The compound library `library_search` searches (`--library`, `CHEM_MCP_LIBRARY`), if any. */
  readonly library?: LibrarySettings;
}

/** What the entry point should do. */
export type CliPlan =
  | { readonly kind: "serve"; readonly options: ServeOptions }
  | { readonly kind: "print"; readonly text: string }
  | { readonly kind: "error"; readonly message: string; readonly exitCode: 2 };

/** Text of `--help`. */
export const HELP = `${SERVER_NAME} ${VERSION}: cheminformatics tools for AI agents over MCP (RDKit).

Usage: chem-mcp [options]

  --transport stdio|streamable-http  Transport to serve (default: stdio)
  --bind <ip>                        Listen address (default: 127.0.0.1; HTTP only)
  --port <n>                         Port (default: 3000; 0 picks a free port, printed to stderr; HTTP only)
  --allow-non-loopback               Required to bind a non-loopback address (HTTP only)
  --allowed-origin <origin>          Extra allowed browser Origin, exact scheme://host[:port], repeatable (HTTP only)
  --max-concurrency <n>              Connections served at once (default: 16; HTTP only)
  --tools <names>                    Tools to serve, comma-separated: tool names and the groups spec (the
                                     specification's 20, default), extra (batch, similarity_search, ...), all
  --library <file>                   Compound library for library_search: SMILES (SMILES [id] per line) or SD
                                     (.sdf), optionally gzipped; read-only, indexed at start (env CHEM_MCP_LIBRARY)
  --library-cache <dir>              Where the library's index is cached (default: the OS cache directory)
  --library-id <field>               SD data field holding each record's id (default: the title line)
  --help                             Show this help
  --version                          Show the version

stdio reads newline-delimited JSON-RPC 2.0 from stdin and writes responses to stdout; diagnostics go to stderr.
Environment: CHEM_MCP_NAME_LOOKUP_URL overrides the name_to_smiles lookup URL template ({name} placeholder).
CHEM_MCP_WORKERS sets the number of tool workers, 1 to 256 (default: one per available core; threads under Node,
processes under Deno).
`;

const OPTIONS: Readonly<Record<string, OptionSpec>> = {
  transport: { type: "string" },
  bind: { type: "string" },
  port: { type: "string" },
  "allow-non-loopback": { type: "boolean" },
  "allowed-origin": { type: "string", multiple: true },
  "max-concurrency": { type: "string" },
  tools: { type: "string" },
  library: { type: "string" },
  "library-cache": { type: "string" },
  "library-id": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
};

const HTTP_ONLY = ["bind", "port", "allow-non-loopback", "allowed-origin", "max-concurrency"] as const;

/**
 * Parses command-line arguments.
 *
 * @example
 * ```ts
 * parseCli(["--transport", "streamable-http", "--port", "0"]); // { kind: "serve", options: { port: 0, … } }
 * parseCli(["--port", "1"]).kind; // "error": --port needs --transport streamable-http
 * ```
 */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliPlan {
  const parsed = parseOptions(argv, OPTIONS);
  if (!parsed.ok) return fail(parsed.message);
  const { values } = parsed;
  if (values.help) return { kind: "print", text: HELP };
  if (values.version) return { kind: "print", text: `${SERVER_NAME} ${VERSION}\n` };
  return serveOptions(values, env);
}

function serveOptions(values: OptionValues, env: Readonly<Record<string, string | undefined>>): CliPlan {
  const transport = (values.transport as string | undefined) ?? "stdio";
  if (transport !== "stdio" && transport !== "streamable-http") {
    return fail(`--transport must be 'stdio' or 'streamable-http', got '${transport}'`);
  }
  if (transport === "stdio") {
    const given = HTTP_ONLY.filter((name) => values[name] !== undefined);
    if (given.length > 0) return fail(`--${given[0]} applies only to --transport streamable-http`);
  }
  const bind = (values.bind as string | undefined) ?? "127.0.0.1";
  if (!isIpLiteral(bind)) return fail(`--bind must be an IPv4 or IPv6 address, got '${bind}'`);
  const allowNonLoopback = values["allow-non-loopback"] === true;
  if (!isLoopbackAddress(bind) && !allowNonLoopback) {
    return fail(`refusing to bind non-loopback address ${bind} without --allow-non-loopback`);
  }
  const port = integerOption(values.port, 3000, 0, 65535);
  if (port === undefined) return fail(`--port must be an integer from 0 to 65535, got '${values.port}'`);
  const maxConcurrency = integerOption(values["max-concurrency"], 16, 1, 10_000);
  if (maxConcurrency === undefined) {
    return fail(`--max-concurrency must be an integer from 1 to 10000, got '${values["max-concurrency"]}'`);
  }
  const allowedOrigins = (values["allowed-origin"] as string[] | undefined) ?? [];
  const badOrigin = allowedOrigins.find((origin) => normalizeOrigin(origin) === undefined);
  if (badOrigin !== undefined) {
    return fail(`--allowed-origin must be exactly scheme://host[:port], got '${badOrigin}'`);
  }
  const selection = selectTools((values.tools as string | undefined) ?? "spec");
  if (!selection.ok) return fail(`--tools: ${selection.message}`);
  const library = librarySettings(values, env);
  if (typeof library === "string") return fail(library);
  const named = ((values.tools as string | undefined) ?? "").split(",").map((name) => name.trim());
  if (!library && named.includes(librarySearchTool.name)) {
    return fail("--tools: library_search needs --library");
  }
  const tools = selection.tools.filter((tool) => tool.name !== librarySearchTool.name);
  return {
    kind: "serve",
    options: {
      transport,
      bind,
      port,
      allowNonLoopback,
      allowedOrigins,
      maxConcurrency,
      tools: library ? [...tools, librarySearchTool as unknown as Tool] : tools,
      ...(library ? { library } : {}),
    },
  };
}

/** The environment variable naming the compound library when `--library` is not given. */
export const LIBRARY_ENV = "CHEM_MCP_LIBRARY";

/** The library options, `undefined` without a library, or what is wrong with them. */
function librarySettings(
  values: OptionValues,
  env: Readonly<Record<string, string | undefined>>,
): LibrarySettings | undefined | string {
  // A bundle host may pass an optional setting left blank as its unsubstituted placeholder.
  const fromEnv = /^\$\{user_config\.\w+\}$/.test(env[LIBRARY_ENV] ?? "") ? undefined : env[LIBRARY_ENV];
  const path = (values.library as string | undefined) ?? (fromEnv || undefined);
  const cacheDir = values["library-cache"] as string | undefined;
  const idField = values["library-id"] as string | undefined;
  if (path === undefined) {
    return cacheDir !== undefined || idField !== undefined
      ? `--library-${cacheDir !== undefined ? "cache" : "id"} needs --library`
      : undefined;
  }
  if (path === "" || cacheDir === "" || idField === "") {
    return "--library, --library-cache and --library-id need a value";
  }
  return {
    path,
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    ...(idField !== undefined ? { idField } : {}),
  };
}

function fail(message: string): CliPlan {
  return { kind: "error", message: `${SERVER_NAME}: ${message} (see --help)`, exitCode: 2 };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for an IPv4 dotted quad or an IPv6 literal (optionally in brackets). */
export function isIpLiteral(text: string): boolean {
  if (IPV4.test(text)) return true;
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return /^[0-9a-fA-F:.]+$/.test(bare) && bare.includes(":") && bare.split("::").length <= 2;
}

/** True for 127.0.0.0/8 and ::1. */
export function isLoopbackAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  return bare.startsWith("127.") && IPV4.test(bare) || bare === "::1" || bare === "0:0:0:0:0:0:0:1";
}

/**
 * The canonical form of an exact `scheme://host[:port]` origin (lower-case scheme and host), or `undefined` if
 * `text` has a path, query, credentials or anything else.
 */
export function normalizeOrigin(text: string): string | undefined {
  const match = /^(https?):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.exec(text);
  if (!match) return undefined;
  const port = match[3] ?? "";
  if (port && Number(port.slice(1)) > 65535) return undefined;
  return `${match[1]!.toLowerCase()}://${match[2]!.toLowerCase()}${port}`;
}
