/**
 * What bounds a depiction's work besides its size limits: the layout engine each molecule is drawn with, and
 * how large a SMARTS highlight may be beside the molecule it searches.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { textCost } from "./cost.ts";
import { largestRing, type Mol, rdkit } from "./rdkit.ts";

/**
 * Most heavy atoms of a molecule laid out with CoordGen (Schrödinger's 2D coordinate generator, bundled with
 * RDKit). CoordGen draws bridged polycycles the way chemists do (morphine, strychnine and paclitaxel without the
 * crossing bonds and the label over a bond of RDKit's own layout), but its time grows steeply with size: 16
 * linked cyclohexanes (97 atoms) 0.23 s, 25 of them (151 atoms) 7.9 s (measured, Deno).
 */
export const COORDGEN_MAX_ATOMS = 100;
/**
 * Largest ring laid out with CoordGen. A plain ring of 24 atoms takes it 0.2 s, 30 atoms 0.8 s, 36 atoms 2.2 s,
 * 44 atoms over 40 s (measured); RDKit's own layout draws a macrocycle (cyclosporin's 33 atoms) as a round ring
 * in 0.07 s.
 */
export const COORDGEN_MAX_RING = 24;

/** Whether `mol` is laid out with CoordGen: within {@link COORDGEN_MAX_ATOMS} and {@link COORDGEN_MAX_RING}. */
export function prefersCoordGen(mol: Mol): boolean {
  return mol.get_num_atoms(true) <= COORDGEN_MAX_ATOMS && largestRing(mol) <= COORDGEN_MAX_RING;
}

/**
 * Draws with CoordGen when the molecule is within its bounds, else with RDKit's own layout, and leaves RDKit's
 * global preference off afterwards so no other tool's coordinates change.
 */
export function withLayout<T>(mol: Mol, draw: () => T): T {
  if (!prefersCoordGen(mol)) return draw();
  rdkit().prefer_coordgen(true);
  try {
    return draw();
  } finally {
    rdkit().prefer_coordgen(false);
  }
}

/**
 * Most atoms of a SMARTS highlight. RDKit's substructure search has no time limit of its own and explores every
 * path a query ring could follow: a wildcard ring of 19 atoms takes 0.26 s in a 66-atom ladder of 32 fused rings,
 * of 23 atoms 1.2 s, of 25 atoms 3.2 s (measured); honest highlights (a functional group, a steroid's 17-atom
 * core) stay within 20.
 */
export const HIGHLIGHT_MAX_QUERY_ATOMS = 20;
/**
 * Most atoms of a SMARTS highlight on a ring-dense molecule (more ring closures than {@link DENSE_RING_CLOSURES}):
 * in a 500-atom ladder a 13-atom wildcard ring takes 0.13 s, a 15-atom one 0.45 s, a 21-atom one 1.3 s in a
 * 130-atom ladder and growing about 2.7-fold per two atoms (measured).
 */
export const HIGHLIGHT_DENSE_MAX_QUERY_ATOMS = 12;
/** Ring closures beyond which a molecule is ring-dense for a highlight (the cost model's light limit). */
export const DENSE_RING_CLOSURES = 32;

/**
 * Refuses a SMARTS highlight whose search could run away on this molecule, read from the two texts before RDKit
 * searches: `MOLECULE_TOO_LARGE`, naming the limit.
 */
export function checkHighlightQuery(smiles: string, smarts: string): void {
  const queryAtoms = textCost(smarts).atoms;
  const dense = textCost(smiles).ringClosures > DENSE_RING_CLOSURES;
  const limit = dense ? HIGHLIGHT_DENSE_MAX_QUERY_ATOMS : HIGHLIGHT_MAX_QUERY_ATOMS;
  if (queryAtoms > limit) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The highlight SMARTS has ${queryAtoms} atoms; at most ${limit} are searched` +
        (dense ? ` in a molecule with over ${DENSE_RING_CLOSURES} ring closures` : "") +
        " (a substructure search has no time limit). Highlight a smaller pattern.",
      { query_atoms: queryAtoms, limit, limit_name: "highlight_query_atoms" },
    );
  }
}
