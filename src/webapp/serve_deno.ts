/**
 * Deno entry of the sample web application: `deno run -A src/webapp/serve_deno.ts [--port N] [--bind IP]`.
 * Loads RDKit, then serves {@link createWebApp} with Deno.serve (which streams the body, so the handler's
 * counted read enforces the 2 MiB limit).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadRDKit } from "../chem/rdkit.ts";
import { createWebApp } from "./handler.ts";
import { listeningLine, parseServeArgs, type ServeOptions } from "./args.ts";

let options: ServeOptions;
try {
  options = parseServeArgs(Deno.args);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(2);
}

await loadRDKit(readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm")));
const app = createWebApp({ onError: (error) => console.error("webapp: unexpected error:", error) });

Deno.serve({
  port: options.port,
  hostname: options.bind,
  onListen: ({ port }) => console.error(listeningLine(options.bind, port)),
}, app);
