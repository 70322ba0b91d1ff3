// @ts-self-types="./rdkit_wasm_deno.d.ts"
// A source-phase import yields the compiled WebAssembly.Module and puts the .wasm file in Deno's module graph, so
// `deno compile` embeds it and `deno run jsr:@chem/mcp` fetches it with the npm package. TypeScript cannot parse
// this syntax yet, hence a JavaScript file with a declaration beside it.
import source rdkitWasm from "@rdkit/rdkit/RDKit_minimal.wasm";

export default rdkitWasm;
