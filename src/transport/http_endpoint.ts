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
}

/** Options of an HTTP endpoint. */
export interface HttpEndpointOptions extends EndpointOptions {
  /** Connections served at once; one more gets 503 with `Retry-After: 1`. */
  readonly maxConcurrency: number;
  /** Read and write deadline per connection, in ms (30 s by default). */
  readonly timeoutMs: number;
}

/** Default per-connection read/write timeout (the spec's 30 s). */
export const HTTP_TIMEOUT_MS = 30_000;

const TIMEOUT = Symbol("timeout");

/** Resolves with the promise's value, or with TIMEOUT once `deadline` (epoch ms) has passed. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

/**
 * Serves connections for one MCP server.
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
  #active = 0;

  /** @param server The protocol engine; each request gets a fresh modern-only connection. */
  constructor(server: McpServer, options: HttpEndpointOptions) {
    this.#server = server;
    this.#options = options;
  }

  /** Connections being served now. */
  get active(): number {
    return this.#active;
  }

  /** Serves one accepted connection and closes it. Never rejects. */
  async handle(stream: ByteStream): Promise<void> {
    if (this.#active >= this.#options.maxConcurrency) {
      const busy = problem(503, "Too many connections; retry shortly.", [["Retry-After", "1"]]);
      await this.#send(stream, busy, Date.now() + this.#options.timeoutMs);
      stream.close();
      return;
    }
    this.#active++;
    try {
      const deadline = Date.now() + this.#options.timeoutMs;
      const response = await this.#answer(stream, deadline);
      if (response) await this.#send(stream, response, Date.now() + this.#options.timeoutMs);
    } catch {
      // A failed socket is simply closed; there is no one left to tell.
    } finally {
      this.#active--;
      stream.close();
    }
  }

  /** Reads one request and decides the response; `undefined` when the peer went away first. */
  async #answer(stream: ByteStream, deadline: number): Promise<HttpResponse | undefined> {
    const reader = new RequestReader();
    let head: RequestHead | undefined;
    for (;;) {
      const chunk = await beforeDeadline(stream.read(), deadline);
      if (chunk === TIMEOUT) return problem(408, "Request not received within 30 seconds.");
      if (chunk === null) return undefined;
      let state = reader.feed(chunk);
      if (state.kind === "error") return problem(state.status, `Bad request: ${state.reason}.`);
      if (state.kind === "head") {
        head = state.head;
        const decision = checkHead(head, this.#options);
        if (decision.kind === "respond") return decision.response;
        state = reader.expectBody(decision.contentLength);
      }
      if (state.kind === "body" && head) return await serveBody(this.#server, head, state.body);
    }
  }

  async #send(stream: ByteStream, response: HttpResponse, deadline: number): Promise<void> {
    await beforeDeadline(stream.write(serializeResponse(response)), deadline);
  }
}
