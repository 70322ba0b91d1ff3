/**
 * The stdio transport without I/O: bytes from stdin go in through {@link StdioSession.push}, response lines come
 * out through the `write` callback. Requests are served concurrently and answered as they finish; writes are
 * serialised so lines never interleave.
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

/**
 * One stdio connection.
 *
 * @example
 * ```ts
 * const session = new StdioSession(server.connect(), (line) => process.stdout.write(line));
 * process.stdin.on("data", (chunk) => session.push(chunk));
 * process.stdin.on("end", () => session.end().then(() => process.exit(0)));
 * ```
 */
export class StdioSession {
  readonly #connection: Connection;
  readonly #write: LineWriter;
  readonly #splitter: LineSplitter;
  readonly #inFlight = new Set<Promise<void>>();
  #pending: string[] = [];
  #flushing: Promise<void> | undefined;

  /**
   * @param connection Protocol connection (holds the dialect pin).
   * @param write Sink for response lines.
   * @param maxBytes Largest accepted line (1 MiB by default).
   */
  constructor(connection: Connection, write: LineWriter, maxBytes: number = MAX_REQUEST_BYTES) {
    this.#connection = connection;
    this.#write = write;
    this.#splitter = new LineSplitter(maxBytes);
  }

  /** Feeds bytes read from stdin. */
  push(chunk: Uint8Array): void {
    for (const event of this.#splitter.push(chunk)) this.#dispatch(event);
  }

  /** Stdin closed: serve the last unterminated line, wait for every answer, then resolve. */
  async end(): Promise<void> {
    for (const event of this.#splitter.end()) this.#dispatch(event);
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
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
      case "line": {
        const job = this.#connection.handle(event.text).then((reply) => reply && this.#send(reply));
        this.#inFlight.add(job);
        void job.finally(() => this.#inFlight.delete(job));
      }
    }
  }

  #send(reply: Reply): void {
    this.#pending.push(`${reply.text}\n`);
    this.#flushing ??= this.#flush();
  }

  /** Writes every queued line, coalescing lines that pile up during a write into one write. */
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.join("");
      this.#pending = [];
      await this.#write(batch);
    }
    this.#flushing = undefined;
  }
}
