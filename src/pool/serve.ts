/**
 * The worker's side of the pool: loads RDKit, warms up, and runs one tool call per message.
 *
 * @module
 */
import * as v from "valibot";
import { ChemError } from "../errors.ts";
import { loadRDKit, takeLargestMolecule } from "../chem/rdkit.ts";
import { LIGHT_MAX_ATOMS } from "../chem/cost.ts";
import { rdkitRefusal } from "../chem/rdkit_errors.ts";
import type { Tool } from "../tools/tool.ts";
import type { WorkerEndpoint } from "./messages.ts";

/** One call a starting worker makes so that users' first calls find its one-time work done. */
export interface WarmUpCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/**
 * Serves tool calls inside a worker: loads RDKit from the module sent with `init` and reports ready, then makes
 * the `warmUp` calls (so one-time tables are built before users' calls need them), and runs one call per
 * message, answering with its result or error. Each warm-up call runs in a task of its own, so a call that
 * arrives meanwhile waits for one warm-up call at most, never for the whole warm-up; such a call reports
 * `begin` when it starts, so that its deadline does not count that wait.
 *
 * @example
 * ```ts
 * // In the Deno worker entry:
 * serveToolWorker({ post: (m) => self.postMessage(m), onMessage: (l) => (self.onmessage = (e) => l(e.data)) }, TOOLS);
 * ```
 */
export function serveToolWorker(
  endpoint: WorkerEndpoint,
  tools: readonly Tool[],
  warmUp: readonly WarmUpCall[] = [],
): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let ready: Promise<unknown> | undefined;
  let warmed = false;
  endpoint.onMessage(async (message) => {
    if (message.kind === "init") {
      ready = loadRDKit(message.wasm);
      await ready;
      endpoint.post({ kind: "ready" });
      await warm(byName, warmUp);
      warmed = true;
      endpoint.post({ kind: "warm", ...heapOf(endpoint) });
      return;
    }
    const early = !warmed;
    try {
      await ready;
      const tool = byName.get(message.tool);
      if (!tool) throw new Error(`no tool named '${message.tool}' in the worker`);
      if (early) endpoint.post({ kind: "begin" });
      takeLargestMolecule();
      const value = await tool.run(message.args as never);
      endpoint.post({ kind: "result", value, ...retireFlag(), ...heapOf(endpoint) });
    } catch (thrown) {
      // An exception RDKit raised for the input is the caller's typed error; the worker stays.
      const error = rdkitRefusal(thrown) ?? thrown;
      endpoint.post(
        error instanceof ChemError
          ? {
            kind: "chem_error",
            code: error.code,
            message: error.message,
            details: error.details,
            ...retireFlag(),
            ...heapOf(endpoint),
          }
          : {
            kind: "failure",
            message: error instanceof Error ? error.stack ?? error.message : String(error),
          },
      );
    }
  });
}

/** The worker's memory now, where its runtime tells it. */
function heapOf(endpoint: WorkerEndpoint): { heap?: number } {
  const heap = endpoint.heapBytes?.();
  return heap === undefined ? {} : { heap };
}

/** `retire: true` when this call built a molecule large enough to have damaged RDKit without a trap. */
function retireFlag(): { retire?: true } {
  return takeLargestMolecule() > LIGHT_MAX_ATOMS ? { retire: true } : {};
}

/** Makes each warm-up call with its validated arguments, yielding to waiting messages before each. */
async function warm(byName: ReadonlyMap<string, Tool>, calls: readonly WarmUpCall[]): Promise<void> {
  for (const call of calls) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tool = byName.get(call.tool);
    try {
      await tool?.run(v.parse(tool.input, call.args));
    } catch {
      // Nothing to answer: a user's call of that tool builds what is missing and reports its own error.
      // tests/unit/isolation_test.ts checks that every warm-up call succeeds.
    }
  }
}
