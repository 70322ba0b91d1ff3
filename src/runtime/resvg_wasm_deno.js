// @ts-self-types="./resvg_wasm_deno.d.ts"
// resvg's WebAssembly (the PNG rasteriser, src/chem/raster.ts) as a source-phase import, like RDKit's in
// rdkit_wasm_deno.js: the compiled module, and the .wasm file in the module graph `deno compile` embeds.
import source resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";

export default resvgWasm;
