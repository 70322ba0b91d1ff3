/**
 * Four-dimensional relaxation of the rule-based placement, in the spirit of distance-geometry refinement in four
 * dimensions (Crippen & Havel, "Distance Geometry and Molecular Conformation", 1988; the fourth coordinate lets
 * rings and chains pass through one another and stereocentres invert without climbing a barrier).
 *
 * Objective (x, y, z, w per atom): harmonic springs to the force field's bond lengths and to 1-3 distances from
 * its angles, a soft repulsion between all other pairs, signed-volume restraints on the stereocentres and
 * zero-volume (planarity) restraints on trigonal centres, computed on (x, y, z); then a second pass adds a penalty
 * on w that squeezes the structure back into three dimensions. Not part of DREIDING: it only prepares a tangle-free
 * start with the right stereochemistry.
 *
 * @module
 */
import type { ForceField } from "./forcefield.ts";
import { type MolGraph, pairKey } from "./graph.ts";
import { hybridOf } from "./parameters.ts";
import { minimize } from "./optimizer.ts";
import type { StereoTargets } from "./stereo.ts";

/** Distance springs (pairs and target lengths). */
interface Springs {
  readonly atoms: Int32Array;
  readonly target: Float64Array;
  readonly k: Float64Array;
}

/** Signed-volume restraints: apex, three atoms, wanted volume sign (0 = planar) and smallest |volume| (Å³). */
interface Volumes {
  readonly atoms: Int32Array;
  readonly sign: Int8Array;
  readonly min: Float64Array;
}

/** Everything the 4D objective needs. */
export interface Embed4dModel {
  readonly n: number;
  readonly springs: Springs;
  readonly volumes: Volumes;
  readonly pairs: Int32Array;
  readonly contact: Float64Array;
}

const BOND_K = 100;
const ANGLE_K = 50;
const REPULSION_K = 10;
const CONTACT = 0.75;
const CHIRAL_K = 50;
/** Smallest |signed volume| demanded of a stereocentre, as a fraction of its ideal one (as in ./restraints.ts). */
const MIN_VOLUME_FRACTION = 0.5;
const PLANAR_K = 20;
const SQUEEZE_K = 5;

/**
 * Builds the 4D objective of a molecule.
 *
 * @example
 * ```ts
 * const model = embed4dModel(graph, ff, targets);
 * ```
 */
export function embed4dModel(g: MolGraph, ff: ForceField, targets: StereoTargets): Embed4dModel {
  const types = ff.types;
  const atoms: number[] = [];
  const target: number[] = [];
  const k: number[] = [];
  const natural = new Map<string, number>();
  g.bonds.forEach((bond, m) => {
    atoms.push(bond.a, bond.b);
    target.push(ff.bonds.r0[m]!);
    k.push(BOND_K);
    natural.set(pairKey(bond.a, bond.b), ff.bonds.r0[m]!);
  });
  // 1-3 springs at the force field's own angles, so small rings start with their real shape.
  const angles = ff.angles;
  for (let m = 0; m < angles.c.length; m++) {
    const i = angles.atoms[3 * m]!, j = angles.atoms[3 * m + 1]!, l = angles.atoms[3 * m + 2]!;
    const ra = natural.get(pairKey(i, j))!;
    const rb = natural.get(pairKey(l, j))!;
    const cos = angles.linear[m] ? -1 : angles.cos0[m]!;
    atoms.push(i, l);
    target.push(Math.sqrt(ra * ra + rb * rb - 2 * ra * rb * cos));
    k.push(ANGLE_K);
  }
  const vol: number[] = [];
  const sign: number[] = [];
  const min: number[] = [];
  for (const t of targets.tetrahedral) {
    vol.push(t.apex, ...t.atoms);
    sign.push(t.sign);
    min.push(MIN_VOLUME_FRACTION * t.idealVolume);
  }
  g.neighbors.forEach((nbrs, c) => {
    const h = hybridOf(types[c]!);
    if ((h === "2" || h === "R") && nbrs.length === 3) {
      vol.push(c, nbrs[0]!, nbrs[1]!, nbrs[2]!);
      sign.push(0);
      min.push(0);
    }
  });
  const contact = Float64Array.from(ff.pairs.r0, (r) => CONTACT * r);
  return {
    n: g.atoms.length,
    springs: { atoms: Int32Array.from(atoms), target: Float64Array.from(target), k: Float64Array.from(k) },
    volumes: { atoms: Int32Array.from(vol), sign: Int8Array.from(sign), min: Float64Array.from(min) },
    pairs: ff.pairs.atoms,
    contact,
  };
}

/**
 * Relaxes 3D coordinates through four dimensions and returns 3D coordinates.
 *
 * @example
 * ```ts
 * const x3 = relax4d(model, x0, rand, 500, onIteration);
 * ```
 */
export function relax4d(
  model: Embed4dModel,
  x3: Float64Array,
  rand: () => number,
  wAmplitude: number,
  maxIterations: number,
  onIteration: () => void,
): { x: Float64Array; iterations: number } {
  const n = model.n;
  const x4 = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    x4[4 * i] = x3[3 * i]!;
    x4[4 * i + 1] = x3[3 * i + 1]!;
    x4[4 * i + 2] = x3[3 * i + 2]!;
    x4[4 * i + 3] = wAmplitude * (rand() - 0.5);
  }
  const free = minimize((x, grad) => objective4d(model, x, grad, 0), x4, {
    maxIterations,
    rmsGradientTolerance: 0.05,
    maxAtomStep: 0.5,
    dimension: 4,
    onIteration,
  });
  const squeezed = minimize((x, grad) => objective4d(model, x, grad, SQUEEZE_K), free.x, {
    maxIterations,
    rmsGradientTolerance: 0.05,
    maxAtomStep: 0.5,
    dimension: 4,
    onIteration,
  });
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[3 * i] = squeezed.x[4 * i]!;
    out[3 * i + 1] = squeezed.x[4 * i + 1]!;
    out[3 * i + 2] = squeezed.x[4 * i + 2]!;
  }
  return { x: out, iterations: free.iterations + squeezed.iterations };
}

/**
 * The 4D objective; `squeeze` weights the Σ w² penalty. Coordinates are [x, y, z, w] per atom.
 *
 * @example
 * ```ts
 * const e = objective4d(model, x4, grad, 0);
 * ```
 */
export function objective4d(
  model: Embed4dModel,
  x: Float64Array,
  grad: Float64Array,
  squeeze: number,
): number {
  grad.fill(0);
  let e = 0;
  const s = model.springs;
  for (let m = 0; m < s.k.length; m++) {
    e += spring(x, grad, s.atoms[2 * m]!, s.atoms[2 * m + 1]!, s.target[m]!, s.k[m]!);
  }
  for (let m = 0; m < model.contact.length; m++) {
    e += repulsion(x, grad, model.pairs[2 * m]!, model.pairs[2 * m + 1]!, model.contact[m]!);
  }
  const v = model.volumes;
  for (let m = 0; m < v.sign.length; m++) {
    e += volume(
      x,
      grad,
      v.atoms[4 * m]!,
      v.atoms[4 * m + 1]!,
      v.atoms[4 * m + 2]!,
      v.atoms[4 * m + 3]!,
      v.sign[m]!,
      v.min[m]!,
    );
  }
  if (squeeze > 0) {
    for (let i = 3; i < x.length; i += 4) {
      e += squeeze * x[i]! * x[i]!;
      grad[i] = grad[i]! + 2 * squeeze * x[i]!;
    }
  }
  return e;
}

function spring(
  x: Float64Array,
  grad: Float64Array,
  a: number,
  b: number,
  target: number,
  k: number,
): number {
  const i = 4 * a, j = 4 * b;
  const d0 = x[i]! - x[j]!,
    d1 = x[i + 1]! - x[j + 1]!,
    d2 = x[i + 2]! - x[j + 2]!,
    d3 = x[i + 3]! - x[j + 3]!;
  const r = Math.sqrt(d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3);
  const dr = r - target;
  if (r > 1e-9) add4(grad, i, j, (2 * k * dr) / r, d0, d1, d2, d3);
  return k * dr * dr;
}

function repulsion(x: Float64Array, grad: Float64Array, a: number, b: number, contact: number): number {
  const i = 4 * a, j = 4 * b;
  const d0 = x[i]! - x[j]!,
    d1 = x[i + 1]! - x[j + 1]!,
    d2 = x[i + 2]! - x[j + 2]!,
    d3 = x[i + 3]! - x[j + 3]!;
  const r2 = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
  if (r2 >= contact * contact) return 0;
  const r = Math.sqrt(r2);
  const gap = contact - r;
  if (r > 1e-9) add4(grad, i, j, (-2 * REPULSION_K * gap) / r, d0, d1, d2, d3);
  return REPULSION_K * gap * gap;
}

/** Signed volume on (x, y, z): flat-bottom towards |V| ≥ min with the wanted sign, or harmonic to 0. */
function volume(
  x: Float64Array,
  grad: Float64Array,
  c: number,
  a: number,
  b: number,
  d: number,
  sign: number,
  min: number,
): number {
  const o = 4 * c, pa = 4 * a, pb = 4 * b, pd = 4 * d;
  const ax = x[pa]! - x[o]!, ay = x[pa + 1]! - x[o + 1]!, az = x[pa + 2]! - x[o + 2]!;
  const bx = x[pb]! - x[o]!, by = x[pb + 1]! - x[o + 1]!, bz = x[pb + 2]! - x[o + 2]!;
  const dx = x[pd]! - x[o]!, dy = x[pd + 1]! - x[o + 1]!, dz = x[pd + 2]! - x[o + 2]!;
  const cx = by * dz - bz * dy, cy = bz * dx - bx * dz, cz = bx * dy - by * dx;
  const v = ax * cx + ay * cy + az * cz;
  let e: number;
  let dEdV: number;
  if (sign === 0) {
    e = PLANAR_K * v * v;
    dEdV = 2 * PLANAR_K * v;
  } else {
    const short = min - sign * v;
    if (short <= 0) return 0;
    e = CHIRAL_K * short * short;
    dEdV = -2 * CHIRAL_K * short * sign;
  }
  const g = (p: number, gx: number, gy: number, gz: number) => {
    grad[p] = grad[p]! + dEdV * gx;
    grad[p + 1] = grad[p + 1]! + dEdV * gy;
    grad[p + 2] = grad[p + 2]! + dEdV * gz;
    grad[o] = grad[o]! - dEdV * gx;
    grad[o + 1] = grad[o + 1]! - dEdV * gy;
    grad[o + 2] = grad[o + 2]! - dEdV * gz;
  };
  g(pa, cx, cy, cz);
  g(pb, dy * az - dz * ay, dz * ax - dx * az, dx * ay - dy * ax);
  g(pd, ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
  return e;
}

function add4(
  grad: Float64Array,
  i: number,
  j: number,
  f: number,
  d0: number,
  d1: number,
  d2: number,
  d3: number,
) {
  grad[i] = grad[i]! + f * d0;
  grad[i + 1] = grad[i + 1]! + f * d1;
  grad[i + 2] = grad[i + 2]! + f * d2;
  grad[i + 3] = grad[i + 3]! + f * d3;
  grad[j] = grad[j]! - f * d0;
  grad[j + 1] = grad[j + 1]! - f * d1;
  grad[j + 2] = grad[j + 2]! - f * d2;
  grad[j + 3] = grad[j + 3]! - f * d3;
}
