/** Sets up PNG rendering (src/chem/raster.ts) for in-process tests under either runtime (node:fs works in both). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { provideRasterWasm } from "../../src/chem/raster.ts";

const require = createRequire(import.meta.url);

/** Path of resvg's WebAssembly in node_modules. */
export const RESVG_WASM_PATH: string = require.resolve("@resvg/resvg-wasm/index_bg.wasm");

/** Registers resvg's WebAssembly from node_modules; call at the top of a test file. */
export function provideTestRaster(): void {
  provideRasterWasm(() => Promise.resolve(readFileSync(RESVG_WASM_PATH)));
}
