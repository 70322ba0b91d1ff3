/**
 * The RDKit WebAssembly under Node: where it is (the file in node_modules, or an asset of a single executable) and
 * its compilation, which the entry starts before it loads the rest of the program.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";

/** Name of the RDKit WebAssembly asset inside a single-executable build (scripts/build_sea.ts). */
export const SEA_WASM_ASSET = "RDKit_minimal.wasm";
/** Name of resvg's WebAssembly (the PNG rasteriser, src/chem/raster.ts) inside a single-executable build. */
export const SEA_RESVG_ASSET = "resvg.wasm";
/** Name of the bundled tool-worker script inside a single-executable build. */
export const SEA_WORKER_ASSET = "tool_worker.cjs";

/** The part of `node:sea` we use (typed here because Deno, which also checks this file, has no such module). */
export interface SeaModule {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

// node:sea is looked up at run time: Deno type-checks this file too and has no such module.
const seaModule = process.getBuiltinModule?.("node:sea") as SeaModule | undefined;

/** `node:sea` when this process is a single executable, else undefined. */
export const sea: SeaModule | undefined = seaModule?.isSea() ? seaModule : undefined;

/**
 * Reads the RDKit WebAssembly and starts compiling it. The bytes are read synchronously so that V8 compiles on
 * its background threads while the protocol thread evaluates the program's modules; read asynchronously, the
 * compilation could only start once that evaluation had ended and the event loop turned.
 *
 * @example
 * ```ts
 * const module = compileRDKitWasm(); // started now, awaited by the program when it loads RDKit
 * ```
 */
export function compileRDKitWasm(): Promise<WebAssembly.Module> {
  try {
    const bytes = sea
      ? sea.getAsset(SEA_WASM_ASSET)
      : readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm"));
    return WebAssembly.compile(bytes);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * resvg's WebAssembly bytes, for src/chem/raster.ts to compile on a process's first PNG: the file in
 * node_modules, or a single executable's asset (readable from any of its threads).
 */
export function resvgWasmNode(): Promise<BufferSource> {
  try {
    return Promise.resolve(
      sea
        ? sea.getAsset(SEA_RESVG_ASSET)
        : readFileSync(createRequire(import.meta.url).resolve("@resvg/resvg-wasm/index_bg.wasm")),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
