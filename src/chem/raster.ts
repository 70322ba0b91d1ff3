/**
 * SVG to PNG with resvg (Rust, compiled to WebAssembly: `@resvg/resvg-wasm`, MPL-2.0), so PNG needs no native
 * addon under Deno, Node or a single executable. No font is loaded: the depictions draw every glyph (atom labels,
 * legends) as outline paths (src/chem/depict.ts), and a `<text>` element would simply not be drawn.
 *
 * The WebAssembly is compiled on the first PNG a process draws, from a source the runtime entry registers with
 * {@link provideRasterWasm} (a file in node_modules, a single executable's asset, Deno's module graph), so this
 * module touches no runtime API and a process that never draws a PNG never compiles it.
 *
 * @module
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";

/** Where the resvg WebAssembly comes from: bytes or a compiled module, on demand. */
export type RasterWasmSource = () => Promise<BufferSource | WebAssembly.Module>;

let source: RasterWasmSource | undefined;
let ready: Promise<void> | undefined;

/**
 * Registers where the resvg WebAssembly comes from. The runtime entries call it once, before serving.
 *
 * @example
 * ```ts
 * provideRasterWasm(() => Promise.resolve(readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm"))));
 * ```
 */
export function provideRasterWasm(wasm: RasterWasmSource): void {
  source = wasm;
}

/** Compiles and instantiates resvg once per process; later calls share the first. */
function loadRasterizer(): Promise<void> {
  if (!source) {
    return Promise.reject(
      new Error("PNG rendering is not set up: the runtime must call provideRasterWasm first"),
    );
  }
  const wasm = source;
  ready ??= wasm().then((bytes) => initWasm(bytes));
  // A failed load is not cached: the next PNG tries again (and reports its own failure).
  ready.catch(() => (ready = undefined));
  return ready;
}

/**
 * Renders an SVG document to PNG at its own size (its `width` and `height`), on a white background.
 *
 * @example
 * ```ts
 * const png = await svgToPng("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>");
 * ```
 */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  await loadRasterizer();
  const renderer = new Resvg(svg, { background: "#FFFFFF", font: { loadSystemFonts: false } });
  try {
    const image = renderer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
