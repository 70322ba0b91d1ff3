import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "../helpers/process.ts";

/**
 * The layers of docs/architecture.md, lowest first: a module may import its own layer and those below it, never
 * one above, so each folder has one owner and a tool worker loads only what it runs.
 */
const LAYERS = [
  "base",
  "chem",
  "tools",
  "pool",
  "protocol",
  "transport",
  "webapp",
  "wiring",
  "runtime",
] as const;
type Layer = typeof LAYERS[number];

const WIRING = new Set(["main.ts", "cli.ts", "create_server.ts", "lib.ts"]);

/** The layer of a path relative to the repository, or undefined outside src/ and mod.ts. */
export function layerOf(path: string): Layer | undefined {
  if (path === "mod.ts") return "runtime";
  const parts = path.split("/");
  if (parts[0] !== "src") return undefined;
  if (parts.length === 2) return WIRING.has(parts[1]!) ? "wiring" : "base";
  const folder = parts[1] as Layer;
  return (LAYERS as readonly string[]).includes(folder) ? folder : undefined;
}

/** Relative module specifiers of a source file: static imports, re-exports and dynamic imports. */
export function relativeImports(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s+"(\.{1,2}\/[^"]+)"/g,
    /\bimport\s*\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g,
    /\bimport\s+"(\.{1,2}\/[^"]+)"/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every import that points up a layer, as `from -> to`. */
function upwardImports(): string[] {
  const upward: string[] = [];
  for (const file of [...sourceFiles("src"), "mod.ts"]) {
    const from = layerOf(file)!;
    for (const specifier of relativeImports(readFileSync(join(ROOT, file), "utf8"))) {
      const target = relative(ROOT, normalize(join(ROOT, dirname(file), specifier))).replaceAll("\\", "/");
      const to = layerOf(target);
      if (to && LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
        upward.push(`${file} (${from}) -> ${target} (${to})`);
      }
    }
  }
  return upward;
}

test("layerOf places the folders in the documented order", () => {
  assert.equal(layerOf("src/errors.ts"), "base");
  assert.equal(layerOf("src/chem/rdkit.ts"), "chem");
  assert.equal(layerOf("src/chem/conformer/index.ts"), "chem");
  assert.equal(layerOf("src/main.ts"), "wiring");
  assert.equal(layerOf("src/runtime/node.ts"), "runtime");
  assert.equal(layerOf("mod.ts"), "runtime");
  assert.equal(layerOf("tests/unit/layers_test.ts"), undefined);
});

test("relativeImports finds static, re-exported, side-effect and dynamic imports, not bare ones", () => {
  const source = [
    'import { a } from "./a.ts";',
    'export { b } from "../b.ts";',
    'import "./side.ts";',
    'const c = await import("./c.ts");',
    'import * as v from "valibot";',
  ].join("\n");
  assert.deepEqual(relativeImports(source).sort(), ["../b.ts", "./a.ts", "./c.ts", "./side.ts"]);
});

test("no module imports a layer above its own (docs/architecture.md)", () => {
  assert.deepEqual(upwardImports(), []);
});
