#!/usr/bin/env node
/**
 * Node.js entry. It starts compiling RDKit's WebAssembly first and only then loads the program (src/runtime/
 * node_main.ts), so the two overlap: evaluating the program's modules takes the protocol thread some 18 ms that
 * would otherwise come before the compilation (docs/benchmarks.md, "Cold start").
 *
 * @module
 */
import { compileRDKitWasm } from "./wasm_node.ts";

const wasm = compileRDKitWasm();
// Awaited by the program once loaded; marked as handled so that a failed read is reported there, once.
wasm.catch(() => {});
// No top-level await: the single-executable build bundles this file as CommonJS.
void import("./node_main.ts").then(({ runNode }) => runNode(wasm));
