/**
 * A sans-I/O HTTP/1.1 request reader and response writer. Bytes go in through {@link RequestReader.feed}; the
 * reader answers with the parsed head as soon as it is complete (so a request can be refused before its body is
 * read), then with the body once `Content-Length` bytes have arrived. Every limit is checked while reading, so an
 * oversized request line or header block costs no more memory than the limit.
 *
 * @module
 */

import { concatBytes } from "../bytes.ts";

/** Size limits of one request. */
export interface ReaderLimits {
  /** Longest request line, in bytes, excluding CRLF. */
  readonly maxRequestLine: number;
  /** Largest header block (request line and header fields), in bytes. */
  readonly maxHeaderBytes: number;
  /** Most header fields. */
  readonly maxHeaderFields: number;
}

/** The spec's limits: request line 8 KiB, headers 32 KiB in total, 100 fields. */
export const DEFAULT_LIMITS: ReaderLimits = {
  maxRequestLine: 8192,
  maxHeaderBytes: 32768,
  maxHeaderFields: 100,
};

/** A parsed request head. Header names are lower-cased; repeated fields keep every value in order. */
export interface RequestHead {
  readonly method: string;
  readonly target: string;
  readonly version: string;
  readonly headers: ReadonlyMap<string, readonly string[]>;
}

/** What the reader has after a feed. */
export type ReadState =
  | { readonly kind: "incomplete" }
  | { readonly kind: "head"; readonly head: RequestHead }
  | { readonly kind: "body"; readonly body: Uint8Array }
  | { readonly kind: "error"; readonly status: 400 | 431; readonly reason: string };

const CRLF_CRLF = [13, 10, 13, 10];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A request-target is visible ASCII only (RFC 9112 §3.2; RFC 3986 has no other characters). */
const TARGET = /^[\x21-\x7e]+$/;
/**
 * Control characters other than HTAB, which no field value may hold (RFC 9110 §5.5: CR, LF and NUL MUST be
 * rejected or replaced; the other controls are not field-vchar either). A bare CR or LF inside a line lands here.
 */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const decoder = new TextDecoder("latin1");

/**
 * Reads one HTTP/1.1 request.
 *
 * @example
 * ```ts
 * const reader = new RequestReader();
 * reader.feed(bytes("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n")); // { kind: "head", … }
 * reader.expectBody(2);
 * reader.feed(bytes("{}")); // { kind: "body", body: … }
 * ```
 */
export class RequestReader {
  readonly #limits: ReaderLimits;
  #buffer: Uint8Array = new Uint8Array(0);
  #headDone = false;
  #bodyLength = -1;

  /** @param limits Size limits (defaults to the spec's). */
  constructor(limits: ReaderLimits = DEFAULT_LIMITS) {
    this.#limits = limits;
  }

  /** Feeds received bytes. After a `head` state, call {@link expectBody} and keep feeding. */
  feed(chunk: Uint8Array): ReadState {
    this.#buffer = this.#buffer.length === 0 ? chunk : concatBytes([this.#buffer, chunk]);
    if (!this.#headDone) return this.#readHead();
    return this.#readBody();
  }

  /** Declares the body length announced by `Content-Length`; returns the body at once if already buffered. */
  expectBody(length: number): ReadState {
    this.#bodyLength = length;
    return this.#readBody();
  }

  #readHead(): ReadState {
    // Empty lines before the request line are ignored (RFC 9112 §2.2 SHOULD); dropped, so they cost no memory.
    let skip = 0;
    while (this.#buffer[skip] === 13 && this.#buffer[skip + 1] === 10) skip += 2;
    if (skip > 0) this.#buffer = this.#buffer.subarray(skip);
    const end = indexOf(this.#buffer, CRLF_CRLF);
    const firstLineEnd = indexOf(this.#buffer, [13, 10]);
    const lineLength = firstLineEnd === -1 ? this.#buffer.length : firstLineEnd;
    if (lineLength > this.#limits.maxRequestLine) {
      return { kind: "error", status: 431, reason: `request line over ${this.#limits.maxRequestLine} bytes` };
    }
    const headLength = end === -1 ? this.#buffer.length : end + 4;
    if (headLength > this.#limits.maxHeaderBytes) {
      return {
        kind: "error",
        status: 431,
        reason: `request headers over ${this.#limits.maxHeaderBytes} bytes`,
      };
    }
    // A line ended by LF alone would leave the head waiting for a CRLF CRLF that never comes: refused at once
    // (RFC 9112 §2.2 allows either; reading one framing only keeps requests unambiguous).
    if (hasBareLf(this.#buffer, end === -1 ? this.#buffer.length : end + 4)) {
      return { kind: "error", status: 400, reason: "line ended by LF without CR" };
    }
    if (end === -1) return { kind: "incomplete" };
    const text = decoder.decode(this.#buffer.subarray(0, end));
    this.#buffer = this.#buffer.slice(end + 4);
    this.#headDone = true;
    return parseHead(text, this.#limits);
  }

  #readBody(): ReadState {
    if (this.#bodyLength < 0 || this.#buffer.length < this.#bodyLength) return { kind: "incomplete" };
    return { kind: "body", body: this.#buffer.subarray(0, this.#bodyLength) };
  }
}

function parseHead(text: string, limits: ReaderLimits): ReadState {
  const lines = text.split("\r\n");
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/(1\.[01])$/.exec(lines[0]!);
  if (!requestLine || !TARGET.test(requestLine[2]!)) {
    return { kind: "error", status: 400, reason: "malformed request line" };
  }
  const fields = lines.slice(1);
  if (fields.length > limits.maxHeaderFields) {
    return { kind: "error", status: 431, reason: `more than ${limits.maxHeaderFields} header fields` };
  }
  const headers = new Map<string, string[]>();
  for (const line of fields) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon);
    // Obsolete line folding and names with whitespace are refused (RFC 9112 §5.1, §5.2).
    if (colon <= 0 || !TOKEN.test(name)) {
      return { kind: "error", status: 400, reason: "malformed header field" };
    }
    const value = line.slice(colon + 1);
    if (CONTROL.test(value)) {
      return { kind: "error", status: 400, reason: `control character in the ${name} header field` };
    }
    const key = name.toLowerCase();
    const values = headers.get(key) ?? [];
    // Only SP and HTAB are optional whitespace around a value (RFC 9110 §5.6.3); trim() would also eat others.
    values.push(value.replace(/^[ \t]+|[ \t]+$/g, ""));
    headers.set(key, values);
  }
  return {
    kind: "head",
    head: { method: requestLine[1]!, target: requestLine[2]!, version: requestLine[3]!, headers },
  };
}

/** A response to serialise. */
export interface HttpResponse {
  readonly status: number;
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string;
  readonly contentType?: string;
}

const REASONS: Readonly<Record<number, string>> = {
  200: "OK",
  202: "Accepted",
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  411: "Length Required",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

const encoder = new TextEncoder();

/**
 * Serialises a response; every response closes the connection, so it always carries `Connection: close` and an
 * exact `Content-Length`.
 */
export function serializeResponse(response: HttpResponse): Uint8Array {
  const body = encoder.encode(response.body ?? "");
  const lines = [`HTTP/1.1 ${response.status} ${REASONS[response.status] ?? "Status"}`];
  if (response.contentType) lines.push(`Content-Type: ${response.contentType}`);
  for (const [name, value] of response.headers ?? []) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${body.length}`, "Connection: close", "", "");
  return concatBytes([encoder.encode(lines.join("\r\n")), body]);
}

/** Whether an LF not preceded by CR occurs in the first `length` bytes. */
function hasBareLf(bytes: Uint8Array, length: number): boolean {
  for (let i = bytes.indexOf(10); i !== -1 && i < length; i = bytes.indexOf(10, i + 1)) {
    if (i === 0 || bytes[i - 1] !== 13) return true;
  }
  return false;
}

function indexOf(haystack: Uint8Array, needle: readonly number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
