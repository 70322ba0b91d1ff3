/**
 * Reactions: a reaction SMARTS applied to reactants with RDKit's reaction engine (`ChemicalReaction::runReactants`
 * through MinimalLib's `get_rxn`/`run_reactants`), and the combinatorial enumeration of reactant lists, bounded in
 * combinations, distinct products and time.
 *
 * RDKit returns products unsanitised; each product is written as SMILES and read back with full sanitisation,
 * which is what sanitising the product in place does (valences checked, Kekulé form found, aromaticity
 * perceived), so a product that no real molecule can be (a pentavalent carbon, an aromatic atom out of a ring) is
 * dropped and counted rather than returned.
 *
 * @module
 */
import type { JSMolListList, Mol, MolList } from "@rdkit/rdkit";
import { ChemError, preview } from "../errors.ts";
import { parseSmiles, rdkit, recursionDepth } from "./rdkit.ts";

/** Longest reaction SMARTS accepted (characters). */
export const MAX_REACTION_LENGTH = 5_000;
/** Most reactant templates a reaction may have. */
export const MAX_REACTANT_TEMPLATES = 5;
/** Most molecules in one reactant slot's list. */
export const MAX_SLOT_MOLECULES = 100;
/** Most reactant combinations one call enumerates (the product of the slots' list lengths). */
export const MAX_COMBINATIONS = 10_000;
/** Largest accepted `max_products`. */
export const MAX_PRODUCTS_LIMIT = 1_000;
/**
 * Most product sets RDKit builds for one reactant combination: RDKit's own default for `RunReactants`, so the
 * reference answers (RDKit's Python, same default) and ours stop at the same place.
 */
export const PRODUCTS_PER_COMBINATION = 1_000;
/** Deepest nesting of recursive SMARTS inside a reaction template, as for SMARTS queries. */
const MAX_RECURSION = 16;

/** One distinct outcome of a reaction. */
export interface ReactionProduct {
  /** The outcome's products as canonical SMILES, several product templates joined by "." in template order. */
  readonly smiles: string;
  /** The reactants (one per template, as given) of the first combination that gave this outcome. */
  readonly reactants: readonly string[];
}

/** The answer of {@link runReaction}. */
export interface ReactionResult {
  /** Reactant templates of the reaction. */
  readonly templates: number;
  /** Reactant combinations run. */
  readonly combinations: number;
  /** Distinct outcomes in the order first found (combinations in order, RDKit's match order within one). */
  readonly products: readonly ReactionProduct[];
  /** Outcomes dropped because a product could not be sanitised (impossible valence, aromaticity). */
  readonly unsanitizable: number;
}

/** Bounds of one enumeration. */
export interface ReactionLimits {
  /** Most distinct outcomes; one more is `TOO_MANY_PRODUCTS`. */
  readonly maxProducts: number;
  /** Wall-clock deadline (ms since the epoch, `Date.now()`), checked between combinations. */
  readonly deadline: number;
}

/**
 * The reactant, agent and product parts of a reaction SMARTS split at the `>` outside brackets, and the number
 * of reactant templates: the reactant part's components, where a parenthesised group of components is one
 * template (component-level grouping).
 *
 * @example
 * ```ts
 * reactantTemplates("[C:1](=O)O.[N:2]>>[C:1](=O)[N:2]"); // 2
 * reactantTemplates("([C:1].[C:2])>>[C:1][C:2]"); // 1
 * ```
 */
export function reactantTemplates(reaction: string): number {
  const arrows: number[] = [];
  let bracket = 0;
  for (let i = 0; i < reaction.length; i++) {
    const ch = reaction[i];
    if (ch === "[") bracket++;
    else if (ch === "]") bracket--;
    else if (ch === ">" && bracket === 0) arrows.push(i);
  }
  if (bracket !== 0) throw invalidReaction(reaction, "a '[' is not closed");
  if (arrows.length !== 2) {
    throw invalidReaction(
      reaction,
      "a reaction SMARTS has the form reactants>>products (or reactants>agents>products)",
    );
  }
  if (reaction.slice(arrows[1]! + 1).trim() === "") {
    // RDKit accepts the text and throws only when it runs the reaction.
    throw invalidReaction(
      reaction,
      "it has no product template after the last '>' (write reactants>>products)",
    );
  }
  const reactants = reaction.slice(0, arrows[0]);
  let templates = reactants.length > 0 ? 1 : 0;
  let depth = 0;
  bracket = 0;
  for (const ch of reactants) {
    if (ch === "[") bracket++;
    else if (ch === "]") bracket--;
    else if (bracket === 0 && ch === "(") depth++;
    else if (bracket === 0 && ch === ")") depth--;
    else if (bracket === 0 && depth === 0 && ch === ".") templates++;
  }
  return templates;
}

function invalidReaction(reaction: string, why: string): ChemError {
  return new ChemError(
    "INVALID_REACTION",
    `RDKit could not read reaction SMARTS '${preview(reaction)}': ${why}.`,
    { reaction: preview(reaction) },
  );
}

/**
 * Runs `reaction` on every combination of the slots' molecules (one slot per reactant template, in template
 * order) and collects the distinct outcomes.
 *
 * @example
 * ```ts
 * const limits = { maxProducts: 100, deadline: Date.now() + 10_000 };
 * runReaction("[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]", [["CC(=O)O"], ["NC"]], limits).products;
 * // [{ smiles: "CNC(C)=O", reactants: ["CC(=O)O", "NC"] }]
 * ```
 */
export function runReaction(
  reaction: string,
  slots: readonly (readonly string[])[],
  limits: ReactionLimits,
): ReactionResult {
  const text = reaction.trim();
  checkReactionText(text);
  const templates = reactantTemplates(text);
  if (templates !== slots.length) {
    throw new ChemError(
      "REACTANT_COUNT_MISMATCH",
      `The reaction has ${templates} reactant template${templates === 1 ? "" : "s"} but ${slots.length} ` +
        `reactant${
          slots.length === 1 ? " was" : "s were"
        } given; pass one reactant (or list) per template, in ` +
        "template order.",
      { templates, reactants: slots.length },
    );
  }
  const combinations = slots.reduce((n, slot) => n * slot.length, 1);
  if (combinations > MAX_COMBINATIONS) {
    throw new ChemError(
      "TOO_MANY_PRODUCTS",
      `The reactant lists make ${combinations} combinations; at most ${MAX_COMBINATIONS} are enumerated in one ` +
        "call. Shorten the lists or split the call.",
      { combinations, limit: MAX_COMBINATIONS },
    );
  }
  const rxn = rdkit().get_rxn(text);
  if (!rxn) throw invalidReaction(text, "check brackets, atom maps and the '>>' arrow");
  const mols = new Map<string, Mol>();
  try {
    for (const smiles of slots.flat()) if (!mols.has(smiles)) mols.set(smiles, parseSmiles(smiles));
    return enumerate(
      (list) => rxn.run_reactants(list, PRODUCTS_PER_COMBINATION),
      slots,
      mols,
      limits,
      templates,
    );
  } finally {
    for (const mol of mols.values()) mol.delete();
    rxn.delete();
  }
}

function checkReactionText(text: string): void {
  if (text.length === 0) {
    throw new ChemError(
      "INVALID_REACTION",
      "The reaction SMARTS is empty; pass one such as '[C:1]=[O:2]>>[C:1][O:2]'.",
    );
  }
  if (text.length > MAX_REACTION_LENGTH) {
    throw new ChemError(
      "INVALID_REACTION",
      `The reaction SMARTS is ${text.length} characters long; at most ${MAX_REACTION_LENGTH} are accepted.`,
      { length: text.length, limit: MAX_REACTION_LENGTH },
    );
  }
  const depth = recursionDepth(text);
  if (depth > MAX_RECURSION) {
    throw new ChemError(
      "INVALID_REACTION",
      `The reaction SMARTS nests recursive SMARTS ($(...)) ${depth} deep; at most ${MAX_RECURSION} levels are ` +
        "accepted.",
      { depth, limit: MAX_RECURSION },
    );
  }
}

/** Runs the reaction on one combination of reactants. */
type Run = (reactants: MolList) => JSMolListList;

function enumerate(
  run: Run,
  slots: readonly (readonly string[])[],
  mols: ReadonlyMap<string, Mol>,
  limits: ReactionLimits,
  templates: number,
): ReactionResult {
  const products = new Map<string, ReactionProduct>();
  let unsanitizable = 0;
  let done = 0;
  for (const combination of combinationsOf(slots)) {
    if (done > 0 && Date.now() > limits.deadline) {
      throw new ChemError(
        "COMPUTATION_TIMEOUT",
        `The enumeration ran out of time after ${done} of ${slots.reduce((n, s) => n * s.length, 1)} ` +
          "reactant combinations; shorten the reactant lists.",
        { combinations_done: done },
      );
    }
    for (const outcome of outcomes(run, combination.map((smiles) => mols.get(smiles)!))) {
      if (outcome === undefined) {
        unsanitizable++;
        continue;
      }
      if (products.has(outcome)) continue;
      if (products.size >= limits.maxProducts) {
        throw new ChemError(
          "TOO_MANY_PRODUCTS",
          `The reaction gives more than ${limits.maxProducts} distinct products; raise max_products (at most ` +
            `${MAX_PRODUCTS_LIMIT}), shorten the reactant lists or make the template more specific.`,
          { limit: limits.maxProducts, combinations_done: done },
        );
      }
      products.set(outcome, { smiles: outcome, reactants: combination });
    }
    done++;
  }
  return { templates, combinations: done, products: [...products.values()], unsanitizable };
}

/** Every combination of one molecule per slot, the last slot varying fastest. */
export function* combinationsOf(slots: readonly (readonly string[])[]): Generator<string[]> {
  const index = slots.map(() => 0);
  if (slots.some((slot) => slot.length === 0)) return;
  while (true) {
    yield slots.map((slot, i) => slot[index[i]!]!);
    let i = slots.length - 1;
    while (i >= 0 && ++index[i]! === slots[i]!.length) index[i--] = 0;
    if (i < 0) return;
  }
}

/**
 * The outcomes of one reactant combination: each product set as its sanitised canonical SMILES (products joined
 * by "."), or undefined where a product cannot be sanitised. Every WASM object is freed on every path.
 */
function outcomes(run: Run, reactants: readonly Mol[]): (string | undefined)[] {
  const list = new (rdkit().MolList)();
  try {
    for (const mol of reactants) list.append(mol);
    const sets = run(list);
    try {
      const found: (string | undefined)[] = [];
      for (let i = 0; i < sets.size(); i++) {
        const set = sets.get(i);
        if (!set) continue;
        try {
          found.push(productSetSmiles(set));
        } finally {
          set.delete();
        }
      }
      return found;
    } finally {
      sets.delete();
    }
  } finally {
    list.delete();
  }
}

function productSetSmiles(set: MolList): string | undefined {
  const parts: string[] = [];
  let ok = true;
  for (let j = 0; j < set.size(); j++) {
    const product = set.at(j);
    if (!product) {
      ok = false;
      continue;
    }
    try {
      const smiles = ok ? sanitisedSmiles(product.get_smiles()) : undefined;
      if (smiles === undefined) ok = false;
      else parts.push(smiles);
    } finally {
      product.delete();
    }
  }
  return ok ? parts.join(".") : undefined;
}

/** A product's SMILES read back with sanitisation and written canonically; undefined if it cannot be sanitised. */
function sanitisedSmiles(raw: string): string | undefined {
  const mol = rdkit().get_mol(raw);
  if (!mol) return undefined;
  try {
    return mol.is_valid() ? mol.get_smiles() : undefined;
  } finally {
    mol.delete();
  }
}
