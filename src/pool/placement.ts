/**
 * Where each tool runs: on the protocol thread, or in the worker pool (src/pool/runner.ts); and what each
 * pool worker computes once as it starts.
 *
 * The line is drawn by measurement (bench/tool_cost_bench.ts, table in docs/decisions.md): a worker round trip
 * adds 0.1–0.4 ms, so a tool whose median call on the drug set takes a millisecond or more, or whose p99 takes
 * several, goes to the pool, and so does a cheaper one whose first call builds a table (Brenk queries, InChI):
 * that work belongs in the workers' warm-up, not on the protocol thread. A pooled tool never holds up the
 * thread that reads and answers every request, and calls run on as many cores as there are workers. Cheaper
 * tools stay in place, where the round trip would cost a third or more of the work. `name_to_smiles` stays
 * too: it waits on the network, not on a core, and its lookup configuration lives on the protocol thread.
 *
 * @module
 */
import { countSmilesAtoms } from "../chem/rdkit.ts";
import { graphCost, isLight, type TextCost, textCost } from "../chem/cost.ts";

import { ITEMS_SUFFIX } from "../tools/placement.ts";

export { ITEMS_SUFFIX, POOLED_DEADLINE_MS } from "../tools/placement.ts";

const COSTLY_TOOLS = [
  "parse_smiles",
  "calc_properties",
  "lipinski_check",
  "sa_score",
  "pains_check",
  "brenk_check",
  "admet_profile",
  "boiled_egg",
  "retrosynthesis",
  "representation_router",
  "molecule_context_pack",
  "depict",
];

/** Costly tools with no list form (`convert`: a 200-record SD file), pooled by name alone. */
const COSTLY_SINGLE_TOOLS = ["convert"];

/**
 * Tools that run in the pool for what they cost, and the chunks of their list calls. Tools with a
 * `Tool.isolation` deadline (smarts_match, find_mcs, generate_3d) run there as well, whatever their cost.
 */
export const POOLED_TOOLS: ReadonlySet<string> = new Set([
  ...COSTLY_TOOLS,
  ...COSTLY_TOOLS.map((name) => name + ITEMS_SUFFIX),
  ...COSTLY_SINGLE_TOOLS,
  "similarity_search", // one fingerprint per library molecule: up to 10,000 (seconds)
]);

/**
 * Longest a pooled call waits while calls hold every worker it may take and none comes free, ms, before it is
 * answered `SERVER_BUSY` with this as its retry hint (src/pool/runner.ts). Below the 5 s within which every call
 * must be answered, whatever runs beside it.
 */
export const QUEUE_DEADLINE_MS = 4_000;

/**
 * The size of a call's largest molecule or pattern, in atoms as written: SMILES and SMARTS arguments (`smiles`,
 * `smiles_a`, `smiles_b`, `smarts`, each entry of `smiles_list`) counted by their atom tokens, MolJSON by its
 * atom list. Counting text, not parsing, so it costs nothing on the protocol thread.
 *
 * @example
 * ```ts
 * inputAtoms({ smiles: "CCO" }); // 3
 * ```
 */
export function inputAtoms(args: Readonly<Record<string, unknown>>): number {
  let largest = 0;
  const count = (value: unknown) => {
    if (typeof value === "string") largest = Math.max(largest, countSmilesAtoms(value));
  };
  for (const [key, value] of Object.entries(args)) {
    if (key === "smiles_list" && Array.isArray(value)) value.forEach(count);
    else if (key.startsWith("smiles") || key === "smarts") count(value);
    else if (key === "moljson" && typeof value === "object" && value !== null) {
      const atoms = (value as { atoms?: unknown }).atoms;
      if (Array.isArray(atoms)) largest = Math.max(largest, atoms.length);
    }
  }
  return largest;
}

/**
 * Whether a call's input may cost more than the protocol thread can bound, by the cost model of
 * src/chem/cost.ts: any SMILES or SMARTS argument (as {@link inputAtoms} reads them) beyond a light limit, or a
 * MolJSON whose graph is past one (its independent rings standing for ring closures).
 * Such a call runs in the pool, as a possibly long one.
 *
 * @example
 * ```ts
 * isCostlyInput({ smiles: "CC(=O)Oc1ccccc1C(=O)O" }); // false
 * isCostlyInput({ smiles: "C".repeat(151) }); // true: past 150 atoms
 * ```
 */
export function isCostlyInput(args: Readonly<Record<string, unknown>>): boolean {
  const costly = (value: unknown) => typeof value === "string" && !isLight(textCost(value));
  for (const [key, value] of Object.entries(args)) {
    if (key === "smiles_list" && Array.isArray(value)) {
      if (value.some(costly)) return true;
    } else if ((key.startsWith("smiles") || key === "smarts") && costly(value)) return true;
    else if (
      key === "moljson" && typeof value === "object" && value !== null && !isLight(molJsonCost(value))
    ) {
      return true;
    }
  }
  return false;
}

/** The cost model's reading of a MolJSON argument's graph; bonds naming no atom (refused later) are skipped. */
function molJsonCost(moljson: object): TextCost {
  const { atoms, bonds } = moljson as { atoms?: unknown; bonds?: unknown };
  const count = Array.isArray(atoms) ? atoms.length : 0;
  const inRange = (end: unknown): end is number =>
    Number.isInteger(end) && (end as number) >= 0 && (end as number) < count;
  const pairs = (Array.isArray(bonds) ? bonds : []).flatMap((bond) => {
    const { begin, end } = (bond ?? {}) as { begin?: unknown; end?: unknown };
    return inRange(begin) && inRange(end) ? [[begin, end] as const] : [];
  });
  return graphCost(count, pairs);
}

/** One call a starting worker makes so that users' first calls find its one-time work done. */
export interface WarmUpCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

const PARACETAMOL = "CC(=O)Nc1ccc(O)cc1";
const ATENOLOL = "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1";

/**
 * What each worker runs once it has reported ready, one call per task (src/pool/runner.ts): a small call of
 * every pooled tool with one-time work. The context pack covers identifiers (InChI, also what
 * representation_router needs), calc_properties (descriptors, the 116 QED alert queries), Lipinski, SA score
 * (the fragment table decoded), PAINS and Brenk (585 queries compiled), BOILED-Egg, ADMET, MolJSON and the
 * renderers; retrosynthesis compiles the BRICS rules; the others warm their own code paths.
 */
export const WARM_UP_CALLS: readonly WarmUpCall[] = [
  { tool: "molecule_context_pack", args: { smiles: ATENOLOL, format: "markdown" } },
  { tool: "retrosynthesis", args: { smiles: ATENOLOL } },
  { tool: "parse_smiles", args: { smiles: PARACETAMOL } },
  { tool: "smarts_match", args: { smiles: PARACETAMOL, smarts: "[OX2H]" } },
  { tool: "find_mcs", args: { smiles_list: [PARACETAMOL, ATENOLOL] } },
  // Twice: the force-field code reaches its optimised form over the first few molecules, not on the first.
  { tool: "generate_3d", args: { smiles: PARACETAMOL } },
  { tool: "generate_3d", args: { smiles: ATENOLOL } },
];
