/**
 * The siege's rule for a request quoting a huge name (tests/helpers/siege.ts): what a correct server may answer
 * it, read from answers the server's own HTTP writer makes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { oversizedAnswer } from "../helpers/siege.ts";
import { type HttpResponse, serializeResponse } from "../../src/transport/h1.ts";
import { problem } from "../../src/transport/streamable.ts";

const text = (response: HttpResponse) => new TextDecoder().decode(serializeResponse(response));

test("an oversized request may get a small 4xx, or the concurrency limit's 503 with Retry-After; nothing else", () => {
  assert.equal(oversizedAnswer(text(problem(400, "Bad request: too large."))), "refused");
  assert.equal(oversizedAnswer(text(problem(413, "Payload too large."))), "refused");
  const full = problem(503, "Too many requests in progress; retry shortly.", [["Retry-After", "1"]]);
  assert.equal(oversizedAnswer(text(full)), "busy");
  // A 503 that does not say when to come back, an answer, or a refusal that echoes the request are wrong.
  assert.equal(oversizedAnswer(text(problem(503, "Unavailable."))), undefined);
  assert.equal(oversizedAnswer(text({ status: 200, headers: [], body: "{}" })), undefined);
  assert.equal(oversizedAnswer(text(problem(400, `Unknown tool ${"t".repeat(70_000)}.`))), undefined);
  assert.equal(oversizedAnswer(""), undefined);
});
