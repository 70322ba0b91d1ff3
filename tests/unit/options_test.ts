import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCli } from "../../src/cli.ts";
import { ALL_TOOLS, TOOLS } from "../../src/tools/registry.ts";
import { EXTRA_TOOLS } from "../../src/tools/extras.ts";
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

test("--tools: names and groups choose the listing; the default is the twenty; an unknown name is exit 2 with the names", () => {
  const names = (args: string[]) => {
    const plan = parseCli(args);
    assert.equal(plan.kind, "serve", args.join(" "));
    return plan.kind === "serve" ? plan.options.tools.map((tool) => tool.name) : [];
  };
  assert.deepEqual(names([]), TOOLS.map((tool) => tool.name));
  assert.deepEqual(names(["--tools", "spec"]), TOOLS.map((tool) => tool.name));
  // library_search is listed only with --library (tests/unit/library_load_test.ts).
  const listed = (tools: readonly { name: string }[]) =>
    tools.map((t) => t.name).filter((n) => n !== "library_search");
  assert.deepEqual(names(["--tools=all"]), listed(ALL_TOOLS));
  assert.deepEqual(names(["--tools", "spec,batch"]), [...TOOLS.map((tool) => tool.name), "batch"]);
  assert.deepEqual(names(["--tools", "extra"]), listed(EXTRA_TOOLS));
  // Registry order, each once, whatever order the names come in.
  assert.deepEqual(names(["--tools", "lipinski_check,calc_properties,lipinski_check"]), [
    "calc_properties",
    "lipinski_check",
  ]);
  assert.deepEqual(names(["--transport", "streamable-http", "--tools", "batch"]), ["batch"]);
  // An empty entry is ignored and an empty value is the default (a cleared MCP Bundle field).
  assert.deepEqual(names(["--tools", ""]), TOOLS.map((tool) => tool.name));
  assert.deepEqual(names(["--tools", "spec,"]), TOOLS.map((tool) => tool.name));
  for (const bad of ["calc_propertise", "spec,nope"]) {
    const plan = parseCli(["--tools", bad]);
    assert.equal(plan.kind, "error", bad);
    if (plan.kind !== "error") continue;
    assert.equal(plan.exitCode, 2);
    assert.match(plan.message, /^chem-mcp: --tools: no tool or group '.*'; names: all, spec, extra, /);
    assert.match(plan.message, /calc_properties, .*similarity_search/);
  }
});
