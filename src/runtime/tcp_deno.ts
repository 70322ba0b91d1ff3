/**
 * Deno binding of the HTTP endpoint: a raw `Deno.listen` TCP listener whose connections become
 * {@link ByteStream}s. Raw TCP rather than Deno.serve so the shared reader enforces the request-line, header-count
 * and 408 rules exactly (docs/decisions/raw-tcp-http.md).
 *
 * @module
 */
import type { ByteStream } from "../transport/http_endpoint.ts";

/** Wraps a connection; reads resolve `null` at end or error, writes never reject. */
export function connStream(conn: Deno.Conn): ByteStream {
  let closed = false;
  // One read buffer per connection, and each chunk copied out at its size: a fresh 64 KiB buffer per read made
  // a client dripping one byte at a time cost 64 KiB per byte until the collector caught up (RSS +170 MiB in
  // 40 s beside 16 such clients, measured with the siege, bench/siege_bench.ts).
  const buffer = new Uint8Array(65_536);
  return {
    read: async () => {
      try {
        const n = await conn.read(buffer);
        return n === null ? null : buffer.slice(0, n);
      } catch {
        return null;
      }
    },
    write: async (bytes) => {
      try {
        for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
      } catch {
        // The peer is gone; the endpoint closes the connection next.
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch {
        // Already closed by the peer.
      }
    },
    // Nothing reads once the request is complete, so a reset would go unseen: keep one read pending. Its end
    // (a FIN) or any bytes after the request mean nothing; only a reset resolves.
    reset: async () => {
      const spare = new Uint8Array(1024);
      for (;;) {
        try {
          if (closed || (await conn.read(spare)) === null) return await new Promise<never>(() => {});
        } catch (error) {
          if (!closed && isConnectionGone(error)) return;
          return await new Promise<never>(() => {});
        }
      }
    },
  };
}

function isConnectionGone(error: unknown): boolean {
  return error instanceof Deno.errors.NotConnected || error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted;
}

/**
 * Pause after a failed accept that is not a closed listener or a vanished connection (e.g. out of file
 * descriptors), so the loop does not spin.
 */
const ACCEPT_RETRY_MS = 50;

/**
 * Accepts until the listener is closed. A connection reset between the kernel's accept and ours surfaces here
 * (as NotConnected or ConnectionReset, from accept or from setNoDelay); it costs that connection only.
 */
async function acceptLoop(
  listener: Deno.Listener,
  onConnection: (stream: ByteStream) => void,
): Promise<void> {
  for (;;) {
    let conn: Deno.TcpConn;
    try {
      conn = (await listener.accept()) as Deno.TcpConn;
    } catch (error) {
      if (error instanceof Deno.errors.BadResource) return;
      // A connection gone before we took it: take the next at once, or a reset flood would fill the backlog
      // ahead of honest clients while we wait.
      if (!isConnectionGone(error)) await new Promise((resolve) => setTimeout(resolve, ACCEPT_RETRY_MS));
      continue;
    }
    try {
      conn.setNoDelay(true);
    } catch {
      // Reset before we saw it: the first read reports the end and the endpoint closes it.
    }
    onConnection(connStream(conn));
  }
}

/** Listens on `bind:port`; resolves with the bound port once listening, then accepts until the process ends. */
export function listenDeno(
  bind: string,
  port: number,
  onConnection: (stream: ByteStream) => void,
): Promise<number> {
  const listener = Deno.listen({ hostname: bind.replace(/^\[|\]$/g, ""), port, transport: "tcp" });
  void acceptLoop(listener, onConnection);
  return Promise.resolve((listener.addr as Deno.NetAddr).port);
}
