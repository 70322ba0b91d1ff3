/**
 * Parsing summaries and canonical SMILES (RDKit's canonicalisation: Schneider, Sayle & Landrum,
 * J. Chem. Inf. Model. 2015, 55, 2111, doi:10.1021/acs.jcim.5b00543).
 *
 * @module
 */
import { descriptors, withMol } from "./rdkit.ts";

/** What `parse_smiles` reports about a molecule. */
export interface ParseSummary {
  /** Canonical SMILES of the parsed molecule. */
  canonical_smiles: string;
  /** Heavy (non-hydrogen) atoms. */
  atom_count: number;
  /** All atoms including implicit and explicit hydrogens. */
  atom_count_with_hydrogens: number;
  /** Bonds between heavy atoms (bonds to hydrogen not counted). */
  bond_count: number;
  /** Average molecular weight in g/mol (IUPAC standard atomic weights). */
  molecular_weight: number;
  /** Disconnected components (e.g. 2 for a salt written with '.'). */
  fragment_count: number;
}

/**
 * Parses a SMILES string and summarises it.
 *
 * @example
 * ```ts
 * summarize("CCO"); // { canonical_smiles: "CCO", atom_count: 3, bond_count: 2, molecular_weight: 46.069, … }
 * ```
 */
export function summarize(smiles: string): ParseSummary {
  return withMol(smiles, (mol) => {
    const d = descriptors(mol);
    const canonical = mol.get_smiles();
    return {
      canonical_smiles: canonical,
      atom_count: mol.get_num_atoms(true),
      atom_count_with_hydrogens: d.NumAtoms ?? mol.get_num_atoms(),
      bond_count: mol.get_num_bonds(),
      molecular_weight: round(d.amw ?? Number.NaN, 3),
      fragment_count: canonical.split(".").length,
    };
  });
}

/**
 * RDKit canonical SMILES (isomeric: stereo and isotopes kept).
 *
 * @example
 * ```ts
 * canonicalSmiles("OCC"); // "CCO"
 * ```
 */
export function canonicalSmiles(smiles: string): string {
  return withMol(smiles, (mol) => mol.get_smiles());
}

/** Rounds to `digits` decimals (for reported values; computation keeps full precision). */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
