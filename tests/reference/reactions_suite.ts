/**
 * run_reaction against RDKit's RunReactants (fixture `tests/data/reference/reactions.json`, written by
 * `scripts/reference/reaction_oracle.py` with RDKit 2022.09): published templates (RECAP, the same unmapped,
 * RDKit's deprotections, BRICS reverse reactions) applied to held-out molecules of the validation set and to
 * lists of their BRICS fragments. Per template, the distinct outcomes (each product's canonical SMILES, stereo
 * included), the reactants that first gave each, the combinations run and the outcomes dropped as unsanitisable
 * must all be equal. RDKit 2022's SMILES are canonicalised by our RDKit before comparing (the two versions write
 * some canonical SMILES differently).
 *
 * @module
 */
import { runReaction } from "../../src/chem/reaction.ts";
import { type Comparison, type ComparisonSuite, readFixture } from "./comparison.ts";
import { ourCanonical } from "./known.ts";

/** One template of the fixture with RDKit's answer. */
export interface ReactionReference {
  readonly set: string;
  readonly name: string;
  readonly smarts: string;
  /** The reactant lists, or "held-out molecules" for one list of the fixture's `held_out` SMILES. */
  readonly reactants: string | readonly (readonly string[])[];
  readonly combinations: number;
  readonly products: readonly {
    readonly products: readonly string[];
    readonly reactants: readonly string[];
  }[];
  readonly unsanitizable: number;
}

/** The fixture file. */
export interface ReactionFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string; readonly calls: readonly string[] };
  readonly held_out: readonly (readonly [string, string])[];
  readonly templates: readonly ReactionReference[];
}

/** One template compared. */
export interface ReactionAgreement {
  readonly set: string;
  readonly name: string;
  readonly outcomes: number;
  /** What differs, empty when the template agrees. */
  readonly differences: string[];
}

const answerKey = (smiles: string, reactants: readonly string[]) => `${smiles} <- ${reactants.join(" + ")}`;

/** Runs one template as the tool does and compares it with RDKit's answer. */
export function compareTemplate(ref: ReactionReference, heldOut: readonly string[]): ReactionAgreement {
  const slots = typeof ref.reactants === "string" ? [heldOut] : ref.reactants;
  const ours = runReaction(ref.smarts, slots, { maxProducts: 1_000_000, deadline: Date.now() + 600_000 });
  const theirs = ref.products.map((p) => answerKey(p.products.map(ourCanonical).join("."), p.reactants));
  const mine = ours.products.map((p) => answerKey(p.smiles, p.reactants));
  const mineSet = new Set(mine);
  const theirSet = new Set(theirs);
  const differences = [
    ...theirs.filter((k) => !mineSet.has(k)).map((k) => `RDKit only: ${k}`),
    ...mine.filter((k) => !theirSet.has(k)).map((k) => `ours only: ${k}`),
  ];
  if (ours.unsanitizable !== ref.unsanitizable) {
    differences.push(`unsanitizable ours ${ours.unsanitizable}, RDKit ${ref.unsanitizable}`);
  }
  if (ours.combinations !== ref.combinations) {
    differences.push(`combinations ours ${ours.combinations}, RDKit ${ref.combinations}`);
  }
  return { set: ref.set, name: ref.name, outcomes: ref.products.length, differences };
}

let done: ReactionAgreement[] | undefined;

/** Every template of the fixture compared (once per process). */
export function compareAllReactions(): ReactionAgreement[] {
  if (!done) {
    const fixture = readFixture<ReactionFixture>("reactions.json");
    const heldOut = fixture.held_out.map(([, smiles]) => smiles);
    done = fixture.templates.map((ref) => compareTemplate(ref, heldOut));
  }
  return done;
}

/** The run_reaction comparison rows, one per template set. */
export const reactionsSuite: ComparisonSuite = {
  name: "reactions",
  run() {
    const all = compareAllReactions();
    const sets = [...new Set(all.map((a) => a.set))];
    return Promise.resolve(sets.map((set): Comparison => {
      const rows = all.filter((a) => a.set === set);
      const bad = rows.find((a) => a.differences.length > 0);
      return {
        tool: "run_reaction",
        field: `${set} templates: products, first reactants, unsanitisable (${
          rows.reduce((n, a) => n + a.outcomes, 0)
        } outcomes)`,
        molecules: rows.length,
        agreed: rows.filter((a) => a.differences.length === 0).length,
        tolerance: "exact (canonical SMILES with stereo, per outcome)",
        worst: bad ? `${bad.name}: ${bad.differences.slice(0, 2).join("; ")}` : "none",
      };
    }));
  },
};
