/**
 * DREIDING energy and analytic gradient (kcal/mol and kcal/mol/Å) over flat coordinate arrays
 * `[x0, y0, z0, x1, …]` in Å. Each term function adds its gradient into `grad` when one is given.
 * Functional forms: see ./forcefield.ts.
 *
 * @module
 */
import type {
  AngleTerms,
  BondTerms,
  ForceField,
  InversionTerms,
  PairTerms,
  TorsionTerms,
} from "./forcefield.ts";

/** Energy of each DREIDING term, kcal/mol. */
export interface EnergyBreakdown {
  /** Harmonic bond stretching. */
  bond: number;
  /** Cosine-harmonic angle bending. */
  angle: number;
  /** Dihedral torsions. */
  torsion: number;
  /** Planar inversions. */
  inversion: number;
  /** Lennard-Jones 12-6 van der Waals. */
  van_der_waals: number;
  /** Coulomb energy of the Gasteiger charges. */
  electrostatic: number;
  /** Sum of the terms. */
  total: number;
}

/**
 * Total DREIDING energy; fills `grad` (same length as `x`, overwritten) when given.
 *
 * @example
 * ```ts
 * const g = new Float64Array(x.length);
 * const e = dreidingEnergy(ff, x, g);
 * ```
 */
export function dreidingEnergy(ff: ForceField, x: Float64Array, grad?: Float64Array): number {
  if (grad) grad.fill(0);
  return bondEnergy(ff.bonds, x, grad) + angleEnergy(ff.angles, x, grad) +
    torsionEnergy(ff.torsions, x, grad) + inversionEnergy(ff.inversions, x, grad) +
    nonbondedEnergy(ff.pairs, x, grad);
}

/**
 * The energy split by term.
 *
 * @example
 * ```ts
 * energyBreakdown(ff, x).van_der_waals;
 * ```
 */
export function energyBreakdown(ff: ForceField, x: Float64Array): EnergyBreakdown {
  const bond = bondEnergy(ff.bonds, x);
  const angle = angleEnergy(ff.angles, x);
  const torsion = torsionEnergy(ff.torsions, x);
  const inversion = inversionEnergy(ff.inversions, x);
  const parts = { vdw: 0, electrostatic: 0 };
  const nonbonded = nonbondedEnergy(ff.pairs, x, undefined, parts);
  return {
    bond,
    angle,
    torsion,
    inversion,
    van_der_waals: parts.vdw,
    electrostatic: parts.electrostatic,
    total: bond + angle + torsion + inversion + nonbonded,
  };
}

/**
 * Harmonic bond stretch ½ k (r − r0)².
 *
 * @example
 * ```ts
 * bondEnergy(ff.bonds, x, grad);
 * ```
 */
export function bondEnergy(t: BondTerms, x: Float64Array, grad?: Float64Array): number {
  let e = 0;
  for (let m = 0; m < t.k.length; m++) {
    const i = 3 * t.atoms[2 * m]!;
    const j = 3 * t.atoms[2 * m + 1]!;
    const dx = x[i]! - x[j]!;
    const dy = x[i + 1]! - x[j + 1]!;
    const dz = x[i + 2]! - x[j + 2]!;
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const dr = r - t.r0[m]!;
    e += 0.5 * t.k[m]! * dr * dr;
    if (grad && r > 1e-12) {
      const f = (t.k[m]! * dr) / r;
      addPair(grad, i, j, f * dx, f * dy, f * dz);
    }
  }
  return e;
}

/**
 * Cosine-harmonic angle bend ½ C (cos θ − cos θ0)², or K (1 + cos θ) for a linear centre.
 *
 * @example
 * ```ts
 * angleEnergy(ff.angles, x, grad);
 * ```
 */
export function angleEnergy(t: AngleTerms, x: Float64Array, grad?: Float64Array): number {
  let e = 0;
  for (let m = 0; m < t.c.length; m++) {
    const i = 3 * t.atoms[3 * m]!;
    const j = 3 * t.atoms[3 * m + 1]!;
    const k = 3 * t.atoms[3 * m + 2]!;
    const ax = x[i]! - x[j]!, ay = x[i + 1]! - x[j + 1]!, az = x[i + 2]! - x[j + 2]!;
    const bx = x[k]! - x[j]!, by = x[k + 1]! - x[j + 1]!, bz = x[k + 2]! - x[j + 2]!;
    const ra = Math.sqrt(ax * ax + ay * ay + az * az);
    const rb = Math.sqrt(bx * bx + by * by + bz * bz);
    if (ra < 1e-12 || rb < 1e-12) continue;
    const cos = Math.max(-1, Math.min(1, (ax * bx + ay * by + az * bz) / (ra * rb)));
    let dEdc: number;
    if (t.linear[m]) {
      e += t.c[m]! * (1 + cos);
      dEdc = t.c[m]!;
    } else {
      const d = cos - t.cos0[m]!;
      e += 0.5 * t.c[m]! * d * d;
      dEdc = t.c[m]! * d;
    }
    if (!grad) continue;
    const inv = 1 / (ra * rb);
    const fa = cos / (ra * ra);
    const fb = cos / (rb * rb);
    const gix = dEdc * (bx * inv - fa * ax),
      giy = dEdc * (by * inv - fa * ay),
      giz = dEdc * (bz * inv - fa * az);
    const gkx = dEdc * (ax * inv - fb * bx),
      gky = dEdc * (ay * inv - fb * by),
      gkz = dEdc * (az * inv - fb * bz);
    grad[i] = grad[i]! + gix;
    grad[i + 1] = grad[i + 1]! + giy;
    grad[i + 2] = grad[i + 2]! + giz;
    grad[k] = grad[k]! + gkx;
    grad[k + 1] = grad[k + 1]! + gky;
    grad[k + 2] = grad[k + 2]! + gkz;
    grad[j] = grad[j]! - gix - gkx;
    grad[j + 1] = grad[j + 1]! - giy - gky;
    grad[j + 2] = grad[j + 2]! - giz - gkz;
  }
  return e;
}

/**
 * Dihedral angle i–j–k–l in radians (IUPAC sign) and, when `out` is given, its gradient with respect to the four
 * atoms written as 12 numbers (Blondel & Karplus, J. Comput. Chem. 1996, 17, 1132).
 *
 * @example
 * ```ts
 * const phi = dihedral(x, 0, 1, 2, 3);
 * ```
 */
export function dihedral(
  x: Float64Array,
  ia: number,
  ja: number,
  ka: number,
  la: number,
  out?: Float64Array,
): number {
  const i = 3 * ia, j = 3 * ja, k = 3 * ka, l = 3 * la;
  const fx = x[i]! - x[j]!, fy = x[i + 1]! - x[j + 1]!, fz = x[i + 2]! - x[j + 2]!;
  const gx = x[j]! - x[k]!, gy = x[j + 1]! - x[k + 1]!, gz = x[j + 2]! - x[k + 2]!;
  const hx = x[l]! - x[k]!, hy = x[l + 1]! - x[k + 1]!, hz = x[l + 2]! - x[k + 2]!;
  const ax = fy * gz - fz * gy, ay = fz * gx - fx * gz, az = fx * gy - fy * gx;
  const bx = hy * gz - hz * gy, by = hz * gx - hx * gz, bz = hx * gy - hy * gx;
  const a2 = ax * ax + ay * ay + az * az;
  const b2 = bx * bx + by * by + bz * bz;
  const gl = Math.sqrt(gx * gx + gy * gy + gz * gz);
  // (B × A)·G / |G| is the sine part, A·B the cosine part (both scaled by |A||B|).
  const cx = by * az - bz * ay, cy = bz * ax - bx * az, cz = bx * ay - by * ax;
  const phi = Math.atan2((cx * gx + cy * gy + cz * gz) / (gl || 1), ax * bx + ay * by + az * bz);
  if (out) {
    if (a2 < 1e-16 || b2 < 1e-16 || gl < 1e-12) {
      out.fill(0);
      return phi;
    }
    const fg = fx * gx + fy * gy + fz * gz;
    const hg = hx * gx + hy * gy + hz * gz;
    const sa = gl / a2, sb = gl / b2;
    const ta = fg / (a2 * gl), tb = hg / (b2 * gl);
    out[0] = -sa * ax, out[1] = -sa * ay, out[2] = -sa * az;
    out[9] = sb * bx, out[10] = sb * by, out[11] = sb * bz;
    out[3] = sa * ax + ta * ax - tb * bx;
    out[4] = sa * ay + ta * ay - tb * by;
    out[5] = sa * az + ta * az - tb * bz;
    out[6] = -sb * bx - ta * ax + tb * bx;
    out[7] = -sb * by - ta * ay + tb * by;
    out[8] = -sb * bz - ta * az + tb * bz;
  }
  return phi;
}

const scratch = new Float64Array(12);

/**
 * Torsion ½ V [1 − cos(nφ0)·cos(nφ)] (DREIDING phases are 0°, 90° or 180°, so sin(nφ0) = 0).
 *
 * @example
 * ```ts
 * torsionEnergy(ff.torsions, x, grad);
 * ```
 */
export function torsionEnergy(t: TorsionTerms, x: Float64Array, grad?: Float64Array): number {
  let e = 0;
  for (let m = 0; m < t.v.length; m++) {
    const a = t.atoms[4 * m]!, b = t.atoms[4 * m + 1]!, c = t.atoms[4 * m + 2]!, d = t.atoms[4 * m + 3]!;
    const phi = dihedral(x, a, b, c, d, grad ? scratch : undefined);
    const n = t.n[m]!;
    const v = t.v[m]!;
    const s = t.sign[m]!;
    e += 0.5 * v * (1 - s * Math.cos(n * phi));
    if (grad) addFour(grad, a, b, c, d, 0.5 * v * s * n * Math.sin(n * phi), scratch);
  }
  return e;
}

/**
 * Planar inversion K (1 − cos ψ), ψ the angle between bond I–L and plane J–I–K.
 *
 * @example
 * ```ts
 * inversionEnergy(ff.inversions, x, grad);
 * ```
 */
export function inversionEnergy(t: InversionTerms, x: Float64Array, grad?: Float64Array): number {
  let e = 0;
  for (let m = 0; m < t.k.length; m++) {
    const ci = 3 * t.atoms[4 * m]!, cj = 3 * t.atoms[4 * m + 1]!, ck = 3 * t.atoms[4 * m + 2]!;
    const cl = 3 * t.atoms[4 * m + 3]!;
    const ax = x[cj]! - x[ci]!, ay = x[cj + 1]! - x[ci + 1]!, az = x[cj + 2]! - x[ci + 2]!;
    const bx = x[ck]! - x[ci]!, by = x[ck + 1]! - x[ci + 1]!, bz = x[ck + 2]! - x[ci + 2]!;
    const ux = x[cl]! - x[ci]!, uy = x[cl + 1]! - x[ci + 1]!, uz = x[cl + 2]! - x[ci + 2]!;
    const wx = ay * bz - az * by, wy = az * bx - ax * bz, wz = ax * by - ay * bx;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
    if (wl < 1e-12 || ul < 1e-12) continue;
    const triple = wx * ux + wy * uy + wz * uz;
    const sin = Math.max(-1, Math.min(1, triple / (wl * ul)));
    const cos = Math.sqrt(Math.max(1e-12, 1 - sin * sin));
    const k = t.k[m]!;
    e += k * (1 - cos);
    if (!grad) continue;
    const dEds = (k * sin) / cos;
    // ds/du and ds/dw, then chain through w = a × b.
    const f1 = 1 / (wl * ul);
    const du = triple / (wl * ul * ul * ul);
    const dw = triple / (wl * wl * wl * ul);
    const sux = f1 * wx - du * ux, suy = f1 * wy - du * uy, suz = f1 * wz - du * uz;
    const swx = f1 * ux - dw * wx, swy = f1 * uy - dw * wy, swz = f1 * uz - dw * wz;
    // d(w·v)/da = b × v ; d(w·v)/db = v × a
    const sax = by * swz - bz * swy, say = bz * swx - bx * swz, saz = bx * swy - by * swx;
    const sbx = swy * az - swz * ay, sby = swz * ax - swx * az, sbz = swx * ay - swy * ax;
    grad[cj] = grad[cj]! + dEds * sax;
    grad[cj + 1] = grad[cj + 1]! + dEds * say;
    grad[cj + 2] = grad[cj + 2]! + dEds * saz;
    grad[ck] = grad[ck]! + dEds * sbx;
    grad[ck + 1] = grad[ck + 1]! + dEds * sby;
    grad[ck + 2] = grad[ck + 2]! + dEds * sbz;
    grad[cl] = grad[cl]! + dEds * sux;
    grad[cl + 1] = grad[cl + 1]! + dEds * suy;
    grad[cl + 2] = grad[cl + 2]! + dEds * suz;
    grad[ci] = grad[ci]! - dEds * (sax + sbx + sux);
    grad[ci + 1] = grad[ci + 1]! - dEds * (say + sby + suy);
    grad[ci + 2] = grad[ci + 2]! - dEds * (saz + sbz + suz);
  }
  return e;
}

/** The two parts of {@link nonbondedEnergy}, kcal/mol. */
export interface NonbondedParts {
  vdw: number;
  electrostatic: number;
}

/**
 * The non-bonded pairs: Lennard-Jones 12-6, D0 [(R0/r)^12 − 2 (R0/r)^6], plus Coulomb, qq / r. One pass over the
 * pairs serves both, since they share the distance; `parts`, when given, receives each.
 *
 * @example
 * ```ts
 * nonbondedEnergy(ff.pairs, x, grad);
 * ```
 */
export function nonbondedEnergy(
  t: PairTerms,
  x: Float64Array,
  grad?: Float64Array,
  parts?: NonbondedParts,
): number {
  let vdw = 0;
  let coulomb = 0;
  for (let m = 0; m < t.d0.length; m++) {
    const i = 3 * t.atoms[2 * m]!;
    const j = 3 * t.atoms[2 * m + 1]!;
    const dx = x[i]! - x[j]!;
    const dy = x[i + 1]! - x[j + 1]!;
    const dz = x[i + 2]! - x[j + 2]!;
    const r2 = Math.max(dx * dx + dy * dy + dz * dz, 1e-6);
    const s2 = (t.r0[m]! * t.r0[m]!) / r2;
    const s6 = s2 * s2 * s2;
    const d0 = t.d0[m]!;
    const qr = t.qq[m]! / Math.sqrt(r2);
    vdw += d0 * (s6 * s6 - 2 * s6);
    coulomb += qr;
    if (grad) {
      // dE/dr · (1/r) = 12 D0 (s6 − s12) / r² − (qq / r) / r²
      const f = (12 * d0 * (s6 - s6 * s6) - qr) / r2;
      addPair(grad, i, j, f * dx, f * dy, f * dz);
    }
  }
  if (parts) {
    parts.vdw = vdw;
    parts.electrostatic = coulomb;
  }
  return vdw + coulomb;
}

/**
 * Adds (gx, gy, gz) to the gradient of the atom at offset i (= 3·index) and subtracts it from the atom at offset j.
 *
 * @example
 * ```ts
 * addPair(grad, 3 * i, 3 * j, fx, fy, fz);
 * ```
 */
export function addPair(grad: Float64Array, i: number, j: number, gx: number, gy: number, gz: number): void {
  grad[i] = grad[i]! + gx;
  grad[i + 1] = grad[i + 1]! + gy;
  grad[i + 2] = grad[i + 2]! + gz;
  grad[j] = grad[j]! - gx;
  grad[j + 1] = grad[j + 1]! - gy;
  grad[j + 2] = grad[j + 2]! - gz;
}

/**
 * Adds factor × dφ/dx to the gradient of atoms a, b, c, d (indices), the 12 derivatives being in `dphi` as
 * {@link dihedral} writes them.
 *
 * @example
 * ```ts
 * const phi = dihedral(x, a, b, c, d, dphi);
 * addFour(grad, a, b, c, d, dEdPhi, dphi);
 * ```
 */
export function addFour(
  grad: Float64Array,
  a: number,
  b: number,
  c: number,
  d: number,
  factor: number,
  dphi: Float64Array,
): void {
  addAtom(grad, 3 * a, factor, dphi, 0);
  addAtom(grad, 3 * b, factor, dphi, 3);
  addAtom(grad, 3 * c, factor, dphi, 6);
  addAtom(grad, 3 * d, factor, dphi, 9);
}

function addAtom(grad: Float64Array, o: number, factor: number, dphi: Float64Array, k: number): void {
  grad[o] = grad[o]! + factor * dphi[k]!;
  grad[o + 1] = grad[o + 1]! + factor * dphi[k + 1]!;
  grad[o + 2] = grad[o + 2]! + factor * dphi[k + 2]!;
}
