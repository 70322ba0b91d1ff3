/**
 * Argument validation failures in words a caller can act on: valibot's issues are precise but speak of schemas
 * ("Invalid key: Expected never but received \"smile\""); a caller needs the argument's name, what is wrong with
 * it, and what the tool takes instead.
 *
 * @module
 */
import type * as v from "valibot";
import { preview, ProtocolError } from "../errors.ts";
import type { Dialect } from "./dialect.ts";

/** One validation issue as `error.data.issues` carries it. */
export interface ArgumentIssue {
  readonly path: string;
  readonly message: string;
}

/** Object schemas whose issues can be about a key rather than a value. */
const OBJECT_TYPES = new Set(["object", "strict_object", "loose_object"]);

/** The issue's path; a client's key is clipped, since it is repeated in the message and in each issue. */
function keysOf(issue: v.BaseIssue<unknown>): string[] {
  return (issue.path ?? []).slice(0, MAX_PATH_DEPTH).map((item) => preview(String(item.key), MAX_KEY_CHARS));
}

/** Longest key quoted in an error, characters: longer than any argument name, short enough to list five. */
const MAX_KEY_CHARS = 80;

/** Deepest path named in an error (arguments nest at most a few levels; JSON allows 64). */
const MAX_PATH_DEPTH = 8;

/** Longest name {@link closest} compares, characters: no argument name is near it beyond this. */
const MAX_SUGGESTED_CHARS = 64;

function isUnknownKey(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === "strict_object" && issue.expected === "never";
}

function isMissingKey(issue: v.BaseIssue<unknown>): boolean {
  return OBJECT_TYPES.has(issue.type) && issue.received === "undefined" && (issue.path?.length ?? 0) > 0;
}

/** Levenshtein distance, for suggesting the argument a misspelt name was meant to be. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The known argument closest to a misspelt one, when it is close enough to be the likely intent. */
function closest(name: string, known: readonly string[]): string | undefined {
  // Levenshtein costs the product of the lengths: a long key is no misspelling and is not compared.
  if (name.length > MAX_SUGGESTED_CHARS) return undefined;
  const lower = name.toLowerCase();
  // `smiles` for `smiles_list`: a known argument the name begins is as likely as a near spelling.
  const extended = known.filter((k) => k.toLowerCase().startsWith(lower));
  if (extended.length === 1) return extended[0];
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).sort((a, b) => a.d - b.d);
  const best = scored[0];
  return best && best.d <= Math.max(1, Math.floor(best.k.length / 3)) ? best.k : undefined;
}

/**
 * One issue in words: an unknown or missing key is named as an argument (top level) or a field (nested), with
 * a suggestion for a likely misspelling; any other issue keeps valibot's message.
 */
export function readableIssue(issue: v.BaseIssue<unknown>, known: readonly string[] = []): ArgumentIssue {
  const keys = keysOf(issue);
  const path = ["arguments", ...keys].join(".");
  const what = keys.length === 1 ? "argument" : "field";
  if (isUnknownKey(issue)) {
    const guess = keys.length === 1 ? closest(String(issue.path![0]!.key), known) : undefined;
    const hint = guess ? ` (did you mean '${guess}'?)` : "";
    return { path, message: `unknown ${what} '${keys.join(".")}'${hint}` };
  }
  if (isMissingKey(issue)) return { path, message: `missing required ${what} '${keys.join(".")}'` };
  return { path, message: clip(issue.message) };
}

/** `smiles (required), include_qed`: the arguments an input JSON Schema declares, required ones marked. */
export function argumentSummary(inputSchema: Record<string, unknown>): string {
  const properties = Object.keys((inputSchema.properties ?? {}) as Record<string, unknown>);
  const required = new Set((inputSchema.required ?? []) as string[]);
  return properties.map((name) => required.has(name) ? `${name} (required)` : name).join(", ");
}

/**
 * The error for arguments that fail a tool's input schema: -32602 in the modern dialect, -32000 with
 * `data.code: INVALID_ARGUMENTS` in the legacy one. When a key is unknown or missing, the message ends with the
 * arguments the tool takes, so the caller can correct the call without another `tools/list`.
 */
export function argumentError(
  tool: { readonly name: string; readonly inputSchema: Record<string, unknown> },
  issues: readonly v.BaseIssue<unknown>[],
  args: unknown,
  dialect: Dialect,
): ProtocolError {
  const known = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
  // A misspelling shows as a missing key and an unknown one; the unknown one, with its suggestion, reads first.
  const rank = (i: v.BaseIssue<unknown>) => isUnknownKey(i) ? 0 : isMissingKey(i) ? 1 : 2;
  const ordered = [...issues].sort((a, b) => rank(a) - rank(b)).slice(0, MAX_LISTED_ISSUES);
  const readable = ordered.map((issue) => readableIssue(issue, known));
  const lines = ordered.map((issue, i) =>
    rank(issue) < 2 ? readable[i]!.message : formatIssues([issue], "arguments")
  );
  if (issues.length > ordered.length) lines.push(`and ${issues.length - ordered.length} more`);
  const aboutKeys = args === undefined || ordered.some((i) => rank(i) < 2);
  const where = args === undefined ? "params.arguments is missing; " : "";
  const takes = aboutKeys
    ? `. ${tool.name} takes: ${argumentSummary(tool.inputSchema) || "no arguments"}`
    : "";
  const message = `Invalid arguments for tool '${tool.name}': ${where}${lines.join("; ")}${takes}`;
  const data = { ...(dialect === "legacy" ? { code: "INVALID_ARGUMENTS" } : {}), issues: readable };
  return new ProtocolError(dialect === "legacy" ? "tool_failure" : "invalid_params", message, data);
}

/** Most validation problems an error lists; the rest are counted (an answer must not grow with the input). */
export const MAX_LISTED_ISSUES = 5;

/** One line per validation issue: `result.smiles: Invalid type: Expected string but received undefined`. */
export function formatIssues(issues: readonly v.BaseIssue<unknown>[], root: string): string {
  return issues.map((issue) => `${[root, ...keysOf(issue)].join(".")}: ${clip(issue.message)}`).join("; ");
}

/** Caps one message (valibot quotes the received value, which can be long). */
function clip(message: string): string {
  return preview(message, 300);
}
