/**
 * The Node build as `npm run build` makes it (dist/ removed, tsc, the esbuild bundles of the Node entries), with
 * a stamp written after it succeeds. `--if-stale` builds only when a source is newer than the stamp: `npm pack`
 * (prepack) and the test command's `--files` then reuse a current build instead of replacing dist/ under test
 * files that run from it.
 *
 * Usage: deno run -A scripts/node_build.ts [--if-stale]
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import process from "node:process";
import { bundleNodeEntries } from "./bundle_node.ts";
import { nodeBuildCurrent, STAMP } from "./node_build_stamp.ts";

/**
 * Builds dist/ from scratch; the stamp, dated when the build began (a source saved meanwhile makes it stale), only
 * when tsc and the bundler both succeed. tsc writes its JavaScript even when it finds type errors, so the bundles
 * are made either way; whether all went well is the answer.
 */
export async function nodeBuild(): Promise<boolean> {
  const began = new Date();
  rmSync("dist", { recursive: true, force: true });
  let ok = true;
  try {
    execFileSync("node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
  } catch {
    ok = false; // tsc has said why.
  }
  const written = await bundleNodeEntries("esm", "dist/src/runtime");
  process.stderr.write(`bundled ${written.join(", ")}\n`);
  if (ok) {
    writeFileSync(STAMP, `${began.toISOString()}\n`);
    utimesSync(STAMP, began, began);
  }
  return ok;
}

if (import.meta.main) {
  if (process.argv.includes("--if-stale") && nodeBuildCurrent()) {
    process.stderr.write("dist/ is current: not rebuilt\n");
  } else if (!await nodeBuild()) {
    process.exitCode = 1;
  }
}
