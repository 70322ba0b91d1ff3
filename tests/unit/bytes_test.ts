// Base64 both ways: every byte value, lengths that need 0, 1 and 2 padding characters, and a picture-sized run
// past fromCharCode's argument limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fromBase64, toBase64 } from "../../src/bytes.ts";

test("base64 round-trips every byte value and every padding", () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (const n of [0, 1, 2, 3, 255, 256]) {
    assert.deepEqual(fromBase64(toBase64(all.subarray(0, n))), all.subarray(0, n));
  }
  assert.equal(toBase64(new Uint8Array([104, 105])), "aGk=");
  const large = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) & 255);
  assert.deepEqual(fromBase64(toBase64(large)), large);
});

test("a character outside the alphabet throws", () => {
  assert.throws(() => fromBase64("a$b="));
});
