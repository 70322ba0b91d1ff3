/**
 * From SMILES to the standardiser's graph: RDKit's parse, RDKit's RemoveHs (the first act of MolStandardize's
 * cleanup), and which atoms had their hydrogens written in brackets (RDKit keeps those counts; it recomputes the
 * others when a charge or a bond changes, as the metal disconnection does).
 *
 * @module
 */
import { type Graph, readGraph } from "./graph.ts";
import type { Mol } from "../rdkit.ts";

const ORGANIC = /^(Cl|Br|[BCNOPSFIbcnops*])/;

/**
 * For each atom of a SMILES in input order, whether it is a bracket atom.
 *
 * @example
 * ```ts
 * bracketAtoms("C[NH3+]"); // [false, true]
 * ```
 */
export function bracketAtoms(smiles: string): boolean[] {
  const out: boolean[] = [];
  let i = 0;
  while (i < smiles.length) {
    const c = smiles[i];
    if (c === "[") {
      const end = smiles.indexOf("]", i);
      out.push(true);
      i = end < 0 ? smiles.length : end + 1;
    } else if (c === "%") {
      i += smiles[i + 1] === "(" ? Math.max(smiles.indexOf(")", i) - i + 1, 2) : 3;
    } else {
      const organic = ORGANIC.exec(smiles.slice(i, i + 2));
      if (organic) {
        out.push(false);
        i += organic[0].length;
      } else i += 1;
    }
  }
  return out;
}

/**
 * The graph of a parsed molecule after RDKit's RemoveHs, with each heavy atom's bracket flag carried over (the
 * hydrogens RemoveHs takes away are the only atoms that disappear, and the others keep their order).
 */
export function inputGraph(mol: Mol, smiles: string): Graph {
  const brackets = bracketAtoms(smiles);
  const before = readGraph(mol, brackets);
  if (!before.atoms.some((a) => a.z === 1)) return before;
  const copy = mol.copy();
  if (!copy) return before;
  try {
    // Empty details would mean removeAllHs; any JSON means RemoveHs with RDKit's defaults (isotopes kept).
    copy.remove_hs_in_place("{}");
    const after = readGraph(copy);
    let j = 0;
    let toRemove = before.atoms.length - after.atoms.length;
    for (const atom of before.atoms) {
      // Hydrogens are bracket atoms whichever of them RemoveHs kept, so aligning by element is enough.
      if (atom.z === 1 && toRemove > 0) {
        toRemove--;
        continue;
      }
      const kept = after.atoms[j++];
      if (kept && kept.z === atom.z) kept.fixedHs = atom.fixedHs;
    }
    return after;
  } finally {
    copy.delete();
  }
}
