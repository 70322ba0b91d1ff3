/**
 * Deno entry of the sample web application: `deno run -A src/runtime/webapp_deno.ts [--port N] [--bind IP]`
 * (`deno task webapp`). The server's Deno bindings (src/runtime/deno.ts: RDKit's WebAssembly, tool workers as
 * child processes) with Deno.serve, which streams the body, so the handler's counted read enforces the body
 * limit.
 *
 * @module
 */
import { denoPlatform } from "./deno.ts";
import { spawnProcessWorker } from "./process_worker_deno.ts";
import { prepareWebApp } from "./webapp_main.ts";

const prepared = await prepareWebApp(Deno.args, { ...denoPlatform, spawnToolWorker: spawnProcessWorker });
if (prepared === 2) Deno.exit(2);

Deno.serve({
  port: prepared.options.port,
  hostname: prepared.options.bind,
  onListen: ({ port }) => denoPlatform.stderr(`${prepared.listening(port)}\n`),
}, prepared.app);
