/**
 * retrosynthesis against RDKit's BRICS (fixture `tests/data/reference/brics.json`, written by
 * `scripts/reference/brics.py` with RDKit 2022.09): per molecule, the bond set with its labels, and the two
 * fragments of every single-bond disconnection.
 *
 * Fragments are compared as MinimalLib canonical SMILES on both sides (RDKit 2022 and 2026 write some canonical
 * SMILES differently). Where RDKit's `BreakBRICSBonds(mol, bonds=[…])` inverts a stereocentre on the cut bond
 * (it rebuilds the cut with an EditableMol, which appends the new bond to the atom's bond list and so permutes
 * the neighbours its chiral tag refers to), the fixture also holds `FragmentOnBonds`' fragments, which keep the
 * configuration, and those are the reference.
 *
 * @module
 */
import { bricsDisconnections } from "../../src/chem/brics.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import { ChemError } from "../../src/errors.ts";
import { type Comparison, type ComparisonSuite, readFixture } from "./comparison.ts";

/** One molecule of the fixture. */
export interface BricsReference {
  readonly id: string;
  readonly smiles: string;
  readonly heavy_atoms: number;
  /** `[a, b, la, lb]` per bond of `FindBRICSBonds`, in RDKit's order. */
  readonly bonds: readonly (readonly [number, number, number, number])[];
  /** `BreakBRICSBonds` fragments per bond: the one holding atom a, then the one holding b. */
  readonly fragments: readonly (readonly [string, string])[];
  /** `FragmentOnBonds` fragments, by bond position, where they differ from `fragments` (a stereocentre kept). */
  readonly kept?: Readonly<Record<string, readonly [string, string]>>;
}

/** The fixture file. */
export interface BricsFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string; readonly calls: readonly string[] };
  readonly molecules: readonly BricsReference[];
}

/** One molecule compared: the bonds as "a-b:la-lb" and the fragment pairs keyed the same way. */
export interface BricsAgreement {
  readonly id: string;
  readonly oursBonds: string[];
  readonly rdkitBonds: string[];
  /** Disconnections whose two fragments differ from RDKit's: key, ours, RDKit's. */
  readonly fragmentMismatches: string[];
  /** Disconnections compared with `FragmentOnBonds` because `BreakBRICSBonds` inverted a centre. */
  readonly keptCentres: number;
}

const key = (a: number, b: number, la: number, lb: number) => `${a}-${b}:${la}-${lb}`;
const sameList = (p: readonly string[], q: readonly string[]) => p.join(" ") === q.join(" ");

/** Compares one molecule with RDKit's answer. */
export function compareMolecule(ref: BricsReference): BricsAgreement {
  const ours = bricsDisconnections(ref.smiles, () => 1).disconnections;
  const ourFragments = new Map(
    ours.map((d) => [key(...d.atoms, ...d.environments), d.fragments.map((f) => f.smiles).join(" + ")]),
  );
  const fragmentMismatches: string[] = [];
  ref.bonds.forEach(([a, b, la, lb], i) => {
    const k = key(a, b, la, lb);
    const expected = (ref.kept?.[String(i)] ?? ref.fragments[i] ?? []).map(canonicalSmiles).join(" + ");
    const got = ourFragments.get(k);
    if (got !== undefined && got !== expected) fragmentMismatches.push(`${k} ours ${got}, RDKit ${expected}`);
  });
  return {
    id: ref.id,
    oursBonds: [...ourFragments.keys()].sort(),
    rdkitBonds: ref.bonds.map(([a, b, la, lb]) => key(a, b, la, lb)).sort(),
    fragmentMismatches,
    keptCentres: Object.keys(ref.kept ?? {}).length,
  };
}

/** The fixture's molecules split into those compared and those our RDKit refuses to parse. */
export interface BricsComparison {
  /** Every molecule both RDKits parse (validation set, then the drug set). */
  readonly compared: BricsAgreement[];
  /** Molecules RDKit 2026.09 MinimalLib refuses (error code per id) while RDKit 2022.09 parsed them. */
  readonly refused: { readonly id: string; readonly code: string }[];
}

let done: BricsComparison | undefined;

/** Compares every molecule of the fixture (once per process: a few seconds of work). */
export function compareAll(): BricsComparison {
  done ??= compareFixture();
  return done;
}

function compareFixture(): BricsComparison {
  const compared: BricsAgreement[] = [];
  const refused: { id: string; code: string }[] = [];
  for (const ref of readFixture<BricsFixture>("brics.json").molecules) {
    try {
      compared.push(compareMolecule(ref));
    } catch (error) {
      if (!(error instanceof ChemError) || error.code !== "INVALID_SMILES") throw error;
      refused.push({ id: ref.id, code: error.code });
    }
  }
  return { compared, refused };
}

function worst(
  rows: readonly BricsAgreement[],
  bad: (r: BricsAgreement) => boolean,
  say: (r: BricsAgreement) => string,
) {
  const first = rows.find(bad);
  return first ? `${first.id}: ${say(first)}` : "none";
}

/** The retrosynthesis comparison rows. */
export const retrosynthesisSuite: ComparisonSuite = {
  name: "retrosynthesis",
  run() {
    const { compared: rows, refused } = compareAll();
    const unparsed = `${refused.length} molecules not compared: RDKit 2026.09 refuses their SMILES (` +
      `${refused.map((r) => r.id).join(", ")}: six-coordinate Si, P and Al with neutral centres, which ` +
      "RDKit 2022.09's valence table accepted)";
    const bondsDiffer = (r: BricsAgreement) => !sameList(r.oursBonds, r.rdkitBonds);
    const fragmentsDiffer = (r: BricsAgreement) => r.fragmentMismatches.length > 0;
    const kept = rows.filter((r) => r.keptCentres > 0);
    const disconnections = rows.reduce((n, r) => n + r.rdkitBonds.length, 0);
    const comparisons: Comparison[] = [
      {
        tool: "retrosynthesis",
        field: "bond set and labels",
        molecules: rows.length,
        agreed: rows.filter((r) => !bondsDiffer(r)).length,
        tolerance: `exact (atoms, orientation and both labels of each of ${disconnections} bonds)`,
        worst: worst(
          rows,
          bondsDiffer,
          (r) => `ours ${r.oursBonds.join(" ")}, RDKit ${r.rdkitBonds.join(" ")}`,
        ),
        known_difference: unparsed,
      },
      {
        tool: "retrosynthesis",
        field: "fragments per disconnection",
        molecules: rows.length,
        agreed: rows.filter((r) => !bondsDiffer(r) && !fragmentsDiffer(r)).length,
        tolerance: "exact (canonical SMILES with labelled dummies, stereo included)",
        worst: worst(rows, fragmentsDiffer, (r) => r.fragmentMismatches[0] ?? ""),
        known_difference:
          `${unparsed}; ${kept.reduce((n, r) => n + r.keptCentres, 0)} disconnections in ${kept.length} ` +
          "molecules cut a bond at a stereocentre where RDKit 2022.09's BreakBRICSBonds(mol, bonds=[...]) inverts " +
          "the centre (its EditableMol edit appends the new bond, permuting the neighbours the chiral tag refers " +
          "to); compared with RDKit's FragmentOnBonds for the same bond and labels, which keeps the configuration",
      },
    ];
    return Promise.resolve(comparisons);
  },
};
