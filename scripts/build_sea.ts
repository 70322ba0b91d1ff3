/**
 * Builds a self-contained Linux `chem-mcp` executable with Node's single-executable-application support: the Node
 * entry bundled to one CommonJS file by esbuild (scripts/bundle_node.ts), the RDKit and resvg WebAssembly and the
 * bundled tool-worker script embedded as SEA assets (read back with `node:sea` `getAsset`), the blob injected into
 * a copy of the running `node` binary with postject.
 *
 * This is the binary we can build and test on a machine that cannot download Deno's `denort` (see
 * scripts/compile.ts for the `deno compile` binaries).
 *
 * The binary goes to `release/`, beside `dist/` rather than in it: `npm run build` and `npm pack` replace `dist/`.
 *
 * Usage: deno run -A scripts/build_sea.ts [--out release/chem-mcp]
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { bundleNodeEntries } from "./bundle_node.ts";

const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const require = createRequire(import.meta.url);
const outIndex = process.argv.indexOf("--out");
const output = resolve(outIndex > -1 ? process.argv[outIndex + 1]! : "release/chem-mcp");
const work = resolve(".cache/sea");
mkdirSync(work, { recursive: true });
mkdirSync(dirname(output), { recursive: true });

// The Node entry and the tool worker as CommonJS bundles: work/node.cjs and work/worker_node.cjs.
const [bundle, workerBundle] = await bundleNodeEntries("cjs", work);
const config = `${work}/sea-config.json`;
const blob = `${work}/sea-prep.blob`;
writeFileSync(
  config,
  JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    // Names as in src/runtime/wasm_node.ts (SEA_WASM_ASSET, SEA_RESVG_ASSET, SEA_WORKER_ASSET): the tool worker
    // runs from the bundled script with eval, since a single executable has no file to point a worker at.
    assets: {
      "RDKit_minimal.wasm": require.resolve("@rdkit/rdkit/RDKit_minimal.wasm"),
      "resvg.wasm": require.resolve("@resvg/resvg-wasm/index_bg.wasm"),
      "tool_worker.cjs": workerBundle,
    },
  }),
);
const node = execFileSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).trim();
execFileSync(node, ["--experimental-sea-config", config], { stdio: "inherit" });
copyFileSync(node, output);
chmodSync(output, 0o755);
execFileSync(
  "node",
  [require.resolve("postject/dist/cli.js"), output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE],
  { stdio: ["ignore", "ignore", "inherit"] },
);
console.error(`built ${output}`);
