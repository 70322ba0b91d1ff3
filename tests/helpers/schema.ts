/** JSON Schema 2020-12 validation with a real, independent validator (@cfworker/json-schema). */
import { Validator } from "@cfworker/json-schema";

/** Validates `value` against `schema` (draft 2020-12); returns the error messages, empty when valid. */
export function schemaErrors(schema: Record<string, unknown>, value: unknown): string[] {
  const result = new Validator(schema as never, "2020-12", false).validate(value);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}
