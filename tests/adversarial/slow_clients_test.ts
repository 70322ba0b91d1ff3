/**
 * Slow and dripping clients against the real server process: connections that send their request a byte at a
 * time (and reconnect when dropped) must not cost an honest client its answers, while real excess load still
 * meets the concurrency limit with 503 and `Retry-After: 1`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { connect } from "node:net";
import { mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { honestCall, honestRequest, isEthanolResult, sleep, toolCall } from "../helpers/attack.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";

/**
 * Keeps `count` connections dripping one byte every `everyMs`, reconnecting each as soon as the server drops it.
 * `prefix` is sent at once: a partial head, or a complete head whose body then drips.
 */
class Drippers {
  readonly #sockets = new Set<Socket>();
  #running = true;
  /** Connections the server closed (each is replaced at once). */
  dropped = 0;

  constructor(readonly port: number, count: number, readonly prefix: string, readonly everyMs = 100) {
    for (let i = 0; i < count; i++) this.#open();
  }

  #open(): void {
    if (!this.#running) return;
    const socket = connect(this.port, "127.0.0.1");
    this.#sockets.add(socket);
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.write(this.prefix);
    const timer = setInterval(() => socket.write("a"), this.everyMs);
    socket.on("close", () => {
      clearInterval(timer);
      this.#sockets.delete(socket);
      if (!this.#running) return;
      this.dropped++;
      setTimeout(() => this.#open(), 10);
    });
  }

  stop(): void {
    this.#running = false;
    for (const socket of this.#sockets) socket.destroy();
  }
}

/** `calls` honest sequential calls; resolves with [successes, calls]. */
async function honestCalls(port: number, calls: number): Promise<[number, number]> {
  let ok = 0;
  for (let i = 0; i < calls; i++) if (isEthanolResult(await honestCall(port))) ok++;
  return [ok, calls];
}

const HEAD_PREFIX = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ";
const BODY_PREFIX =
  honestRequest().replace(/Content-Length: \d+/, "Content-Length: 100000").split("\r\n\r\n")[0] +
  "\r\n\r\n";

test("slow clients: an honest client keeps >= 95% success beside 16 dripping connections", async () => {
  const server = await startHttpServer(["--max-concurrency", "4"]);
  const drippers = [new Drippers(server.port, 8, HEAD_PREFIX), new Drippers(server.port, 8, BODY_PREFIX)];
  try {
    await sleep(500);
    const [ok, calls] = await honestCalls(server.port, 40);
    assert.ok(ok / calls >= 0.95, `${ok} of ${calls} honest calls succeeded`);
  } finally {
    for (const d of drippers) d.stop();
    await server.stop();
  }
});

test("slow clients: beyond the reading capacity the longest-sending connection is evicted with 408", async () => {
  const server = await startHttpServer(["--max-concurrency", "2"]);
  // The oldest sender of all: the first to be evicted once 100 drippers compete for 64 reading places.
  const first = rawRequest(server.port, HEAD_PREFIX);
  await sleep(200);
  const drippers = new Drippers(server.port, 100, HEAD_PREFIX, 200);
  try {
    const evicted = await first;
    assert.equal(evicted.status, 408);
    assert.match(evicted.body, /needed for another/);
    await sleep(500);
    const [ok, calls] = await honestCalls(server.port, 40);
    assert.ok(ok / calls >= 0.95, `${ok} of ${calls} honest calls succeeded`);
    assert.ok(drippers.dropped > 0, "no dripping connection was evicted");
  } finally {
    drippers.stop();
    await server.stop();
  }
});

test("slow clients: real excess load still gets 503 with Retry-After: 1, and the server recovers", async () => {
  const server = await startHttpServer(["--max-concurrency", "2"], { CHEM_MCP_WORKERS: "2" });
  const drippers = new Drippers(server.port, 16, HEAD_PREFIX);
  try {
    const runaway = toolCall("smarts_match", {
      smiles: RUNAWAY_MOLECULE,
      smarts: RUNAWAY_SMARTS,
      timeout_seconds: 3,
    });
    const held = [0, 1].map(() =>
      rawRequest(server.port, post(runaway, mcpHeaders("tools/call", "smarts_match")))
    );
    // On a loaded machine the server may not have read both held requests yet when the first honest call
    // comes, and that call rightly gets its place: the concurrency limit is checked while both are held.
    let busy = await honestCall(server.port);
    for (let tries = 0; busy.status !== 503 && tries < 20; tries++) {
      await sleep(100);
      busy = await honestCall(server.port);
    }
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "1");
    const finished = await Promise.all(held);
    // The second search waits for the first (searches keep a worker for bounded calls): it times out in turn,
    // or, should the first hold the search worker for the queue's 4 s on a slow machine, gets SERVER_BUSY.
    for (const r of finished) assert.match(r.body, /COMPUTATION_TIMEOUT|SERVER_BUSY/);
    assert.ok(isEthanolResult(await honestCall(server.port)));
  } finally {
    drippers.stop();
    await server.stop();
  }
});
