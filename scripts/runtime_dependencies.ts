/**
 * The runtime dependencies of a staged copy of the package, for what ships it whole (the `deno compile` binaries,
 * scripts/compile.ts, and the MCP Bundle, scripts/bundle.ts).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import process from "node:process";

/**
 * Installs into `dir/node_modules` the runtime dependencies that `dir/package-lock.json` pins (`npm ci
 * --omit=dev --omit=optional`, so the versions tested are the versions shipped; TypeScript, an optional peer of
 * valibot, would otherwise come along), without their install scripts. npm's output goes to stderr, keeping
 * stdout for what the calling script prints. Exits 1, saying why, when npm fails (it needs the npm registry).
 *
 * @example
 * ```ts
 * installRuntimeDependencies(stagingDir);
 * ```
 */
export function installRuntimeDependencies(dir: string): void {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["ci", "--omit=dev", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund"];
  const result = spawnSync(npm, args, { cwd: dir, stdio: ["ignore", 2, "inherit"] });
  if (result.status !== 0) {
    console.error(
      `npm ${args.join(" ")} failed in ${dir} (exit ${result.status}); the npm registry must be reachable.`,
    );
    process.exit(1);
  }
}
