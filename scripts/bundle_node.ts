/**
 * esbuild bundles of the two Node entries (the server, src/runtime/node.ts, and the tool worker,
 * src/runtime/worker_node.ts), each with everything it imports, its npm dependencies included.
 *
 * Node resolves, reads and compiles every ES module of a program before running it, and runs the lexer of
 * CommonJS packages imported from ES modules; the tsc output of the server is some 85 modules, which made the
 * Node entry's first answer about 1.4× the floor (bare Node loading RDKit) where the bundle stays within 1.15×
 * (docs/benchmarks.md, "Cold start"). Each tool worker loads its entry too, so it is bundled for the same reason.
 *
 * Two formats: ES modules for the npm package (`npm run build` replaces the tsc output of the two entries, so
 * `dist/src/runtime/node.js`, the package's `bin`, is the bundle and `dist/src/lib.js` stays the library), and
 * CommonJS for the single executable (scripts/build_sea.ts), whose main script must be CommonJS.
 *
 * Usage: deno run -A scripts/bundle_node.ts   (the last step of `npm run build`)
 *
 * @module
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import process from "node:process";
import * as esbuild from "esbuild";

/** The Node entries and the name of each bundle. */
export const NODE_ENTRIES = [
  { in: "src/runtime/node.ts", out: "node" },
  { in: "src/runtime/worker_node.ts", out: "worker_node" },
];

/**
 * What the bundled CommonJS of RDKit's Emscripten glue expects of its module scope (`require`, `__filename`,
 * `__dirname`), given to an ES module bundle; the glue only reaches `node:fs` and `node:crypto` through it, and
 * its own directory is never used since the runtime entry hands it the WebAssembly.
 */
const ESM_SCOPE = [
  'import { createRequire as __createRequire } from "node:module";',
  'import { fileURLToPath as __fileURLToPath } from "node:url";',
  "const require = __createRequire(import.meta.url);",
  "const __filename = __fileURLToPath(import.meta.url);",
  'const __dirname = __fileURLToPath(new URL(".", import.meta.url));',
].join("\n");

/**
 * Bundles the Node entries into `outdir` and resolves with the paths of the two entry bundles (server first).
 * As ES modules (`<name>.js`) the code the entries share (tools, chemistry, dependencies) goes to chunks beside
 * them, so the package carries it once, and what is imported dynamically (the tools in a worker, the SA
 * fragment table) to chunks loaded when imported; as CommonJS (`<name>.cjs`, which has no chunks) each bundle
 * is whole.
 *
 * @example
 * ```ts
 * await bundleNodeEntries("esm", "dist/src/runtime"); // dist/src/runtime/node.js, dist/src/runtime/worker_node.js
 * ```
 */
export async function bundleNodeEntries(format: "esm" | "cjs", outdir: string): Promise<string[]> {
  const extension = format === "esm" ? ".js" : ".cjs";
  // Chunk names carry a content hash: a rebuild must not leave the last build's chunks behind.
  for (const stale of existsSync(outdir) ? readdirSync(outdir) : []) {
    if (/^shared-\w+\.js$/.test(stale)) rmSync(`${outdir}/${stale}`);
  }
  await esbuild.build({
    entryPoints: NODE_ENTRIES,
    bundle: true,
    platform: "node",
    format,
    target: "node20",
    outdir,
    outExtension: { ".js": extension },
    logLevel: "warning",
    ...(format === "esm"
      ? { splitting: true, chunkNames: "shared-[hash]", banner: { js: ESM_SCOPE } }
      // import.meta.url is only used outside a single executable (to find node_modules and the worker file).
      : { define: { "import.meta.url": "undefined" } }),
  });
  await esbuild.stop();
  return NODE_ENTRIES.map((entry) => `${outdir}/${entry.out}${extension}`);
}

if (import.meta.main) {
  const written = await bundleNodeEntries("esm", "dist/src/runtime");
  process.stderr.write(`bundled ${written.join(", ")}\n`);
}
