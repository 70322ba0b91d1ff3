/**
 * Node binding of the HTTP endpoint: a raw `node:net` listener whose sockets become {@link ByteStream}s. Raw TCP
 * rather than node:http so the shared reader enforces the request-line, header-count and 408 rules exactly
 * (docs/decisions.md).
 *
 * @module
 */
import { createServer, type Socket } from "node:net";
import type { ByteStream } from "../transport/http_endpoint.ts";

/** Wraps a socket; reads resolve `null` at end or error, writes never reject. */
export function socketStream(socket: Socket): ByteStream {
  const queue: Uint8Array[] = [];
  let ended = false;
  let waiting: ((chunk: Uint8Array | null) => void) | undefined;
  const deliver = (chunk: Uint8Array | null) => {
    const resolve = waiting;
    waiting = undefined;
    if (resolve) resolve(chunk);
    else if (chunk) queue.push(chunk);
  };
  socket.on("data", (chunk: Uint8Array) => deliver(chunk));
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
      if (queue.length > 0) return Promise.resolve(queue.shift()!);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    write: (bytes) => new Promise((resolve) => socket.write(bytes, () => resolve())),
    close: () => socket.destroySoon(),
    reset: () => reset,
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
