/**
 * The shape of a list answer (src/tools/list.ts): which fields every item shares and are said once, what one
 * item keeps (a row of columns or the single answer less the shared fields), and the valibot schema of the
 * whole answer, checked before it leaves the server.
 *
 * @module
 */
import * as v from "valibot";
import type { ListSpec, ObjectSchema, Tool } from "./tool.ts";

/** A failed item: its position in `smiles_list` and its typed error. */
export interface ItemError {
  readonly index: number;
  readonly error: { readonly code: string; readonly message: string };
}

/** One item of a list answer: a row of column values, the reduced single answer, or its error. */
export type Entry = unknown[] | Record<string, unknown> | ItemError;

/** A valibot schema seen through the properties list building needs. */
interface SchemaNode {
  readonly type: string;
  readonly wrapped?: v.GenericSchema;
  readonly item?: v.GenericSchema;
  readonly items?: readonly v.GenericSchema[];
  readonly entries?: Record<string, v.GenericSchema>;
}

/** `schema` seen as a {@link SchemaNode}. */
export const node = (schema: unknown) => schema as SchemaNode;

/** Whether `entry` is an item's error. */
export const isError = (entry: unknown): entry is ItemError =>
  entry !== null && typeof entry === "object" && !Array.isArray(entry) && "error" in entry &&
  "index" in entry;

/**
 * Fields said once for the whole list: `method`, literals (`heuristic: true`, the force field), the arguments
 * the single result echoes (other than the molecule) and what the tool names in `shared`.
 */
export function sharedFields(tool: Tool, item: string, spec: ListSpec): string[] {
  const inputs = new Set(Object.keys(node(tool.input).entries ?? {}));
  const outputs = node(tool.output).entries ?? {};
  const automatic = Object.keys(outputs).filter((key) =>
    key !== item && (key === "method" || node(outputs[key]).type === "literal" || inputs.has(key))
  );
  return [...automatic, ...(spec.shared ?? []).filter((path) => !automatic.includes(path))];
}

/** One item's entry: the row of its columns, or the single result less the echoed molecule and shared fields. */
export function entryOf(
  columns: readonly string[] | undefined,
  dropped: readonly string[],
  result: Record<string, unknown>,
): unknown[] | Record<string, unknown> {
  if (columns) return columns.map((path) => pick(result, steps(path)) ?? null);
  return dropped.reduce((entry, path) => without(entry, path.split(".")), result);
}

/** `record` less the field at `path` (a copy along the path; the rest is shared, not copied). */
function without(record: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !(head in record)) return record;
  const { [head]: inner, ...others } = record;
  if (rest.length === 0) return others;
  if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return record;
  return { ...others, [head]: without(inner as Record<string, unknown>, rest) };
}

/** The shared fields' values in `result`, nested as in the result (`admet.method` under `admet`). */
export function sharedValues(
  paths: readonly string[],
  result: Record<string, unknown>,
): Record<string, unknown> {
  let values: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split(".");
    const value = pick(result, keys);
    if (value !== undefined) values = withValue(values, keys, value);
  }
  return values;
}

/** `record` with `value` at `path`, the objects along it created or copied. */
function withValue(
  record: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return record;
  const inner = (record[head] ?? {}) as Record<string, unknown>;
  return { ...record, [head]: rest.length === 0 ? value : withValue(inner, rest, value) };
}

/**
 * A column path's steps: field names, and `[field=value]` after a field holding an array of objects, which picks
 * the element whose `field` is `value` (`rules[rule=logp].value`: the logP rule's value, one named column where
 * `rules.value` would be an unnamed array of four).
 */
function steps(path: string): string[] {
  return path.split(/\.|(?=\[)/);
}

/** The `[field=value]` selector of a step, if it is one. */
function selector(step: string): { field: string; value: string } | undefined {
  const match = /^\[([^=\]]+)=([^\]]*)\]$/.exec(step);
  return match ? { field: match[1]!, value: match[2]! } : undefined;
}

/** The value at `path`; through an array, one value per element, or the element a selector picks. */
function pick(value: unknown, path: readonly string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const select = selector(head);
  if (Array.isArray(value)) {
    if (!select) return value.map((element) => pick(element, path));
    const chosen = value.find((element) =>
      String((element as Record<string, unknown>)?.[select.field]) === select.value
    );
    return pick(chosen, rest);
  }
  if (value === null || typeof value !== "object") return undefined;
  return pick((value as Record<string, unknown>)[head], rest);
}

/**
 * The name a column is shown by: its path with each selector as the value it selects and a final `.value`
 * dropped (`rules[rule=logp].value` is `rules.logp`).
 *
 * @example
 * ```ts
 * columnName("rules[rule=molecular_weight].value"); // "rules.molecular_weight"
 * columnName("endpoints.herg.prediction"); // "endpoints.herg.prediction"
 * ```
 */
export function columnName(path: string): string {
  const named = path.replace(/\[[^=\]]+=([^\]]*)\]/g, ".$1");
  return /\[[^\]]*\]/.test(path) ? named.replace(/\.value$/, "") : named;
}

/** A list answer's rows with the columns that are null in every answered row left out, and their names. */
export function withoutEmptyColumns(
  names: readonly string[],
  entries: readonly Entry[],
): { names: string[]; entries: Entry[]; dropped: string[] } {
  const rows = entries.filter((entry): entry is unknown[] => Array.isArray(entry));
  const empty = names.map((_, i) => rows.length > 0 && rows.every((row) => row[i] === null));
  if (!empty.includes(true)) return { names: [...names], entries: [...entries], dropped: [] };
  return {
    names: names.filter((_, i) => !empty[i]),
    entries: entries.map((entry) => Array.isArray(entry) ? entry.filter((_, i) => !empty[i]) : entry),
    dropped: names.filter((_, i) => empty[i]),
  };
}

/** Most failed positions a summary names. */
const SUMMARY_INDICES = 20;

/**
 * A list answer's summary: how many molecules, answered and failed (with the failed positions), and the
 * columns left out for being null in every row, each said once.
 *
 * @example
 * ```ts
 * listSummary(1, [], []); // "1 molecule: 1 answered, 0 failed."
 * listSummary(3, [2], ["parent_smiles"]); // "3 molecules: 2 answered, 1 failed (index 2). Null in every row, left out: parent_smiles."
 * ```
 */
export function listSummary(count: number, failed: readonly number[], dropped: readonly string[]): string {
  // Each failed entry holds its own index; the summary names the first few, so it stays a line.
  const named = failed.slice(0, SUMMARY_INDICES).join(", ") +
    (failed.length > SUMMARY_INDICES ? ` and ${failed.length - SUMMARY_INDICES} more` : "");
  const where = failed.length === 0 ? "" : ` (${failed.length === 1 ? "index" : "indices"} ${named})`;
  const left = dropped.length ? ` Null in every row, left out: ${dropped.join(", ")}.` : "";
  return `${count} molecule${count === 1 ? "" : "s"}: ${count - failed.length} answered, ${failed.length} ` +
    `failed${where}.${left}`;
}

/**
 * The schema of `tool`'s list answers. With columns, the answer names them (see {@link columnName}) and may leave
 * out those null in every row, so each row is checked against the schemas of the columns the answer names.
 */
export function listOutput(
  tool: Tool,
  shared: readonly string[],
  columns: readonly string[] | undefined,
): ObjectSchema {
  const outputs = node(tool.output).entries ?? {};
  const byName = new Map(
    (columns ?? []).map((path) => [columnName(path), columnSchema(tool.output, steps(path))]),
  );
  const entry = columns ? v.array(v.unknown()) : v.record(v.string(), v.unknown());
  const top = [...new Set(shared.map((path) => path.split(".")[0]!))];
  const answer = v.strictObject({
    summary: v.string(),
    ...Object.fromEntries(top.map((key) => [
      key,
      v.optional(shared.includes(key) ? outputs[key]! : v.record(v.string(), v.unknown())),
    ])),
    ...(columns ? { columns: v.array(v.picklist([...byName.keys()])) } : {}),
    results: v.array(v.union([ITEM_ERROR, entry])),
  }) as unknown as v.GenericSchema<{ columns?: string[]; results: unknown[] }>;
  if (!columns) return answer as unknown as ObjectSchema;
  return v.pipe(
    answer,
    v.check((out) => {
      const row = v.strictTuple((out.columns ?? []).map((name) => byName.get(name)!));
      return out.results.every((item) => isError(item) || v.is(row, item));
    }, "A row does not match its columns."),
  ) as unknown as ObjectSchema;
}

/** An item's error as the answer holds it. */
export const ITEM_ERROR = v.strictObject({
  index: v.pipe(v.number(), v.description("Position in smiles_list, from 0.")),
  error: v.strictObject({ code: v.string(), message: v.string() }),
});

/** The schema of the value at `path` of a result of `schema`; optional fields become nullable. */
function columnSchema(schema: v.GenericSchema, path: readonly string[]): v.GenericSchema {
  const n = node(schema);
  if (n.type === "optional" && n.wrapped) return v.nullable(columnSchema(n.wrapped, path));
  const [head, ...rest] = path;
  if (head === undefined) return schema;
  // A selector picks one element, which may be missing: its value is a column that may be null.
  if (n.type === "array" && n.item && selector(head)) return v.nullable(columnSchema(n.item, rest));
  if (n.type === "array" && n.item) return v.array(columnSchema(n.item, path));
  if (n.type === "tuple" && n.items) {
    // A tuple of one schema repeated (a bond's two fragments) is described once.
    const same = n.items.every((item) => item === n.items![0]);
    return same
      ? v.array(columnSchema(n.items[0]!, path))
      : v.tuple(n.items.map((item) => columnSchema(item, path)));
  }
  const entry = n.entries?.[head];
  if (!entry) throw new Error(`no field '${head}' in a column path`);
  return columnSchema(entry, rest);
}

/**
 * The list answer: summary, shared fields, the columns by name (those null in every row left out) and the
 * entries in input order.
 */
export function listAnswer(
  columns: readonly string[] | undefined,
  items: readonly Entry[],
  shared: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const failed = items.filter(isError).map((entry) => entry.index);
  if (!columns) return { summary: listSummary(items.length, failed, []), ...shared, results: items };
  const table = withoutEmptyColumns(columns.map(columnName), items);
  const summary = listSummary(items.length, failed, table.dropped);
  return { summary, ...shared, columns: table.names, results: table.entries };
}
