/**
 * The stdio transport without I/O: bytes from stdin go in through {@link StdioSession.push}, response lines come
 * out through the `write` callback. Requests are served concurrently and answered as they finish; writes are
 * serialised so lines never interleave. When too many requests are being served, or too many answers wait for a
 * client that does not read them, `push` returns a promise and the runtime stops reading stdin until it
 * resolves, so memory stays bounded whatever the client sends.
 *
 * @module
 */
import { ProtocolError } from "../errors.ts";
import { toErrorObject } from "../protocol/errors.ts";
import { errorResponse, MAX_REQUEST_BYTES, tooLargeError } from "../protocol/jsonrpc.ts";
import type { Connection, Reply } from "../protocol/server.ts";
import { type LineEvent, LineSplitter } from "./lines.ts";

/** Writes one or more complete lines (each already ends in `\n`). */
export type LineWriter = (line: string) => void | Promise<void>;

/** Limits of one stdio connection. */
export interface StdioLimits {
  /** Largest accepted line, bytes (1 MiB). */
  readonly maxBytes: number;
  /** Requests served at once before reading pauses. */
  readonly maxInFlight: number;
  /** Answer text queued for a slow reader before reading pauses, UTF-16 code units. */
  readonly maxQueued: number;
}

/** The defaults: the spec's 1 MiB message limit, 256 requests in flight, 8 Mi characters of queued answers. */
export const STDIO_LIMITS: StdioLimits = {
  maxBytes: MAX_REQUEST_BYTES,
  maxInFlight: 256,
  maxQueued: 8 * 1024 * 1024,
};

/**
 * One stdio connection.
 *
 * @example
 * ```ts
 * const session = new StdioSession(server.connect(), (line) => process.stdout.write(line));
 * process.stdin.on("data", (chunk) => {
 *   const busy = session.push(chunk);
 *   if (!busy) return;
 *   process.stdin.pause();
 *   busy.then(() => process.stdin.resume());
 * });
 * process.stdin.on("end", () => session.end().then(() => process.exit(0)));
 * ```
 */
export class StdioSession {
  readonly #connection: Connection;
  readonly #write: LineWriter;
  readonly #limits: StdioLimits;
  readonly #splitter: LineSplitter;
  /** Requests being served. */
  #inFlight = 0;
  /** Told when the last request being served has been answered (for {@link StdioSession.end}). */
  #idle: (() => void) | undefined;
  #pending: string[] = [];
  #queued = 0;
  #flushing: Promise<void> | undefined;
  #resume: (() => void) | undefined;

  /**
   * @param connection Protocol connection (holds the dialect pin).
   * @param write Sink for response lines.
   * @param limits Line size and backpressure limits ({@link STDIO_LIMITS} by default).
   */
  constructor(connection: Connection, write: LineWriter, limits: StdioLimits = STDIO_LIMITS) {
    this.#connection = connection;
    this.#write = write;
    this.#limits = limits;
    this.#splitter = new LineSplitter(limits.maxBytes);
  }

  /**
   * Feeds bytes read from stdin. Returns a promise when the connection is saturated: read nothing more until it
   * resolves. Nothing of `chunk` is kept once this returns, so the caller may read into the same buffer again.
   */
  push(chunk: Uint8Array): Promise<void> | undefined {
    for (const event of this.#splitter.push(chunk)) this.#dispatch(event);
    if (!this.#saturated()) return undefined;
    return new Promise((resolve) => (this.#resume = resolve));
  }

  /** Stdin closed: serve the last unterminated line, wait for every answer, then resolve. */
  async end(): Promise<void> {
    for (const event of this.#splitter.end()) this.#dispatch(event);
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    while (this.#flushing) await this.#flushing;
  }

  #dispatch(event: LineEvent): void {
    switch (event.kind) {
      case "oversize":
        return this.#send({ text: errorResponse(null, toErrorObject(tooLargeError(event.bytes))) });
      case "invalid_utf8":
        return this.#send({
          text: errorResponse(
            null,
            toErrorObject(new ProtocolError("parse_error", "Parse error: invalid UTF-8")),
          ),
        });
      case "line":
        this.#inFlight++;
        // One reaction per request, bound once per session: no closure or finally chain per line.
        void this.#connection.handle(event.text).then(this.#answered, this.#failed);
    }
  }

  readonly #answered = (reply: Reply | undefined): void => {
    if (reply) this.#send(reply);
    this.#served();
  };

  /** A request whose handling broke (a bug): still counted out, then rethrown as before, unhandled. */
  readonly #failed = (error: unknown): never => {
    this.#served();
    throw error;
  };

  #served(): void {
    if (--this.#inFlight === 0) this.#idle?.();
    this.#wake();
  }

  #send(reply: Reply): void {
    this.#pending.push(`${reply.text}\n`);
    this.#queued += reply.text.length + 1;
    this.#flushing ??= this.#flush();
  }

  #saturated(): boolean {
    return this.#inFlight >= this.#limits.maxInFlight || this.#queued >= this.#limits.maxQueued;
  }

  #wake(): void {
    if (!this.#resume || this.#saturated()) return;
    const resume = this.#resume;
    this.#resume = undefined;
    resume();
  }

  /**
   * Writes every queued line, coalescing lines that pile up during a write into one write. It first lets the
   * microtask queue turn once: the answers to the other lines of the same chunk finish in that turn, and go out
   * in the first write rather than the second (Node's pipe writes end at once, so a chunk cost two writes).
   */
  async #flush(): Promise<void> {
    await Promise.resolve();
    while (this.#pending.length > 0) {
      const batch = this.#pending.join("");
      this.#pending = [];
      await this.#write(batch);
      this.#queued -= batch.length;
      this.#wake();
    }
    this.#flushing = undefined;
  }
}
