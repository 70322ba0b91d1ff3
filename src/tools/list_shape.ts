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
  if (columns) return columns.map((path) => pick(result, path.split(".")) ?? null);
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

/** The value at `path`; through an array, one value per element. */
function pick(value: unknown, path: readonly string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(value)) return value.map((element) => pick(element, path));
  if (value === null || typeof value !== "object") return undefined;
  return pick((value as Record<string, unknown>)[head], rest);
}

/** The schema of `tool`'s list answers. */
export function listOutput(
  tool: Tool,
  shared: readonly string[],
  columns: readonly string[] | undefined,
): ObjectSchema {
  const outputs = node(tool.output).entries ?? {};
  const entry = columns
    ? v.tuple(columns.map((path) => columnSchema(tool.output, path.split("."))))
    : v.record(v.string(), v.unknown());
  const top = [...new Set(shared.map((path) => path.split(".")[0]!))];
  return v.strictObject({
    summary: v.string(),
    ...Object.fromEntries(top.map((key) => [
      key,
      v.optional(shared.includes(key) ? outputs[key]! : v.record(v.string(), v.unknown())),
    ])),
    ...(columns ? { columns: v.array(v.string()) } : {}),
    results: v.array(v.union([entry, ITEM_ERROR])),
  }) as unknown as ObjectSchema;
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
