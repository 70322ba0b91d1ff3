/**
 * The cap on a tool's answer: the structured result is sent twice (as JSON text and as `structuredContent`, the
 * specification's "same text content as legacy"), so a result of at most {@link ANSWER_MAX_CHARS} characters keeps
 * every answer far below the 4 MiB any answer may reach, escaping included.
 *
 * @module
 */

/** Most characters of JSON in one tool's structured result. */
export const ANSWER_MAX_CHARS = 500_000;

/**
 * The leading items of `items` whose JSON fits within `budget` characters (one comma each counted), and how many
 * were left out.
 *
 * @example
 * ```ts
 * fitItems(["aaaa", "bbbb", "cccc"], 14); // { kept: ["aaaa", "bbbb"], leftOut: 1 }
 * ```
 */
export function fitItems<T>(items: readonly T[], budget: number): { kept: T[]; leftOut: number } {
  let used = 0;
  let n = 0;
  for (; n < items.length; n++) {
    used += JSON.stringify(items[n]).length + 1;
    if (used > budget) break;
  }
  return { kept: items.slice(0, n), leftOut: items.length - n };
}
