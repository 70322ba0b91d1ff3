/** Loads RDKit for in-process tests under either runtime (node:fs works in both). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadRDKit } from "../../src/chem/rdkit.ts";

const require = createRequire(import.meta.url);

/** Path of the RDKit WebAssembly file in node_modules. */
export const RDKIT_WASM_PATH: string = require.resolve("@rdkit/rdkit/RDKit_minimal.wasm");

/** Loads RDKit once; await it at the top of a test file. */
export function loadTestRDKit(): Promise<unknown> {
  return loadRDKit(readFileSync(RDKIT_WASM_PATH));
}
