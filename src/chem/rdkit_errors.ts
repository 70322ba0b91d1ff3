/**
 * Telling an RDKit exception raised for an input from RDKit itself breaking.
 *
 * RDKit reports what it cannot do with an input by throwing a C++ exception (a reaction without product
 * templates in `run_reactants`, a sanitisation failure, its own timeouts). Built with WebAssembly exception
 * handling, MinimalLib unwinds such an exception cleanly and it reaches JavaScript as a `WebAssembly.Exception`:
 * the instance is as sound as before the call, and the input deserves a typed error. A WebAssembly trap
 * (`RuntimeError`: unreachable, out-of-bounds access, an `abort()`), memory that cannot grow or a stack exhausted
 * (`RangeError`) leave the instance in an unknown state: only those mean RDKit broke.
 *
 * @module
 */
import { ChemError } from "../errors.ts";

/** `WebAssembly.Exception` where the runtime has it (every supported Deno and Node). */
const WASM_EXCEPTION = (WebAssembly as { Exception?: abstract new (...args: never[]) => unknown }).Exception;

/** Whether `error` is a C++ exception RDKit raised and unwound (see the module notes). */
export function isRdkitException(error: unknown): boolean {
  return WASM_EXCEPTION !== undefined && error instanceof WASM_EXCEPTION;
}

/** Whether `error` means the RDKit instance itself failed: a trap, an abort, memory or stack exhausted. */
export function rdkitBroken(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
}

/**
 * The typed error for an exception RDKit raised for an input, or `undefined` when `error` is not one.
 *
 * @example
 * ```ts
 * try { rxn.run_reactants(list, 100); } catch (error) { throw rdkitRefusal(error) ?? error; }
 * ```
 */
export function rdkitRefusal(error: unknown): ChemError | undefined {
  if (!isRdkitException(error)) return undefined;
  return new ChemError(
    "UNSUPPORTED_MOLECULE",
    "RDKit raised an exception on this input and could not process it; check the input (a reaction needs " +
      "product templates, a molecule valid valences).",
    { cause: "rdkit_exception" },
  );
}
