/**
 * Whether dist/ holds a current Node build: scripts/node_build.ts writes a stamp dated when a successful build
 * began, and the build is current while no source it reads is newer. Kept apart from the build itself so that
 * tests can import it without the bundler.
 *
 * @module
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Written into dist/ once a build has succeeded; its time is the build's. */
export const STAMP = "dist/.built";

/** What the build reads: a change to any of these (or a file added or removed in them) makes dist/ stale. */
const INPUTS = ["src", "tests", "scripts", "mod.ts", "tsconfig.json", "package.json", "package-lock.json"];

/** The latest modification time under `path` (files and directories, so a deletion counts), ms. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Whether dist/ holds a build at least as new as every input. */
export function nodeBuildCurrent(root = "."): boolean {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.every((input) => newest(join(root, input)) <= built);
}
