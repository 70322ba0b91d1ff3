/**
 * Restraints used only while setting up the structure, before the pure DREIDING minimisation: they push every
 * stereocentre to the signed volume the SMILES asks for, every stereo double bond to its cis/trans side, and
 * overlapping atoms apart with a soft (bounded) repulsion instead of the steep r^-12 wall, so atoms that start on
 * top of each other in a 2D layout can separate. None of this is part of DREIDING; the final energy and geometry
 * come from DREIDING alone.
 *
 * @module
 */
import { addFour, addPair, dihedral } from "./energy.ts";
import type { PairTerms } from "./forcefield.ts";
import type { StereoTargets } from "./stereo.ts";

/** Strengths of the set-up restraints. */
export interface RestraintWeights {
  /** Chiral-volume restraint, kcal/mol/Å⁶. */
  readonly chiral: number;
  /** Smallest |signed volume| demanded, as a fraction of the centre's ideal volume. */
  readonly minVolumeFraction: number;
  /** Cis/trans restraint k in k(1 ∓ cos φ), kcal/mol. */
  readonly doubleBond: number;
  /** Soft repulsion k in k(d − r)², kcal/mol/Å². */
  readonly repulsion: number;
  /** Soft-repulsion contact distance as a fraction of the pair's Lennard-Jones R0. */
  readonly contact: number;
}

/** Default set-up weights. */
export const DEFAULT_WEIGHTS: RestraintWeights = {
  chiral: 100,
  // Below the 74 % every stereocentre of RDKit's MMFF94 structures keeps (./stereo.ts), so no real centre is
  // pushed out of shape, yet far from flat.
  minVolumeFraction: 0.5,
  doubleBond: 100,
  repulsion: 10,
  contact: 0.75,
};

const scratch = new Float64Array(12);

/**
 * Energy of the set-up restraints; adds their gradient into `grad` when given.
 *
 * @example
 * ```ts
 * const e = restraintEnergy(targets, ff.pairs, DEFAULT_WEIGHTS, x, grad);
 * ```
 */
export function restraintEnergy(
  targets: StereoTargets,
  pairs: PairTerms,
  w: RestraintWeights,
  x: Float64Array,
  grad?: Float64Array,
): number {
  return chiralEnergy(targets, w, x, grad) + doubleBondEnergy(targets, w, x, grad) +
    softRepulsion(pairs, w, x, grad);
}

function chiralEnergy(
  targets: StereoTargets,
  w: RestraintWeights,
  x: Float64Array,
  grad?: Float64Array,
): number {
  let e = 0;
  for (const t of targets.tetrahedral) {
    const o = 3 * t.apex;
    const [pa, pb, pd] = t.atoms.map((i) => 3 * i) as [number, number, number];
    const ax = x[pa]! - x[o]!, ay = x[pa + 1]! - x[o + 1]!, az = x[pa + 2]! - x[o + 2]!;
    const bx = x[pb]! - x[o]!, by = x[pb + 1]! - x[o + 1]!, bz = x[pb + 2]! - x[o + 2]!;
    const dx = x[pd]! - x[o]!, dy = x[pd + 1]! - x[o + 1]!, dz = x[pd + 2]! - x[o + 2]!;
    // V = a · (b × d)
    const cx = by * dz - bz * dy, cy = bz * dx - bx * dz, cz = bx * dy - by * dx;
    const v = ax * cx + ay * cy + az * cz;
    const short = w.minVolumeFraction * t.idealVolume - t.sign * v;
    if (short <= 0) continue;
    e += w.chiral * short * short;
    if (!grad) continue;
    const f = -2 * w.chiral * short * t.sign;
    // dV/da = b × d, dV/db = d × a, dV/dd = a × b, dV/dc = −(sum)
    const gax = f * cx, gay = f * cy, gaz = f * cz;
    const gbx = f * (dy * az - dz * ay), gby = f * (dz * ax - dx * az), gbz = f * (dx * ay - dy * ax);
    const gdx = f * (ay * bz - az * by), gdy = f * (az * bx - ax * bz), gdz = f * (ax * by - ay * bx);
    addPair(grad, pa, o, gax, gay, gaz);
    addPair(grad, pb, o, gbx, gby, gbz);
    addPair(grad, pd, o, gdx, gdy, gdz);
  }
  return e;
}

function doubleBondEnergy(
  targets: StereoTargets,
  w: RestraintWeights,
  x: Float64Array,
  grad?: Float64Array,
): number {
  let e = 0;
  for (const t of targets.doubleBonds) {
    const [a, b, c, d] = t.atoms;
    const phi = dihedral(x, a, b, c, d, grad ? scratch : undefined);
    const s = t.cis ? 1 : -1;
    e += w.doubleBond * (1 - s * Math.cos(phi));
    if (grad) addFour(grad, a, b, c, d, w.doubleBond * s * Math.sin(phi), scratch);
  }
  return e;
}

function softRepulsion(pairs: PairTerms, w: RestraintWeights, x: Float64Array, grad?: Float64Array): number {
  let e = 0;
  for (let m = 0; m < pairs.r0.length; m++) {
    const i = 3 * pairs.atoms[2 * m]!;
    const j = 3 * pairs.atoms[2 * m + 1]!;
    const dx = x[i]! - x[j]!, dy = x[i + 1]! - x[j + 1]!, dz = x[i + 2]! - x[j + 2]!;
    const r2 = dx * dx + dy * dy + dz * dz;
    const d = w.contact * pairs.r0[m]!;
    if (r2 >= d * d) continue;
    const r = Math.sqrt(r2);
    const gap = d - r;
    e += w.repulsion * gap * gap;
    if (grad && r > 1e-9) {
      const f = (-2 * w.repulsion * gap) / r;
      addPair(grad, i, j, f * dx, f * dy, f * dz);
    }
  }
  return e;
}
