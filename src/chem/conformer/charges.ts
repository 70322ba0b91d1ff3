/**
 * Partial charges by partial equalisation of orbital electronegativity (Gasteiger & Marsili, Tetrahedron 1980,
 * 36, 3219, doi:10.1016/0040-4020(80)80168-2), for the force field's Coulomb term: a published method that
 * needs nothing but the graph, and that RDKit implements too, so every atom can be checked against it
 * (tests/reference/gasteiger_suite.ts).
 *
 * Each atom's electronegativity is χ(q) = a + b·q + c·q² with the paper's (a, b, c) for its element and
 * hybridisation; in round k every bond moves (χ_B − χ_A) / χ⁺_A · ½^k electrons from the less electronegative
 * atom A to B, χ⁺_A = a + b + c being A's electronegativity as a cation (20.02 for hydrogen).
 *
 * @module
 */
import { doubleBonded, type MolGraph } from "./graph.ts";
import { type DreidingType, hybridOf } from "./parameters.ts";

/** (a, b, c) of χ(q) = a + b·q + c·q², eV (Gasteiger & Marsili 1980, Table 1). */
type Abc = readonly [number, number, number];

const PARAMETERS: Readonly<Record<string, Abc>> = {
  H: [7.17, 6.24, -0.56],
  "C.3": [7.98, 9.18, 1.88],
  "C.2": [8.79, 9.32, 1.51],
  "C.1": [10.39, 9.45, 0.73],
  "N.3": [11.54, 10.82, 1.36],
  "N.2": [12.87, 11.15, 0.85],
  "N.1": [15.68, 11.7, -0.27],
  "O.3": [14.18, 12.92, 1.39],
  "O.2": [17.07, 13.79, 0.47],
  F: [14.66, 13.85, 2.31],
  Cl: [11.0, 9.69, 1.35],
  Br: [10.08, 8.47, 1.16],
  I: [9.9, 7.96, 0.96],
  S: [10.14, 9.13, 1.38],
};

/** Hydrogen's electronegativity as a cation, eV: the paper's value, not a + b + c. */
const HYDROGEN_CATION = 20.02;
/** Rounds of charge transfer; the damping ½^k makes later rounds negligible. */
const ROUNDS = 12;

function parametersOf(g: MolGraph, types: readonly DreidingType[], i: number): Abc | undefined {
  const symbol = g.atoms[i]!.symbol;
  const h = hybridOf(types[i]!);
  // An ether or hydroxyl oxygen on a π atom is conjugated, and so sp2 in the paper's sense (as RDKit has it).
  const conjugated = h === "3" && symbol === "O" && g.neighbors[i]!.some((j) => isPi(g, types, j));
  const hybrid = h === "R" || conjugated ? "2" : h;
  return PARAMETERS[`${symbol}.${hybrid}`] ?? PARAMETERS[symbol];
}

/**
 * True for a trigonal or linear atom with a double, triple or aromatic bond of its own: an amide nitrogen's
 * resonance does not count, nor does a sulfonyl sulfur's S=O (S_3 in DREIDING).
 */
function isPi(g: MolGraph, types: readonly DreidingType[], i: number): boolean {
  const h = hybridOf(types[i]!);
  return (h === "2" || h === "R" || h === "1") &&
    g.bonds.some((b) => (b.a === i || b.b === i) && (b.aromatic || b.kekule >= 2));
}

/**
 * Formal charges, each shared equally with the atoms of its element on the same π atom: a carboxylate's −1 or a
 * nitro group's −1 is half on each oxygen, as its resonance forms have it.
 */
function initialCharges(g: MolGraph, types: readonly DreidingType[]): Float64Array {
  const q = new Float64Array(g.atoms.length);
  g.atoms.forEach((atom, i) => {
    if (atom.charge === 0) return;
    const pi = g.neighbors[i]!.find((j) => isPi(g, types, j));
    const group = pi === undefined ? [i] : g.neighbors[pi]!.filter((k) =>
      k === i ||
      (g.atoms[k]!.symbol === atom.symbol && g.atoms[k]!.charge * atom.charge <= 0 &&
        conjugatedTo(g, pi, k))
    );
    for (const k of group) q[k] = q[k]! + atom.charge / group.length;
  });
  return q;
}

/** True when atom k's bond to the π atom j is a double bond or k carries a formal charge. */
function conjugatedTo(g: MolGraph, j: number, k: number): boolean {
  return g.atoms[k]!.charge !== 0 || doubleBonded(g, j).includes(k);
}

/**
 * Gasteiger–Marsili charges, e, one per atom of `g` (hydrogens explicit); atoms of elements the paper has no
 * parameters for keep their formal charge and take no part in the transfer.
 *
 * @example
 * ```ts
 * const q = gasteigerCharges(graph, assignTypes(graph)); // ethanol's O about −0.39
 * ```
 */
export function gasteigerCharges(g: MolGraph, types: readonly DreidingType[]): Float64Array {
  const n = g.atoms.length;
  const abc = g.atoms.map((_, i) => parametersOf(g, types, i));
  const q = initialCharges(g, types);
  const chi = new Float64Array(n);
  const cation = Float64Array.from(
    abc,
    (p, i) => g.atoms[i]!.symbol === "H" ? HYDROGEN_CATION : p ? p[0] + p[1] + p[2] : 0,
  );
  let damping = 0.5;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < n; i++) {
      const p = abc[i];
      chi[i] = p ? p[0] + q[i]! * (p[1] + p[2] * q[i]!) : 0;
    }
    const dq = new Float64Array(n);
    for (const { a, b } of g.bonds) {
      if (!abc[a] || !abc[b]) continue;
      const diff = chi[b]! - chi[a]!;
      const moved = diff / (diff > 0 ? cation[a]! : cation[b]!);
      dq[a] = dq[a]! + moved;
      dq[b] = dq[b]! - moved;
    }
    for (let i = 0; i < n; i++) q[i] = q[i]! + damping * dq[i]!;
    damping *= 0.5;
  }
  return q;
}
