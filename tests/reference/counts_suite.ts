/**
 * The counts an agent asks for in one call, against RDKit's Python (fixture `tests/data/reference/counts.json`,
 * written by `scripts/reference/counts_oracle.py` with RDKit 2022.09): calc_properties' `formula` (CalcMolFormula)
 * and `rings` (CalcNumRings) of the component it describes, and parse_smiles' `distance` (GetDistanceMatrix) for
 * two atom pairs of each validation molecule, in the SMILES' atom order.
 *
 * @module
 */
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { parseSmilesTool } from "../../src/tools/parse_smiles.ts";
import type { ComparisonSuite } from "./comparison.ts";
import { readFixture } from "./comparison.ts";
import { attempt, type KnownDifference, VALENCE_REFUSED } from "./known.ts";
import { exactRow, type Pair } from "./rows.ts";

/** One molecule of the fixture. */
export interface CountsReference {
  readonly id: string;
  readonly smiles: string;
  readonly formula: string;
  readonly rings: number;
  /** `[from, to, distance]`, distance null across components. */
  readonly distances: readonly (readonly [number, number, number | null])[];
}

/** The fixture file. */
export interface CountsFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string };
  readonly molecules: readonly CountsReference[];
}

/** Element symbols with their counts, the charge suffix kept apart: "C6H3ClN2O5" → ["C6", "Cl", "H3", …]. */
function elementCounts(formula: string): string {
  const body = formula.replace(/[+-]\d*$/, "");
  const charge = formula.slice(body.length);
  return [...body.matchAll(/(\*|[A-Z][a-z]?)(\d*)/g)].map((m) => m[0]).sort().join(" ") + charge;
}

const isAlphabetical = (formula: string) => {
  const symbols = [...formula.replace(/[+-]\d*$/, "").matchAll(/\*|[A-Z][a-z]?/g)].map((m) => m[0]);
  return symbols.every((s, i) => i === 0 || symbols[i - 1]! < s);
};

/**
 * RDKit's CalcMolFormula writes H first in a carbon-free formula; the Hill system the tool follows (as the
 * context pack's formula does, docs/validation.md D11) orders every symbol alphabetically there.
 */
function carbonFreeOrder(byId: ReadonlyMap<string, { ours?: string; theirs: string }>): KnownDifference {
  return {
    reason:
      "for a formula without carbon RDKit's CalcMolFormula writes H first (H3BO3); the Hill system (Hill, " +
      "J. Am. Chem. Soc. 1900) that the tool follows, as the context pack's formula does, orders every symbol " +
      "alphabetically then (BH3O3); checked per molecule: no C, the same element counts and charge, ours " +
      "alphabetical",
    explained: (id) => {
      const p = byId.get(id);
      return !!p?.ours && !/C(?![a-z])/.test(p.ours) && elementCounts(p.ours) === elementCounts(p.theirs) &&
        isAlphabetical(p.ours);
    },
  };
}

/** The suite. */
export const countsSuite: ComparisonSuite = {
  name: "counts",
  async run() {
    const fixture = readFixture<CountsFixture>("counts.json");
    const formula: Pair<string>[] = [];
    const rings: Pair<number>[] = [];
    const distance: Pair<number | null>[] = [];
    for (const m of fixture.molecules) {
      const p = await attempt(() => calcPropertiesTool.run({ smiles: m.smiles }));
      formula.push({ id: m.id, ours: p?.formula, theirs: m.formula });
      rings.push({ id: m.id, ours: p?.rings, theirs: m.rings });
      for (const [a, b, d] of m.distances) {
        const r = await attempt(() => parseSmilesTool.run({ smiles: m.smiles, atoms: [a, b] }));
        distance.push({ id: `${m.id} ${a}–${b}`, ours: r?.distance, theirs: d });
      }
    }
    const byId = new Map(formula.map((p) => [p.id, p]));
    const refused: KnownDifference = {
      ...VALENCE_REFUSED,
      explained: (id) => VALENCE_REFUSED.explained(id.split(" ")[0]!),
    };
    return [
      exactRow("calc_properties", "formula", formula, { known: [carbonFreeOrder(byId), VALENCE_REFUSED] }),
      exactRow("calc_properties", "rings", rings, { known: [VALENCE_REFUSED] }),
      exactRow("parse_smiles", "distance (two atom pairs each)", distance, { known: [refused] }),
    ];
  },
};
