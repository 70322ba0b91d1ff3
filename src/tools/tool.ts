/**
 * The shape of one tool: a name, a description an LLM can act on, a valibot input and output schema (the single
 * source for validation, the published JSON Schema and the TypeScript types), and one function.
 *
 * @module
 */
import type * as v from "valibot";
import type { Placement } from "./placement.ts";

/** Any valibot schema usable as a tool's input or output (an object schema). */
export type ObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/**
 * MCP tool annotations (behaviour hints clients use to decide whether a call needs the user's confirmation). Hints,
 * not guarantees: clients must not trust them from an untrusted server, but without them a client treats every
 * tool as possibly destructive and open-world.
 */
export interface ToolAnnotations {
  /** The tool does not modify its environment. */
  readonly readOnlyHint: boolean;
  /** The tool may perform destructive updates (meaningful only when not read-only). */
  readonly destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect on its environment. */
  readonly idempotentHint: boolean;
  /** The tool reaches outside the server (here: a network service). */
  readonly openWorldHint: boolean;
}

/**
 * A request's abort signal, or the function that makes it on first use: a call run in place never needs one, so
 * only a call that goes to a worker asks for it (an `AbortController` per request was 2–4% of the protocol
 * thread's time).
 */
export type LazySignal = AbortSignal | (() => AbortSignal);

/** The signal of a {@link LazySignal}, made now if it was deferred. */
export function signalOf(signal: LazySignal | undefined): AbortSignal | undefined {
  return typeof signal === "function" ? signal() : signal;
}

/** A pure computation on its arguments: reads nothing outside the process, changes nothing. */
export const LOCAL_COMPUTATION: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A read-only query of an outside service: changes nothing, but its answer depends on a world we do not control. */
export const OUTSIDE_LOOKUP: ToolAnnotations = { ...LOCAL_COMPUTATION, openWorldHint: true };

/**
 * A tool as its module declares it.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * export const echo = defineTool({
 *   name: "echo",
 *   title: "Echo",
 *   description: "Returns its input.",
 *   annotations: LOCAL_COMPUTATION,
 *   input: v.strictObject({ text: v.string() }),
 *   output: v.object({ text: v.string() }),
 *   run: ({ text }) => ({ text }),
 * });
 * ```
 */
export interface Tool<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
  R = v.InferInput<O>,
> {
  /** Unique tool name as clients call it (snake_case). */
  readonly name: string;
  /** Short human title. */
  readonly title: string;
  /** What the tool does, its method and reference, units, limits, and when to use it. */
  readonly description: string;
  /** Behaviour hints published in the modern `tools/list` (not in the legacy one: docs/decisions/tool-annotations.md). */
  readonly annotations: ToolAnnotations;
  /** Arguments schema; arguments are validated against it before `run`. */
  readonly input: I;
  /** Result schema; every successful result conforms to it. */
  readonly output: O;
  /**
   * Where the tool runs (in place, in the pool by cost, in the pool always), its own time limit, what a call
   * costs, and a starting worker's warm-up calls (src/tools/placement.ts). Without it: in place.
   */
  readonly placement?: Placement<v.InferOutput<I>>;
  /** Set for one-molecule tools that `batch` runs over a list of molecules (src/tools/list.ts). */
  readonly list?: ListSpec;
  /**
   * Set for a tool that calls other tools itself (`batch`): the server calls this on the protocol thread, with the
   * runtime's way of running a tool and the number of workers behind it, instead of `run`.
   */
  readonly fanOut?: (
    args: v.InferOutput<I>,
    run: (tool: Tool, args: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>,
    workers: number,
    signal?: AbortSignal,
  ) => Promise<v.InferInput<O>>;
  /** Tools a worker serves for this tool's {@link Tool.fanOut} (its parts); never listed to clients. */
  readonly workerTools?: readonly Tool[];
  /** Computes the result; throws `ChemError` for chemistry-domain failures. */
  readonly run: (args: v.InferOutput<I>) => R | Promise<R>;
  /**
   * Set for tools whose answer is more than JSON (a picture): splits what `run` returned into the content blocks
   * that come before the result's JSON text and the structured result that `output` describes. Without it, the
   * value `run` returns is the structured result and the JSON text is the only content.
   */
  readonly content?: (value: R) => ToolContent<v.InferInput<O>>;
}

/** An MCP content block a tool may answer with besides its JSON text. */
export type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string };

/** What a {@link Tool.content} hook makes of a tool's value. */
export interface ToolContent<S> {
  /** Blocks placed before the JSON text of `structured`, in order. */
  readonly blocks: readonly ContentBlock[];
  /** The structured result, checked against the tool's output schema. */
  readonly structured: S;
}

/**
 * What a tool says about its list form (run by `batch`); everything else (schemas, fan-out, order, per-item
 * errors, the compact answer, the deadline) is built once in src/tools/list.ts.
 */
export interface ListSpec {
  /** Most molecules one call may carry, set by what one item costs in time and in characters. */
  readonly cap: number;
  /** The argument `smiles_list` stands in for (default `smiles`). */
  readonly item?: string;
  /**
   * Paths (dot-separated; through an array they collect one value per element) of the single result that each
   * list item keeps, as one row of values; without columns each item is the single result minus what is shared.
   */
  readonly columns?: readonly string[];
  /**
   * Paths (dot-separated) of result fields that rest on the arguments alone, so are equal for every item: said
   * once above the items, besides `method`, literals and echoed arguments.
   */
  readonly shared?: readonly string[];
  /**
   * Work every item shares, done once: given the arguments besides the molecule, the function that answers one
   * molecule as `run` would (tanimoto fingerprints its query once, not once per item).
   */
  readonly prepare?: (args: Record<string, unknown>) => (item: string) => unknown;
}

/** Identity helper that lets TypeScript infer a tool's argument and result types from its schemas. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}

/**
 * {@link defineTool} for a tool with a {@link Tool.content} hook: `run`'s value type is inferred from `run`, and
 * the hook's structured result is checked against the output schema.
 */
export function defineContentTool<I extends ObjectSchema, O extends ObjectSchema, R>(
  tool: Tool<I, O, R> & { readonly content: (value: R) => ToolContent<v.InferInput<O>> },
): Tool<I, O, R> {
  return tool;
}
