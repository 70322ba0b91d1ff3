/**
 * JSON-RPC 2.0 framing rules: decoding one message with its size and depth limits, shape checks, and building
 * response objects. Pure functions; no I/O.
 *
 * @module
 */
import { preview, ProtocolError } from "../errors.ts";

/** Largest accepted message, in UTF-8 bytes (1 MiB), on every transport. */
export const MAX_REQUEST_BYTES = 1_048_576;
/** Deepest accepted nesting of arrays and objects in one message (the message object itself is depth 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * A numeric id as the exact text the client sent. JSON numbers are decoded to doubles, which would answer
 * `9007199254740993` as `…992` and `1.0` as `1`; JSON-RPC 2.0 §5 says the response id MUST be the same value as
 * the request's, so the source token is kept and written back verbatim.
 */
export class NumericId {
  /** @param source The number token exactly as received (e.g. `1.0`, `-0`, `1e3`). */
  constructor(readonly source: string) {}
}

/** A JSON-RPC request or notification id. */
export type JsonRpcId = string | number | NumericId;

/** A well-formed JSON-RPC request (`id` present) or notification (`id` absent). */
export interface JsonRpcRequest {
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** False when `params` was present but not an object; the method handler reports it. */
  readonly paramsIsObject: boolean;
}

/** The error member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What decoding one message yields. */
export type Decoded =
  | { readonly kind: "request"; readonly request: JsonRpcRequest }
  | { readonly kind: "notification"; readonly request: JsonRpcRequest }
  | { readonly kind: "response" }
  | { readonly kind: "error"; readonly id: JsonRpcId | null; readonly error: ProtocolError };

const encoder = new TextEncoder();

/** UTF-8 byte length of a string without allocating when it is obviously small. */
export function utf8Length(text: string): number {
  // Each UTF-16 code unit encodes to at most 3 UTF-8 bytes.
  return text.length * 3 <= MAX_REQUEST_BYTES ? text.length : encoder.encode(text).length;
}

/** Error for a message over {@link MAX_REQUEST_BYTES}; shared by transports that detect it while reading. */
export function tooLargeError(bytes?: number): ProtocolError {
  const size = bytes === undefined ? "more than" : `${bytes} bytes,`;
  return new ProtocolError(
    "invalid_request",
    `Request too large: ${size} limit is ${MAX_REQUEST_BYTES} bytes (1 MiB). Send smaller arguments.`,
    { limit_bytes: MAX_REQUEST_BYTES },
  );
}

/**
 * Whether a parsed JSON value nests deeper than `limit`. Recursive, but never deeper than `limit + 1` frames: a
 * branch stops as soon as it passes the limit. Allocates nothing, where a stack of pairs cost every request an
 * array per node.
 */
export function depthExceeds(value: unknown, limit: number): boolean {
  return nestsPast(value, 1, limit);
}

function nestsPast(node: unknown, depth: number, limit: number): boolean {
  if (node === null || typeof node !== "object") return false;
  if (depth > limit) return true;
  if (Array.isArray(node)) {
    for (const child of node) if (nestsPast(child, depth + 1, limit)) return true;
    return false;
  }
  for (const key in node) {
    if (nestsPast((node as Record<string, unknown>)[key], depth + 1, limit)) return true;
  }
  return false;
}

/** Index just past the JSON string starting at `start` (a `"`), in valid JSON text. */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1;;) {
    const quote = text.indexOf('"', from);
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  return at;
}

/** Index just past the JSON value starting at `start`, in valid JSON text. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== "{" && first !== "[") {
    let at = start;
    while (at < text.length && !",}] \t\n\r".includes(text[at]!)) at++;
    return at;
  }
  let depth = 0;
  for (let at = start; at < text.length;) {
    const c = text[at]!;
    if (c === '"') {
      at = stringEnd(text, at);
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    at++;
    if (depth === 0) return at;
  }
  return text.length;
}

/**
 * Source text of the top-level `"id"` member of a JSON object text that `JSON.parse` accepted; the last one wins,
 * as in `JSON.parse`. A scan rather than a reviver's `context.source`, which Node 20 lacks. Where clients put the
 * id — first, after `"jsonrpc":"2.0"`, or last — is read without walking the text; anything else is scanned.
 */
export function idSource(text: string): string | undefined {
  return leadingId(text) ?? trailingId(text) ?? scannedId(text);
}

const JSONRPC_ID_PREFIX = '{"jsonrpc":"2.0","id":';
/** A JSON number token, whole. */
const NUMBER_TOKEN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Whether `code` may appear in a JSON number token (digits, sign, point, exponent). */
function inNumber(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 69 ||
    code === 101;
}

/**
 * The id written first, or right after `"jsonrpc":"2.0"`, when no later key can be `"id"`: none is spelled so,
 * and none spelled with a `\u` escape (`"\u0069d"` is `"id"` to `JSON.parse`).
 */
function leadingId(text: string): string | undefined {
  const start = text.startsWith(JSONRPC_ID_PREFIX)
    ? JSONRPC_ID_PREFIX.length
    : text.startsWith('{"id":')
    ? 6
    : -1;
  if (start === -1) return undefined;
  let end = start;
  while (end < text.length && inNumber(text.charCodeAt(end))) end++;
  if (text[end] !== "," || text.includes('"id"', end) || text.includes("\\u", end)) return undefined;
  const token = text.slice(start, end);
  return NUMBER_TOKEN.test(token) ? token : undefined;
}

/**
 * The id written as the object's last member (`…,"id":7}` at the end of the text): that member is the top-level
 * object's last, so the one `JSON.parse` keeps. Read backwards from the end, over the number alone.
 */
function trailingId(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && " \t\n\r".includes(text[end - 1]!)) end--;
  if (text[--end] !== "}") return undefined;
  let start = end;
  while (start > 0 && inNumber(text.charCodeAt(start - 1))) start--;
  const key = start - 5;
  // Before the key's opening quote: `{`, `,` or space, so that quote opens a key and ends no string.
  if (key < 1 || !text.startsWith('"id":', key) || !"{, \t\n\r".includes(text[key - 1]!)) return undefined;
  const token = text.slice(start, end);
  return NUMBER_TOKEN.test(token) ? token : undefined;
}

function scannedId(text: string): string | undefined {
  let at = skipSpace(text, 0);
  if (text[at] !== "{") return undefined;
  let found: string | undefined;
  for (at = skipSpace(text, at + 1); text[at] === '"';) {
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    if (key === "id") found = text.slice(start, end);
    at = skipSpace(text, end);
    if (text[at] !== ",") break;
    at = skipSpace(text, at + 1);
  }
  return found;
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Decodes one JSON-RPC message from text, enforcing the size and depth limits and the JSON-RPC 2.0 shape.
 *
 * @example
 * ```ts
 * decode('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}').kind; // "request"
 * decode("[1,2]").kind; // "error" (-32600, batches are not supported)
 * ```
 */
export function decode(text: string): Decoded {
  const bytes = utf8Length(text);
  if (bytes > MAX_REQUEST_BYTES) return { kind: "error", id: null, error: tooLargeError(bytes) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return {
      kind: "error",
      id: null,
      error: new ProtocolError("parse_error", `Parse error: ${preview(detail, 300)}`),
    };
  }
  return classify(value, text);
}

/**
 * Applies the JSON-RPC 2.0 shape rules to an already parsed value; with the source `text`, a numeric id is kept
 * as its exact token ({@link NumericId}).
 */
export function classify(value: unknown, text?: string): Decoded {
  if (Array.isArray(value)) {
    return invalid(null, "Batch requests are not supported: send one JSON-RPC object per message.");
  }
  if (!isRecord(value)) return invalid(null, "Invalid Request: expected one JSON-RPC 2.0 object.");
  const source = text !== undefined && typeof value.id === "number" ? idSource(text) : undefined;
  // With its source kept, any JSON number is an id, even one beyond the double range (1E400).
  const id = source !== undefined ? new NumericId(source) : isId(value.id) ? value.id : null;
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    return invalid(id, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`, {
      limit_depth: MAX_JSON_DEPTH,
    });
  }
  if (value.jsonrpc !== "2.0") return invalid(id, 'Invalid Request: "jsonrpc" must be the string "2.0".');
  const hasId = "id" in value;
  if (hasId && id === null) {
    return invalid(null, 'Invalid Request: "id" must be a string or a number (not null).');
  }
  if (typeof value.method !== "string") {
    if ("result" in value || "error" in value) return { kind: "response" };
    return invalid(id, 'Invalid Request: "method" must be a string.');
  }
  const params = value.params;
  const record = isRecord(params);
  const method = value.method;
  const paramsIsObject = record || params === undefined;
  // Two literal shapes rather than a spread: this runs for every message.
  return hasId
    ? { kind: "request", request: { id: id!, method, params: record ? params : {}, paramsIsObject } }
    : { kind: "notification", request: { method, params: record ? params : {}, paramsIsObject } };
}

function invalid(id: JsonRpcId | null, message: string, data?: unknown): Decoded {
  return { kind: "error", id, error: new ProtocolError("invalid_request", message, data) };
}

/** A result already serialised to JSON, so hot paths serialise each value once. */
export class RawJson {
  /** @param json Valid JSON text. */
  constructor(readonly json: string) {}
}

/** Serialises a success response; key order is fixed (`jsonrpc`, `id`, `result`). */
export function resultResponse(id: JsonRpcId, result: unknown): string {
  const body = result instanceof RawJson ? result.json : JSON.stringify(result);
  return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${body}}`;
}

/** Serialises an error response; key order is fixed (`jsonrpc`, `id`, `error`). */
export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"error":${JSON.stringify(error)}}`;
}

function idJson(id: JsonRpcId | null): string {
  return id instanceof NumericId ? id.source : JSON.stringify(id);
}
