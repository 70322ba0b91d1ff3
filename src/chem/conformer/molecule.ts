/**
 * Reads what the 3D engine needs from RDKit: the 2D depiction of the molecule as parsed (the template for the
 * rule-based placement) and the full graph with explicit hydrogens.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { largestRing, type Mol, withMol } from "../rdkit.ts";
import { graphFromRDKit, type MolGraph } from "./graph.ts";

/** A parsed molecule ready for typing and placement. */
export interface PreparedMolecule {
  /** Graph with explicit hydrogens (heavy atoms first, in SMILES order). */
  readonly graph: MolGraph;
  /** 2D depiction coordinates of the atoms present before hydrogens were added; null for added hydrogens. */
  readonly layout: readonly (readonly [number, number] | null)[];
}

/**
 * Largest ring CoordGen is asked to draw. CoordGen draws macrocycles as rings, but its time grows steeply and
 * unevenly with ring size and cannot be interrupted (one WebAssembly call): measured on one core, a bare
 * 26-membered ring 0.17 s, 31 atoms 1.1 s, 38 atoms 34 s. Cyclosporin A (a 33-membered ring) took 0.4 s. Above
 * this size RDKit's own depictor (a few ms; rings as regular polygons) draws the template instead, so the layout
 * never outlasts the call's time limit.
 */
export const MAX_COORDGEN_RING = 24;

/**
 * Parses a SMILES (heavy-atom limit `maxHeavyAtoms`), lays it out in 2D and adds hydrogens.
 *
 * @example
 * ```ts
 * const { graph, layout } = prepareMolecule("CCO", 200);
 * graph.atoms.length; // 9
 * ```
 */
export function prepareMolecule(smiles: string, maxHeavyAtoms: number): PreparedMolecule {
  return withMol(smiles, readMolecule, maxHeavyAtoms);
}

function readMolecule(mol: Mol): PreparedMolecule {
  const layout: ([number, number] | null)[] = layout2d(mol, largestRing(mol) <= MAX_COORDGEN_RING);
  if (!mol.add_hs_in_place()) {
    throw new ChemError("EMBEDDING_FAILED", "RDKit could not add hydrogens to this molecule.");
  }
  const graph = graphFromRDKit(mol);
  while (layout.length < graph.atoms.length) layout.push(null);
  return { graph, layout };
}

/** One [x, y] per atom from the first depictor that gives finite coordinates (CoordGen first when allowed). */
function layout2d(mol: Mol, coordGen: boolean): [number, number][] {
  for (const useCoordGen of coordGen ? [true, false] : [false]) {
    mol.set_new_coords(useCoordGen);
    const coords = molblockCoordinates(mol.get_molblock());
    if (coords.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]))) return coords;
  }
  throw new ChemError(
    "EMBEDDING_FAILED",
    "RDKit could not compute a 2D layout to start the 3D placement from.",
  );
}

function molblockCoordinates(molblock: string): [number, number][] {
  const lines = molblock.split("\n");
  const count = Number.parseInt(lines[3]?.slice(0, 3) ?? "0", 10);
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const line = lines[4 + i] ?? "";
    out.push([Number.parseFloat(line.slice(0, 10)), Number.parseFloat(line.slice(10, 20))]);
  }
  return out;
}
