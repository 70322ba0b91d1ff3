/**
 * Builds the MCP Bundle `release/chem-mcp-<version>.mcpb`: a zip that Claude Desktop installs in one click and
 * runs with the Node it ships. Inside: `manifest.json` (scripts/bundle/manifest.ts), the icon
 * (scripts/bundle/icon.ts), and the npm package as `npm pack` makes it (so the compiled JavaScript at
 * `dist/src/runtime/node.js` and everything else the package ships) with its runtime dependencies in
 * `node_modules` (`npm ci --omit=dev` against this repository's lock file, so the versions tested are the
 * versions shipped). `@anthropic-ai/mcpb pack` validates the manifest and writes the zip.
 *
 * The bundle goes to `release/`, beside `dist/` rather than in it: `npm pack` runs `npm run build`, which
 * replaces `dist/`.
 *
 * Usage: deno task bundle [--out-dir release]
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { iconPng } from "./bundle/icon.ts";
import { BUNDLE_ICON, bundleFileName, bundleManifest } from "./bundle/manifest.ts";
import { installRuntimeDependencies } from "./runtime_dependencies.ts";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs a command to completion with its output on stderr (stdout is for the bundle's path), or exits. */
function step(what: string, command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) {
    console.error(`${what} failed (${command} ${args.join(" ")}, exit ${result.status}):\n${result.stdout}`);
    process.exit(1);
  }
  return result.stdout;
}

/** The npm package, packed and unpacked into `stage/package`, with its runtime dependencies installed. */
function stagePackage(stage: string): string {
  const packed = step("npm pack", NPM, ["pack", "--silent", "--pack-destination", stage], process.cwd());
  const tarball = packed.trim().split("\n").pop()!;
  step("unpacking the npm package", "tar", ["-xzf", join(stage, tarball), "-C", stage], process.cwd());
  const root = join(stage, "package");
  copyFileSync("package-lock.json", join(root, "package-lock.json"));
  installRuntimeDependencies(root);
  rmSync(join(root, "package-lock.json"));
  return root;
}

const outIndex = process.argv.indexOf("--out-dir");
const outDir = resolve(outIndex > -1 ? process.argv[outIndex + 1]! : "release");
const stage = mkdtempSync(join(tmpdir(), "chem-mcp-bundle-"));
try {
  const root = stagePackage(stage);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { description: string };
  writeFileSync(join(root, "manifest.json"), JSON.stringify(bundleManifest(pkg.description), null, 2) + "\n");
  writeFileSync(join(root, BUNDLE_ICON), iconPng());
  mkdirSync(outDir, { recursive: true });
  const output = join(outDir, bundleFileName());
  step("mcpb pack", process.platform === "win32" ? "node.exe" : "node", [
    resolve("node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"),
    "pack",
    root,
    output,
  ], process.cwd());
  console.error(`built ${output}`);
  console.log(output);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
