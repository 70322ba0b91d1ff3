/**
 * Node binding of the HTTP endpoint: a raw `node:net` listener whose sockets become {@link ByteStream}s. Raw TCP
 * rather than node:http so the shared reader enforces the request-line, header-count and 408 rules exactly
 * (docs/decisions/raw-tcp-http.md).
 *
 * @module
 */
import { createServer, type Socket } from "node:net";
import type { ByteStream } from "../transport/http_endpoint.ts";

/**
 * Bytes queued before the stream pauses the socket. Above it the kernel's receive window holds a fast sender
 * back, so a client that keeps sending costs the server no memory of its own.
 */
const QUEUE_CAP_BYTES = 64 * 1024;

/**
 * Wraps a socket; reads resolve `null` at end or error, writes never reject. What arrives once `reset()` has been
 * asked for (the request is complete) is dropped, as Deno's binding reads it into a spare buffer.
 */
export function socketStream(socket: Socket): ByteStream {
  const queue: Uint8Array[] = [];
  let queued = 0;
  let ended = false;
  let discarding = false;
  let waiting: ((chunk: Uint8Array | null) => void) | undefined;
  const deliver = (chunk: Uint8Array | null) => {
    const resolve = waiting;
    waiting = undefined;
    if (resolve) resolve(chunk);
    else if (chunk) enqueue(chunk);
  };
  const enqueue = (chunk: Uint8Array) => {
    queue.push(chunk);
    queued += chunk.length;
    if (queued >= QUEUE_CAP_BYTES) socket.pause();
  };
  const dequeue = (): Uint8Array => {
    const chunk = queue.shift()!;
    queued -= chunk.length;
    if (queued < QUEUE_CAP_BYTES && !ended) socket.resume();
    return chunk;
  };
  socket.on("data", (chunk: Uint8Array) => {
    if (!discarding) deliver(chunk);
  });
  const finish = () => {
    ended = true;
    deliver(null);
  };
  let onReset: () => void = () => {};
  const reset = new Promise<void>((resolve) => (onReset = resolve));
  socket.on("end", finish);
  socket.on("close", finish);
  socket.on("error", (error: NodeJS.ErrnoException) => {
    // A FIN only ends the reading side ('end'); a reset or a broken pipe is an error.
    if (error.code === "ECONNRESET" || error.code === "EPIPE") onReset();
    finish();
  });
  return {
    read: () => {
      if (queue.length > 0) return Promise.resolve(dequeue());
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    write: (bytes) => new Promise((resolve) => socket.write(bytes, () => resolve())),
    close: () => socket.destroySoon(),
    // Nothing reads once the request is complete, yet a reset must still be seen: keep the socket flowing and
    // drop what it brings.
    reset: () => {
      discarding = true;
      queue.length = 0;
      queued = 0;
      socket.resume();
      return reset;
    },
  };
}

/**
 * Listens on `bind:port`; resolves with the bound port once listening. `allowHalfOpen` keeps our side writable
 * after the client's FIN, so a client that half-closes once its request is sent still gets the answer.
 */
export function listenNode(
  bind: string,
  port: number,
  onConnection: (stream: ByteStream) => void,
): Promise<number> {
  const server = createServer(
    { noDelay: true, allowHalfOpen: true },
    (socket) => onConnection(socketStream(socket)),
  );
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, bind.replace(/^\[|\]$/g, ""), () => {
      // After listening, a failed accept (a reset, or no file descriptor left) costs that connection only.
      server.on("error", () => {});
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}
