/**
 * What a tool worker serves: every tool of the registry and the chunk runners of their list forms (and the
 * sample web app's computations, so it can share the pool), with the
 * warm-up calls the tools declare. The worker entries
 * (src/runtime/worker_*.ts) import this module only once they have lowered their thread's priority, so that
 * loading the tools' code, most of a worker's start, already yields to the protocol thread.
 *
 * @module
 */
import { serveToolWorker } from "./serve.ts";
import type { WorkerEndpoint } from "./messages.ts";
import { warmUpCalls } from "../tools/placement.ts";
import { WORKER_TOOLS } from "../tools/registry.ts";
import { WEBAPP_TOOLS } from "../tools/webapp_jobs.ts";

/** Serves tool calls on `endpoint` (see {@link serveToolWorker}). */
export function serveTools(endpoint: WorkerEndpoint): void {
  serveToolWorker(endpoint, [...WORKER_TOOLS, ...WEBAPP_TOOLS], warmUpCalls(WORKER_TOOLS));
}
