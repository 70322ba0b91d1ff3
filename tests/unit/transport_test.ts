// The sans-I/O layers under the transports, fed bytes directly: framing, the HTTP/1.1 request reader and the
// byte helpers. The same rows are exercised end to end over real pipes and sockets in tests/e2e/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { concatBytes, readAtMost } from "../../src/bytes.ts";
import { type LineEvent, LineSplitter } from "../../src/transport/lines.ts";
import { RequestReader, serializeResponse } from "../../src/transport/h1.ts";
import { seededRandom } from "../helpers/random.ts";
import { StdioSession } from "../../src/transport/stdio.ts";
import { createServer } from "../../src/create_server.ts";
import { MODERN_META } from "../helpers/protocol.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

test("concatBytes joins chunks in order and returns a lone chunk as is", () => {
  assert.deepEqual([...concatBytes([enc("ab"), enc(""), enc("c")])], [...enc("abc")]);
  const one = enc("x");
  assert.equal(concatBytes([one]), one);
  assert.equal(concatBytes([]).length, 0);
});

test("readAtMost returns the whole stream up to the limit and undefined past it", async () => {
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc("hello "));
        c.enqueue(enc("world"));
        c.close();
      },
    });
  assert.equal(dec((await readAtMost(stream(), 11))!), "hello world");
  assert.equal(await readAtMost(stream(), 10), undefined);
});

test("LineSplitter joins a line split across chunks and strips CR", () => {
  const s = new LineSplitter(64);
  assert.deepEqual(s.push(enc('{"a":1}\r\n{"b"')), [{ kind: "line", text: '{"a":1}' }]);
  assert.deepEqual(s.push(enc(":2}\n\n  \n")), [{ kind: "line", text: '{"b":2}' }]);
  assert.deepEqual(s.push(enc("tail")), []);
  assert.deepEqual(s.end(), [{ kind: "line", text: "tail" }]);
});

test("LineSplitter reports an oversize line once, keeps nothing of it, and resynchronises", () => {
  const s = new LineSplitter(8);
  assert.deepEqual(s.push(enc("0123456789")), []);
  assert.deepEqual(s.push(enc("abcdef\nok\n")), [{ kind: "oversize", bytes: 16 }, {
    kind: "line",
    text: "ok",
  }]);
  // Exactly the limit is kept, with or without a CR.
  assert.deepEqual(s.push(enc("12345678\r\n12345678\n")), [
    { kind: "line", text: "12345678" },
    { kind: "line", text: "12345678" },
  ]);
});

test("LineSplitter flags invalid UTF-8 instead of replacing it", () => {
  const s = new LineSplitter(64);
  assert.deepEqual(s.push(new Uint8Array([0x7b, 0xff, 0x7d, 0x0a])), [{ kind: "invalid_utf8" }]);
});

test("RequestReader gives the head before the body, byte by byte", () => {
  const r = new RequestReader();
  const head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 2\r\n\r\n";
  let state = r.feed(new Uint8Array(0));
  for (const byte of enc(head)) state = r.feed(new Uint8Array([byte]));
  assert.equal(state.kind, "head");
  if (state.kind !== "head") return;
  assert.equal(state.head.method, "POST");
  assert.equal(state.head.target, "/mcp");
  assert.equal(state.head.version, "1.1");
  assert.deepEqual(state.head.headers.get("x-a"), ["1", "2"]);
  assert.deepEqual(r.expectBody(2), { kind: "incomplete" });
  assert.deepEqual(r.feed(enc("{")), { kind: "incomplete" });
  const body = r.feed(enc("}"));
  assert.equal(body.kind === "body" && dec(body.body), "{}");
});

test("RequestReader enforces the request-line, header-size and field-count limits with 431", () => {
  const limits = { maxRequestLine: 32, maxHeaderBytes: 80, maxHeaderFields: 2 };
  const long = new RequestReader(limits).feed(enc(`GET /${"a".repeat(40)}`));
  assert.deepEqual(long.kind === "error" && long.status, 431);
  const big = new RequestReader(limits).feed(enc(`POST / HTTP/1.1\r\nX: ${"b".repeat(80)}`));
  assert.deepEqual(big.kind === "error" && big.status, 431);
  const many = new RequestReader(limits).feed(enc("POST / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"));
  assert.deepEqual(many.kind === "error" && many.status, 431);
});

test("RequestReader refuses a malformed request line and folded or spaced header names with 400", () => {
  for (
    const raw of [
      "POST /mcp\r\n\r\n",
      "POST /mcp HTTP/2.0\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nHost : x\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
    ]
  ) {
    const state = new RequestReader().feed(enc(raw));
    assert.equal(state.kind === "error" && state.status, 400, JSON.stringify(raw));
  }
});

test("serializeResponse writes the status line, headers, exact byte Content-Length and Connection: close", () => {
  const text = dec(serializeResponse({
    status: 405,
    headers: [["Allow", "POST"]],
    contentType: "application/json",
    body: '{"é":1}',
  }));
  assert.equal(
    text,
    'HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nAllow: POST\r\nContent-Length: 8\r\nConnection: close\r\n\r\n{"é":1}',
  );
});

test("RequestReader never throws on random bytes, fed in random chunks", () => {
  const next = seededRandom(7);
  const alphabet = enc("POST /mcp HTTP/1.1\r\n:Content-Length: 12\r\nHost \t\x00\xff{}");
  for (let round = 0; round < 2000; round++) {
    const reader = new RequestReader({ maxRequestLine: 64, maxHeaderBytes: 256, maxHeaderFields: 8 });
    let state = reader.feed(new Uint8Array(0));
    for (let chunk = 0; chunk < 6 && (state.kind === "incomplete" || state.kind === "head"); chunk++) {
      if (state.kind === "head") state = reader.expectBody(Math.floor(next() * 16));
      const bytes = Uint8Array.from(
        { length: Math.floor(next() * 80) },
        () => next() < 0.7 ? alphabet[Math.floor(next() * alphabet.length)]! : Math.floor(next() * 256),
      );
      state = reader.feed(bytes);
    }
    assert.ok(["incomplete", "head", "body", "error"].includes(state.kind));
  }
});

test("LineSplitter never throws on random bytes and never returns a line over its limit", () => {
  const next = seededRandom(11);
  const splitter = new LineSplitter(32);
  for (let round = 0; round < 2000; round++) {
    const bytes = Uint8Array.from(
      { length: Math.floor(next() * 64) },
      () => next() < 0.1 ? 0x0a : Math.floor(next() * 256),
    );
    for (const event of splitter.push(bytes)) {
      if (event.kind === "line") assert.ok(enc(event.text).length <= 32);
    }
  }
});

/** LineSplitter's rules applied to a whole stream at once, one line at a time: what any chunking must give. */
function framesOf(stream: Uint8Array, maxBytes: number): LineEvent[] {
  const events: LineEvent[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let from = 0;
  while (from <= stream.length) {
    const newline = stream.indexOf(0x0a, from);
    const end = newline === -1 ? stream.length : newline;
    let line = stream.subarray(from, end);
    from = end + 1;
    if (line.length > maxBytes + 1) {
      events.push({ kind: "oversize", bytes: line.length });
      continue;
    }
    if (line.at(-1) === 0x0d) line = line.subarray(0, -1);
    if (line.length > maxBytes) {
      events.push({ kind: "oversize", bytes: line.length });
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(line);
    } catch {
      events.push({ kind: "invalid_utf8" });
      continue;
    }
    if (text.trim().length > 0) events.push({ kind: "line", text });
  }
  return events;
}

test("LineSplitter gives the same events however the stream is cut into chunks (BOMs, CRs, bad UTF-8, long lines)", () => {
  const next = seededRandom(29);
  const pieces = [
    enc('{"a":1}'),
    enc("\n"),
    enc("\r\n"),
    enc("\ufeff{}"),
    enc("é€😀"),
    Uint8Array.of(0xff),
    Uint8Array.of(0xe2, 0x82),
    enc(" "),
    enc("x".repeat(20)),
  ];
  for (let round = 0; round < 1500; round++) {
    const parts = Array.from(
      { length: Math.floor(next() * 24) },
      () => pieces[Math.floor(next() * pieces.length)]!,
    );
    const stream = concatBytes(parts);
    const splitter = new LineSplitter(24);
    const events: LineEvent[] = [];
    for (let at = 0; at < stream.length;) {
      const size = 1 + Math.floor(next() * (next() < 0.5 ? 8 : stream.length));
      events.push(...splitter.push(stream.subarray(at, at + size)));
      at += size;
    }
    events.push(...splitter.end());
    assert.deepEqual(events, framesOf(stream, 24), JSON.stringify([...stream]));
  }
});

test("StdioSession stops taking input while answers wait for a client that does not read, then resumes", async () => {
  let release: () => void = () => {};
  const written: string[] = [];
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      written.push(text);
      release = resolve;
    });
  const session = new StdioSession(createServer().connect(), write, {
    maxBytes: 1 << 20,
    maxInFlight: 4,
    maxQueued: 100_000,
  });
  const meta = JSON.stringify(MODERN_META);
  const lines = Array.from(
    { length: 10 },
    (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/list","params":{"_meta":${meta}}}\n`,
  );
  const busy = session.push(enc(lines.join("")));
  assert.ok(busy, "ten requests at once exceed four in flight");
  let resumed = false;
  void busy.then(() => (resumed = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Every request has been answered, but the first write has not finished: the answers are queued.
  assert.equal(resumed, false, "still saturated: over 100,000 characters wait for the reader");
  while (!resumed) {
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  release();
  await session.end();
  const answers = written.join("").split("\n").filter((l) => l.length > 0);
  assert.equal(answers.length, 10);
  assert.equal(session.push(enc("")), undefined, "an idle session takes input at once");
});

test("StdioSession answers the lines of one chunk in one write when they finish together", async () => {
  const writes: string[] = [];
  const session = new StdioSession(createServer().connect(), (text) => void writes.push(text));
  const meta = JSON.stringify(MODERN_META);
  const lines = Array.from(
    { length: 16 },
    (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/list","params":{"_meta":${meta}}}\n`,
  );
  assert.equal(session.push(enc(lines.join(""))), undefined);
  await session.end();
  assert.equal(writes.length, 1, "one write for the sixteen answers");
  assert.deepEqual(
    writes[0]!.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line).id),
    Array.from({ length: 16 }, (_, i) => i),
  );
});
