/**
 * Request framing the endpoint does not read is refused at once, against the real server process: a body with a
 * Content-Encoding other than identity (415, naming identity in Accept-Encoding) and a head whose lines end in
 * LF alone (400 at once, not silence until the 30 s timeout).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, mcpHeaders, post, rawRequest } from "../helpers/http.ts";
import { honestCall, isEthanolResult, toolCall } from "../helpers/attack.ts";
import { startHttpServer } from "../helpers/http.ts";

let server: HttpServer;
before(async () => {
  server = await startHttpServer();
});
after(async () => await server.stop());

const BODY = toolCall("parse_smiles", { smiles: "CCO" });

test("framing: Content-Encoding gzip (or any coding but identity) is 415 with Accept-Encoding: identity", async () => {
  for (const coding of ["gzip", "br", "identity, gzip"]) {
    const headers = { ...mcpHeaders("tools/call", "parse_smiles"), "Content-Encoding": coding };
    const answer = await rawRequest(server.port, post(BODY, headers, "/mcp"));
    assert.equal(answer.status, 415, coding);
    assert.equal(answer.headers.get("accept-encoding"), "identity");
  }
  const identity = { ...mcpHeaders("tools/call", "parse_smiles"), "Content-Encoding": "identity" };
  assert.ok(isEthanolResult(await rawRequest(server.port, post(BODY, identity, "/mcp"))));
});

test("framing: a head with bare-LF line ends is refused at once, and honest calls go on", async () => {
  const crlf = post(BODY, mcpHeaders("tools/call", "parse_smiles"), "/mcp");
  const split = crlf.indexOf("\r\n\r\n");
  for (
    const raw of [
      crlf.replaceAll("\r\n", "\n"),
      crlf.slice(0, split).replace("\r\n", "\n") + crlf.slice(split),
    ]
  ) {
    const started = performance.now();
    const answer = await rawRequest(server.port, raw);
    assert.equal(answer.status, 400);
    assert.ok(performance.now() - started < 5_000, "answered at once, not at the 30 s head timeout");
  }
  assert.ok(isEthanolResult(await honestCall(server.port)));
});
