/**
 * Geometry sanity checks on a minimised structure: a DREIDING minimum has every bond within a few hundredths of
 * an ångström of its natural length and no atoms jammed together, so a larger deviation means a tangled
 * structure (a ring threaded by a bond, a cage folded the wrong way) rather than strain.
 *
 * @module
 */
import type { ForceField } from "./forcefield.ts";
import type { MolGraph } from "./graph.ts";

/** Bond deviation beyond which a minimised structure counts as tangled, Å (crowded but sound molecules such as
 * paclitaxel stretch single bonds by up to ~0.1 Å under the 1-4 van der Waals terms). */
export const MAX_BOND_DEVIATION = 0.15;
/** Angle deviation beyond which a minimised structure counts as tangled, degrees (3- and 4-membered ring angles
 * are exempt: their strain is real). */
export const MAX_ANGLE_DEVIATION = 35;
/** Closest non-bonded approach allowed, as a fraction of the pair's Lennard-Jones R0. */
export const MIN_CONTACT_FRACTION = 0.6;

/** What is wrong with a geometry (empty lists when nothing is). */
export interface GeometryIssues {
  /** Largest |r − R0| over bonds, Å. */
  readonly maxBondDeviation: number;
  /** Largest |θ − θ0| over angles outside 3- and 4-membered rings, degrees. */
  readonly maxAngleDeviation: number;
  /** Smallest non-bonded distance as a fraction of R0 (pairs beyond 1-3). */
  readonly minContactFraction: number;
  /** True when the structure passes all three checks. */
  readonly ok: boolean;
}

/**
 * Measures bond deviations and close contacts.
 *
 * @example
 * ```ts
 * geometryIssues(graph, ff, x).ok; // true for a well-formed minimum
 * ```
 */
export function geometryIssues(g: MolGraph, ff: ForceField, x: Float64Array): GeometryIssues {
  let maxBondDeviation = 0;
  for (let m = 0; m < ff.bonds.k.length; m++) {
    const r = distance(x, ff.bonds.atoms[2 * m]!, ff.bonds.atoms[2 * m + 1]!);
    maxBondDeviation = Math.max(maxBondDeviation, Math.abs(r - ff.bonds.r0[m]!));
  }
  let maxAngleDeviation = 0;
  for (let m = 0; m < ff.angles.c.length; m++) {
    const i = ff.angles.atoms[3 * m]!, j = ff.angles.atoms[3 * m + 1]!, k = ff.angles.atoms[3 * m + 2]!;
    if (inSmallRing(g, i, j, k)) continue;
    const theta = angleDegrees(x, i, j, k);
    const theta0 = (Math.acos(Math.max(-1, Math.min(1, ff.angles.cos0[m]!))) * 180) / Math.PI;
    maxAngleDeviation = Math.max(maxAngleDeviation, Math.abs(theta - theta0));
  }
  let minContactFraction = Infinity;
  for (let m = 0; m < ff.pairs.r0.length; m++) {
    const r = distance(x, ff.pairs.atoms[2 * m]!, ff.pairs.atoms[2 * m + 1]!);
    minContactFraction = Math.min(minContactFraction, r / ff.pairs.r0[m]!);
  }
  return {
    maxBondDeviation,
    maxAngleDeviation,
    minContactFraction,
    ok: maxBondDeviation <= MAX_BOND_DEVIATION && maxAngleDeviation <= MAX_ANGLE_DEVIATION &&
      minContactFraction >= MIN_CONTACT_FRACTION,
  };
}

/** True when angle i–j–k lies in a 3-membered (i–k bonded) or 4-membered (i, k share another neighbour) ring. */
function inSmallRing(g: MolGraph, i: number, j: number, k: number): boolean {
  const ni = g.neighbors[i]!;
  const nk = g.neighbors[k]!;
  return ni.includes(k) || ni.some((a) => a !== j && nk.includes(a));
}

/**
 * Angle i–j–k in degrees.
 *
 * @example
 * ```ts
 * angleDegrees(x, 1, 0, 2); // ≈ 109.5 at a tetrahedral centre
 * ```
 */
export function angleDegrees(x: Float64Array, i: number, j: number, k: number): number {
  const a = [x[3 * i]! - x[3 * j]!, x[3 * i + 1]! - x[3 * j + 1]!, x[3 * i + 2]! - x[3 * j + 2]!];
  const b = [x[3 * k]! - x[3 * j]!, x[3 * k + 1]! - x[3 * j + 1]!, x[3 * k + 2]! - x[3 * j + 2]!];
  const dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const c = dot / (Math.hypot(a[0]!, a[1]!, a[2]!) * Math.hypot(b[0]!, b[1]!, b[2]!));
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
}

/**
 * Distance between atoms i and j of flat 3D coordinates, Å.
 *
 * @example
 * ```ts
 * distance(x, 0, 1);
 * ```
 */
export function distance(x: Float64Array, i: number, j: number): number {
  return Math.hypot(x[3 * i]! - x[3 * j]!, x[3 * i + 1]! - x[3 * j + 1]!, x[3 * i + 2]! - x[3 * j + 2]!);
}
