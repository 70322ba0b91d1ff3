/**
 * scripts/compile.ts refuses a DENORT_BIN that is not a denort before it stages or compiles anything (so these
 * runs take a second): a binary of another name, and the Deno CLI under the name denort.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { IS_DENO, ROOT } from "../helpers/process.ts";

const DENO = IS_DENO ? process.execPath : realpathSync(join(ROOT, "node_modules/.bin/deno"));

function compileWith(denortBin: string) {
  return spawnSync(DENO, ["run", "-A", "scripts/compile.ts", "--target", "x86_64-unknown-linux-gnu"], {
    cwd: ROOT,
    env: { ...process.env, DENORT_BIN: denortBin },
    encoding: "utf8",
    timeout: 60_000,
  });
}

test("compile script: DENORT_BIN pointing at deno is refused with exit 2 and says why", () => {
  const result = compileWith(DENO);
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /DENORT_BIN must be a denort executable \(file name denort\)/);
  assert.doesNotMatch(result.stderr, /npm ci/);
});

test("compile script: the Deno CLI renamed denort is refused too", () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-denort-"));
  try {
    symlinkSync(DENO, join(dir, "denort"));
    const result = compileWith(join(dir, "denort"));
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /is the Deno CLI renamed, not denort: it prints 'deno 2\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
