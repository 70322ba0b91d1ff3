/** RDKit MinimalLib's WebAssembly, compiled by Deno at import time. */
declare const rdkitWasm: WebAssembly.Module;
export default rdkitWasm;
