/**
 * The list machinery behind `batch`: one one-molecule tool run over `smiles_list`, built here once from what the
 * tool declares in `Tool.list` (its cap, its columns, the work its items share).
 *
 * A list is split into chunks; each chunk is one call of a derived tool (`<name>:items`) that runs the single
 * tool on every molecule of the chunk and returns each answer already reduced to its entry. Chunks of a pooled
 * tool run in the worker pool with at most as many in flight as there are workers, so a list never floods the
 * pool's queue and a call arriving behind it waits for one chunk at most; chunks of an in-place tool run one
 * after the other with a turn of the event loop between them, so the protocol thread keeps answering.
 *
 * The answer says what is common to every item once (method, echoed arguments, the column names) and gives one
 * entry per input in input order; an item that fails holds its typed error there. Every list ends by its
 * deadline ({@link LIST_DEADLINE_FACTOR} times the tool's per-molecule limit) and its answer is at most
 * {@link LIST_ANSWER_MAX_CHARS} characters: items past either bound hold a typed error in their place.
 *
 * @module
 */
import * as v from "valibot";
import { CancelledError, ChemError } from "../errors.ts";
import { type Clock, REAL_CLOCK } from "../clock.ts";
import { rdkitRefusal } from "../chem/rdkit_errors.ts";
import { ANSWER_WITHIN_MS, type CallCost, ITEMS_SUFFIX, POOLED_DEADLINE_MS } from "./placement.ts";
import type { ListSpec, ObjectSchema, Tool } from "./tool.ts";
import {
  type Entry,
  entryOf,
  type ItemError,
  listAnswer,
  listOutput,
  node,
  sharedFields,
  sharedValues,
} from "./list_shape.ts";

export type { ItemError } from "./list_shape.ts";

/** The argument that carries the molecules of a list. */
export const LIST_ARG = "smiles_list";

/** Runs one tool call as the runtime does (in place or in the pool); `signal` withdraws it. */
export type RunTool = (tool: Tool, args: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

/**
 * A list's deadline as a multiple of its tool's limit for one molecule: a tool's own time limit (`smarts_match`'s
 * `timeout_seconds`, `generate_3d`'s 20 s) plus the worker's grace, else the pool's 30 s for any call. Honest
 * lists end far sooner (1,000 drug-like molecules take a few seconds); three limits leave room for a molecule
 * that reaches its own limit and for a chunk run again one molecule at a time after it.
 */
export const LIST_DEADLINE_FACTOR = 3;

/**
 * Added to a list's deadline for the workers it waits for: a worker starting (a cold pool) or replacing one
 * stopped at its limit takes seconds on a loaded machine (a Deno worker process loads and compiles RDKit), time
 * in which the list computes nothing and that must not cost an honest molecule its answer.
 */
export const LIST_START_ALLOWANCE_MS = 10_000;

/**
 * Latest a list's deadline may be, ms: within {@link ANSWER_WITHIN_MS}, with room left to assemble, check and send
 * the answer of up to 1,000 items.
 */
export const LIST_ANSWER_WITHIN_MS = ANSWER_WITHIN_MS - 5_000;

/**
 * The deadline of a list of `form`'s tool with `rest`, ms: {@link LIST_DEADLINE_FACTOR} limits and the allowance,
 * at most {@link LIST_ANSWER_WITHIN_MS}.
 */
export function listDeadlineMs(
  form: ListForm,
  rest: Record<string, unknown>,
  allowanceMs = LIST_START_ALLOWANCE_MS,
): number {
  return Math.min(LIST_DEADLINE_FACTOR * itemLimitMs(form, rest) + allowanceMs, LIST_ANSWER_WITHIN_MS);
}

/**
 * Most characters of JSON a list answer holds: the largest request (1 MiB). A list's cap bounds its work; this
 * bounds what one answer can grow to (a MolJSON or CML per molecule is 50–200 times its SMILES). The answer goes
 * out twice, as text (escaped) and as `structuredContent`, so the message stays within 4 MiB.
 */
export const LIST_ANSWER_MAX_CHARS = 1024 * 1024;

/** A chunk that fails this close to the list's deadline, ms, was stopped by it: its molecules are late. */
const DEADLINE_SLACK_MS = 50;

/** How long a chunk answered SERVER_BUSY without a retry hint waits before it asks again, ms. */
const BUSY_PAUSE_MS = 250;

/** Resolves after `ms`, or at once when the list stops. */
function pause(ms: number, stop: Stop): Promise<void> {
  const { clock } = stop;
  return new Promise((resolve) => {
    const done = () => {
      clock.clearTimeout(timer);
      stop.signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = clock.setTimeout(done, Math.min(ms, Math.max(0, stop.end - clock.now())));
    stop.signal.addEventListener("abort", done, { once: true });
  });
}

/** What one chunk call answers: one entry per molecule, and the shared fields of its first success. */
interface ChunkResult extends Record<string, unknown> {
  readonly items: Entry[];
  readonly shared?: Record<string, unknown>;
}

/** A tool's list form: the single tool it wraps, what every item shares, and its derived schemas and chunk tool. */
export interface ListForm {
  readonly single: Tool;
  readonly spec: ListSpec;
  /** The argument each molecule of the list stands in for. */
  readonly item: string;
  readonly shared: readonly string[];
  readonly columns?: readonly string[];
  /** The single tool's arguments less the molecule: what a list's other arguments must be. */
  readonly rest: ObjectSchema;
  /** The list answer's schema. */
  readonly output: ObjectSchema;
  readonly chunk: Tool;
  /** The last `prepare` made, by its arguments (one list at a time per thread is the common case). */
  prepared?: { readonly key: string; readonly each: (item: string) => unknown };
}

const FORMS = new WeakMap<Tool, ListForm>();

/** `tool`'s list form, built on first use; `undefined` for a tool without `Tool.list`. */
export function listFormOf(tool: Tool): ListForm | undefined {
  const spec = tool.list;
  if (!spec) return undefined;
  const known = FORMS.get(tool);
  if (known) return known;
  const item = spec.item ?? "smiles";
  const entries = { ...node(tool.input).entries };
  if (!entries[item]) throw new Error(`tool '${tool.name}' has no argument '${item}'`);
  delete entries[item];
  const shared = sharedFields(tool, item, spec);
  const form: ListForm = {
    single: tool,
    spec,
    item,
    shared,
    ...(spec.columns ? { columns: spec.columns } : {}),
    rest: v.strictObject(entries) as unknown as ObjectSchema,
    output: listOutput(tool, shared, spec.columns),
    chunk: {
      name: tool.name + ITEMS_SUFFIX,
      title: tool.title,
      description: `Runs ${tool.name} on a chunk of a list.`,
      annotations: tool.annotations,
      input: v.looseObject({}),
      output: v.looseObject({}),
      placement: {
        where: "pool",
        chunkOf: tool.name,
        cost: (args) => chunkCost(tool, item, args),
        ...(tool.placement?.deadlineMs ? { deadlineMs: (args) => chunkDeadlineMs(tool, args) } : {}),
      },
      run: (args) => runItems(form, args),
    },
  };
  FORMS.set(tool, form);
  return form;
}

/** The derived tool that runs chunks of `tool`'s lists, for the workers' tool table. */
export function chunkToolOf(tool: Tool): Tool | undefined {
  return listFormOf(tool)?.chunk;
}

/** A chunk's cost: the dearest of its molecules' calls, as the single tool reads them. */
function chunkCost(tool: Tool, item: string, args: Record<string, unknown>): CallCost {
  const cost = tool.placement?.cost as ((args: Record<string, unknown>) => CallCost) | undefined;
  const { [LIST_ARG]: list, start: _start, left_ms: _left, ...rest } = args;
  if (!cost || !Array.isArray(list)) return "light";
  return list.some((one) => cost({ ...rest, [item]: one }) === "costly") ? "costly" : "light";
}

/** A chunk's deadline: its tool's limit for one molecule, no later than what is left of the list's deadline. */
function chunkDeadlineMs(tool: Tool, args: Record<string, unknown>): number {
  const own = tool.placement!.deadlineMs!(args as never);
  const left = typeof args.left_ms === "number" ? args.left_ms : own;
  return Math.max(1, Math.min(own, left));
}

/** The limit of one molecule of `form`'s tool with `rest`, ms (see {@link LIST_DEADLINE_FACTOR}). */
export function itemLimitMs(form: ListForm, rest: Record<string, unknown>): number {
  return form.single.placement?.deadlineMs?.(rest as never) ?? POOLED_DEADLINE_MS;
}

/**
 * Items per chunk: at most a fortieth of the cap (caps are set by cost, so that is 10–30 ms of work), and at
 * least four chunks per worker.
 */
export function chunkSize(cap: number, count: number, workers: number): number {
  const most = Math.max(1, Math.floor(cap / 40));
  return Math.min(most, Math.max(1, Math.ceil(count / (4 * workers))));
}

/** How a list call ends: cancelled from outside, at its deadline, or not yet. */
interface Stop {
  readonly signal: AbortSignal;
  readonly cancelled: () => boolean;
  readonly end: number;
  readonly clock: Clock;
}

/**
 * Answers a list of `tool`: `args` are the tool's own arguments less its molecule, validated, plus
 * `smiles_list`; `startAllowanceMs` is the part of the deadline left for workers to start. Chunks go through
 * `run`, at most `workers` at once, and the answers are put back in input order; `clock` times the deadline. When `signal` aborts, no further chunk starts and the call throws {@link CancelledError}; at the
 * deadline, no further chunk starts and every molecule not answered holds a COMPUTATION_TIMEOUT. Either way,
 * chunks in flight of a tool that can run away are withdrawn with their worker, the others finish unread.
 */
export async function runList(
  tool: Tool,
  args: Record<string, unknown>,
  run: RunTool = (t, a) => Promise.resolve(t.run(a)),
  workers = 1,
  signal?: AbortSignal,
  startAllowanceMs = LIST_START_ALLOWANCE_MS,
  clock: Clock = REAL_CLOCK,
): Promise<Record<string, unknown>> {
  const form = listFormOf(tool);
  if (!form) throw new Error(`tool '${tool.name}' has no list form`);
  if (signal?.aborted) throw new CancelledError();
  const { [LIST_ARG]: list, ...rest } = args as Record<string, unknown> & { [LIST_ARG]: string[] };
  const limitMs = listDeadlineMs(form, rest, startAllowanceMs);
  const size = chunkSize(form.spec.cap, list.length, workers);
  const items: (Entry | undefined)[] = new Array(list.length);
  let shared: Record<string, unknown> | undefined;
  const stopper = new AbortController();
  const stopped = new Promise<void>((resolve) => stopper.signal.addEventListener("abort", () => resolve()));
  const onCancel = () => stopper.abort();
  signal?.addEventListener("abort", onCancel, { once: true });
  const timer = clock.setTimeout(() => stopper.abort(), limitMs);
  const stop: Stop = {
    signal: stopper.signal,
    cancelled: () => signal?.aborted === true,
    end: clock.now() + limitMs,
    clock,
  };
  let next = 0;
  const drain = async () => {
    while (next < list.length && !stop.signal.aborted) {
      const start = next;
      next += size;
      const answer = await runChunk(form, rest, list.slice(start, start + size), start, run, stop);
      answer.items.forEach((entry, i) => (items[start + i] = entry));
      shared ??= answer.shared;
      // A chunk that ran in place held the thread; let waiting requests in before the next.
      await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), 0));
    }
  };
  const drains = Promise.all(
    Array.from({ length: Math.max(1, Math.min(workers, Math.ceil(list.length / size))) }, drain),
  );
  // Chunks still running after a stop settle unread.
  drains.catch(() => {});
  try {
    await Promise.race([drains, stopped]);
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener("abort", onCancel);
  }
  if (stop.cancelled()) throw new CancelledError();
  const late = lateError(tool.name, limitMs);
  const entries = Array.from(list, (_, i) => items[i] ?? itemError(i, late));
  return assemble(form, bounded(entries), shared);
}

/** The error of a molecule not answered by the list's deadline. */
function lateError(name: string, limitMs: number): ChemError {
  return new ChemError(
    "COMPUTATION_TIMEOUT",
    `The list's deadline (${limitMs / 1000} s for ${name}) passed before this molecule was answered. Send ` +
      "it again, in a shorter list.",
    { limit_ms: limitMs },
  );
}

/**
 * One chunk through `run`. A chunk stopped at its deadline or lost with its worker is run again one molecule per
 * call, so only the molecule at fault carries the error; other typed errors (the pool too busy) go to every
 * item. After the list's stop, nothing is run again: its molecules are answered late or cancelled.
 */
async function runChunk(
  form: ListForm,
  rest: Record<string, unknown>,
  smiles: string[],
  start: number,
  run: RunTool,
  stop: Stop,
): Promise<ChunkResult> {
  try {
    // A chunk of a bounded tool lasts tens of ms: on a stop it is let finish, and its worker stays, where
    // withdrawing it would retire the worker and make the next call wait for a new one. A chunk of a tool that
    // can run away is withdrawn with its worker.
    const withdraw = form.single.placement?.deadlineMs ? stop.signal : undefined;
    const left_ms = Math.max(1, Math.round(stop.end - stop.clock.now()));
    return await run(form.chunk, { ...rest, [LIST_ARG]: smiles, start, left_ms }, withdraw) as ChunkResult;
  } catch (error) {
    if (stop.cancelled()) throw new CancelledError();
    // Withdrawn or stopped at the list's deadline: its molecules are answered late (none run again).
    if (error instanceof CancelledError || stop.clock.now() >= stop.end - DEADLINE_SLACK_MS) {
      return { items: [] };
    }
    if (error instanceof ChemError && error.code === "SERVER_BUSY") {
      // The workers are held (by this list's own chunks, often): the chunk waits its turn again, as the error
      // advises, until the list's deadline, rather than failing honest molecules.
      await pause(Number(error.details?.retry_after_ms) || BUSY_PAUSE_MS, stop);
      return await runChunk(form, rest, smiles, start, run, stop);
    }
    if (smiles.length > 1 && oneMoleculeAtFault(error)) {
      const items: Entry[] = [];
      let shared: Record<string, unknown> | undefined;
      for (const [i, one] of smiles.entries()) {
        if (stop.signal.aborted) break;
        const answer = await runChunk(form, rest, [one], start + i, run, stop);
        // A molecule answered late ends the chunk: the entries are positional.
        if (answer.items.length === 0) break;
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
  const { [LIST_ARG]: list, start, left_ms: _left, ...rest } = args as Record<string, unknown> & {
    [LIST_ARG]: string[];
    start: number;
  };
  const each = prepared(form, rest);
  const dropped = [form.item, ...form.shared];
  const items: Entry[] = [];
  let shared: Record<string, unknown> | undefined;
  for (const [i, smiles] of list.entries()) {
    try {
      let result = await each(smiles) as Record<string, unknown>;
      // Rows are checked against their column schemas with the answer; an item kept whole is checked here,
      // before it loses the fields its schema requires.
      if (!form.columns) result = v.parse(form.single.output, result);
      shared ??= sharedValues(form.shared, result);
      items.push(entryOf(form.columns, dropped, result));
    } catch (thrown) {
      const error = rdkitRefusal(thrown) ?? thrown;
      if (!(error instanceof ChemError)) throw error;
      items.push(itemError(start + i, error));
    }
  }
  return { items, ...(shared ? { shared } : {}) };
}

/** The function answering one molecule with `rest`: the tool's `prepare`d one (kept for the next chunk), or `run`. */
function prepared(form: ListForm, rest: Record<string, unknown>): (item: string) => unknown {
  const prepare = form.spec.prepare;
  if (!prepare) return (item) => form.single.run({ ...rest, [form.item]: item });
  const key = JSON.stringify(rest);
  if (form.prepared?.key === key) return form.prepared.each;
  let each: (item: string) => unknown;
  try {
    each = prepare(rest);
  } catch (error) {
    // What every item shares is wrong (an invalid query): each item answers that error.
    each = () => {
      throw error;
    };
  }
  form.prepared = { key, each };
  return each;
}

function itemError(index: number, error: ChemError): ItemError {
  return { index, error: { code: error.code, message: error.message } };
}

/**
 * `entries` with every entry from the one that would take the answer past {@link LIST_ANSWER_MAX_CHARS} replaced
 * by its error; the errors of the entries after it are counted in, so the whole stays within the cap.
 */
function bounded(entries: Entry[]): Entry[] {
  const error = new ChemError(
    "ANSWER_TOO_LARGE",
    `The list's answer reached its cap of ${LIST_ANSWER_MAX_CHARS} characters before this molecule. Send the ` +
      "molecules from here again in another list.",
    { limit_chars: LIST_ANSWER_MAX_CHARS },
  );
  const errorChars = JSON.stringify(itemError(entries.length, error)).length + 1;
  let chars = 0;
  const at = entries.findIndex((entry, i) =>
    (chars += JSON.stringify(entry).length + 1) + (entries.length - i - 1) * errorChars >
      LIST_ANSWER_MAX_CHARS
  );
  return at < 0 ? entries : entries.map((entry, i) => i < at ? entry : itemError(i, error));
}

/** The list answer: summary, shared fields, columns and the entries in input order. */
function assemble(
  form: ListForm,
  items: Entry[],
  shared: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return listAnswer(form.columns, items, shared);
}
