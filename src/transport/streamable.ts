/**
 * The Streamable HTTP endpoint's rules, without I/O: a request head is checked before its body is read
 * ({@link checkHead}), then the body is decoded, its mirrored headers are compared and it is served by a fresh
 * modern-only protocol connection ({@link serveBody}). Every HTTP status of the spec is decided here.
 *
 * @module
 */
import { preview, ProtocolError } from "../errors.ts";
import { toErrorObject } from "../protocol/errors.ts";
import { decode, errorResponse, type JsonRpcId, MAX_REQUEST_BYTES } from "../protocol/jsonrpc.ts";
import {
  META_KEYS,
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_MODERN_VERSIONS,
  unsupportedProtocolVersion,
} from "../protocol/meta.ts";
import type { McpServer } from "../protocol/server.ts";
import type { HttpResponse, RequestHead } from "./h1.ts";

/** The endpoint path. */
export const MCP_PATH = "/mcp";

/** What the endpoint needs to know about how it was started. */
export interface EndpointOptions {
  /** True when bound to a loopback address: then Host must be loopback (DNS-rebinding guard). */
  readonly loopbackBind: boolean;
  /** Extra allowed browser origins, normalised (`scheme://host[:port]`, lower case). */
  readonly allowedOrigins: ReadonlySet<string>;
}

const JSON_TYPE = "application/json";

/** A head that passed every check, with the body length to read. */
export interface AcceptedHead {
  readonly kind: "accept";
  readonly contentLength: number;
}

/** Either an immediate response or permission to read `contentLength` body bytes. */
export type HeadDecision = AcceptedHead | { readonly kind: "respond"; readonly response: HttpResponse };

function respond(status: number, message: string, headers: [string, string][] = []): HeadDecision {
  return { kind: "respond", response: problem(status, message, headers) };
}

/** A plain JSON error body for failures that happen before there is a JSON-RPC message. */
export function problem(status: number, message: string, headers: [string, string][] = []): HttpResponse {
  return { status, headers, contentType: JSON_TYPE, body: JSON.stringify({ error: message }) };
}

function single(head: RequestHead, name: string): string | undefined {
  const values = head.headers.get(name);
  return values && values.length === 1 ? values[0] : values ? values.join(", ") : undefined;
}

/** A parsed `host[:port]` (RFC 3986 §3.2.2–3.2.3), host lower-cased. */
export interface Authority {
  readonly host: string;
  readonly port?: string;
}

const DEC_OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${DEC_OCTET}(\\.${DEC_OCTET}){3}$`);
/** unreserved / pct-encoded / sub-delims (RFC 3986 §3.2.2 reg-name). */
const REG_NAME = /^([A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** An IPv6 address as RFC 3986 §3.2.2 writes it (hex groups, one `::`, an optional dotted IPv4 tail). */
function isIpv6(text: string): boolean {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  const last = groups.at(-1);
  const ipv4Tail = last !== undefined && IPV4.test(last);
  const hex = ipv4Tail ? groups.slice(0, -1) : groups;
  if (!hex.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false;
  const width = hex.length + (ipv4Tail ? 2 : 0);
  return halves.length === 2 ? width <= 7 : width === 8;
}

/**
 * Parses an authority (a Host value or the authority of an absolute-form target): `undefined` when it is not a
 * valid `host[:port]` with a non-empty host. A name whose last label is a number must be a dotted-quad IPv4
 * address (the WHATWG URL Standard's "ends in a number" rule), so `127.999.0.1` or `0x7f.1` is invalid rather
 * than a DNS name nobody can register.
 */
export function parseAuthority(value: string): Authority | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{0,5}))?$/.exec(value);
  if (!match || match[1] === "" || (match[2] && Number(match[2]) > 65_535)) return undefined;
  const host = match[1]!.toLowerCase();
  const port = match[2] ? { port: match[2] } : {};
  if (host.startsWith("[")) return isIpv6(host.slice(1, -1)) ? { host, ...port } : undefined;
  if (!REG_NAME.test(host)) return undefined;
  const last = host.replace(/\.$/, "").split(".").at(-1)!;
  if (/^(\d+|0x[0-9a-f]*)$/.test(last) && !IPV4.test(host)) return undefined;
  return { host, ...port };
}

/** Host header names a loopback address: localhost, 127.0.0.0/8 or [::1], with an optional port. */
export function isLoopbackHost(host: string): boolean {
  const authority = parseAuthority(host.trim());
  if (!authority) return false;
  const name = authority.host;
  return name === "localhost" || name === "[::1]" || (IPV4.test(name) && name.startsWith("127."));
}

/** Origin is loopback: http or https with host localhost, 127.0.0.1 or [::1] and an optional port. */
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i.test(origin);
}

/** True when `Accept` admits application/json (application/json, application/*, or *\/* with q > 0). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  return accept.split(",").some((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return range === JSON_TYPE || range === "application/*" || range === "*/*";
  });
}

/** True when `Content-Type` is application/json, parameters such as charset allowed. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(";")[0]!.trim().toLowerCase() === JSON_TYPE;
}

/** True when no Content-Encoding is given or every coding listed is `identity` (RFC 9110 §8.4). */
function isIdentityEncoding(values: readonly string[] | undefined): boolean {
  if (!values) return true;
  return values.every((value) =>
    value.split(",").every((coding) => ["", "identity"].includes(coding.trim().toLowerCase()))
  );
}

/** The target's authority and path: origin-form (`/mcp`) or absolute-form (`http://host:port/mcp`). */
interface Target {
  /** The authority of an absolute-form target, which replaces Host (RFC 9112 §3.2.2). */
  readonly authority?: string;
  readonly path: string;
}

/** Splits a request-target; `undefined` when it is neither origin-form nor absolute-form http(s). */
function parseTarget(target: string): Target | undefined {
  if (target.includes("#")) return undefined;
  if (target.startsWith("/")) return { path: target.split("?")[0]! };
  const absolute = /^https?:\/\/([^/?]*)([^?]*)/i.exec(target);
  if (!absolute) return undefined;
  // Userinfo in an http(s) URI is an error for a recipient (RFC 9110 §4.2.4).
  if (absolute[1]!.includes("@")) return undefined;
  return { authority: absolute[1]!, path: absolute[2] || "/" };
}

/** Host and target checks: 400 for a missing, repeated or invalid Host or a bad target; 403 off loopback. */
function checkAuthority(head: RequestHead, options: EndpointOptions): HeadDecision | Target {
  const host = head.headers.get("host");
  // RFC 9112 §3.2: exactly one Host line, with a valid value (an http URI's host is never empty, RFC 9110 §4.2.1).
  if (!host || host.length !== 1) return respond(400, "Exactly one Host header is required.");
  if (!parseAuthority(host[0]!)) return respond(400, "The Host header is not a valid host[:port].");
  const target = parseTarget(head.target);
  if (!target) return respond(400, "The request target must be a path (/mcp) or an absolute http URL.");
  const authority = target.authority ?? host[0]!;
  if (target.authority !== undefined && !parseAuthority(authority)) {
    return respond(400, "The request target's authority is not a valid host[:port].");
  }
  if (options.loopbackBind && !isLoopbackHost(authority)) {
    return respond(403, "Host must be a loopback name (localhost, 127.0.0.1 or [::1]) on a loopback bind.");
  }
  return target;
}

/**
 * Checks a request head, in this order: Host and target (400 missing, repeated or invalid; 403 non-loopback on a
 * loopback bind, applied to an absolute-form target's authority, which replaces Host), Origin (403), path (404),
 * method (405), Transfer-Encoding (400 beside Content-Length, else 411: bodies are read by Content-Length only),
 * Content-Length (411 missing, 400 malformed, 413 over 1 MiB), Content-Type (415), Content-Encoding other than
 * identity (415), Accept (406).
 */
export function checkHead(head: RequestHead, options: EndpointOptions): HeadDecision {
  const target = checkAuthority(head, options);
  if ("kind" in target) return target;
  const origin = single(head, "origin");
  if (
    origin !== undefined && !isLoopbackOrigin(origin) && !options.allowedOrigins.has(origin.toLowerCase())
  ) {
    return respond(
      403,
      `Origin ${preview(origin)} is not allowed; start the server with --allowed-origin ${preview(origin)}.`,
    );
  }
  if (target.path !== MCP_PATH) return respond(404, `Not found: the MCP endpoint is POST ${MCP_PATH}.`);
  if (head.method !== "POST") {
    return respond(405, `Method ${preview(head.method)} not allowed; use POST.`, [["Allow", "POST"]]);
  }
  if (head.headers.has("transfer-encoding") && head.headers.has("content-length")) {
    // Two framings at once is the request-smuggling shape (RFC 9112 §6.1, §11.2): refused, never guessed.
    return respond(400, "Transfer-Encoding and Content-Length together are refused.");
  }
  if (head.headers.has("transfer-encoding")) {
    return respond(
      411,
      "Chunked or encoded bodies are not read: send the body with a Content-Length header.",
    );
  }
  const length = head.headers.get("content-length");
  if (!length) return respond(411, "Content-Length is required.");
  if (length.length !== 1 || !/^\d{1,16}$/.test(length[0]!)) {
    return respond(400, "Content-Length is malformed.");
  }
  const contentLength = Number(length[0]);
  if (contentLength > MAX_REQUEST_BYTES) {
    return respond(
      413,
      `Body of ${contentLength} bytes is over the limit of ${MAX_REQUEST_BYTES} bytes (1 MiB).`,
    );
  }
  if (!isJsonContentType(single(head, "content-type"))) {
    return respond(415, "Content-Type must be application/json.");
  }
  if (!isIdentityEncoding(head.headers.get("content-encoding"))) {
    // RFC 9110 §15.5.16: an unsupported content coding is a 415, with Accept-Encoding naming what is read.
    return respond(415, "Content-Encoding is not read: send the body unencoded (identity).", [[
      "Accept-Encoding",
      "identity",
    ]]);
  }
  if (!acceptsJson(single(head, "accept"))) {
    return respond(406, "Accept must admit application/json (e.g. 'application/json, text/event-stream').");
  }
  return { kind: "accept", contentLength };
}

/** Decodes an `Mcp-Name` value: plain text, or `=?base64?<base64 of UTF-8>?=`. */
export function decodeMcpName(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!match) return value;
  try {
    const bytes = Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function mismatch(header: string, detail: string): ProtocolError {
  return new ProtocolError("header_mismatch", `Header ${header} ${detail}.`, { header });
}

/**
 * What a legacy client (an `initialize` handshake) should do instead: HTTP serves only the modern dialect. Added
 * to whichever error answers it first, so the code and status stay those of the spec's table.
 */
export const LEGACY_OVER_HTTP_HINT: string =
  `This endpoint serves only the ${MODERN_PROTOCOL_VERSION} dialect, which has no 'initialize' handshake. ` +
  `For the legacy handshake start the server over stdio (the default transport); over HTTP use a ` +
  `${MODERN_PROTOCOL_VERSION} client, e.g. the v2 SDK client with versionNegotiation 'auto' or pinned to ` +
  `${MODERN_PROTOCOL_VERSION}.`;

/** Compares the mirrored headers with the body; throws the JSON-RPC error to send. */
function checkMirroredHeaders(head: RequestHead, method: string, params: Record<string, unknown>): void {
  const version = single(head, "mcp-protocol-version");
  if (version === undefined) {
    const required = mismatch("MCP-Protocol-Version", `is required (${MODERN_PROTOCOL_VERSION})`);
    if (method !== "initialize") throw required;
    throw new ProtocolError("header_mismatch", `${required.message} ${LEGACY_OVER_HTTP_HINT}`, required.data);
  }
  if (!SUPPORTED_MODERN_VERSIONS.includes(version)) {
    const unsupported = unsupportedProtocolVersion(version);
    if (method !== "initialize") throw unsupported;
    throw new ProtocolError(
      "unsupported_protocol_version",
      `${unsupported.message} ${LEGACY_OVER_HTTP_HINT}`,
      unsupported.data,
    );
  }
  const meta = params._meta as Record<string, unknown> | undefined;
  const bodyVersion = meta?.[META_KEYS.protocolVersion];
  if (bodyVersion !== undefined && bodyVersion !== version) {
    throw mismatch(
      "MCP-Protocol-Version",
      `(${preview(version)}) does not match the body's protocolVersion (${preview(String(bodyVersion))})`,
    );
  }
  const mcpMethod = single(head, "mcp-method");
  if (mcpMethod === undefined) {
    throw mismatch("Mcp-Method", `is required and must equal the body's method (${preview(method)})`);
  }
  if (mcpMethod !== method) {
    throw mismatch(
      "Mcp-Method",
      `(${preview(mcpMethod)}) does not match the body's method (${preview(method)})`,
    );
  }
  if (method !== "tools/call") return;
  const raw = single(head, "mcp-name");
  const name = raw === undefined ? undefined : decodeMcpName(raw);
  if (name === undefined) throw mismatch("Mcp-Name", "is required for tools/call and must equal params.name");
  if (name !== params.name) {
    throw mismatch(
      "Mcp-Name",
      `(${preview(name)}) does not match params.name (${preview(String(params.name))})`,
    );
  }
}

/** HTTP status of a JSON-RPC error code (the spec's table; -32603 is a server fault). */
export function statusOf(code: number | undefined): number {
  if (code === undefined) return 200;
  if (code === -32601) return 404;
  if (code === -32603) return 500;
  return 400;
}

function rpcError(id: JsonRpcId | null, error: unknown): HttpResponse {
  const object = toErrorObject(error);
  return { status: statusOf(object.code), contentType: JSON_TYPE, body: errorResponse(id, object) };
}

/**
 * Serves an accepted request's body: decode (400 for -32700/-32600), mirrored headers (400, -32020/-32022), then
 * a fresh modern-only connection answers (200; 202 with an empty body for a notification or a response object;
 * 400/404/500 for errors by JSON-RPC code).
 */
export async function serveBody(
  server: McpServer,
  head: RequestHead,
  body: Uint8Array,
  signal?: AbortSignal,
): Promise<HttpResponse> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return rpcError(null, new ProtocolError("parse_error", "Parse error: body is not valid UTF-8"));
  }
  const decoded = decode(text);
  if (decoded.kind === "error") return rpcError(decoded.id, decoded.error);
  if (decoded.kind === "response") return { status: 202 };
  const { request } = decoded;
  try {
    checkMirroredHeaders(head, request.method, request.params);
  } catch (error) {
    return rpcError(request.id ?? null, error);
  }
  if (request.method === "initialize") {
    return rpcError(
      request.id ?? null,
      new ProtocolError("method_not_found", `Method not found: 'initialize'. ${LEGACY_OVER_HTTP_HINT}`),
    );
  }
  const reply = await server.connect("modern-only").handleDecoded(decoded, signal);
  if (!reply) return { status: 202 };
  return { status: statusOf(reply.errorCode), contentType: JSON_TYPE, body: reply.text };
}
