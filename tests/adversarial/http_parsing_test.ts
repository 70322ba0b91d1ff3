/**
 * HTTP/1.1 parsing per RFC 9112 and RFC 9110 against the real server process on raw sockets: the Host header
 * (one line, a valid host, loopback on a loopback bind), the absolute-form target (served, its authority
 * replacing Host for the DNS-rebinding guard), control characters, and the framing and syntax neighbours.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, mcpHeaders, rawRequest, startHttpServer } from "../helpers/http.ts";
import { isEthanolResult, toolCall } from "../helpers/attack.ts";

let server: HttpServer;
before(async () => {
  server = await startHttpServer();
});
after(async () => await server.stop());

const BODY = toolCall("parse_smiles", { smiles: "CCO" });

/** A request head with the given request line and Host lines (each `undefined` entry left out), then the body. */
function request(target: string, hosts: string[], extra: string[] = [], body = BODY): string {
  const headers = Object.entries(mcpHeaders("tools/call", "parse_smiles")).map(([k, v]) => `${k}: ${v}`);
  const lines = [
    `POST ${target} HTTP/1.1`,
    ...hosts.map((h) => `Host: ${h}`),
    ...headers,
    `Content-Length: ${new TextEncoder().encode(body).length}`,
    ...extra,
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

const status = async (raw: string) => (await rawRequest(server.port, raw)).status;

test("http parsing: Host must be one valid host[:port]: invalid IPv4 literals, empty and repeated Host are 400", async () => {
  for (
    const host of [
      "127.999.0.1",
      "",
      "127.0.0.1:99999",
      "0x7f.1",
      "127.1",
      "[::1",
      "local host",
      "a@127.0.0.1",
    ]
  ) {
    assert.equal(await status(request("/mcp", [host])), 400, `Host: ${JSON.stringify(host)}`);
  }
  assert.equal(await status(request("/mcp", [])), 400, "no Host");
  assert.equal(await status(request("/mcp", ["127.0.0.1", "127.0.0.1"])), 400, "two Host lines");
  for (
    const host of ["127.0.0.1", `127.0.0.1:${server.port}`, "localhost", "LOCALHOST:1", "[::1]", "127.8.9.10"]
  ) {
    assert.ok(isEthanolResult(await rawRequest(server.port, request("/mcp", [host]))), `Host: ${host}`);
  }
  assert.equal(await status(request("/mcp", ["example.com"])), 403, "a valid but non-loopback name");
});

test("http parsing: an absolute-form target is served as its path, its authority replacing Host", async () => {
  const port = server.port;
  for (
    const target of [`http://127.0.0.1:${port}/mcp`, `HTTP://localhost/mcp?x=1`, `http://[::1]:${port}/mcp`]
  ) {
    const response = await rawRequest(port, request(target, ["127.0.0.1"]));
    assert.ok(isEthanolResult(response), `${target}: ${response.status}`);
  }
  // The DNS-rebinding guard applies to the target's authority even when the Host line is loopback.
  assert.equal(await status(request("http://evil.example/mcp", ["127.0.0.1"])), 403);
  // And a loopback target does not launder a Host line that is not even valid.
  assert.equal(await status(request(`http://127.0.0.1:${port}/mcp`, ["127.999.0.1"])), 400);
  assert.equal(await status(request(`http://127.0.0.1:${port}/other`, ["127.0.0.1"])), 404);
  for (
    const target of [
      `http://user:secret@127.0.0.1:${port}/mcp`,
      `http://127.999.0.1/mcp`,
      `http:///mcp`,
      `ftp://127.0.0.1/mcp`,
      "mcp",
      "/mcp#fragment",
    ]
  ) {
    assert.equal(await status(request(target, ["127.0.0.1"])), 400, target);
  }
});

test("http parsing: NUL, CR, LF and other control characters in a field value or target are 400", async () => {
  for (const value of ["a\x00b", "a\rb", "a\x01", "\x7f", "x\x1b[31m"]) {
    assert.equal(
      await status(request("/mcp", ["127.0.0.1"], [`X-Note: ${value}`])),
      400,
      JSON.stringify(value),
    );
  }
  assert.equal(await status(request("/mcp", ["127.0.0.1"], ["X-Note: a\nInjected: b"])), 400, "bare LF");
  assert.equal(await status(request("/m\x00cp", ["127.0.0.1"])), 400, "NUL in the target");
  // HTAB and obs-text are legal in a value.
  const ok = await rawRequest(server.port, request("/mcp", ["127.0.0.1"], ["X-Note: a\tb \xe9"]));
  assert.ok(isEthanolResult(ok));
});

test("http parsing: obs-fold, space before the colon, both framings, bad Content-Length are 400", async () => {
  const cases: [string, string[]][] = [
    ["obs-fold", ["X-Note: a", " folded"]],
    ["space before colon", ["X-Note : a"]],
    ["Content-Length and Transfer-Encoding", ["Transfer-Encoding: chunked"]],
    ["second Content-Length", ["Content-Length: 5"]],
  ];
  for (const [name, extra] of cases) {
    assert.equal(await status(request("/mcp", ["127.0.0.1"], extra)), 400, name);
  }
  const signed = request("/mcp", ["127.0.0.1"]).replace(/Content-Length: (\d+)/, "Content-Length: +$1");
  assert.equal(await status(signed), 400, "signed Content-Length");
  // Empty lines before the request line are ignored (RFC 9112 §2.2).
  assert.ok(isEthanolResult(await rawRequest(server.port, `\r\n\r\n${request("/mcp", ["127.0.0.1"])}`)));
  const chunkedOnly = request("/mcp", ["127.0.0.1"]).replace(
    /Content-Length: \d+/,
    "Transfer-Encoding: chunked",
  );
  assert.equal(await status(chunkedOnly), 411);
});
