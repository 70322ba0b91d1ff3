/**
 * Newline-delimited framing for stdio, as a pure byte-level state machine: feed it chunks, get complete lines
 * back. A line longer than the limit is not buffered: its bytes are dropped as they arrive and one `oversize`
 * event is emitted when its newline comes, so a huge message costs no memory and the stream stays in sync.
 *
 * @module
 */

/** One framing event. */
export type LineEvent =
  | { readonly kind: "line"; readonly text: string }
  | { readonly kind: "oversize"; readonly bytes: number }
  | { readonly kind: "invalid_utf8" };

import { concatBytes } from "../bytes.ts";

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into UTF-8 lines of at most `maxBytes` bytes (excluding the `\n` and an optional `\r`).
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter(1024);
 * splitter.push(new TextEncoder().encode('{"a":1}\n{"b"'));  // [{ kind: "line", text: '{"a":1}' }]
 * splitter.push(new TextEncoder().encode(':2}\n'));          // [{ kind: "line", text: '{"b":2}' }]
 * ```
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  #parts: Uint8Array[] = [];
  #length = 0;
  #dropping = false;

  /** @param maxBytes Largest line kept, in bytes. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Feeds a chunk; returns the events it completes. */
  push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    if (this.#length > 0) {
      // The line begun in an earlier chunk ends first.
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.#append(chunk);
        return events;
      }
      this.#append(chunk.subarray(0, end));
      const event = this.#finishLine();
      if (event) events.push(event);
      start = end + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      this.#wholeLines(chunk.subarray(start, last), events);
      start = last + 1;
    }
    this.#append(chunk.subarray(start));
    return events;
  }

  /**
   * Lines that begin and end within one chunk (`span` holds them without the last newline): decoded with one
   * call rather than one per line, when none is too long, all are valid UTF-8 and no line but the first starts
   * with a byte order mark (which decoding a line alone drops); else line by line, as the general path.
   */
  #wholeLines(span: Uint8Array, events: LineEvent[]): void {
    for (let from = 0; from <= span.length;) {
      const end = span.indexOf(NEWLINE, from);
      const length = (end === -1 ? span.length : end) - from;
      if (length > this.#maxBytes) return this.#eachLine(span, events);
      if (end === -1) break;
      from = end + 1;
    }
    let text: string;
    try {
      text = this.#decoder.decode(span);
    } catch {
      return this.#eachLine(span, events);
    }
    if (text.includes("\uFEFF")) return this.#eachLine(span, events);
    for (let line of text.split("\n")) {
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.trim().length > 0) events.push({ kind: "line", text: line });
    }
  }

  #eachLine(span: Uint8Array, events: LineEvent[]): void {
    for (let from = 0;;) {
      const end = span.indexOf(NEWLINE, from);
      this.#append(span.subarray(from, end === -1 ? span.length : end));
      const event = this.#finishLine();
      if (event) events.push(event);
      if (end === -1) return;
      from = end + 1;
    }
  }

  /** Ends the stream: a final line without a newline is still delivered. */
  end(): LineEvent[] {
    const event = this.#finishLine();
    return event ? [event] : [];
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#length += bytes.length;
    // Allow one extra byte for a trailing CR that is stripped later.
    if (this.#length > this.#maxBytes + 1) {
      this.#dropping = true;
      this.#parts = [];
      return;
    }
    if (!this.#dropping) this.#parts.push(bytes.slice());
  }

  #finishLine(): LineEvent | undefined {
    const length = this.#length;
    const dropping = this.#dropping;
    const parts = this.#parts;
    this.#parts = [];
    this.#length = 0;
    this.#dropping = false;
    if (dropping) return { kind: "oversize", bytes: length };
    let bytes = concatBytes(parts);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length > this.#maxBytes) return { kind: "oversize", bytes: bytes.length };
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      return { kind: "invalid_utf8" };
    }
    return text.trim().length === 0 ? undefined : { kind: "line", text };
  }
}
