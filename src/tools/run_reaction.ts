import * as v from "valibot";
import {
  MAX_COMBINATIONS,
  MAX_PRODUCTS_LIMIT,
  MAX_REACTANT_TEMPLATES,
  MAX_REACTION_LENGTH,
  MAX_SLOT_MOLECULES,
  runReaction,
} from "../chem/reaction.ts";
import { count, ISOLATION_GRACE_S, smilesString } from "./common.ts";
import { ANSWER_MAX_CHARS, fitItems } from "./answer_cap.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/**
 * Wall-clock bound of one enumeration, s: the longest any tool computes (src/tools/placement.ts), fixed rather than
 * an argument to keep the listing within its budget. A combination of drug-sized reactants takes about 1 ms, one of
 * 50-carbon chains 10 ms (RDKit's parsing and canonicalisation of the products), so 10,000 combinations of honest
 * input fit on a loaded machine (docs/decisions/run-reaction-and-convert.md).
 */
export const REACTION_TIMEOUT_S = 30;
/** What the reaction argument must be. */
const REACTION_BOUND = `A reaction SMARTS has 1 to ${MAX_REACTION_LENGTH} characters.`;
/** Default `max_products`. */
export const DEFAULT_MAX_PRODUCTS = 100;

/**
 * One slot's list of molecules, 1 to {@link MAX_SLOT_MOLECULES}. Checked but left out of the published schema, as
 * the SMILES length is (src/tools/common.ts): the listing has a budget, and the bound is in the error's words.
 */
const slotList = v.pipe(
  v.array(smilesString),
  v.check(
    (list: string[]) => list.length >= 1 && list.length <= MAX_SLOT_MOLECULES,
    `A reactant list has 1 to ${MAX_SLOT_MOLECULES} SMILES.`,
  ),
);

/** `run_reaction`: a reaction SMARTS applied to reactants, lists enumerated combinatorially. */
export const runReactionTool = defineTool({
  name: "run_reaction",
  title: "Run a reaction",
  annotations: LOCAL_COMPUTATION,
  description:
    "Apply a reaction SMARTS (mapped or not) to reactants, one per template: SMILES, or a list for " +
    "all combinations. Gives distinct outcomes as canonical SMILES, each with the reactants that first gave " +
    `it; unsanitisable ones counted. Limits: ${MAX_COMBINATIONS} combinations, ${REACTION_TIMEOUT_S} s. ` +
    "Errors: INVALID_REACTION, INVALID_SMILES, REACTANT_COUNT_MISMATCH, TOO_MANY_PRODUCTS, COMPUTATION_TIMEOUT.",
  input: v.strictObject({
    reaction: v.pipe(
      v.string(),
      // Bounded here and worded by the chemistry (INVALID_REACTION); as minLength/maxLength the bound would cost
      // the listing characters no real template comes near (as for SMILES, src/tools/common.ts).
      v.check((text: string) => text.length >= 1 && text.length <= MAX_REACTION_LENGTH, REACTION_BOUND),
      v.description("Reaction SMARTS."),
      v.examples(["[C:1](=O)[OH].[N;!H0:2]>>[C:1](=O)[N:2]"]),
    ),
    reactants: v.pipe(
      v.array(v.union([smilesString, slotList])),
      v.minLength(1),
      v.maxLength(MAX_REACTANT_TEMPLATES),
      v.description("One per template: SMILES or list."),
      v.examples([["CC(=O)O", "NCC"]]),
    ),
    max_products: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_PRODUCTS_LIMIT),
        v.description("Most distinct products."),
      ),
      DEFAULT_MAX_PRODUCTS,
    ),
  }),
  output: v.object({
    reaction: v.pipe(v.string(), v.description("The reaction SMARTS as given.")),
    combinations: count("Reactant combinations run."),
    products: v.pipe(
      v.array(v.object({
        smiles: v.pipe(v.string(), v.description("Canonical SMILES of the outcome's products.")),
        reactants: v.pipe(
          v.array(v.string()),
          v.description("The reactants that gave it, one per template."),
        ),
      })),
      v.description("Distinct outcomes, in the order found."),
    ),
    unsanitizable: count("Outcomes dropped: a product could not be sanitised."),
    left_out: v.optional(
      count(`Products found but not listed: the answer reached its cap of ${ANSWER_MAX_CHARS} characters.`),
    ),
  }),
  placement: {
    where: "pool",
    deadlineMs: () => (REACTION_TIMEOUT_S + ISOLATION_GRACE_S) * 1000,
    cost: ({ reaction, reactants }) => textsCost(reaction, reactants),
  },
  run: ({ reaction, reactants, max_products }) => {
    const slots = reactants.map((slot) => typeof slot === "string" ? [slot] : slot);
    const result = runReaction(reaction, slots, {
      maxProducts: max_products,
      deadline: Date.now() + REACTION_TIMEOUT_S * 1000,
    });
    const products = result.products.map((p) => ({ smiles: p.smiles, reactants: [...p.reactants] }));
    // Each product echoes its reactants as sent: 1,000 products of long SMILES made a 25 MiB answer.
    const { kept, leftOut } = fitItems(products, ANSWER_MAX_CHARS - reaction.length - 200);
    return {
      reaction,
      combinations: result.combinations,
      products: kept,
      unsanitizable: result.unsanitizable,
      ...(leftOut > 0 ? { left_out: leftOut } : {}),
    };
  },
});
