/**
 * The sans-I/O MCP server: text (or a decoded message) in, serialised response out. It owns the per-connection
 * dialect pin and shapes results for each dialect; transports only move bytes.
 *
 * @module
 */
import * as v from "valibot";
import { CancelledError, ChemError, preview, ProtocolError } from "../errors.ts";
import { type LazySignal, signalOf, type Tool } from "../tools/tool.ts";
import type { ToolDescriptor, ToolRegistry } from "../tools/registry.ts";
import { type Dialect, METHODS, type PinState, resolveDialect } from "./dialect.ts";
import { argumentError, formatIssues } from "./arguments.ts";
import { toErrorObject } from "./errors.ts";
import {
  decode,
  type Decoded,
  errorResponse,
  type JsonRpcId,
  type JsonRpcRequest,
  NumericId,
  RawJson,
  resultResponse,
} from "./jsonrpc.ts";
import {
  LEGACY_PROTOCOL_VERSION,
  SERVER_INFO_META_KEY,
  SUPPORTED_MODERN_VERSIONS,
  validateModernMeta,
} from "./meta.ts";

/** Name and version reported to clients. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

/** Options for {@link McpServer}. */
export interface ServerOptions {
  readonly registry: ToolRegistry;
  readonly info: ServerInfo;
  /** Guidance for the model, returned by `server/discover`. */
  readonly instructions?: string;
  /** Diagnostics sink (stderr in the CLI); never the protocol stream. */
  readonly log?: (message: string) => void;
  /**
   * Runs a tool on validated arguments; defaults to calling `tool.run` in place. The runtime entries pass a
   * worker-pool runner (src/pool/runner.ts) so tools that can run away are stopped at their deadline.
   */
  readonly runTool?: (tool: Tool, args: Record<string, unknown>, signal?: LazySignal) => Promise<unknown>;
  /** Workers behind `runTool`: a `batch` call keeps at most this many chunks in flight (default 1). */
  readonly workers?: number;
}

/** How a connection may be pinned: stdio allows both dialects, HTTP the modern one only. */
export type ConnectionMode = "both" | "modern-only";

/** A serialised response and, for errors, its JSON-RPC code (HTTP derives its status from it). */
export interface Reply {
  readonly text: string;
  readonly errorCode?: number;
}

/** Modern `tools/list` cache hint: 24 hours, shareable across callers. */
export const TOOLS_LIST_TTL_MS = 86_400_000;

/**
 * The protocol engine shared by every connection of a process.
 *
 * @example
 * ```ts
 * const server = new McpServer({ registry, info: { name: "chem-mcp", version: "1.1.0" } });
 * const conn = server.connect();
 * const reply = await conn.handle('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
 * ```
 */
export class McpServer {
  readonly #options: ServerOptions;
  readonly #cache: Record<Dialect, { init: RawJson }>;
  /** `tools/list` results, serialised on first use (the registry converts its schemas then). */
  readonly #lists: Partial<Record<Dialect, RawJson>> = {};

  /** @param options Registry, identity and logging. */
  constructor(options: ServerOptions) {
    this.#options = options;
    const capabilities = { tools: { listChanged: false } };
    this.#cache = {
      legacy: {
        init: raw({ protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities, serverInfo: options.info }),
      },
      modern: {
        // serverInfo appears in the body and, where the 2026-07-28 SDKs read it, in _meta; the registry is static
        // per process, so the discovery result may be cached like tools/list.
        init: raw({
          _meta: { [SERVER_INFO_META_KEY]: options.info },
          resultType: "complete",
          supportedVersions: [...SUPPORTED_MODERN_VERSIONS],
          capabilities,
          serverInfo: options.info,
          ...(options.instructions ? { instructions: options.instructions } : {}),
          ttlMs: TOOLS_LIST_TTL_MS,
          cacheScope: "public",
        }),
      },
    };
  }

  /** A new connection with its own (initially empty) dialect pin. */
  connect(mode: ConnectionMode = "both"): Connection {
    return new Connection(this, mode);
  }

  /**
   * @internal Serves one decoded request in a resolved dialect: a result, or a promise of one for a tool call
   * (not an async function, so a call's answer takes no extra turn through the microtask queue).
   */
  serve(request: JsonRpcRequest, dialect: Dialect, signal?: LazySignal): unknown {
    switch (request.method) {
      case "initialize":
        return this.#cache.legacy.init;
      case "server/discover":
        return this.#cache.modern.init;
      case "ping":
        return {};
      case "tools/list":
        return this.#list(dialect);
      case "tools/call":
        return this.#callTool(request.params, dialect, signal);
      default:
        throw unknownMethod(request.method);
    }
  }

  async #callTool(params: Record<string, unknown>, dialect: Dialect, signal?: LazySignal): Promise<unknown> {
    const tool = this.#findTool(params.name, dialect);
    const args = v.safeParse(tool.input, params.arguments, FIRST_ISSUE);
    if (!args.success) {
      const issues = allIssues(tool, params.arguments, args.issues);
      throw argumentError(this.#descriptor(tool), issues, params.arguments, dialect);
    }
    let result: unknown;
    try {
      result = await this.#run(tool, args.output, signal);
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      if (error instanceof ChemError) {
        if (dialect === "legacy") throw error;
        return chemistryFailure(error);
      }
      this.#log(`tool '${tool.name}' threw: ${error instanceof Error ? error.stack : String(error)}`);
      throw new ProtocolError("internal_error", `Internal error while running tool '${tool.name}'.`);
    }
    // A tool's value reached here through its own run (or a worker running it), so it is the hook's input.
    const { blocks, structured } = tool.content
      ? tool.content(result as Record<string, unknown>)
      : { blocks: [], structured: result };
    const output = v.safeParse(tool.output, structured);
    if (!output.success) {
      this.#log(`tool '${tool.name}' broke its outputSchema: ${formatIssues(output.issues, "result")}`);
      throw new ProtocolError(
        "internal_error",
        `Internal error: tool '${tool.name}' produced an invalid result.`,
      );
    }
    const text = JSON.stringify(output.output);
    if (dialect === "legacy") return { content: [...blocks, { type: "text", text }] };
    // The structured copy is the text item's JSON itself: the result is serialised once, not twice. The content
    // array is written as JSON.stringify would write it, without building it first.
    let items = "";
    for (const block of blocks) items += `${JSON.stringify(block)},`;
    return new RawJson(
      `{"resultType":"complete","content":[${items}{"type":"text","text":${
        JSON.stringify(text)
      }}],"structuredContent":${text},"isError":false}`,
    );
  }

  /** A call in place or through `runTool`; a tool that calls others (`batch`) here, handing them to `runTool`. */
  #run(tool: Tool, args: Record<string, unknown>, signal?: LazySignal): Promise<unknown> {
    const run = this.#options.runTool ?? runInPlace;
    if (!tool.fanOut) return run(tool, args, signal);
    return tool.fanOut(
      args,
      run,
      this.#options.workers ?? 1,
      signalOf(signal),
    );
  }

  #findTool(name: unknown, dialect: Dialect): Tool {
    const kind = dialect === "legacy" ? "tool_failure" : "invalid_params";
    if (typeof name !== "string") {
      throw new ProtocolError(kind, "params.name must be the tool name (a string).");
    }
    const tool = this.#options.registry.get(name);
    if (tool) return tool;
    throw new ProtocolError(
      kind,
      `Unknown tool '${preview(name)}'. Call tools/list for the available tools.`,
      {
        ...(dialect === "legacy" ? { code: "UNKNOWN_TOOL" } : {}),
        available: this.#options.registry.names,
      },
    );
  }

  #list(dialect: Dialect): RawJson {
    const tools = this.#options.registry.descriptors;
    return this.#lists[dialect] ??= dialect === "legacy"
      // 2024-11-05 tools have no outputSchema, and a client that knows outputSchema rejects a result without
      // structuredContent, which legacy results do not carry (docs/decisions/listings-per-dialect.md).
      ? raw({
        tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      })
      : raw({ resultType: "complete", tools, ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "public" });
  }

  #descriptor(tool: Tool): ToolDescriptor {
    return this.#options.registry.descriptors.find((d) => d.name === tool.name)!;
  }

  #log(message: string): void {
    this.#options.log?.(message);
  }
}

/**
 * One client connection: the dialect pin plus request handling. Requests may be handled concurrently; the pin is
 * decided synchronously in arrival order.
 */
export class Connection {
  #pin: PinState = null;
  /** Requests being served, by their id as JSON, so `notifications/cancelled` can withdraw one. */
  readonly #inFlight = new Map<string | number, Cancellation>();

  /** @internal Use {@link McpServer.connect}. */
  constructor(readonly server: McpServer, readonly mode: ConnectionMode) {
    if (mode === "modern-only") this.#pin = "modern";
  }

  /** The dialect this connection is pinned to, or `null` before the first accepted request. */
  get dialect(): PinState {
    return this.#pin;
  }

  /**
   * Handles one message given as text. Resolves to the reply, or `undefined` when nothing is to be sent
   * (notifications and stray responses).
   */
  handle(text: string): Promise<Reply | undefined> {
    return this.handleDecoded(decode(text));
  }

  /**
   * Handles a message already decoded by a transport (HTTP decodes first to check its headers). `signal` aborts
   * the request from outside (the transport's own cancellation, such as an HTTP connection reset).
   */
  handleDecoded(decoded: Decoded, signal?: AbortSignal): Promise<Reply | undefined> {
    switch (decoded.kind) {
      case "error":
        return Promise.resolve(errorReply(decoded.id, decoded.error));
      case "response":
        return Promise.resolve(undefined);
      case "notification":
        if (decoded.request.method === "notifications/cancelled") this.#cancel(decoded.request.params);
        return Promise.resolve(undefined);
      case "request":
        return this.#request(decoded.request, signal);
    }
  }

  async #request(request: JsonRpcRequest, outside?: AbortSignal): Promise<Reply | undefined> {
    const id = request.id!;
    const key = idKey(id);
    // A second request reusing an id in flight is served, but only the latest can be cancelled.
    const cancellation = new Cancellation();
    outside?.addEventListener("abort", () => cancellation.abort(), { once: true });
    this.#inFlight.set(key, cancellation);
    try {
      const dialect = this.#accept(request);
      return { text: resultResponse(id, await this.server.serve(request, dialect, cancellation.signal)) };
    } catch (error) {
      // MCP cancellation: the receiver sends no response for a cancelled request.
      if (error instanceof CancelledError) return undefined;
      return errorReply(id, error);
    } finally {
      if (this.#inFlight.get(key) === cancellation) this.#inFlight.delete(key);
    }
  }

  /** Withdraws the request named by a `notifications/cancelled`; an unknown or finished id is ignored. */
  #cancel(params: Record<string, unknown>): void {
    const id = params.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    this.#inFlight.get(idKey(id))?.abort();
  }

  /** Synchronous gate: method known, dialect resolved, envelope valid; pins the connection on success. */
  #accept(request: JsonRpcRequest): Dialect {
    const { method, params } = request;
    if (!METHODS.legacy.has(method) && !METHODS.modern.has(method)) throw unknownMethod(method);
    if (this.mode === "modern-only" && !METHODS.modern.has(method)) throw unknownMethod(method);
    const dialect = resolveDialect(this.#pin, method, params);
    if (!METHODS[dialect].has(method)) throw unknownMethod(method);
    if (!request.paramsIsObject) throw new ProtocolError("invalid_params", "params must be a JSON object.");
    if (dialect === "modern") validateModernMeta(params);
    this.#pin = dialect;
    return dialect;
  }
}

/**
 * The key of a request id among the calls in flight. A cancel names the id as a parsed number, so numeric ids
 * (kept as their source text for the answer) compare by value here; a string id stays a string, so `1` and `"1"`
 * are different requests.
 */
function idKey(id: JsonRpcId): string | number {
  return id instanceof NumericId ? Number(id.source) : id;
}

/** One request's withdrawal: its `AbortController` is made only once something asks for the signal. */
class Cancellation {
  #controller: AbortController | undefined;
  #aborted = false;

  /** The request's signal, made on first use; aborted already if the request was withdrawn before. */
  readonly signal = (): AbortSignal => {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  };

  abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }
}

/** `runTool` without a runner: the tool on this thread. */
function runInPlace(tool: Tool, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(tool.run(args));
}

function raw(value: unknown): RawJson {
  return new RawJson(JSON.stringify(value));
}

function unknownMethod(method: string): ProtocolError {
  return new ProtocolError("method_not_found", `Method not found: '${preview(method)}'.`);
}

function errorReply(id: JsonRpcId | null, error: unknown): Reply {
  const object = toErrorObject(error);
  return { text: errorResponse(id, object), errorCode: object.code };
}

function chemistryFailure(error: ChemError): unknown {
  const structured = {
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  };
  return {
    resultType: "complete",
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
    isError: true,
  };
}

/** Validation that stops at the first problem (one object for every call). */
const FIRST_ISSUE = { abortEarly: true } as const;

/** Arguments larger than this (as JSON) are not validated a second time to list every problem. */
const FULL_VALIDATION_LIMIT = 64 * 1024;

/**
 * Every problem of invalid arguments, for the error to list, when finding them all is cheap; else the first
 * problem alone (a million bad list entries must not cost a million issue objects).
 */
function allIssues(
  tool: Tool,
  args: unknown,
  first: readonly v.BaseIssue<unknown>[],
): readonly v.BaseIssue<unknown>[] {
  let size: number;
  try {
    size = JSON.stringify(args ?? null).length;
  } catch {
    return first;
  }
  if (size > FULL_VALIDATION_LIMIT) return first;
  const full = v.safeParse(tool.input, args);
  return full.success ? first : full.issues;
}
