/**
 * The DREIDING terms of one molecule, flattened into typed arrays (Mayo, Olafson & Goddard, J. Phys. Chem. 1990,
 * 94, 8897, doi:10.1021/j100389a010):
 *
 * - bonds: harmonic, E = ½ k (r − R0)², k = 700·n kcal/mol/Å², R0 = R_I + R_J − 0.01 Å, except for the bond
 *   classes where that rule is known to be off, which take MMFF94's r0 (./bond_lengths.ts);
 * - angles: cosine-harmonic, E = ½ C (cos θ − cos θ0)², C = K / sin²θ0, K = 100 kcal/mol/rad², θ0 of the centre,
 *   or MMFF94's θ0 for the angle's class where that is known (./angles.ts); linear centres E = K (1 + cos θ);
 * - torsions: E = ½ V [1 − cos(n(φ − φ0))] with V of the paper's case divided by the number of dihedrals about the
 *   central bond;
 * - inversions at planar centres (X_2, X_R with three neighbours; a nitrogen only where MMFF94's structures
 *   have it planar, see {@link planarNitrogen}): E = K_I (1 − cos ψ), K_I = 40 kcal/mol shared over the three
 *   choices of axis, ψ the angle between the axis bond and the plane of the other two; a ring nitrogen without
 *   it also loses the torsions that would hold its substituent in the ring's plane;
 * - van der Waals: Lennard-Jones 12-6 over every pair not bonded (1-2) and not sharing a neighbour (1-3); 1-4
 *   pairs with their well depth scaled by {@link ONE_FOUR_VDW_SCALE} (½, as in AMBER; DREIDING itself keeps them
 *   in full, which stretches crowded single bonds);
 * - Coulomb over the same pairs, E = 332.0637 q_i q_j / (ε r), ε = 1, 1-4 pairs unscaled, between
 *   Gasteiger–Marsili charges (./charges.ts). The paper's explicit hydrogen-bond term is not used.
 *
 * @module
 */
import { mmffAromatic, naturalAngle, nitrogenKey } from "./angles.ts";
import { gasteigerCharges } from "./charges.ts";
import { NITROGEN_ANGLE_SUMS } from "../data/mmff_geometry.ts";
import { naturalBondLength } from "./bond_lengths.ts";
import type { MolGraph } from "./graph.ts";
import { pairKey } from "./graph.ts";
import {
  ANGLE_FORCE_CONSTANT,
  BOND_FORCE_CONSTANT,
  COULOMB_CONSTANT,
  DIELECTRIC_CONSTANT,
  type DreidingType,
  hybridOf,
  INVERSION_FORCE_CONSTANT,
  ONE_FOUR_VDW_SCALE,
  pairVdw,
  torsionCase,
} from "./parameters.ts";

/** θ0 from which an angle takes the linear form K(1 + cos θ), degrees (MMFF94's linear centres have 180°). */
const LINEAR_ANGLE = 175;

/** Harmonic bonds. */
export interface BondTerms {
  readonly atoms: Int32Array;
  readonly k: Float64Array;
  readonly r0: Float64Array;
}

/** Cosine-harmonic angles; `linear` marks θ0 = 180° centres that use K(1 + cos θ). */
export interface AngleTerms {
  readonly atoms: Int32Array;
  readonly c: Float64Array;
  readonly cos0: Float64Array;
  readonly linear: Uint8Array;
}

/** Dihedrals with barrier already divided by the dihedral count; `sign` is cos(n·φ0) (±1 for DREIDING). */
export interface TorsionTerms {
  readonly atoms: Int32Array;
  readonly v: Float64Array;
  readonly n: Float64Array;
  readonly sign: Float64Array;
}

/** Planar inversions: (centre, j, k, axis atom l) and the force constant share. */
export interface InversionTerms {
  readonly atoms: Int32Array;
  readonly k: Float64Array;
}

/** Non-bonded pairs with combined Lennard-Jones parameters. */
export interface PairTerms {
  readonly atoms: Int32Array;
  readonly r0: Float64Array;
  readonly d0: Float64Array;
  /** Coulomb numerator 332.0637·q_i·q_j/ε, kcal·Å/mol. */
  readonly qq: Float64Array;
}

/** All DREIDING terms of a molecule. */
export interface ForceField {
  readonly atomCount: number;
  readonly types: readonly DreidingType[];
  readonly bonds: BondTerms;
  readonly angles: AngleTerms;
  readonly torsions: TorsionTerms;
  readonly inversions: InversionTerms;
  readonly pairs: PairTerms;
}

/**
 * Builds the DREIDING terms of a typed molecule.
 *
 * @example
 * ```ts
 * const ff = buildForceField(graph, assignTypes(graph));
 * ff.bonds.r0[0]; // e.g. 1.53 for a C_3–C_3 bond
 * ```
 */
export function buildForceField(g: MolGraph, types: readonly DreidingType[]): ForceField {
  const angles = angleTerms(g, types);
  const sums = angleSums(g, angles);
  const pyramidal = g.atoms.map((atom, i) =>
    atom.symbol === "N" && inversionCentre(g, types, i) && !planarNitrogen(g, types, i, sums[i]!)
  );
  return {
    atomCount: g.atoms.length,
    types,
    bonds: bondTerms(g, types),
    angles,
    torsions: torsionTerms(g, types, pyramidal),
    inversions: inversionTerms(g, types, pyramidal),
    pairs: pairTerms(g, types, gasteigerCharges(g, types)),
  };
}

/** Sum of the equilibrium angles at each atom, degrees. */
function angleSums(g: MolGraph, angles: AngleTerms): Float64Array {
  const sums = new Float64Array(g.atoms.length);
  for (let m = 0; m < angles.c.length; m++) {
    const j = angles.atoms[3 * m + 1]!;
    sums[j] = sums[j]! + (angles.linear[m] ? 180 : (Math.acos(angles.cos0[m]!) * 180) / Math.PI);
  }
  return sums;
}

function bondTerms(g: MolGraph, types: readonly DreidingType[]): BondTerms {
  const n = g.bonds.length;
  const atoms = new Int32Array(2 * n);
  const k = new Float64Array(n);
  const r0 = new Float64Array(n);
  g.bonds.forEach((bond, i) => {
    atoms[2 * i] = bond.a;
    atoms[2 * i + 1] = bond.b;
    // A zero-order (dative/ionic) bond in RDKit still needs a spring to keep the fragment together.
    k[i] = BOND_FORCE_CONSTANT * Math.max(bond.order, 1);
    r0[i] = naturalBondLength(g, types, bond);
  });
  return { atoms, k, r0 };
}

function angleTerms(g: MolGraph, types: readonly DreidingType[]): AngleTerms {
  const list: number[] = [];
  const c: number[] = [];
  const cos0: number[] = [];
  const linear: number[] = [];
  g.neighbors.forEach((nbrs, j) => {
    for (let a = 0; a < nbrs.length; a++) {
      for (let b = a + 1; b < nbrs.length; b++) {
        const theta = naturalAngle(g, types, nbrs[a]!, j, nbrs[b]!);
        const isLinear = theta >= LINEAR_ANGLE;
        const rad = (theta * Math.PI) / 180;
        list.push(nbrs[a]!, j, nbrs[b]!);
        linear.push(isLinear ? 1 : 0);
        c.push(isLinear ? ANGLE_FORCE_CONSTANT : ANGLE_FORCE_CONSTANT / Math.sin(rad) ** 2);
        cos0.push(Math.cos(rad));
      }
    }
  });
  return {
    atoms: Int32Array.from(list),
    c: Float64Array.from(c),
    cos0: Float64Array.from(cos0),
    linear: Uint8Array.from(linear),
  };
}

/**
 * Torsions, except those that would hold a pyramidal ring nitrogen's substituent in the ring's plane: a dihedral
 * about a ring bond whose end atom hangs off such a nitrogen outside the ring (antipyrine's N-methyl, which
 * MMFF94 bends out of the plane; the ring's own dihedrals still keep it flat).
 */
function torsionTerms(
  g: MolGraph,
  types: readonly DreidingType[],
  pyramidal: readonly boolean[],
): TorsionTerms {
  const ringBonds = new Set(g.bonds.filter((b) => b.inRing).map((b) => pairKey(b.a, b.b)));
  const hangsOff = (end: number, n: number, other: number) =>
    pyramidal[n]! && ringBonds.has(pairKey(n, other)) && !ringBonds.has(pairKey(n, end));
  const list: number[] = [];
  const v: number[] = [];
  const n: number[] = [];
  const sign: number[] = [];
  for (const bond of g.bonds) {
    const j = bond.a;
    const k = bond.b;
    const left = g.neighbors[j]!.filter((x) => x !== k);
    const right = g.neighbors[k]!.filter((x) => x !== j);
    const dihedrals: [number, number][] = [];
    for (const i of left) for (const l of right) if (i !== l) dihedrals.push([i, l]);
    if (dihedrals.length === 0) continue;
    for (const [i, l] of dihedrals) {
      if (hangsOff(i, j, k) || hangsOff(l, k, j)) continue;
      const t = torsionCase(types[i]!, types[j]!, types[k]!, types[l]!, bond.order, bond.inRing);
      if (!t) continue;
      list.push(i, j, k, l);
      // The paper's barrier is for the whole bond, shared equally among its dihedrals.
      v.push(t.v / dihedrals.length);
      n.push(t.n);
      sign.push(Math.round(Math.cos((t.n * t.phi0 * Math.PI) / 180)));
    }
  }
  return {
    atoms: Int32Array.from(list),
    v: Float64Array.from(v),
    n: Float64Array.from(n),
    sign: Float64Array.from(sign),
  };
}

/**
 * Sum of a trivalent nitrogen's three angles, degrees, from which it counts as planar: its own equilibrium
 * angles' sum decides a nitrogen whose class MMFF94's structures leave open (see {@link planarNitrogen}).
 */
const PLANAR_ANGLE_SUM = 350;
/** Mean angle sum of a nitrogen class in MMFF94's structures from which the class is planar, degrees. */
export const PLANAR_CLASS_SUM = 355;
/** Mean angle sum of a nitrogen class in MMFF94's structures below which the class is pyramidal, degrees. */
export const PYRAMIDAL_CLASS_SUM = 345;

/**
 * True for a centre of DREIDING's planar inversion: an X_2 or X_R atom with three neighbours (a nitrogen among
 * them keeps the term only when {@link planarNitrogen} says so).
 *
 * @example
 * ```ts
 * inversionCentre(graph, types, 1); // true for acetamide's carbonyl carbon
 * ```
 */
export function inversionCentre(g: MolGraph, types: readonly DreidingType[], i: number): boolean {
  const h = hybridOf(types[i]!);
  return (h === "2" || h === "R") && g.neighbors[i]!.length === 3;
}

/**
 * True when the trivalent nitrogen i gets the planar inversion term. Its class's mean angle sum in MMFF94's
 * structures (NITROGEN_ANGLE_SUMS, ./angles.ts `nitrogenKey`) decides where it is clearly planar (amides,
 * imides, lactams: 355–360°) or clearly pyramidal (anilines, sulfonamides: 335–345°). A class in between mixes
 * both in MMFF94 (an aryl NMe2 is planar when conjugated, pyramidal when crowded), and so does a class the
 * training structures lack: there RDKit's aromatic flag or the nitrogen's own fitted angles decide.
 */
function planarNitrogen(g: MolGraph, types: readonly DreidingType[], i: number, angleSum: number): boolean {
  const sum = NITROGEN_ANGLE_SUMS[nitrogenKey(g, types, i)];
  if (sum !== undefined && sum >= PLANAR_CLASS_SUM) return true;
  if (sum !== undefined && sum < PYRAMIDAL_CLASS_SUM) return false;
  return mmffAromatic(g, i) || angleSum >= PLANAR_ANGLE_SUM;
}

function inversionTerms(
  g: MolGraph,
  types: readonly DreidingType[],
  pyramidal: readonly boolean[],
): InversionTerms {
  const list: number[] = [];
  const k: number[] = [];
  g.neighbors.forEach((nbrs, i) => {
    if (!inversionCentre(g, types, i) || pyramidal[i]) return;
    const [a, b, c] = nbrs as [number, number, number];
    for (const [j, m, l] of [[a, b, c], [b, c, a], [c, a, b]] as const) {
      list.push(i, j, m, l);
      k.push(INVERSION_FORCE_CONSTANT / 3);
    }
  });
  return { atoms: Int32Array.from(list), k: Float64Array.from(k) };
}

/**
 * Keys ({@link pairKey}) of the pairs that are bonded or share a neighbour: they carry no van der Waals term.
 *
 * @example
 * ```ts
 * excludedPairs(graph).has(pairKey(0, 2)); // true for the two ends of an angle
 * ```
 */
export function excludedPairs(g: MolGraph): Set<string> {
  const excluded = new Set<string>();
  g.neighbors.forEach((nbrs, j) => {
    for (const i of nbrs) excluded.add(pairKey(i, j));
    for (let a = 0; a < nbrs.length; a++) {
      for (let b = a + 1; b < nbrs.length; b++) excluded.add(pairKey(nbrs[a]!, nbrs[b]!));
    }
  });
  return excluded;
}

/** Keys ({@link pairKey}) of the pairs three bonds apart that are not also bonded or 1-3 (checked by the caller). */
function oneFourPairs(g: MolGraph): Set<string> {
  const out = new Set<string>();
  for (const bond of g.bonds) {
    for (const i of g.neighbors[bond.a]!) {
      if (i === bond.b) continue;
      for (const l of g.neighbors[bond.b]!) if (l !== bond.a && l !== i) out.add(pairKey(i, l));
    }
  }
  return out;
}

function pairTerms(g: MolGraph, types: readonly DreidingType[], q: Float64Array): PairTerms {
  const excluded = excludedPairs(g);
  const oneFour = oneFourPairs(g);
  const list: number[] = [];
  const r0: number[] = [];
  const d0: number[] = [];
  const qq: number[] = [];
  const n = g.atoms.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const pair = pairKey(i, j);
      if (excluded.has(pair)) continue;
      const p = pairVdw(types[i]!, types[j]!);
      list.push(i, j);
      r0.push(p.r0);
      d0.push(oneFour.has(pair) ? ONE_FOUR_VDW_SCALE * p.d0 : p.d0);
      qq.push((COULOMB_CONSTANT * q[i]! * q[j]!) / DIELECTRIC_CONSTANT);
    }
  }
  return {
    atoms: Int32Array.from(list),
    r0: Float64Array.from(r0),
    d0: Float64Array.from(d0),
    qq: Float64Array.from(qq),
  };
}

/**
 * The natural length R0 of the bond between two atoms, Å (NaN when they are not bonded).
 *
 * @example
 * ```ts
 * const r0 = naturalLengths(graph, ff); r0(0, 1); // 1.508 for ethane's C–C
 * ```
 */
export function naturalLengths(g: MolGraph, ff: ForceField): (a: number, b: number) => number {
  const lengths = new Map<string, number>();
  g.bonds.forEach((bond, m) => lengths.set(pairKey(bond.a, bond.b), ff.bonds.r0[m]!));
  return (a, b) => lengths.get(pairKey(a, b)) ?? Number.NaN;
}
