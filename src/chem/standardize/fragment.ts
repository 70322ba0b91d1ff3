/**
 * RDKit's LargestFragmentChooser (MolStandardize/Fragment.cpp, RDKit 2022.09, defaults: every fragment
 * eligible, hydrogens counted): the fragment with the most atoms, hydrogens included; on a tie the heavier by
 * exact mass; then the alphabetically first canonical SMILES. The salt parent of every tool comes from here.
 *
 * @module
 */
import type { Mol } from "../rdkit.ts";
import { readGraph } from "./graph.ts";

/** Atoms of a molecule, hydrogens included. */
function atomsWithHydrogens(mol: Mol): number {
  const g = readGraph(mol);
  return g.atoms.reduce((n, a) => n + 1 + a.hs, 0);
}

function exactMass(mol: Mol): number {
  return (JSON.parse(mol.get_descriptors()) as { exactmw: number }).exactmw;
}

/**
 * Index of the fragment RDKit's LargestFragmentChooser keeps. The mass and the SMILES are computed only for the
 * fragments tied on atom count, so a mixture of many small fragments stays cheap.
 *
 * @example
 * ```ts
 * largestFragmentIndex([mol("CC(=O)O"), mol("CCN")]); // 1: CCN has 10 atoms with hydrogens, acetic acid 8
 * ```
 */
export function largestFragmentIndex(frags: readonly Mol[]): number {
  const counts = frags.map(atomsWithHydrogens);
  const most = Math.max(...counts);
  const tied = counts.flatMap((n, i) => (n === most ? [i] : []));
  if (tied.length === 1) return tied[0] ?? 0;
  const ranked = tied.map((i) => ({ i, mass: exactMass(frags[i]!), smiles: frags[i]!.get_smiles() }));
  ranked.sort((x, y) => y.mass - x.mass || (x.smiles < y.smiles ? -1 : x.smiles > y.smiles ? 1 : x.i - y.i));
  return ranked[0]?.i ?? 0;
}
