/**
 * The fields of the held-out comparison (molecules outside the validation set, tests/data/reference/held_out.json):
 * RDKit 2022.09's record, our value of each field, and when the two agree. scripts/reference/held_out_scan.ts and
 * tests/reference/held_out_suite.ts share these, so the scan selects exactly the molecules the suite disagrees on.
 *
 * @module
 */
import { ChemError } from "../../src/errors.ts";
import { canonicalSmiles, round } from "../../src/chem/identity.ts";
import { calcProperties } from "../../src/chem/properties.ts";
import { loadSaFragmentTable, saScore } from "../../src/chem/sascore.ts";
import { morganGraph } from "../../src/chem/morgan.ts";
import { withMol } from "../../src/chem/rdkit.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { ourCanonical } from "./known.ts";

/** One molecule of the scan, as scripts/reference/held_out.py writes it. */
export interface HeldOutRecord {
  readonly id: string;
  readonly smiles: string;
  readonly canonical: string;
  readonly sa: number;
  readonly stereo: number;
  /** Sorted ring sizes of RDKit's ring perception (SSSR). */
  readonly rings: readonly number[];
  readonly rotb: number;
  /** The strict rotatable-bond SMARTS with CH3 excluded (rdkit/rdkit#9096), counted by RDKit 2022.09. */
  readonly rotb_ch3: number;
  readonly aromatic_rings: number;
  /** How many of FindMolChiralCenters' atoms are planar by rdkit/rdkit#7446's rule (absent when none). */
  readonly planar_centres?: number;
  /** sascorer's score with those atoms left out of the stereo count (present with planar_centres). */
  readonly sa_planar?: number;
  /** How many are aromatic or a three-connected N of any kind (present when more than planar_centres). */
  readonly n3_centres?: number;
  /** sascorer's score with those atoms left out (present with n3_centres). */
  readonly sa_n3?: number;
}

/** Atoms with a tetrahedral tag (`@` or `@@`) in a SMILES. */
export function stereoTags(smiles: string): number {
  return [...smiles.matchAll(/\[[^\]]*@[^\]]*\]/g)].length;
}

/** Our values of one molecule, or the error code when a tool refused it. */
export interface HeldOutOurs {
  readonly canonical: string;
  /** SA score as the tool reports it (4 decimals). */
  readonly sa: number;
  readonly stereo: number;
  readonly rings: readonly number[];
  readonly rotb: number;
  readonly aromatic_rings: number;
}

/** Loads RDKit and the SA fragment table. */
export async function loadHeldOut(): Promise<void> {
  await loadTestRDKit();
  await loadSaFragmentTable();
}

/** Our values, straight from the chemistry functions the tools call; a ChemError gives its code. */
export function heldOutOurs(smiles: string): HeldOutOurs | { readonly refused: string } {
  try {
    const sa = saScore(smiles);
    const props = calcProperties(smiles);
    return {
      canonical: canonicalSmiles(smiles),
      sa: round(sa.score, 4),
      stereo: sa.stereo_centers,
      rings: withMol(smiles, (mol) => morganGraph(mol).rings.map((r) => r.length).sort((a, b) => a - b)),
      rotb: props.rotatable_bonds,
      aromatic_rings: props.aromatic_rings,
    };
  } catch (error) {
    if (error instanceof ChemError) return { refused: error.code };
    throw error;
  }
}

/** One compared field: its row label, the value on each side and when the two agree. */
export interface HeldOutField {
  readonly key: "canonical" | "tags" | "sa" | "stereo" | "rings" | "rotb" | "aromatic_rings";
  readonly tool: string;
  readonly field: string;
  readonly tolerance: string;
  readonly ours: (o: HeldOutOurs) => unknown;
  readonly theirs: (t: HeldOutRecord) => unknown;
  readonly same: (ours: unknown, theirs: unknown) => boolean;
}

const equalJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when our SMILES is RDKit 2022.09's, canonicalised by our RDKit (false if ours refuses theirs). */
function sameMolecule(ours: unknown, theirs: unknown): boolean {
  try {
    return ours === ourCanonical(theirs as string);
  } catch (error) {
    if (error instanceof ChemError) return false;
    throw error;
  }
}

/** The compared fields, in report order. */
export const HELD_OUT_FIELDS: readonly HeldOutField[] = [
  {
    key: "sa",
    tool: "sa_score",
    field: "sa_score",
    tolerance: "|Δ| ≤ 0.00005 (tool rounds to 4 decimals)",
    ours: (o) => o.sa,
    theirs: (t) => t.sa,
    // 1e-9 absorbs binary floating point in the rounding, as rows.ts does.
    same: (a, b) => Math.abs((a as number) - (b as number)) <= 5e-5 + 1e-9,
  },
  {
    key: "stereo",
    tool: "sa_score",
    field: "counts.stereo_centers",
    tolerance: "exact",
    ours: (o) => o.stereo,
    theirs: (t) => t.stereo,
    same: equalJson,
  },
  {
    key: "rings",
    tool: "sa_score",
    field: "ring sizes of RDKit's ring perception (counts.macrocycles counts those > 8)",
    tolerance: "exact",
    ours: (o) => o.rings,
    theirs: (t) => t.rings,
    same: equalJson,
  },
  {
    key: "rotb",
    tool: "calc_properties",
    field: "rotatable_bonds",
    tolerance: "exact",
    ours: (o) => o.rotb,
    theirs: (t) => t.rotb,
    same: equalJson,
  },
  {
    key: "aromatic_rings",
    tool: "calc_properties",
    field: "aromatic_rings",
    tolerance: "exact",
    ours: (o) => o.aromatic_rings,
    theirs: (t) => t.aromatic_rings,
    same: equalJson,
  },
  {
    key: "canonical",
    tool: "canonical_smiles",
    field: "canonical_smiles (same molecule)",
    tolerance: "exact (RDKit 2022's SMILES re-canonicalised by our RDKit)",
    ours: (o) => o.canonical,
    theirs: (t) => t.canonical,
    same: sameMolecule,
  },
  {
    key: "tags",
    tool: "canonical_smiles",
    field: "tetrahedral stereo tags written (atoms with @ or @@)",
    tolerance: "exact",
    ours: (o) => stereoTags(o.canonical),
    theirs: (t) => stereoTags(t.canonical),
    same: equalJson,
  },
];

/** True when our value of `field` agrees with RDKit 2022.09's. */
export function agrees(field: HeldOutField, ours: HeldOutOurs, theirs: HeldOutRecord): boolean {
  return field.same(field.ours(ours), field.theirs(theirs));
}
