/**
 * Builds self-contained `chem-mcp` executables with `deno compile` for every release target. The RDKit
 * WebAssembly is part of the module graph (a source-phase import in src/runtime/rdkit_wasm_deno.js), so each binary
 * embeds it and needs nothing beside it.
 *
 * `deno compile` fetches a `denort` base binary per target from Deno's download host. Where that host is out of
 * reach, set DENORT_BIN to a local denort of the host target (only the host target can be built that way).
 *
 * Usage: deno task compile [--target <triple> ...] [--out-dir dist/bin]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import process from "node:process";

/** Release targets and the file name of each binary. */
export const TARGETS: Readonly<Record<string, string>> = {
  "x86_64-unknown-linux-gnu": "chem-mcp-linux-x86_64",
  "aarch64-unknown-linux-gnu": "chem-mcp-linux-aarch64",
  "x86_64-apple-darwin": "chem-mcp-macos-x86_64",
  "aarch64-apple-darwin": "chem-mcp-macos-arm64",
  "x86_64-pc-windows-msvc": "chem-mcp-windows-x86_64.exe",
};

function option(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => arg === name && process.argv[i + 1] && values.push(process.argv[i + 1]!));
  return values;
}

const outDir = option("--out-dir")[0] ?? "dist/bin";
const wanted = option("--target");
const targets = wanted.length > 0 ? wanted : Object.keys(TARGETS);
const unknown = targets.filter((t) => !(t in TARGETS));
if (unknown.length > 0) {
  console.error(`unknown target(s): ${unknown.join(", ")}; known: ${Object.keys(TARGETS).join(", ")}`);
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

let failed = 0;
for (const target of targets) {
  const output = `${outDir}/${TARGETS[target]}`;
  const args = ["compile", "--allow-all", "--no-check", "--target", target, "--output", output, "mod.ts"];
  console.error(
    `deno ${args.join(" ")}${process.env.DENORT_BIN ? ` (DENORT_BIN=${process.env.DENORT_BIN})` : ""}`,
  );
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    console.error(
      `failed to compile ${target}: deno compile needs the denort base binary for the target (downloaded from ` +
        `Deno's servers, or DENORT_BIN for the host target).`,
    );
  }
}
process.exit(failed === 0 ? 0 : 1);
