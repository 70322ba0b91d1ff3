/**
 * Builds self-contained `chem-mcp` executables with `deno compile` for every release target. The RDKit
 * WebAssembly is part of the module graph (a source-phase import in src/runtime/rdkit_wasm_deno.js), and so is
 * resvg's (src/runtime/resvg_wasm_deno.js, for PNG pictures), so each binary embeds them and needs nothing beside it.
 *
 * `deno compile` embeds the whole `node_modules` directory of the project it runs in, and ours holds the test and
 * build tools (Deno itself, TypeScript, a browser driver: over 200 MB). So the binaries are compiled in a staging
 * copy of the package (`mod.ts`, `src/`, the manifests) whose `node_modules` holds the runtime dependencies only
 * (`npm ci --omit=dev --omit=optional`, which needs the npm registry; TypeScript, an optional peer of valibot,
 * would otherwise come along).
 *
 * `deno compile` fetches a `denort` base binary per target from Deno's download host. Where that host is out of
 * reach, set DENORT_BIN to a local denort of the host target (only the host target can be built that way). Any
 * other executable is refused: `deno compile` would wrap it all the same, and a `deno` there gives a binary that
 * starts the Deno CLI instead of chem-mcp. `--denort-stand-in` lifts that refusal for the test of this script
 * (scripts/test.ts), which has no denort and checks only that the build goes through and what it embeds.
 *
 * The binaries go to `release/`, beside `dist/` rather than in it: `npm run build` and `npm pack` replace `dist/`.
 *
 * Usage: deno task compile [--target <triple> ...] [--out-dir release] [--denort-stand-in]
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import process from "node:process";
import { installRuntimeDependencies } from "./runtime_dependencies.ts";

/** Release targets and the file name of each binary. */
export const TARGETS: Readonly<Record<string, string>> = {
  "x86_64-unknown-linux-gnu": "chem-mcp-linux-x86_64",
  "aarch64-unknown-linux-gnu": "chem-mcp-linux-aarch64",
  "x86_64-apple-darwin": "chem-mcp-macos-x86_64",
  "aarch64-apple-darwin": "chem-mcp-macos-arm64",
  "x86_64-pc-windows-msvc": "chem-mcp-windows-x86_64.exe",
};

/** What the binary is compiled from: the library, its entry and the manifests that pin its dependencies. */
const STAGED = ["mod.ts", "src", "deno.json", "package.json", "package-lock.json", "LICENSE"];

function option(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => arg === name && process.argv[i + 1] && values.push(process.argv[i + 1]!));
  return values;
}

function stage(): string {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-compile-"));
  for (const entry of STAGED) cpSync(entry, join(dir, entry), { recursive: true });
  installRuntimeDependencies(dir);
  return dir;
}

/**
 * Why `path` cannot be the `denort` base binary, or `undefined` when it can: its file name must be `denort`, and
 * it must not answer `--version` as the Deno CLI does (denort has no command line of its own).
 */
export function notDenort(path: string): string | undefined {
  if (!/^denort(\.exe)?$/i.test(basename(path))) {
    return `DENORT_BIN must be a denort executable (file name denort), not '${path}'`;
  }
  const probe = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 });
  if (probe.error) return `DENORT_BIN '${path}' cannot be run: ${probe.error.message}`;
  if (/^deno \d/m.test(probe.stdout ?? "")) {
    return `DENORT_BIN '${path}' is the Deno CLI renamed, not denort: it prints '${
      probe.stdout.split("\n")[0]
    }'`;
  }
  return undefined;
}

const outDir = resolve(option("--out-dir")[0] ?? "release");
const wanted = option("--target");
const targets = wanted.length > 0 ? wanted : Object.keys(TARGETS);
const unknown = targets.filter((t) => !(t in TARGETS));
if (unknown.length > 0) {
  console.error(`unknown target(s): ${unknown.join(", ")}; known: ${Object.keys(TARGETS).join(", ")}`);
  process.exit(2);
}
const denort = process.env.DENORT_BIN;
const refusal = denort && !process.argv.includes("--denort-stand-in") ? notDenort(denort) : undefined;
if (refusal) {
  console.error(
    `${refusal}. Download denort for this platform from the Deno release that matches the deno package, or ` +
      "unset DENORT_BIN to let deno compile fetch it.",
  );
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const staging = stage();
// The compiler runs in the staging directory, so a relative DENORT_BIN is resolved against where we were started.
const env = process.env.DENORT_BIN
  ? { ...process.env, DENORT_BIN: resolve(process.env.DENORT_BIN) }
  : process.env;
let failed = 0;
for (const target of targets) {
  const output = join(outDir, TARGETS[target]!);
  // Tool workers are the binary itself run with a hidden flag (src/runtime/process_worker_deno.ts).
  const args = [
    "compile",
    "--allow-all",
    "--no-check",
    "--target",
    target,
    "--output",
    output,
    "mod.ts",
  ];
  console.error(
    `deno ${args.join(" ")}${env.DENORT_BIN ? ` (DENORT_BIN=${env.DENORT_BIN})` : ""}`,
  );
  const result = spawnSync(process.execPath, args, { cwd: staging, env, stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    console.error(
      `failed to compile ${target}: deno compile needs the denort base binary for the target (downloaded from ` +
        `Deno's servers, or DENORT_BIN for the host target).`,
    );
  }
}
rmSync(staging, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
