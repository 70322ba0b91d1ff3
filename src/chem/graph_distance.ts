/**
 * Topological distance: the number of bonds on a shortest path between two atoms of the molecular graph (RDKit's
 * GetDistanceMat with its defaults: every bond counts 1, whatever its order). Atom indices are the input's order,
 * as RDKit keeps it when it parses a SMILES.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import type { Mol } from "./rdkit.ts";

/** The bond list of RDKit's JSON form, all a breadth-first search needs. */
interface BondGraph {
  readonly atoms: number;
  readonly bonds: readonly (readonly [number, number])[];
}

function bondGraph(mol: Mol): BondGraph {
  const doc = JSON.parse(mol.get_json()) as {
    molecules?: { atoms?: unknown[]; bonds?: { atoms: [number, number] }[] }[];
  };
  const first = doc.molecules?.[0];
  return { atoms: first?.atoms?.length ?? 0, bonds: (first?.bonds ?? []).map((b) => b.atoms) };
}

/**
 * Bonds on a shortest path from atom `from` to atom `to`, or `null` when they lie in different components.
 * Throws `ChemError("UNSUPPORTED_MOLECULE")` for an index outside the molecule (the molecule has no such atom).
 *
 * @example
 * ```ts
 * withMol("CCOC", (mol) => topologicalDistance(mol, 0, 3)); // 3
 * withMol("C.C", (mol) => topologicalDistance(mol, 0, 1)); // null
 * ```
 */
export function topologicalDistance(mol: Mol, from: number, to: number): number | null {
  const graph = bondGraph(mol);
  for (const index of [from, to]) {
    if (!Number.isInteger(index) || index < 0 || index >= graph.atoms) {
      throw new ChemError(
        "UNSUPPORTED_MOLECULE",
        `Atom index ${index} is outside the molecule: its ${graph.atoms} atoms are numbered 0 to ${
          graph.atoms - 1
        } in the SMILES' order.`,
        { index, atoms: graph.atoms },
      );
    }
  }
  const neighbours: number[][] = Array.from({ length: graph.atoms }, () => []);
  for (const [a, b] of graph.bonds) {
    neighbours[a]?.push(b);
    neighbours[b]?.push(a);
  }
  const seen = new Int32Array(graph.atoms).fill(-1);
  seen[from] = 0;
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const atom = queue[head]!;
    const d = seen[atom]!;
    if (atom === to) return d;
    for (const next of neighbours[atom] ?? []) {
      if (seen[next] === -1) {
        seen[next] = d + 1;
        queue.push(next);
      }
    }
  }
  return null;
}
