/**
 * The list form of every tool that takes one molecule: `smiles_list` in place of that molecule, built here once
 * from what the tool declares in `Tool.list` (its cap, its columns).
 *
 * A list call is split into chunks; each chunk is one call of a derived tool (`<name>:items`) that runs the
 * single tool on every molecule of the chunk and returns each answer already reduced to its row. Chunks of a
 * pooled tool run in the worker pool with at most as many in flight as there are workers, so a batch never
 * floods the pool's queue and a call arriving behind it waits for one chunk at most; chunks of an in-place tool
 * run one after the other with a turn of the event loop between them, so the protocol thread keeps answering.
 *
 * The answer (`structuredContent`) says what is common to every item once (method, echoed arguments, the
 * column names) and gives one entry per input in input order; an item that fails holds its typed error there.
 *
 * @module
 */
import * as v from "valibot";
import { CancelledError, ChemError } from "../errors.ts";
import { ITEMS_SUFFIX } from "./placement.ts";
import type { ListSpec, ObjectSchema, Tool } from "../tools/tool.ts";

/** The argument that carries the molecules of a list call. */
export const LIST_ARG = "smiles_list";

/** Runs one tool call as the runtime does (in place or in the pool); `signal` withdraws it. */
export type RunTool = (tool: Tool, args: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

/** A failed item: its position in `smiles_list` and its typed error. */
export interface ItemError {
  readonly index: number;
  readonly error: { readonly code: string; readonly message: string };
}

/** What one chunk call answers: one entry per molecule, and the shared fields of its first success. */
interface ChunkResult extends Record<string, unknown> {
  readonly items: (unknown[] | Record<string, unknown> | ItemError)[];
  readonly shared?: Record<string, unknown>;
}

/** A valibot schema seen through the properties list building needs. */
interface SchemaNode {
  readonly type: string;
  readonly wrapped?: v.GenericSchema;
  readonly item?: v.GenericSchema;
  readonly items?: readonly v.GenericSchema[];
  readonly entries?: Record<string, v.GenericSchema>;
}

const node = (schema: unknown) => schema as SchemaNode;

/** A tool's list form: the single tool it wraps, its spec and what every item shares. */
interface ListForm {
  readonly single: Tool;
  readonly spec: ListSpec;
  readonly item: string;
  readonly shared: readonly string[];
  readonly columns?: readonly string[];
  readonly chunk: Tool;
}

const FORMS = new WeakMap<Tool, ListForm>();

/**
 * The tool as served: `tool` itself when it has no list form, else the same tool with `smiles_list` added to its
 * input (exactly one of the molecule and the list), an output schema describing both answers, and a `run` that
 * takes either.
 */
export function withList(tool: Tool): Tool {
  const spec = tool.list;
  if (!spec) return tool;
  const item = spec.item ?? "smiles";
  const shared = sharedFields(tool, item, spec);
  const columns = spec.columns && (spec.rank ? ["index", ...spec.columns] : spec.columns);
  const chunk: Tool = {
    name: tool.name + ITEMS_SUFFIX,
    title: tool.title,
    description: `Runs ${tool.name} on a chunk of a list call.`,
    annotations: tool.annotations,
    input: v.looseObject({}),
    output: v.looseObject({}),
    ...(tool.isolation ? { isolation: tool.isolation } : {}),
    run: (args) => runItems(FORMS.get(served)!, args),
  };
  const served: Tool = {
    ...tool,
    input: listInput(tool, spec, item),
    output: v.union([tool.output, listOutput(tool, item, shared, columns)]),
    run: (args) => isListCall(served, args) ? runList(served, args) : tool.run(args),
  };
  FORMS.set(served, { single: tool, spec, item, shared, ...(columns ? { columns } : {}), chunk });
  return served;
}

/** The derived tool that runs chunks of `tool`'s list calls, for the workers' tool table. */
export function chunkToolOf(tool: Tool): Tool | undefined {
  return FORMS.get(tool)?.chunk;
}

/** Whether validated `args` of `tool` are a list call. */
export function isListCall(tool: Tool, args: Record<string, unknown>): boolean {
  return FORMS.has(tool) && Array.isArray(args[LIST_ARG]);
}

/**
 * Items per chunk: at most a fortieth of the cap (caps are set by cost, so that is 10–30 ms of work), and at
 * least four chunks per worker.
 */
export function chunkSize(cap: number, count: number, workers: number): number {
  const most = Math.max(1, Math.floor(cap / 40));
  return Math.min(most, Math.max(1, Math.ceil(count / (4 * workers))));
}

/**
 * Answers a list call of `tool` (validated `args`): chunks go through `run`, at most `workers` at once, and the
 * answers are put back in input order. When `signal` aborts, no further chunk starts ({@link CancelledError});
 * chunks in flight of a tool that can run away are withdrawn, the others finish.
 */
export async function runList(
  tool: Tool,
  args: Record<string, unknown>,
  run: RunTool = (t, a) => Promise.resolve(t.run(a)),
  workers = 1,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const form = FORMS.get(tool);
  if (!form) throw new Error(`tool '${tool.name}' has no list form`);
  const { [LIST_ARG]: list, threshold, top_k, ...rest } = args as Record<string, unknown> & {
    [LIST_ARG]: string[];
    threshold?: number;
    top_k?: number;
  };
  const size = chunkSize(form.spec.cap, list.length, workers);
  const items: ChunkResult["items"] = [];
  let shared: Record<string, unknown> | undefined;
  let next = 0;
  const drain = async () => {
    while (next < list.length) {
      if (signal?.aborted) throw new CancelledError();
      const start = next;
      next += size;
      const answer = await runChunk(form, rest, list.slice(start, start + size), start, run, signal);
      answer.items.forEach((entry, i) => (items[start + i] = entry));
      shared ??= answer.shared;
      // A chunk that ran in place held the thread; let waiting requests in before the next.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(workers, Math.ceil(list.length / size))) }, drain),
  );
  return assemble(form, items, shared, threshold, top_k);
}

/**
 * One chunk through `run`. A chunk stopped at its deadline or lost with its worker is run again one molecule per
 * call, so only the molecule at fault carries the error; other typed errors (the pool too busy) go to every item.
 */
async function runChunk(
  form: ListForm,
  rest: Record<string, unknown>,
  smiles: string[],
  start: number,
  run: RunTool,
  signal: AbortSignal | undefined,
): Promise<ChunkResult> {
  try {
    // A chunk of a bounded tool lasts tens of ms: on a cancel it is let finish, and its worker stays, where
    // withdrawing it would retire the worker and make the next call wait for a new one. A chunk of a tool that
    // can run away is withdrawn with its worker.
    const withdraw = form.single.isolation ? signal : undefined;
    return await run(form.chunk, { ...rest, [LIST_ARG]: smiles, start }, withdraw) as ChunkResult;
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    if (smiles.length > 1 && oneMoleculeAtFault(error)) {
      const items: ChunkResult["items"] = [];
      let shared: Record<string, unknown> | undefined;
      for (const [i, one] of smiles.entries()) {
        const answer = await runChunk(form, rest, [one], start + i, run, signal);
        items.push(...answer.items);
        shared ??= answer.shared;
      }
      return { items, ...(shared ? { shared } : {}) };
    }
    if (!(error instanceof ChemError)) throw error;
    return { items: smiles.map((_, i) => itemError(start + i, error)) };
  }
}

/**
 * Whether `error` may come from one molecule of the chunk: its deadline, or its worker trapped or died (the pool
 * reports those as UNSUPPORTED_MOLECULE with the cause in `details`).
 */
function oneMoleculeAtFault(error: unknown): boolean {
  if (!(error instanceof ChemError)) return true;
  const cause = error.details?.cause;
  return error.code === "COMPUTATION_TIMEOUT" || cause === "worker_died" || cause === "worker_failure";
}

/** The chunk tool's work (in a worker or in place): the single tool on each molecule, reduced to its entry. */
async function runItems(form: ListForm, args: Record<string, unknown>): Promise<ChunkResult> {
  const { [LIST_ARG]: list, start, ...rest } = args as Record<string, unknown> & {
    [LIST_ARG]: string[];
    start: number;
  };
  const items: ChunkResult["items"] = [];
  let shared: Record<string, unknown> | undefined;
  for (const [i, smiles] of list.entries()) {
    try {
      let result = await form.single.run({ ...rest, [form.item]: smiles }) as Record<string, unknown>;
      // Rows are checked against their column schemas; an item kept whole is checked here, before it loses the
      // fields its schema requires.
      if (!form.columns) result = v.parse(form.single.output, result);
      shared ??= sharedValues(form.shared, result);
      items.push(entryOf(form, result));
    } catch (error) {
      if (!(error instanceof ChemError)) throw error;
      items.push(itemError(start + i, error));
    }
  }
  return { items, ...(shared ? { shared } : {}) };
}

function itemError(index: number, error: ChemError): ItemError {
  return { index, error: { code: error.code, message: error.message } };
}

/** One item's entry: the row of its columns, or the single result less the echoed molecule and shared fields. */
function entryOf(form: ListForm, result: Record<string, unknown>): unknown[] | Record<string, unknown> {
  const columns = form.spec.columns;
  if (columns) return columns.map((path) => pick(result, path.split(".")) ?? null);
  return [form.item, ...form.shared].reduce((entry, path) => without(entry, path.split(".")), result);
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
function sharedValues(paths: readonly string[], result: Record<string, unknown>): Record<string, unknown> {
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

const isError = (entry: unknown): entry is ItemError =>
  entry !== null && typeof entry === "object" && !Array.isArray(entry) && "error" in entry &&
  "index" in entry;

/** The list answer: summary, shared fields, columns, and the entries (ranked when `threshold`/`top_k` ask). */
function assemble(
  form: ListForm,
  items: ChunkResult["items"],
  shared: Record<string, unknown> | undefined,
  threshold: number | undefined,
  topK: number | undefined,
): Record<string, unknown> {
  const failed = items.filter(isError);
  const ranked = form.spec.rank !== undefined && (threshold !== undefined || topK !== undefined);
  let results: unknown[] = form.spec.rank
    ? items.map((entry, index) => isError(entry) ? entry : [index, ...(entry as unknown[])])
    : items;
  let kept = "";
  if (ranked) {
    const at = 1 + form.spec.columns!.indexOf(form.spec.rank!);
    const score = (row: unknown[]) => row[at] as number;
    const rows = (results.filter((e) => !isError(e)) as unknown[][])
      .filter((row) => threshold === undefined || score(row) >= threshold)
      .sort((a, b) => score(b) - score(a))
      .slice(0, topK);
    results = [...rows, ...failed];
    kept = `; ${rows.length} kept (${form.spec.rank} ≥ ${threshold ?? "any"}, top ${
      topK ?? "all"
    }), best first`;
  }
  const where = failed.length ? ` (indices ${failed.map((e) => e.index).join(", ")})` : "";
  const summary = `${items.length} molecules: ${items.length - failed.length} answered, ${failed.length} ` +
    `failed${where}${kept}.`;
  return { summary, ...shared, ...(form.columns ? { columns: form.columns } : {}), results };
}

/**
 * Fields said once for the whole list: `method`, literals (`heuristic: true`, the force field), the arguments
 * the single result echoes (other than the molecule) and what the tool names in `shared`.
 */
function sharedFields(tool: Tool, item: string, spec: ListSpec): string[] {
  const inputs = new Set(Object.keys(node(tool.input).entries ?? {}));
  const outputs = node(tool.output).entries ?? {};
  const automatic = Object.keys(outputs).filter((key) =>
    key !== item && (key === "method" || node(outputs[key]).type === "literal" || inputs.has(key))
  );
  return [...automatic, ...(spec.shared ?? []).filter((path) => !automatic.includes(path))];
}

/** The single input with the molecule optional, `smiles_list` beside it, and exactly one of the two required. */
function listInput(tool: Tool, spec: ListSpec, item: string): ObjectSchema {
  const entries = { ...node(tool.input).entries };
  const single = entries[item];
  if (!single) throw new Error(`tool '${tool.name}' has no argument '${item}'`);
  const rank: v.ObjectEntries = spec.rank
    ? {
      threshold: v.optional(
        v.pipe(v.number(), v.finite(), v.description(`With ${LIST_ARG}: keep ${spec.rank} ≥ threshold.`)),
      ),
      top_k: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.description(`With ${LIST_ARG}: keep the best k, best first.`),
        ),
      ),
    }
    : {};
  const schema = v.strictObject({
    ...entries,
    [item]: v.optional(single),
    // An entry that is empty or too long is that item's typed error, not the call's; the list as a whole stays
    // bounded by its cap here and by the request size limit (1 MiB) before it is decoded.
    [LIST_ARG]: v.optional(
      v.pipe(
        v.array(v.string()),
        v.check((list: string[]) => list.length > 0, `${LIST_ARG} holds at least one SMILES.`),
        v.maxLength(spec.cap),
        v.description(`In place of ${item}.`),
      ),
    ),
    ...rank,
  });
  return v.pipe(
    schema,
    v.check(
      (args) => (args[item] === undefined) !== (args[LIST_ARG] === undefined),
      `Give exactly one of ${item} and ${LIST_ARG}.`,
    ),
    v.check(
      (args) => args[LIST_ARG] !== undefined || (args.threshold === undefined && args.top_k === undefined),
      `threshold and top_k apply to ${LIST_ARG} only.`,
    ),
  ) as unknown as ObjectSchema;
}

/** The schema of list answers. */
function listOutput(
  tool: Tool,
  item: string,
  shared: readonly string[],
  columns: readonly string[] | undefined,
): ObjectSchema {
  const outputs = node(tool.output).entries ?? {};
  const entry = columns
    ? v.tuple(columns.map((path) => path === "index" ? INDEX : columnSchema(tool.output, path.split("."))))
    : v.pipe(
      v.record(v.string(), v.unknown()),
      v.description(`${tool.name}'s single answer less ${item} and the fields given once above.`),
    );
  const top = [...new Set(shared.map((path) => path.split(".")[0]!))];
  return v.object({
    summary: v.pipe(v.string(), v.description("Molecules answered and failed.")),
    ...Object.fromEntries(top.map((key) => [
      key,
      v.optional(
        shared.includes(key)
          ? outputs[key]!
          : v.pipe(v.record(v.string(), v.unknown()), v.description(`Fields of every item's ${key}.`)),
      ),
    ])),
    ...(columns
      ? {
        columns: v.pipe(
          v.array(v.string()),
          v.description(`Names of a row's values: ${columns.join(", ")}.`),
        ),
      }
      : {}),
    results: v.pipe(
      v.array(v.union([entry, ITEM_ERROR])),
      v.description(
        `One per molecule, in input order${tool.list?.rank ? " (ranked with threshold or top_k)" : ""}.`,
      ),
    ),
  }) as unknown as ObjectSchema;
}

const INDEX = v.pipe(v.number(), v.description("Position in smiles_list, from 0."));

const ITEM_ERROR = v.object({
  index: INDEX,
  error: v.pipe(
    v.object({
      code: v.pipe(v.string(), v.description("E.g. INVALID_SMILES.")),
      message: v.pipe(v.string(), v.description("What to fix.")),
    }),
    v.description("Why this molecule failed."),
  ),
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
