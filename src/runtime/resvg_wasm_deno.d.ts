/** resvg's WebAssembly, compiled by Deno at import time. */
declare const resvgWasm: WebAssembly.Module;
export default resvgWasm;
