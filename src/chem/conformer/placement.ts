/**
 * Rule-based initial 3D placement.
 *
 * 1. Heavy atoms take RDKit's 2D depiction (rings drawn as regular rings, chains as extended zig-zags, double
 *    bonds with their drawn E/Z), scaled so the mean bond is 1.45 Å.
 * 2. Saturated ring atoms are lifted alternately ±0.25 Å around each ring (a chair for six-membered rings), and
 *    every heavy atom gets a small deterministic jitter so no symmetric saddle point survives.
 * 3. Hydrogens are placed by ideal geometry around their heavy atom (tetrahedral, trigonal or linear by DREIDING
 *    type) at the DREIDING bond length, staggered against a neighbour's substituent, and mirrored where a
 *    stereocentre needs the other hand.
 *
 * @module
 */
import type { MolGraph } from "./graph.ts";
import { bondLength, type DreidingType, hybridOf } from "./parameters.ts";
import { signedVolume, type StereoTargets, type TetraTarget } from "./stereo.ts";

/** Mean bond length the 2D layout is scaled to, Å (between the DREIDING C_R–C_R and C_3–C_3 lengths). */
const LAYOUT_BOND = 1.45;
/** Out-of-plane offset of saturated ring atoms, Å. */
const RING_PUCKER = 0.25;
/** Amplitude of the deterministic symmetry-breaking jitter, Å. */
const JITTER = 0.05;

/** A 3D vector. */
export type Vec = [number, number, number];

/**
 * Deterministic pseudo-random numbers in [0, 1) (mulberry32), so the same input always gives the same output.
 *
 * @example
 * ```ts
 * const rand = seededRandom(42); rand(); // same value every run
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Initial coordinates (flat [x0, y0, z0, …], Å) from 2D layout coordinates of the heavy atoms.
 *
 * @example
 * ```ts
 * const x = initialCoordinates(graph, types, layout2d, targets, 1);
 * ```
 */
export function initialCoordinates(
  g: MolGraph,
  types: readonly DreidingType[],
  layout: readonly (readonly [number, number] | null)[],
  targets: StereoTargets,
  seed: number,
): Float64Array {
  const n = g.atoms.length;
  const x = new Float64Array(3 * n);
  const placed = new Uint8Array(n);
  const byRule = g.atoms.map((a, i) =>
    a.z === 1 && g.neighbors[i]!.length === 1 && g.atoms[g.neighbors[i]![0]!]!.z !== 1
  );
  const scale = layoutScale(g, layout, byRule);
  const rand = seededRandom(seed);
  const pucker = ringPucker(g, types);
  for (let i = 0; i < n; i++) {
    if (byRule[i]) continue;
    const p = layout[i] ?? [0, 0];
    x[3 * i] = p[0] * scale + JITTER * (rand() - 0.5);
    x[3 * i + 1] = p[1] * scale + JITTER * (rand() - 0.5);
    x[3 * i + 2] = (pucker[i] ?? 0) + JITTER * (rand() - 0.5);
    placed[i] = 1;
  }
  const centreTargets = new Map<number, TetraTarget>(targets.tetrahedral.map((t) => [t.centre, t]));
  for (let i = 0; i < n; i++) {
    if (byRule[i]) continue;
    const hs = g.neighbors[i]!.filter((j) => byRule[j] && !placed[j]);
    if (hs.length > 0) placeHydrogens(g, types, x, placed, i, hs, centreTargets.get(i));
  }
  return x;
}

/** Factor that brings the mean 2D bond length among laid-out atoms to {@link LAYOUT_BOND}. */
function layoutScale(
  g: MolGraph,
  layout: readonly (readonly [number, number] | null)[],
  byRule: boolean[],
): number {
  let sum = 0;
  let count = 0;
  for (const bond of g.bonds) {
    if (byRule[bond.a] || byRule[bond.b]) continue;
    const p = layout[bond.a];
    const q = layout[bond.b];
    if (!p || !q) continue;
    const l = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (l > 1e-6) {
      sum += l;
      count++;
    }
  }
  return count > 0 ? LAYOUT_BOND / (sum / count) : 1;
}

/** Alternating out-of-plane offsets for sp3 ring atoms, smaller rings first; shared atoms keep their first value. */
function ringPucker(g: MolGraph, types: readonly DreidingType[]): (number | undefined)[] {
  const z: (number | undefined)[] = new Array(g.atoms.length);
  const rings = [...g.rings].sort((a, b) => a.length - b.length);
  for (const ring of rings) {
    if (ring.length < 4) continue;
    ring.forEach((atom, k) => {
      if (z[atom] === undefined && hybridOf(types[atom]!) === "3") {
        z[atom] = k % 2 === 0 ? RING_PUCKER : -RING_PUCKER;
      }
    });
  }
  return z;
}

/** Electron domains around an atom by its DREIDING geometry. */
function domains(type: DreidingType): number {
  const h = hybridOf(type);
  return h === "1" ? 2 : h === "2" || h === "R" ? 3 : 4;
}

function placeHydrogens(
  g: MolGraph,
  types: readonly DreidingType[],
  x: Float64Array,
  placed: Uint8Array,
  centre: number,
  hs: number[],
  target: TetraTarget | undefined,
): void {
  const p = at(x, centre);
  const heavy = g.neighbors[centre]!.filter((j) => placed[j]);
  const units = heavy.map((j) => unit(sub(at(x, j), p)));
  const ref = referenceDirection(g, x, placed, centre, heavy);
  const dirs = hydrogenDirections(domains(types[centre]!), units, ref, hs.length);
  hs.forEach((h, k) => {
    const d = dirs[k] ?? dirs[0]!;
    const len = bondLength(types[centre]!, types[h]!);
    set(x, h, add(p, scale(d, len)));
    placed[h] = 1;
  });
  if (target && !handIsRight(x, target)) mirrorHydrogens(x, centre, hs, units);
}

/** True when the centre's signed volume already has the requested sign. */
function handIsRight(x: Float64Array, t: TetraTarget): boolean {
  return t.sign * signedVolume(x, t.apex, t.atoms[0], t.atoms[1], t.atoms[2]) > 0;
}

/** Changes the hand of a centre by moving only its hydrogens. */
function mirrorHydrogens(x: Float64Array, centre: number, hs: number[], units: Vec[]): void {
  const p = at(x, centre);
  if (hs.length >= 2) {
    const a = at(x, hs[0]!);
    set(x, hs[0]!, at(x, hs[1]!));
    set(x, hs[1]!, a);
    return;
  }
  const h = hs[0]!;
  const v = sub(at(x, h), p);
  const normal = units.length >= 3 ? planeNormal(units[0]!, units[1]!, units[2]!) : null;
  // Reflect through the plane of the heavy neighbours (or simply invert when there is no such plane).
  const reflected = normal ? sub(v, scale(normal, 2 * dot(v, normal))) : scale(v, -1);
  set(x, h, add(p, reflected));
}

/** A direction perpendicular to the first heavy bond, anti to a substituent of that neighbour when one exists. */
function referenceDirection(
  g: MolGraph,
  x: Float64Array,
  placed: Uint8Array,
  centre: number,
  heavy: number[],
): Vec {
  const p = at(x, centre);
  const q = heavy[0];
  if (q !== undefined) {
    const u = unit(sub(at(x, q), p));
    const r = g.neighbors[q]!.find((k) => k !== centre && placed[k]);
    if (r !== undefined) {
      const w = perpendicular(sub(at(x, r), at(x, q)), u);
      if (w) return scale(w, -1);
    }
    return anyPerpendicular(u);
  }
  return [0, 0, 1];
}

/**
 * Unit directions for `count` hydrogens on an atom with `total` electron domains and bonds `units` already
 * placed; `ref` is a unit vector perpendicular to the first bond used to fix the rotation.
 *
 * @example
 * ```ts
 * hydrogenDirections(4, [[1, 0, 0]], [0, 1, 0], 3); // the three H directions of a methyl group
 * ```
 */
export function hydrogenDirections(total: number, units: Vec[], ref: Vec, count: number): Vec[] {
  const k = units.length;
  if (k === 0) return firstShell(total).slice(0, count);
  const u = units[0]!;
  if (total === 2) return [scale(u, -1)];
  if (k === 1) {
    const angle = total === 3 ? (2 * Math.PI) / 3 : Math.acos(-1 / 3);
    const e2 = cross(u, ref);
    const steps = total === 3 ? [0, Math.PI] : [0, (2 * Math.PI) / 3, (4 * Math.PI) / 3];
    return steps.map((phi) =>
      add(
        scale(u, Math.cos(angle)),
        scale(add(scale(ref, Math.cos(phi)), scale(e2, Math.sin(phi))), Math.sin(angle)),
      )
    );
  }
  const sum = units.reduce((acc, v) => add(acc, v), [0, 0, 0] as Vec);
  if (k === 2) {
    const bisector = norm(sum) > 1e-3 ? unit(scale(sum, -1)) : anyPerpendicular(u);
    if (total === 3) return [bisector];
    const normal = norm(cross(units[0]!, units[1]!)) > 1e-3
      ? unit(cross(units[0]!, units[1]!))
      : anyPerpendicular(bisector);
    const half = Math.acos(-1 / 3) / 2;
    return [
      add(scale(bisector, Math.cos(half)), scale(normal, Math.sin(half))),
      add(scale(bisector, Math.cos(half)), scale(normal, -Math.sin(half))),
    ];
  }
  // Three or more bonds: opposite their sum, or out of their plane when they are (nearly) coplanar.
  if (norm(sum) > 0.3) return [unit(scale(sum, -1))];
  return [planeNormal(units[0]!, units[1]!, units[2]!)];
}

/** Directions for an atom with no placed neighbour. */
function firstShell(total: number): Vec[] {
  if (total === 2) return [[1, 0, 0], [-1, 0, 0]];
  if (total === 3) return [[1, 0, 0], [-0.5, Math.sqrt(3) / 2, 0], [-0.5, -Math.sqrt(3) / 2, 0]];
  const s = 1 / Math.sqrt(3);
  return [[s, s, s], [s, -s, -s], [-s, s, -s], [-s, -s, s]];
}

function planeNormal(a: Vec, b: Vec, c: Vec): Vec {
  const n = cross(sub(b, a), sub(c, a));
  return norm(n) > 1e-9 ? unit(n) : [0, 0, 1];
}

/** Component of v perpendicular to unit u, normalised; null when v is (anti)parallel to u. */
function perpendicular(v: Vec, u: Vec): Vec | null {
  const w = sub(v, scale(u, dot(v, u)));
  return norm(w) > 1e-6 ? unit(w) : null;
}

function anyPerpendicular(u: Vec): Vec {
  return perpendicular([0, 0, 1], u) ?? perpendicular([1, 0, 0], u)!;
}

function at(x: Float64Array, i: number): Vec {
  return [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
}
function set(x: Float64Array, i: number, v: Vec): void {
  x[3 * i] = v[0];
  x[3 * i + 1] = v[1];
  x[3 * i + 2] = v[2];
}
function add(a: Vec, b: Vec): Vec {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
function sub(a: Vec, b: Vec): Vec {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function scale(a: Vec, s: number): Vec {
  return [a[0] * s, a[1] * s, a[2] * s];
}
function dot(a: Vec, b: Vec): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function cross(a: Vec, b: Vec): Vec {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function norm(a: Vec): number {
  return Math.sqrt(dot(a, a));
}
function unit(a: Vec): Vec {
  const l = norm(a);
  return l > 1e-12 ? scale(a, 1 / l) : [1, 0, 0];
}
