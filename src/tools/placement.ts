/**
 * Where a tool's calls run, declared on the tool (`Tool.placement`), and the one function that turns a call into
 * the plan the pool (src/pool/) follows.
 *
 * The line between the protocol thread and the pool is drawn by measurement (bench/tool_cost_bench.ts): a worker
 * round trip adds 0.1–0.4 ms, so a tool whose median call on the drug set takes a millisecond or more, or whose
 * first call builds a table (Brenk queries, InChI), runs in the pool always; cheaper tools run in place unless
 * their input is costly; `name_to_smiles` waits on the network, not on a core, and stays in place. A call is
 * possibly long when its work is not bounded by a limit of its own: a tool with a time limit may run to it, and
 * a call whose cost (src/chem/cost.ts, read from every input) is past the light limits may run for seconds.
 *
 * @module
 */
import {
  graphCost,
  isLight,
  LIGHT_MAX_TOTAL_ATOMS,
  molBlockCost,
  type TextCost,
  textCost,
} from "../chem/cost.ts";

/** Suffix of the derived tool that runs one chunk of a list call (src/tools/list.ts). */
export const ITEMS_SUFFIX = ":items";

/**
 * Longest a pooled tool without a deadline of its own may compute, ms. Their atom limits keep them far below it
 * (the slowest drug-set call takes well under a second); past it the worker is retired like a runaway search,
 * so no input can occupy a worker for good. Equal to the longest `timeout_seconds` any tool accepts.
 */
export const POOLED_DEADLINE_MS = 30_000;

/**
 * Every call is answered within this many ms of its request, whatever the tool, list size or `timeout_seconds`:
 * common MCP clients (the SDK's default, Cursor, Cline, Zed) cut a call at 60 s, and a cut call loses everything.
 * A list past its deadline answers what it has (src/tools/list.ts); a pooled call waits at most
 * {@link MAX_QUEUE_WAIT_MS} for a worker and computes at most what is left of this (src/pool/runner.ts).
 */
export const ANSWER_WITHIN_MS = 55_000;

/**
 * Longest a pooled call waits for a worker, even in a queue that moves, ms: it then has at least 5 s to compute
 * within {@link ANSWER_WITHIN_MS}, where an honest bounded call needs well under one. A queue that moves this
 * slowly is rare even on a busy machine (100 honest calls at once beside 20 CPU-bound programs on 2 cores took
 * 22–29 s in all, docs/benchmarks.md), so honest load is not refused, and a call's own limit is cut to what is
 * left (src/pool/runner.ts).
 */
export const MAX_QUEUE_WAIT_MS = ANSWER_WITHIN_MS - 5_000;

/** What one call's inputs will cost: `light` work is bounded; `costly` work may take seconds. */
export type CallCost = "light" | "costly";

/** Where a tool runs and what its calls cost, as the tool declares it. */
export interface Placement<A = Record<string, unknown>> {
  /**
   * `in_place`: on the protocol thread always; `by_cost`: there unless the call is costly; `pool`: in a worker
   * always.
   */
  readonly where: "in_place" | "by_cost" | "pool";
  /** The tool's own time limit, ms: its calls run in a worker, stopped there, and may run to it. */
  readonly deadlineMs?: (args: A) => number;
  /** What a call costs, from every molecule, pattern, block and list among its arguments (default: light). */
  readonly cost?: (args: A) => CallCost;
  /** Arguments of the calls a starting worker makes so that users' first calls find one-time work done. */
  readonly warmUp?: readonly Record<string, unknown>[];
  /** Set on the derived tool that runs chunks of a list: the name of the tool it runs. */
  readonly chunkOf?: string;
}

/** How one call runs: where, within which deadline, and of which kind (see src/pool/policy.ts). */
export interface Plan {
  readonly where: "in_place" | "pool";
  /** The call's deadline in the pool, ms (none in place). */
  readonly deadlineMs: number;
  /** `bounded`: ends within a second; `possibly_long`: may run to its deadline; `chunk`: part of a list. */
  readonly kind: "bounded" | "possibly_long" | "chunk";
  /** Whether it may run long (a possibly long call, or a chunk of a tool that may): a cancel withdraws it. */
  readonly long: boolean;
  /** The tool the caller called (a chunk's list tool). */
  readonly name: string;
}

/** A tool as {@link planCall} sees it. */
export interface Placed {
  readonly name: string;
  readonly placement?: Placement<never>;
}

/** What may change a call's plan besides its tool and arguments. */
export interface PlanOptions {
  /** Tools a caller wants in the pool whatever they declare (the web app's computations). */
  readonly pooled?: ReadonlySet<string>;
  /** Every call to the pool: RDKit failed on the protocol thread. */
  readonly inPlaceBroken?: boolean;
  /** The deadline of a pooled call without a limit of its own (default {@link POOLED_DEADLINE_MS}). */
  readonly pooledDeadlineMs?: number;
}

/**
 * The plan of a call of `tool` on validated `args`, its cost read once.
 *
 * @example
 * ```ts
 * planCall(calcPropertiesTool, { smiles: "CCO" }); // { where: "pool", kind: "bounded", deadlineMs: 30000, … }
 * ```
 */
export function planCall(tool: Placed, args: Record<string, unknown>, options: PlanOptions = {}): Plan {
  const placement = (tool.placement ?? { where: "in_place" }) as Placement;
  const own = placement.deadlineMs?.(args);
  const deadlineMs = own ?? options.pooledDeadlineMs ?? POOLED_DEADLINE_MS;
  const name = placement.chunkOf ?? tool.name;
  const costly = own !== undefined || placement.cost?.(args) === "costly";
  if (placement.chunkOf !== undefined) {
    return { where: "pool", deadlineMs, kind: "chunk", long: costly, name };
  }
  const kind = costly ? "possibly_long" : "bounded";
  const inPlace = placement.where === "in_place" || (placement.where === "by_cost" && !costly);
  const where = inPlace && !options.pooled?.has(tool.name) && !options.inPlaceBroken ? "in_place" : "pool";
  return { where, deadlineMs, kind, long: costly, name };
}

/** The warm-up calls of `tools`, in their order, for a starting worker. */
export function warmUpCalls(tools: readonly Placed[]): { tool: string; args: Record<string, unknown> }[] {
  return tools.flatMap((tool) => (tool.placement?.warmUp ?? []).map((args) => ({ tool: tool.name, args })));
}

/**
 * The cost of molecules and patterns given as SMILES or SMARTS text, wherever they sit: each value a string or a
 * (nested) array of strings; anything else is skipped. Costly when one text is past a light limit, or when all of
 * them hold more than {@link LIGHT_MAX_TOTAL_ATOMS} atoms.
 *
 * @example
 * ```ts
 * textsCost("CCO", ["c1ccccc1", ["CC"]]); // "light"
 * ```
 */
export function textsCost(...values: readonly unknown[]): CallCost {
  let total = 0;
  const costly = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(costly);
    if (typeof value !== "string") return false;
    const cost = textCost(value);
    total += cost.atoms;
    return !isLight(cost) || total > LIGHT_MAX_TOTAL_ATOMS;
  };
  return values.some(costly) ? "costly" : "light";
}

/** The cost of a MolJSON document's graph (its independent rings standing for ring closures). */
export function molJsonCost(moljson: unknown): CallCost {
  if (typeof moljson !== "object" || moljson === null) return "light";
  const { atoms, bonds } = moljson as { atoms?: unknown; bonds?: unknown };
  const count = Array.isArray(atoms) ? atoms.length : 0;
  const inRange = (end: unknown): end is number =>
    Number.isInteger(end) && (end as number) >= 0 && (end as number) < count;
  const pairs = (Array.isArray(bonds) ? bonds : []).flatMap((bond) => {
    const { begin, end } = (bond ?? {}) as { begin?: unknown; end?: unknown };
    return inRange(begin) && inRange(end) ? [[begin, end] as const] : [];
  });
  return light(graphCost(count, pairs));
}

/**
 * The cost of MOL blocks or an SD file, read from the text before RDKit sanitises it: each record's graph by the
 * same limits as SMILES, any MDL query atom (RDKit's sanitiser on them in dense rings takes seconds), and all
 * records' atoms together.
 */
export function molBlocksCost(text: string): CallCost {
  let total = 0;
  for (const record of text.replace(/\r\n?/g, "\n").split(/^\$\$\$\$[^\n]*(?:\n|$)/m)) {
    if (!/^M {2}END/im.test(record)) continue;
    const cost = molBlockCost(record);
    total += Math.max(cost.atoms, cost.declaredAtoms);
    if (!isLight(cost) || cost.queryAtoms > 0 || cost.declaredAtoms > cost.atoms) return "costly";
    if (total > LIGHT_MAX_TOTAL_ATOMS) return "costly";
  }
  return "light";
}

/** The dearer of `costs`. */
export function dearest(...costs: readonly CallCost[]): CallCost {
  return costs.includes("costly") ? "costly" : "light";
}

function light(cost: TextCost): CallCost {
  return isLight(cost) ? "light" : "costly";
}

/** Paracetamol and atenolol: the small molecules of the warm-up calls. */
export const WARM_UP_SMILES = {
  paracetamol: "CC(=O)Nc1ccc(O)cc1",
  atenolol: "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1",
} as const;
