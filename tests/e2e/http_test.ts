/**
 * Streamable HTTP on real sockets: every status row, header rule and limit of the spec, against the real server
 * process (raw TCP, so malformed and partial requests can be sent).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import {
  type HttpServer,
  mcpHeaders,
  post,
  rawRequest,
  type RawResponse,
  startHttpServer,
} from "../helpers/http.ts";
import { LineClient, startServer } from "../helpers/process.ts";
import { MODERN_META } from "../helpers/protocol.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";

let server: HttpServer;
before(async () => {
  server = await startHttpServer(["--allowed-origin", "https://app.example.test:8443"], {
    CHEM_MCP_HTTP_TIMEOUT_MS: "1500",
  });
});
after(async () => await server.stop());

let nextId = 1;
function rpc(method: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: MODERN_META } };
}
const call = (name: string, args: Record<string, unknown>) => rpc("tools/call", { name, arguments: args });
const send = (message: unknown, headers: Record<string, string>, path?: string, host?: string) =>
  rawRequest(
    server.port,
    post(typeof message === "string" ? message : JSON.stringify(message), headers, path, host),
  );
const json = (r: RawResponse) =>
  JSON.parse(r.body) as {
    id: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; data?: Record<string, unknown> };
  };

function noCors(r: RawResponse): void {
  for (const name of r.headers.keys()) assert.ok(!name.startsWith("access-control-"), `CORS header ${name}`);
  assert.equal(r.headers.get("connection"), "close");
  assert.ok(r.closed);
}

test("http 200: a tool result, identical to stdio's body", async () => {
  const message = call("canonical_smiles", { smiles: "OCC" });
  const r = await send(message, mcpHeaders("tools/call", "canonical_smiles"));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "application/json");
  noCors(r);
  const stdio = new LineClient(startServer());
  const viaStdio = await stdio.request(message);
  await stdio.close();
  assert.equal(r.body, JSON.stringify(viaStdio));
});

test("http 200: a chemistry failure is a result with isError", async () => {
  const r = await send(call("parse_smiles", { smiles: "C1CC" }), mcpHeaders("tools/call", "parse_smiles"));
  assert.equal(r.status, 200);
  assert.equal(json(r).result?.isError, true);
});

test("http 200: discover and tools/list with the cache hint", async () => {
  const d = await send(rpc("server/discover"), mcpHeaders("server/discover"));
  assert.equal(d.status, 200);
  assert.deepEqual(json(d).result?.supportedVersions, ["2026-07-28"]);
  const l = await send(rpc("tools/list"), mcpHeaders("tools/list"));
  assert.equal(json(l).result?.ttlMs, 86_400_000);
  assert.equal((json(l).result?.tools as unknown[]).length, 20);
});

test("http 202: a notification gets an empty body", async () => {
  const note = {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 1, _meta: MODERN_META },
  };
  const r = await send(note, mcpHeaders("notifications/cancelled"));
  assert.equal(r.status, 202);
  assert.equal(r.body, "");
  noCors(r);
});

test("http 400: malformed JSON, batches, missing protocolVersion, bad arguments", async () => {
  const parse = await send('{"jsonrpc":', mcpHeaders("tools/list"));
  assert.equal(parse.status, 400);
  assert.equal(json(parse).error?.code, -32700);
  const batch = await send([rpc("tools/list")], mcpHeaders("tools/list"));
  assert.equal(batch.status, 400);
  assert.equal(json(batch).error?.code, -32600);
  const noVersion = {
    jsonrpc: "2.0",
    id: 5,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
  };
  const missing = await send(noVersion, mcpHeaders("tools/list"));
  assert.equal(missing.status, 400);
  assert.equal(json(missing).error?.code, -32602);
  const badArgs = await send(
    call("canonical_smiles", { smiles: 42 }),
    mcpHeaders("tools/call", "canonical_smiles"),
  );
  assert.equal(badArgs.status, 400);
  assert.equal(json(badArgs).error?.code, -32602);
});

test("http 400 -32020: mirrored headers missing or not matching", async () => {
  const message = call("canonical_smiles", { smiles: "CCO" });
  const cases: Record<string, string>[] = [
    { ...mcpHeaders("tools/call", "canonical_smiles"), "MCP-Protocol-Version": "" },
    (({ "MCP-Protocol-Version": _, ...rest }) => rest)(mcpHeaders("tools/call", "canonical_smiles")),
    mcpHeaders("tools/list", "canonical_smiles"),
    (({ "Mcp-Method": _, ...rest }) => rest)(mcpHeaders("tools/call", "canonical_smiles")),
    mcpHeaders("tools/call", "ecfp4"),
    mcpHeaders("tools/call"),
    mcpHeaders("tools/call", "=?base64?ZWNmcDQ=?="),
  ];
  for (const headers of cases) {
    const r = await send(message, headers);
    const code = json(r).error?.code;
    assert.equal(r.status, 400, JSON.stringify(headers));
    assert.ok(code === -32020 || code === -32022, `${JSON.stringify(headers)}: ${code}`);
  }
  const bodyVersion = {
    ...message,
    params: {
      ...(message.params as object),
      _meta: { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2025-06-18" },
    },
  };
  const mismatch = await send(bodyVersion, mcpHeaders("tools/call", "canonical_smiles"));
  assert.equal(json(mismatch).error?.code, -32020);
});

test("http: Mcp-Name in the =?base64?…?= form is decoded", async () => {
  const encoded = `=?base64?${btoa("canonical_smiles")}?=`;
  const r = await send(call("canonical_smiles", { smiles: "OCC" }), mcpHeaders("tools/call", encoded));
  assert.equal(r.status, 200);
});

test("http 400 -32022: unsupported MCP-Protocol-Version with the supported list", async () => {
  const r = await send(rpc("tools/list"), {
    ...mcpHeaders("tools/list"),
    "MCP-Protocol-Version": "2025-06-18",
  });
  assert.equal(r.status, 400);
  assert.equal(json(r).error?.code, -32022);
  assert.deepEqual(json(r).error?.data?.supported, ["2026-07-28"]);
});

test("http 403: non-loopback Host and disallowed Origin; loopback and listed origins pass", async () => {
  const message = rpc("tools/list");
  assert.equal((await send(message, mcpHeaders("tools/list"), "/mcp", "evil.example.com")).status, 403);
  assert.equal((await send(message, mcpHeaders("tools/list"), "/mcp", "127.0.0.1.nip.io:3000")).status, 403);
  assert.equal(
    (await send(message, mcpHeaders("tools/list"), "/mcp", `localhost:${server.port}`)).status,
    200,
  );
  assert.equal((await send(message, mcpHeaders("tools/list"), "/mcp", `[::1]:${server.port}`)).status, 200);
  for (
    const origin of [
      "http://evil.example.com",
      "https://app.example.test",
      "null",
      "http://localhost.evil.com",
    ]
  ) {
    const r = await send(message, { ...mcpHeaders("tools/list"), Origin: origin });
    assert.equal(r.status, 403, origin);
    noCors(r);
  }
  for (
    const origin of [
      "http://localhost:5173",
      "https://127.0.0.1",
      "http://[::1]:8080",
      "https://app.example.test:8443",
    ]
  ) {
    assert.equal((await send(message, { ...mcpHeaders("tools/list"), Origin: origin })).status, 200, origin);
  }
});

test("http 404: other paths and unknown methods (initialize, ping, resources/*, prompts/*)", async () => {
  assert.equal((await send(rpc("tools/list"), mcpHeaders("tools/list"), "/")).status, 404);
  assert.equal((await send(rpc("tools/list"), mcpHeaders("tools/list"), "/mcp/extra")).status, 404);
  for (const method of ["initialize", "ping", "resources/list", "prompts/list"]) {
    const r = await send(rpc(method), mcpHeaders(method));
    assert.equal(r.status, 404, method);
    assert.equal(json(r).error?.code, -32601, method);
  }
});

test("http: a legacy initialize is told to use stdio or a 2026-07-28 client, within the spec's error table", async () => {
  // What a legacy client sends first: initialize, no MCP-Protocol-Version header (that check answers first).
  const handshake = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy", version: "1" } },
  };
  const { "MCP-Protocol-Version": _version, ...withoutVersion } = mcpHeaders("initialize");
  const bare = await send(handshake, withoutVersion);
  assert.equal(bare.status, 400);
  const bareError = JSON.parse(bare.body).error as { code: number; message: string };
  assert.equal(bareError.code, -32020);
  assert.match(bareError.message, /^Header MCP-Protocol-Version is required \(2026-07-28\)\. /);
  assert.match(bareError.message, /over stdio/);
  assert.match(bareError.message, /versionNegotiation 'auto'/);
  // With the header, initialize is an unknown method over HTTP (-32601, 404), with the same advice.
  const withHeader = await send(handshake, mcpHeaders("initialize"));
  assert.equal(withHeader.status, 404);
  const error = JSON.parse(withHeader.body).error as { code: number; message: string };
  assert.equal(error.code, -32601);
  assert.match(error.message, /^Method not found: 'initialize'\. .*over stdio/);
  // A client that announces an older version in the header (as the v1 SDK's HTTP client does) gets -32022
  // with the same advice.
  const older = await send(handshake, { ...mcpHeaders("initialize"), "MCP-Protocol-Version": "2025-06-18" });
  assert.equal(older.status, 400);
  const olderError = JSON.parse(older.body).error as { code: number; message: string };
  assert.equal(olderError.code, -32022);
  assert.match(olderError.message, /^Unsupported protocol version '2025-06-18'; .*over stdio/);
  // Any other method without the header keeps the short message.
  const other = await send(rpc("tools/list"), { ...withoutVersion, "Mcp-Method": "tools/list" });
  assert.equal(JSON.parse(other.body).error.message, "Header MCP-Protocol-Version is required (2026-07-28).");
});

test("http 405: every method but POST, with Allow: POST (OPTIONS too)", async () => {
  for (const method of ["GET", "OPTIONS", "DELETE", "PUT", "HEAD"]) {
    const r = await rawRequest(
      server.port,
      `${method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:1\r\n\r\n`,
    );
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.get("allow"), "POST", method);
    noCors(r);
  }
});

test("http 406, 411, 413, 415: Accept, Content-Length, size and Content-Type", async () => {
  const body = JSON.stringify(rpc("tools/list"));
  assert.equal((await send(body, { ...mcpHeaders("tools/list"), Accept: "text/html" })).status, 406);
  assert.equal(
    (await send(body, { ...mcpHeaders("tools/list"), Accept: "application/json;q=0" })).status,
    406,
  );
  assert.equal((await send(body, { ...mcpHeaders("tools/list"), Accept: "*/*" })).status, 200);
  const noLength = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\r\n${body}`;
  assert.equal((await rawRequest(server.port, noLength)).status, 411);
  const chunked =
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n0\r\n\r\n`;
  assert.equal((await rawRequest(server.port, chunked)).status, 411);
  const big = await rawRequest(
    server.port,
    post("", { ...mcpHeaders("tools/list"), "Content-Length": String(1_048_577) }),
  );
  assert.equal(big.status, 413);
  assert.equal((await send(body, { ...mcpHeaders("tools/list"), "Content-Type": "text/plain" })).status, 415);
  assert.equal(
    (await send(body, { ...mcpHeaders("tools/list"), "Content-Type": "application/json; charset=utf-8" }))
      .status,
    200,
  );
});

test("http: a body of exactly 1 MiB is read (and refused by the protocol, not the transport)", async () => {
  const filler = "C".repeat(1_048_576 - 400);
  const message = JSON.stringify(call("canonical_smiles", { smiles: filler }));
  const padded = message + " ".repeat(1_048_576 - new TextEncoder().encode(message).length);
  const r = await send(padded, mcpHeaders("tools/call", "canonical_smiles"));
  assert.equal(r.status, 400, r.body.slice(0, 200));
  assert.equal(json(r).error?.code, -32602);
});

test("http 431: request line over 8 KiB, headers over 32 KiB, more than 100 fields", async () => {
  const longLine = await rawRequest(
    server.port,
    `POST /mcp?${"a".repeat(8300)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  );
  assert.equal(longLine.status, 431);
  const bigHeaders = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`X-Pad-${i}`, "b".repeat(4000)]),
  );
  assert.equal((await send("{}", { ...mcpHeaders("tools/list"), ...bigHeaders })).status, 431);
  const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`X-F-${i}`, "1"]));
  assert.equal((await send("{}", { ...mcpHeaders("tools/list"), ...many })).status, 431);
  const ninety = Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`X-F-${i}`, "1"]));
  assert.equal(
    (await send(JSON.stringify(rpc("tools/list")), { ...mcpHeaders("tools/list"), ...ninety })).status,
    200,
  );
});

test("http 408: a client too slow to send its request (timeout shortened for the test)", async () => {
  const r = await rawRequest(
    server.port,
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    3000,
    "Content-Length: 2\r\n\r\n{}",
  );
  assert.equal(r.status, 408);
  const slowBody = post("{", { ...mcpHeaders("tools/list"), "Content-Length": "20" });
  assert.equal((await rawRequest(server.port, slowBody)).status, 408);
});

test("http: malformed request line and header syntax are 400", async () => {
  assert.equal((await rawRequest(server.port, "HELLO\r\n\r\n")).status, 400);
  assert.equal(
    (await rawRequest(server.port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n")).status,
    400,
  );
  assert.equal(
    (await rawRequest(server.port, "POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}")).status,
    400,
    "no Host",
  );
});

test("http 503: over --max-concurrency gets Retry-After: 1, and the server recovers", async () => {
  const small = await startHttpServer(["--max-concurrency", "2"], { CHEM_MCP_WORKERS: "2" });
  try {
    // Two calls that compute for their whole 2 s limit hold both places; a connection merely open holds none.
    const runaway = call("smarts_match", {
      smiles: RUNAWAY_MOLECULE,
      smarts: RUNAWAY_SMARTS,
      timeout_seconds: 2,
    });
    const held = [0, 1].map(() =>
      rawRequest(small.port, post(JSON.stringify(runaway), mcpHeaders("tools/call", "smarts_match")))
    );
    const idle = connect(small.port, "127.0.0.1");
    idle.write("POST /mcp HTTP/1.1\r\n");
    await new Promise((r) => setTimeout(r, 500));
    const busy = await rawRequest(
      small.port,
      post(JSON.stringify(rpc("tools/list")), mcpHeaders("tools/list")),
    );
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "1");
    await Promise.all(held);
    idle.destroy();
    const ok = await rawRequest(
      small.port,
      post(JSON.stringify(rpc("tools/list")), mcpHeaders("tools/list")),
    );
    assert.equal(ok.status, 200);
  } finally {
    await small.stop();
  }
});

test("http: binding a non-loopback address needs --allow-non-loopback; --port 0 announces the port", async () => {
  const { runServer } = await import("../helpers/process.ts");
  const refused = await runServer(["--transport", "streamable-http", "--bind", "0.0.0.0", "--port", "0"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--allow-non-loopback/);
  assert.ok(server.port > 0);
});
