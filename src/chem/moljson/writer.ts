/**
 * SMILES → MolJSON v1 through RDKit's own JSON (CommonChem/rdkitjson) export. CIP labels come from RDKit's new
 * CIP labeller (Hanson et al., J. Chem. Inf. Model. 2018, 58, 1755, doi:10.1021/acs.jcim.8b00324) and are
 * informational only.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { type Mol, rdkit, withMol } from "../rdkit.ts";
import type { RdkitJsonAtom, RdkitJsonBond } from "../rdkit_json.ts";
import {
  ATOM_RANGES,
  ELEMENTS,
  type MolJson,
  MOLJSON_DEFAULTS,
  MOLJSON_FORMAT,
  MOLJSON_VERSION,
  type MolJsonAtom,
  type MolJsonBond,
  neighbourLists,
  type ResolvedMolJson,
} from "./schema.ts";

/** `record` without the fields equal to their default. */
function leaveOutDefaults<T extends object>(record: T, defaults: Readonly<Record<string, unknown>>): T {
  return Object.fromEntries(
    Object.entries(record).filter(([key, value]) => !(key in defaults) || defaults[key] !== value),
  ) as T;
}

/** One molecule of RDKit's own JSON (rdkitjson), as `get_json` writes it. */
export interface RdkitJsonMolecule {
  atoms: RdkitJsonAtom[];
  bonds?: RdkitJsonBond[];
  extensions?: {
    name: string;
    aromaticAtoms?: number[];
    aromaticBonds?: number[];
    cipCodes?: [number, string][];
  }[];
}

/** RDKit's own JSON of a molecule (first molecule of the document), with RDKit's defaults filled in. */
export function rdkitJsonOf(mol: Mol): RdkitJsonMolecule {
  const doc = JSON.parse(mol.get_json()) as { molecules: RdkitJsonMolecule[] };
  const molecule = doc.molecules[0];
  if (!molecule) throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit returned no molecule JSON.");
  return molecule;
}

/** Refuses an atom whose charge, mass number, hydrogens or radicals lie outside {@link ATOM_RANGES}. */
function checkAtomRanges(atom: MolJsonAtom): void {
  for (const field of Object.keys(ATOM_RANGES) as (keyof typeof ATOM_RANGES)[]) {
    const value = atom[field];
    const [min, max] = ATOM_RANGES[field];
    if (value === null || (value >= min && value <= max)) continue;
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      `atom ${atom.index} (${atom.element}): ${field} ${value} is outside MolJSON v1's range ${min}..${max}; ` +
        "check the SMILES (a mistyped charge or mass number?) or use SMILES instead of MolJSON.",
      { atom: atom.index, field, value, range: [min, max] },
    );
  }
}

/**
 * Converts a parsed RDKit molecule (parsed with CIP labels assigned) into MolJSON.
 *
 * @example
 * ```ts
 * const mol = rdkit().get_mol("C[C@H](N)O", JSON.stringify({ assignCIPLabels: true }))!;
 * molToMolJson(mol).atoms[1].chirality; // { neighbors: [0, 2, 3, "H"], winding: "CCW", cip: "S" }
 * mol.delete();
 * ```
 */
export function molToMolJson(mol: Mol): MolJson {
  const { atoms, bonds } = fullMolJson(mol);
  return {
    format: MOLJSON_FORMAT,
    version: MOLJSON_VERSION,
    atoms: atoms.map((atom) => {
      const lean = leaveOutDefaults(atom, MOLJSON_DEFAULTS.atom);
      if (lean.chirality?.cip === null) delete lean.chirality.cip;
      return lean;
    }),
    // A bond's index is its position, so it is left out like the other defaults.
    bonds: bonds.map(({ index: _position, ...bond }) => leaveOutDefaults(bond, MOLJSON_DEFAULTS.bond)),
  };
}

/** Every atom and bond of a parsed molecule with all its fields. */
function fullMolJson(mol: Mol): ResolvedMolJson {
  const src = rdkitJsonOf(mol);
  const ext = src.extensions?.find((e) => e.name === "rdkitRepresentation");
  const aromaticAtoms = new Set(ext?.aromaticAtoms ?? []);
  const aromaticBonds = new Set(ext?.aromaticBonds ?? []);
  const cip = new Map((ext?.cipCodes ?? []).map(([i, code]) => [i, code]));
  const rawBonds = src.bonds ?? [];
  const neighbours = neighbourLists(
    src.atoms.length,
    rawBonds.map((b) => ({ begin: b.atoms[0], end: b.atoms[1] })),
  );

  const atoms = src.atoms.map((a, index): MolJsonAtom & { chirality: { cip?: string | null } | null } => {
    const z = a.z ?? 6;
    const hydrogens = a.impHs ?? 0;
    const tag = a.stereo ?? "unspecified";
    const chiral = tag === "cw" || tag === "ccw";
    const code = cip.get(index);
    return {
      index,
      element: ELEMENTS[z] ?? "*",
      charge: a.chg ?? 0,
      isotope: a.isotope ? a.isotope : null,
      hydrogens,
      radical_electrons: a.nRad ?? 0,
      aromatic: aromaticAtoms.has(index),
      chirality: chiral
        ? {
          // RDKit orders a centre's neighbours by bond index and puts an implicit H (or lone pair) last.
          neighbors: [...(neighbours[index] ?? []), ...(hydrogens === 1 ? ["H" as const] : [])],
          winding: tag === "cw" ? "CW" : "CCW",
          cip: code === "R" || code === "S" || code === "r" || code === "s" ? code : null,
        }
        : null,
    };
  });
  atoms.forEach(checkAtomRanges);

  const bonds = rawBonds.map((b, index): MolJsonBond => {
    const order = aromaticBonds.has(index) ? 1.5 : (b.bo ?? 1);
    if (order !== 1 && order !== 2 && order !== 3 && order !== 1.5) {
      throw new ChemError(
        "UNSUPPORTED_MOLECULE",
        `bond ${index}: RDKit bond type ${order} (dative, zero-order or quadruple) cannot be written in MolJSON v1; ` +
          "convert without the metal complex or use SMILES.",
        { bond: index },
      );
    }
    const stereo = (b.stereo === "cis" || b.stereo === "trans") && b.stereoAtoms
      ? {
        configuration: b.stereo === "cis" ? "cis" as const : "trans" as const,
        atoms: [b.stereoAtoms[0], b.stereoAtoms[1]] as [number, number],
      }
      : null;
    return { index, begin: b.atoms[0], end: b.atoms[1], order, stereo };
  });

  return { format: MOLJSON_FORMAT, version: MOLJSON_VERSION, atoms, bonds };
}

/**
 * SMILES → MolJSON v1 (atom indices follow the order of atoms in the SMILES).
 *
 * @example
 * ```ts
 * toMolJson("CC(=O)O").atoms.length; // 4
 * toMolJson("c1ccccc1").bonds[0].order; // 1.5
 * ```
 */
export function toMolJson(smiles: string): MolJson {
  return withMol(smiles, (mol) => {
    // Re-read the validated text with CIP labelling (same parser, so the same atom order).
    const labelled = rdkit().get_mol(smiles.trim(), JSON.stringify({ assignCIPLabels: true }));
    if (!labelled || !labelled.is_valid()) {
      labelled?.delete();
      // RDKit's CIP labeller gives up on some large stereo systems (a perhydro-polyacene of 20 rings, for one)
      // and the labelled parse then fails; the molecule itself is valid, so its centres get no CIP label.
      return withoutCip(molToMolJson(mol));
    }
    try {
      return molToMolJson(labelled);
    } finally {
      labelled.delete();
    }
  });
}

/** The same document with every CIP label cleared (labels not from the new labeller are not given). */
function withoutCip(doc: MolJson): MolJson {
  return {
    ...doc,
    atoms: doc.atoms.map((atom) =>
      atom.chirality ? { ...atom, chirality: { ...atom.chirality, cip: null } } : atom
    ),
  };
}
