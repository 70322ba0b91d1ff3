/**
 * How one pooled call ended, and what its caller gets for it: the result, or a typed error that says why.
 *
 * @module
 */
import { CancelledError, ChemError } from "../errors.ts";
import type { Plan } from "../tools/placement.ts";
import { isRdkitException, rdkitBroken } from "../chem/rdkit_errors.ts";
import type { WorkerReply } from "./messages.ts";

/** How one call in a worker ended: the worker's reply, the worker dying, the deadline passing, or a withdrawal. */
export type CallOutcome =
  | Exclude<WorkerReply, { kind: "ready" } | { kind: "warm" } | { kind: "begin" }>
  | { readonly kind: "died"; readonly reason: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "cancelled" };

/**
 * Whether the worker's RDKit is still trusted after `outcome`: not after a timeout, a withdrawal, a death or an
 * exception (possibly a WebAssembly trap), nor after it built a very large molecule, which may have damaged it
 * without a trap.
 */
export function trusted(outcome: CallOutcome): boolean {
  return (outcome.kind === "result" || outcome.kind === "chem_error") && outcome.retire !== true;
}

/** The result of `outcome` of a call planned as `plan`, or the typed error its caller gets. */
export function unwrap(plan: Plan, outcome: CallOutcome): unknown {
  // A list call's chunk answers in the name of the tool the caller called.
  const { name, deadlineMs } = plan;
  switch (outcome.kind) {
    case "result":
      return outcome.value;
    case "chem_error":
      throw new ChemError(outcome.code, outcome.message, outcome.details);
    case "timeout":
      throw new ChemError(
        "COMPUTATION_TIMEOUT",
        `${name} was stopped after ${deadlineMs / 1000} s: ` +
          (plan.long
            ? "this input makes the computation grow exponentially (for example a large wildcard ring in a " +
              "SMARTS). Simplify the input or raise its time limit."
            : "the longest any call may compute. Try a smaller molecule."),
        { limit_ms: deadlineMs },
      );
    case "cancelled":
      throw new CancelledError();
    case "died":
    case "failure":
      throw new ChemError(
        "UNSUPPORTED_MOLECULE",
        `RDKit failed on this input inside ${name} (its worker was replaced; nothing else was affected). ` +
          "Try a smaller or simpler molecule or pattern.",
        { cause: outcome.kind === "died" ? "worker_died" : "worker_failure" },
      );
  }
}

/**
 * Whether an exception from a tool run on the protocol thread means RDKit itself failed there (a WebAssembly
 * trap, an abort, memory or stack exhausted, something thrown that is not an error), so its instance can no
 * longer be trusted. A typed error, an exception RDKit raised for the input (src/chem/rdkit_errors.ts), a result
 * failing its own schema or any other JavaScript error is that call's failure alone.
 */
export function rdkitFailed(error: unknown): boolean {
  return rdkitBroken(error) || (!(error instanceof Error) && !isRdkitException(error));
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
