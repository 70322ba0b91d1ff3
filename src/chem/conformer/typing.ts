/**
 * DREIDING atom typing (Mayo, Olafson & Goddard, J. Phys. Chem. 1990, 94, 8897, doi:10.1021/j100389a010).
 *
 * A type is element plus geometry: `_3` tetrahedral, `_2` trigonal, `_R` trigonal in a resonance situation,
 * `_1` linear; `H_HB` is a hydrogen able to donate a hydrogen bond. Rules used here (element by element, from
 * the Kekulé structure and RDKit's aromaticity):
 *
 * - aromatic C, N, O → `X_R`; one double bond → `X_2`; a triple bond or two double bonds → `X_1`; else `X_3`.
 * - a trivalent N with no multiple bond that is bonded to a π atom (amide, aniline, enamine, urea) → `N_R`,
 *   the paper's resonance type, which keeps such nitrogens planar.
 * - an sp3 oxygen next to a π system (ester, phenol, acid OH) stays `O_3`: the paper handles its planarity
 *   through torsion case (i), which exists precisely for that pairing.
 * - S, P and the heavier p-block atoms have only `X3` types in the paper and get them whatever their bonding.
 * - H bonded to N, O or F → `H_HB`, other H → `H_`.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import type { MolGraph } from "./graph.ts";
import type { DreidingType } from "./parameters.ts";

/** Elements whose only DREIDING type does not depend on bonding. */
const FIXED: Readonly<Record<string, DreidingType>> = {
  F: "F_",
  Cl: "Cl",
  Br: "Br",
  I: "I_",
  Na: "Na",
  Ca: "Ca",
  Fe: "Fe",
  Zn: "Zn",
  S: "S_3",
  P: "P_3",
  Al: "Al3",
  Si: "Si3",
  Ga: "Ga3",
  Ge: "Ge3",
  As: "As3",
  Se: "Se3",
  In: "In3",
  Sn: "Sn3",
  Sb: "Sb3",
  Te: "Te3",
};

/** Elements with hybridisation-dependent types. */
const SECOND_ROW = new Set(["B", "C", "N", "O"]);

interface BondCounts {
  double: number;
  triple: number;
  degree: number;
}

function bondCounts(g: MolGraph): BondCounts[] {
  const counts = g.atoms.map(() => ({ double: 0, triple: 0, degree: 0 }));
  for (const bond of g.bonds) {
    for (const i of [bond.a, bond.b]) {
      const c = counts[i]!;
      c.degree++;
      if (bond.kekule === 2) c.double++;
      if (bond.kekule === 3) c.triple++;
    }
  }
  return counts;
}

/**
 * Assigns a DREIDING type to every atom. Throws `ChemError("UNSUPPORTED_MOLECULE")` for an element the paper
 * gives no parameters for.
 *
 * @example
 * ```ts
 * assignTypes(graph); // e.g. ["C_3", "C_3", "O_3", "H_", …, "H_HB"] for ethanol
 * ```
 */
export function assignTypes(g: MolGraph): DreidingType[] {
  const counts = bondCounts(g);
  const isPi = g.atoms.map((atom, i) => {
    const c = counts[i]!;
    return SECOND_ROW.has(atom.symbol) && (atom.aromatic || c.double > 0 || c.triple > 0);
  });
  return g.atoms.map((atom, i) => {
    const c = counts[i]!;
    const fixed = FIXED[atom.symbol];
    if (fixed) return fixed;
    switch (atom.symbol) {
      case "H":
        return hydrogenType(g, i);
      case "B":
        return c.degree >= 4 ? "B_3" : "B_2";
      case "C":
        return secondRow("C", atom.aromatic, c);
      case "N": {
        const base = secondRow("N", atom.aromatic, c);
        const nextToPi = g.neighbors[i]!.some((j) => isPi[j]);
        return base === "N_3" && c.degree <= 3 && nextToPi ? "N_R" : base;
      }
      case "O":
        return secondRow("O", atom.aromatic, c);
      default:
        throw new ChemError(
          "UNSUPPORTED_MOLECULE",
          `DREIDING (Mayo, Olafson & Goddard 1990) has no parameters for element ${atom.symbol}; supported: H, B, ` +
            `C, N, O, F, Al, Si, P, S, Cl, Ga, Ge, As, Se, Br, In, Sn, Sb, Te, I, Na, Ca, Fe, Zn.`,
          { element: atom.symbol, atom_index: i },
        );
    }
  });
}

function secondRow(element: "C" | "N" | "O", aromatic: boolean, c: BondCounts): DreidingType {
  const suffix = aromatic ? "R" : c.triple > 0 || c.double >= 2 ? "1" : c.double === 1 ? "2" : "3";
  return `${element}_${suffix}` as DreidingType;
}

function hydrogenType(g: MolGraph, i: number): DreidingType {
  const partner = g.neighbors[i]![0];
  if (partner === undefined) return "H_";
  const symbol = g.atoms[partner]!.symbol;
  return symbol === "N" || symbol === "O" || symbol === "F" ? "H_HB" : "H_";
}
