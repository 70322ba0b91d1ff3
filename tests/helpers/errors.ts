/** The typed error a chemistry function throws, as its code. */
import { ChemError } from "../../src/errors.ts";

/** The code of the `ChemError` that `fn` throws, or "none" when it returns; any other error is rethrown. */
export function thrownCode(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ChemError) return error.code;
    throw error;
  }
  return "none";
}
