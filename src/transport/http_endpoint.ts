/**
 * One Streamable HTTP connection from accept to close, over any byte stream: read the request within the
 * deadline, answer once, close. Runtime-neutral (timers and promises only); src/runtime/tcp_*.ts adapt sockets.
 *
 * @module
 */
import type { McpServer } from "../protocol/server.ts";
import { type HttpResponse, type RequestHead, RequestReader, serializeResponse } from "./h1.ts";
import { checkHead, type EndpointOptions, problem, serveBody } from "./streamable.ts";

/** A connected byte stream, as each runtime provides it. */
export interface ByteStream {
  /** The next chunk, or `null` once the peer has finished sending. */
  read(): Promise<Uint8Array | null>;
  /** Writes every byte; resolves when handed to the OS. */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes the connection (idempotent). */
  close(): void;
  /**
   * Resolves if the peer resets the connection (RST), never on an orderly end of its sending (FIN, a half-close
   * that still reads). Called once the request is complete; the call it carries is then cancelled.
   */
  reset?(): Promise<void>;
}

/** Options of an HTTP endpoint. */
export interface HttpEndpointOptions extends EndpointOptions {
  /** Requests served at once, counted from a complete request to its answer; one more gets 503 with `Retry-After: 1`. */
  readonly maxConcurrency: number;
  /** Read and write deadline per connection, in ms (30 s by default). */
  readonly timeoutMs: number;
  /**
   * Connections still sending their request; at this many, a new connection closes the one that has been
   * sending longest with 408. Default {@link readingCapacity}.
   */
  readonly maxReading?: number;
}

/** Default per-connection read/write timeout (the spec's 30 s). */
export const HTTP_TIMEOUT_MS = 30_000;

/**
 * Default number of connections allowed to be sending their request at once: four per served request, at least
 * 64. Each costs at most one head (32 KiB) and one body (1 MiB), so the bound is also a memory bound (~66 MiB
 * at 64).
 */
export function readingCapacity(maxConcurrency: number): number {
  return Math.max(64, 4 * maxConcurrency);
}

const TIMEOUT = Symbol("timeout");
const EVICTED = Symbol("evicted");

/** Resolves with the promise's value, or with TIMEOUT once `deadline` (epoch ms) has passed. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

/** A connection still sending its request, which a newer one may evict. */
interface Reading {
  readonly evicted: Promise<typeof EVICTED>;
  readonly evict: () => void;
}

function reading(): Reading {
  let evict!: () => void;
  const evicted = new Promise<typeof EVICTED>((resolve) => (evict = () => resolve(EVICTED)));
  return { evicted, evict };
}

/** A complete request, or the response that ends the connection before one arrived. */
type Received =
  | { readonly kind: "request"; readonly head: RequestHead; readonly body: Uint8Array }
  | { readonly kind: "respond"; readonly response: HttpResponse }
  | { readonly kind: "gone" };

/**
 * Serves connections for one MCP server. Only complete requests count against `maxConcurrency`: a connection
 * still sending its request holds a reading place, and when every reading place is taken the connection that
 * has been sending longest is closed with 408 to make room (docs/decisions/slow-clients.md). A client that
 * drips its request a byte at a time therefore occupies nothing an honest client needs.
 *
 * @example
 * ```ts
 * const endpoint = new HttpEndpoint(server, { loopbackBind: true, allowedOrigins: new Set(), maxConcurrency: 16,
 *   timeoutMs: 30_000 });
 * listener.onConnection((stream) => endpoint.handle(stream));
 * ```
 */
export class HttpEndpoint {
  readonly #server: McpServer;
  readonly #options: HttpEndpointOptions;
  readonly #maxReading: number;
  /** Connections sending their request, oldest first (a Set keeps insertion order). */
  readonly #reading = new Set<Reading>();
  #active = 0;

  /** @param server The protocol engine; each request gets a fresh modern-only connection. */
  constructor(server: McpServer, options: HttpEndpointOptions) {
    this.#server = server;
    this.#options = options;
    this.#maxReading = options.maxReading ?? readingCapacity(options.maxConcurrency);
  }

  /** Requests being served now. */
  get active(): number {
    return this.#active;
  }

  /** Connections still sending their request now. */
  get readingCount(): number {
    return this.#reading.size;
  }

  /** Serves one accepted connection and closes it. Never rejects. */
  async handle(stream: ByteStream): Promise<void> {
    try {
      const received = await this.#receive(stream);
      if (received.kind === "gone") return;
      const response = received.kind === "respond" ? received.response : await this.#serve(received, stream);
      await this.#send(stream, response, Date.now() + this.#options.timeoutMs);
    } catch {
      // A failed socket is simply closed; there is no one left to tell.
    } finally {
      stream.close();
    }
  }

  /** Reads the request while holding a reading place, evicting the longest-sending connection when full. */
  async #receive(stream: ByteStream): Promise<Received> {
    if (this.#reading.size >= this.#maxReading) {
      const oldest = this.#reading.values().next().value;
      if (oldest) {
        this.#reading.delete(oldest);
        oldest.evict();
      }
    }
    const place = reading();
    this.#reading.add(place);
    try {
      return await this.#read(stream, place.evicted, Date.now() + this.#options.timeoutMs);
    } finally {
      this.#reading.delete(place);
    }
  }

  async #read(stream: ByteStream, evicted: Promise<typeof EVICTED>, deadline: number): Promise<Received> {
    const reader = new RequestReader();
    let head: RequestHead | undefined;
    for (;;) {
      const chunk = await Promise.race([beforeDeadline(stream.read(), deadline), evicted]);
      if (chunk === TIMEOUT) return respond(problem(408, "Request not received within 30 seconds."));
      if (chunk === EVICTED) {
        return respond(problem(408, "Request not received in time: the connection was needed for another."));
      }
      if (chunk === null) return { kind: "gone" };
      let state = reader.feed(chunk);
      if (state.kind === "error") return respond(problem(state.status, `Bad request: ${state.reason}.`));
      if (state.kind === "head") {
        head = state.head;
        const decision = checkHead(head, this.#options);
        if (decision.kind === "respond") return respond(decision.response);
        state = reader.expectBody(decision.contentLength);
      }
      if (state.kind === "body" && head) return { kind: "request", head, body: state.body };
    }
  }

  /**
   * Serves a complete request within the concurrency limit, or answers 503 beyond it. A client that resets the
   * connection meanwhile has cancelled its call (MCP 2026-07-28: over HTTP, closing the stream is the
   * cancellation); one that only half-closes still gets its answer.
   */
  async #serve(request: { head: RequestHead; body: Uint8Array }, stream: ByteStream): Promise<HttpResponse> {
    if (this.#active >= this.#options.maxConcurrency) {
      return problem(503, "Too many requests in progress; retry shortly.", [["Retry-After", "1"]]);
    }
    this.#active++;
    const cancel = new AbortController();
    void stream.reset?.().then(() => cancel.abort(), () => {});
    try {
      return await serveBody(this.#server, request.head, request.body, cancel.signal);
    } finally {
      this.#active--;
    }
  }

  async #send(stream: ByteStream, response: HttpResponse, deadline: number): Promise<void> {
    await beforeDeadline(stream.write(serializeResponse(response)), deadline);
  }
}

function respond(response: HttpResponse): Received {
  return { kind: "respond", response };
}
