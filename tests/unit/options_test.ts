import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCli } from "../../src/cli.ts";
import { integerOption, parseOptions } from "../../src/options.ts";
import { parseServeArgs } from "../../src/webapp/args.ts";

test("options: one parser reads --name value, --name=value, flags and repeated options", () => {
  const spec = {
    port: { type: "string" },
    flag: { type: "boolean" },
    origin: { type: "string", multiple: true },
  } as const;
  const parsed = parseOptions(["--port", "1", "--flag", "--origin=a", "--origin", "b"], spec);
  assert.deepEqual(parsed.ok ? { ...parsed.values } : parsed, { port: "1", flag: true, origin: ["a", "b"] });
  const unknown = parseOptions(["--prot", "1"], spec);
  assert.equal(unknown.ok, false);
  assert.match(!unknown.ok ? unknown.message : "", /--prot/);
  assert.equal(parseOptions(["stray"], spec).ok, false);
  assert.equal(parseOptions(["--port"], spec).ok, false);
});

test("options: integerOption takes whole numbers in range, its fallback when absent", () => {
  assert.equal(integerOption("0", 3000, 0, 65535), 0);
  assert.equal(integerOption(undefined, 3000, 0, 65535), 3000);
  for (const bad of ["-1", "65536", "1.5", "", " 1", "0x10"]) {
    assert.equal(integerOption(bad, 3000, 0, 65535), undefined, bad);
  }
});

test("options: the server and the web app refuse the same mistakes the same way", () => {
  for (const args of [["--bogus"], ["--port"], ["--port", "x"], ["positional"]]) {
    const server = parseCli(["--transport", "streamable-http", ...args]);
    assert.equal(server.kind, "error", args.join(" "));
    assert.throws(() => parseServeArgs(args), Error, args.join(" "));
  }
  assert.deepEqual(parseServeArgs(["--port=0", "--bind", "::1"]), { port: 0, bind: "::1" });
  assert.deepEqual(parseServeArgs([]), { port: 8080, bind: "127.0.0.1" });
  const plan = parseCli(["--transport", "streamable-http", "--port=0"]);
  assert.equal(plan.kind === "serve" ? plan.options.port : -1, 0);
});
