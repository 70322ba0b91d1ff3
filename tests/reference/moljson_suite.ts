/**
 * smiles_to_moljson against RDKit 2022.09's atoms and bonds of the same SMILES (tests/data/reference/moljson.json,
 * written by scripts/reference/oracle.py): elements, hydrogens, charges, isotopes, radicals, aromaticity, bond
 * orders, CIP labels of the specified stereocentres and which double bonds carry E/Z. Atom and bond indices follow
 * the SMILES in both, so every list is compared position by position.
 *
 * @module
 */
import { type ComparisonSuite, readFixture, validationSet } from "./comparison.ts";
import { type Pair, rowBuilder } from "./rows.ts";
import { attempt, type KnownDifference, VALENCE_REFUSED } from "./known.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { ELEMENTS, type MolJson, resolveMolJson } from "../../src/chem/moljson/schema.ts";
import { smilesToMoljsonTool } from "../../src/tools/smiles_to_moljson.ts";

/** One molecule of moljson.json; `[index, value]` lists hold the non-zero entries only. */
export interface MolJsonRecord {
  readonly id: string;
  readonly z: readonly number[];
  readonly h: readonly number[];
  readonly charge: readonly (readonly [number, number])[];
  readonly isotope: readonly (readonly [number, number])[];
  readonly radical: readonly (readonly [number, number])[];
  readonly aromatic: readonly number[];
  readonly bonds: readonly (readonly [number, number, number])[];
  readonly cip: readonly (readonly [number, string])[];
  readonly ez: readonly number[];
}

/** The same fields read from a MolJSON document, with the fields it leaves out at their defaults. */
function fields(written: MolJson): Omit<MolJsonRecord, "id"> {
  const doc = resolveMolJson(written);
  const nonzero = (values: number[]) => values.flatMap((v, i) => (v ? [[i, v] as const] : []));
  return {
    z: doc.atoms.map((a) => ELEMENTS.indexOf(a.element)),
    h: doc.atoms.map((a) => a.hydrogens),
    charge: nonzero(doc.atoms.map((a) => a.charge)),
    isotope: nonzero(doc.atoms.map((a) => a.isotope ?? 0)),
    radical: nonzero(doc.atoms.map((a) => a.radical_electrons ?? 0)),
    aromatic: doc.atoms.flatMap((a, i) => (a.aromatic ? [i] : [])),
    bonds: doc.bonds.map((b) => [b.begin, b.end, b.order] as const),
    cip: doc.atoms.flatMap((a, i) => (a.chirality?.cip ? [[i, a.chirality.cip] as const] : [])),
    ez: doc.bonds.flatMap((b, i) => (b.stereo ? [i] : [])),
  };
}

const R = rowBuilder([VALENCE_REFUSED]);

/** Transition metals: groups 3-12 of periods 4-6 (Z 21-30, 39-48, 57-80). */
function transitionMetal(z: number): boolean {
  return (z >= 21 && z <= 30) || (z >= 39 && z <= 48) || (z >= 57 && z <= 80);
}

/**
 * RDKit 2022.09 gives a bonded transition-metal atom one radical electron where RDKit 2026.09 gives none; the check
 * is that every atom whose radical count differs is such a metal, with one radical then and none now.
 */
function metalRadicals(
  byId: ReadonlyMap<string, { ref: MolJsonRecord; ours?: Omit<MolJsonRecord, "id"> }>,
): KnownDifference {
  return {
    reason:
      "RDKit 2022.09 assigns one radical electron to a transition-metal atom bonded in a complex (Cu, Co, " +
      "Mn, Cr, V here); since RDKit 2024.03 a metal with no default valence gets no radical electrons once it " +
      "has a bond, and an isolated one gets its valence-electron count mod 2 (rdkit/rdkit#7122, fixed by #7126: " +
      '"don\'t make stuff up"), so [Cu] alone still has one in both. For each molecule left out, every atom ' +
      "whose count differs is a bonded transition metal with 1 in RDKit 2022.09 and 0 in ours.",
    explained: (id) => {
      const c = byId.get(id);
      if (!c?.ours) return false;
      const ours = new Map(c.ours.radical.map(([i, v]) => [i, v]));
      const theirs = new Map(c.ref.radical.map(([i, v]) => [i, v]));
      const bonded = new Set(c.ref.bonds.flatMap(([a, b]) => [a, b]));
      return [...new Set([...ours.keys(), ...theirs.keys()])].every((i) =>
        ours.get(i) === theirs.get(i) ||
        (ours.get(i) === undefined && theirs.get(i) === 1 && transitionMetal(c.ref.z[i]!) && bonded.has(i))
      );
    },
  };
}

const FIELDS: readonly { key: keyof Omit<MolJsonRecord, "id">; label: string }[] = [
  { key: "z", label: "atoms[].element" },
  { key: "h", label: "atoms[].hydrogens" },
  { key: "charge", label: "atoms[].charge" },
  { key: "isotope", label: "atoms[].isotope" },
  { key: "radical", label: "atoms[].radical_electrons" },
  { key: "aromatic", label: "atoms[].aromatic" },
  { key: "bonds", label: "bonds[] (begin, end, order)" },
  { key: "cip", label: "atoms[].chirality.cip (new CIP labeller)" },
  { key: "ez", label: "bonds[].stereo present (E/Z bonds)" },
];

/** The MolJSON suite. */
export const moljsonSuite: ComparisonSuite = {
  name: "moljson",
  async run() {
    await loadTestRDKit();
    const fixture = readFixture<{ molecules: MolJsonRecord[] }>("moljson.json").molecules;
    const computed: { ref: MolJsonRecord; ours?: Omit<MolJsonRecord, "id"> }[] = [];
    for (const [i, m] of validationSet().entries()) {
      const ref = fixture[i]!;
      if (ref.id !== m.id) throw new Error(`moljson.json out of step with molecules.smi at ${m.id}`);
      const result = await attempt(() => smilesToMoljsonTool.run({ smiles: m.smiles }));
      computed.push({ ref, ours: result && fields(result.moljson) });
    }
    const byId = new Map(computed.map((c) => [c.ref.id, c]));
    return FIELDS.map(({ key, label }) => {
      const pairs: Pair<unknown>[] = computed.map((c) => ({
        id: c.ref.id,
        ours: c.ours?.[key],
        theirs: c.ref[key],
      }));
      return R.exact(
        "smiles_to_moljson",
        label,
        pairs,
        key === "radical" ? { known: [metalRadicals(byId)] } : {},
      );
    });
  },
};
