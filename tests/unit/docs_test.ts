import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { renderToolsDoc } from "../../scripts/tools_doc.ts";
import { toolRegistry } from "../../src/create_server.ts";
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { EXTRA_TOOLS } from "../../src/tools/extras.ts";
import { VERSION } from "../../src/version.ts";

test("docs/tools.md is generated from the current registry (run scripts/tools_doc.ts)", () => {
  const tools = toolRegistry(ALL_TOOLS).descriptors;
  const pages = new Set(tools.map((t) => t.name).filter((n) => existsSync(join(ROOT, `docs/tools/${n}.md`))));
  const expected = renderToolsDoc(tools, pages, new Set(EXTRA_TOOLS.map((t) => t.name)));
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

test("docs/architecture.md names every source file (by path, or by its row for tools, chem and the web app)", () => {
  const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`]
    );
  const toolModules = new Set(ALL_TOOLS.map((tool) => tool.name));
  const rows: [RegExp, string][] = [
    [/^src\/chem\//, "`src/chem/*.ts`"],
    [/^src\/webapp\//, "`src/webapp/`"],
  ];
  for (const row of [...rows.map(([, name]) => name), "`src/tools/<name>.ts`"]) {
    assert.ok(doc.includes(row), `row ${row}`);
  }
  const unnamed = files("src").filter((path) => {
    if (path.endsWith(".d.ts") || rows.some(([pattern]) => pattern.test(path))) return false;
    const tool = /^src\/tools\/(\w+)\.ts$/.exec(path)?.[1];
    if (tool && toolModules.has(tool)) return false;
    return !doc.includes(`\`${path}\``);
  });
  assert.deepEqual(unnamed, []);
});

test("every property of every tool's inputSchema and outputSchema carries a description an LLM can read", () => {
  type Schema = { [key: string]: unknown };
  const missing: string[] = [];
  const walk = (schema: unknown, path: string): void => {
    if (!schema || typeof schema !== "object") return;
    const s = schema as Schema;
    for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (typeof child.description !== "string" || child.description.length === 0) {
        missing.push(`${path}.${key}`);
      }
      walk(child, `${path}.${key}`);
    }
    walk(s.items, `${path}[]`);
    for (const branch of [s.anyOf, s.oneOf, s.allOf]) {
      if (Array.isArray(branch)) { for (const part of branch) walk(part, path); }
    }
  };
  for (const tool of toolRegistry(ALL_TOOLS).descriptors) {
    walk(tool.inputSchema, `${tool.name} input`);
    walk(tool.outputSchema, `${tool.name} output`);
  }
  assert.deepEqual(missing, []);
});
