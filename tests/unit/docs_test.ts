import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { renderToolsDoc } from "../../scripts/tools_doc.ts";
import { toolRegistry } from "../../src/server.ts";
import { VERSION } from "../../src/version.ts";

test("docs/tools.md is generated from the current registry (run scripts/tools_doc.ts)", () => {
  const tools = toolRegistry().descriptors;
  const pages = new Set(tools.map((t) => t.name).filter((n) => existsSync(join(ROOT, `docs/tools/${n}.md`))));
  const expected = renderToolsDoc(tools, pages);
  assert.equal(readFileSync(join(ROOT, "docs/tools.md"), "utf8"), expected);
});

test("the version is the same in src/version.ts, deno.json and package.json", () => {
  const deno = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as { version: string; name: string };
  const npm = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    name: string;
  };
  assert.equal(deno.version, VERSION);
  assert.equal(npm.version, VERSION);
  assert.equal(deno.name, "@chem/mcp");
  assert.equal(npm.name, "@chem/mcp");
});
