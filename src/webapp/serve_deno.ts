/**
 * Deno entry of the sample web application: `deno run -A src/webapp/serve_deno.ts [--port N] [--bind IP]`.
 * Loads RDKit, starts a pool of tool workers (child processes, as the MCP server's under Deno) for the app's
 * chemistry, then serves {@link createWebApp} with Deno.serve (which streams the body, so the handler's counted
 * read enforces the 2 MiB limit).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadRDKit } from "../chem/rdkit.ts";
import { isLoopbackAddress } from "../cli.ts";
import { toolWorkerCount } from "../main.ts";
import { spawnProcessWorker } from "../runtime/process_worker_deno.ts";
import { pooledWebApp } from "./jobs.ts";
import { listeningLine, parseServeArgs, type ServeOptions, webAppWorkers } from "./args.ts";

let options: ServeOptions;
let workers: number;
try {
  options = parseServeArgs(Deno.args);
  workers = webAppWorkers(toolWorkerCount(Deno.env.toObject(), navigator.hardwareConcurrency));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(2);
}

const bytes = readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm"));
const wasm = await WebAssembly.compile(bytes);
await loadRDKit(wasm);
const app = pooledWebApp({
  spawn: spawnProcessWorker,
  wasm,
  workers,
  loopbackBind: isLoopbackAddress(options.bind),
});

Deno.serve({
  port: options.port,
  hostname: options.bind,
  onListen: ({ port }) => console.error(listeningLine(options.bind, port)),
}, app);
