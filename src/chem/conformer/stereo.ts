/**
 * Stereochemistry targets read from the SMILES (RDKit chiral tags and double-bond cis/trans flags) and their
 * check on 3D coordinates by signed volumes and dihedral angles.
 *
 * RDKit's tag `ccw` on an atom with neighbours n0, n1, n2, n3 (bond order) means: seen from n0, n1 → n2 → n3 turn
 * counter-clockwise, i.e. det(n1 − c, n2 − c, n3 − c) < 0. With three neighbours the missing fourth (an implicit
 * lone pair) counts as the last one, so `ccw` means det(n0 − c, n1 − c, n2 − c) > 0.
 *
 * A four-coordinate centre is judged by the tetrahedron of its four neighbours, det(n1 − n0, n2 − n0, n3 − n0),
 * which has the sign of det(n1 − c, n2 − c, n3 − c) at any tetrahedral centre (four times it at an ideal one) but
 * does not depend on where the centre sits: the centre-based volume of three neighbours shrinks to a fraction of
 * an ångström cubed in a three-membered ring (an epoxide carbon in MMFF94: 0.86–0.96 Å³) and changes sign when the
 * centre alone slips through the plane of those three, while the neighbour tetrahedron of every stereocentre in
 * RDKit's MMFF94 structures of the stereo set keeps at least 74 % of its ideal volume, epoxides included. This is
 * the chiral volume of distance geometry (Crippen & Havel, "Distance Geometry and Molecular Conformation", 1988),
 * which RDKit's embedding restrains too. Every requirement is therefore stated as the sign of
 * det(a − p, b − p, d − p) for an apex p: the first neighbour at four-coordinate centres, the centre itself at
 * three-coordinate ones.
 *
 * @module
 */
import { dihedral } from "./energy.ts";
import type { MolGraph } from "./graph.ts";

/** A tetrahedral centre: det(a − p, b − p, d − p) for apex p and atoms [a, b, d] must have sign `sign`. */
export interface TetraTarget {
  readonly centre: number;
  /** The first neighbour at a four-coordinate centre, the centre itself at a three-coordinate one. */
  readonly apex: number;
  readonly atoms: readonly [number, number, number];
  readonly sign: 1 | -1;
  /** |det| of the same atoms at ideal tetrahedral directions and the bonds' natural lengths, Å³. */
  readonly idealVolume: number;
}

/** A stereo double bond a–b=c–d whose reference substituents a and d must be cis or trans. */
export interface DoubleBondTarget {
  readonly atoms: readonly [number, number, number, number];
  readonly cis: boolean;
}

/** All stereo requirements of a molecule. */
export interface StereoTargets {
  readonly tetrahedral: readonly TetraTarget[];
  readonly doubleBonds: readonly DoubleBondTarget[];
}

/**
 * Reads the stereo requirements encoded in the graph; `bondLength(centre, neighbour)` gives the natural length
 * of a bond in Å (for the ideal volumes; 1.5 Å when not given).
 *
 * @example
 * ```ts
 * stereoTargets(graph).tetrahedral.length; // 1 for F[C@H](Cl)Br
 * ```
 */
export function stereoTargets(
  g: MolGraph,
  bondLength: (centre: number, neighbour: number) => number = () => 1.5,
): StereoTargets {
  const tetrahedral: TetraTarget[] = [];
  g.atoms.forEach((atom, c) => {
    if (!atom.chiral) return;
    const n = g.neighbors[c]!;
    const ccw = atom.chiral === "ccw";
    const lengths = n.map((j) => bondLength(c, j));
    if (n.length === 4) {
      tetrahedral.push({
        centre: c,
        apex: n[0]!,
        atoms: [n[1]!, n[2]!, n[3]!],
        sign: ccw ? -1 : 1,
        idealVolume: idealVolume(lengths, true),
      });
    } else if (n.length === 3) {
      tetrahedral.push({
        centre: c,
        apex: c,
        atoms: [n[0]!, n[1]!, n[2]!],
        sign: ccw ? 1 : -1,
        idealVolume: idealVolume(lengths, false),
      });
    }
  });
  const doubleBonds: DoubleBondTarget[] = [];
  for (const bond of g.bonds) {
    if (!bond.stereo) continue;
    let [p, q] = bond.stereo.atoms;
    // RDKit lists the reference atom of the first bond atom first; be robust to either order.
    if (!g.neighbors[bond.a]!.includes(p)) [p, q] = [q, p];
    if (!g.neighbors[bond.a]!.includes(p) || !g.neighbors[bond.b]!.includes(q)) continue;
    doubleBonds.push({ atoms: [p, bond.a, bond.b, q], cis: bond.stereo.kind === "cis" });
  }
  return { tetrahedral, doubleBonds };
}

/** Unit vectors to the corners of a regular tetrahedron around the origin. */
const TETRAHEDRON = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]].map((v) =>
  v.map((c) => c / Math.sqrt(3))
);

/** |det| of the target's atoms placed along ideal tetrahedral directions at the given bond lengths, Å³. */
function idealVolume(lengths: readonly number[], neighbourApex: boolean): number {
  const p = lengths.map((r, k) => TETRAHEDRON[k]!.map((c) => c * r));
  const o = neighbourApex ? p[0]! : [0, 0, 0];
  const [a, b, d] = (neighbourApex ? p.slice(1, 4) : p.slice(0, 3)).map((v) => v.map((c, k) => c - o[k]!));
  return Math.abs(
    a![0]! * (b![1]! * d![2]! - b![2]! * d![1]!) - a![1]! * (b![0]! * d![2]! - b![2]! * d![0]!) +
      a![2]! * (b![0]! * d![1]! - b![1]! * d![0]!),
  );
}

/**
 * det(a − c, b − c, d − c) in Å³ for atom indices into flat coordinates.
 *
 * @example
 * ```ts
 * signedVolume(x, 1, 0, 2, 3);
 * ```
 */
export function signedVolume(x: Float64Array, c: number, a: number, b: number, d: number): number {
  const o = 3 * c;
  const ax = x[3 * a]! - x[o]!, ay = x[3 * a + 1]! - x[o + 1]!, az = x[3 * a + 2]! - x[o + 2]!;
  const bx = x[3 * b]! - x[o]!, by = x[3 * b + 1]! - x[o + 1]!, bz = x[3 * b + 2]! - x[o + 2]!;
  const dx = x[3 * d]! - x[o]!, dy = x[3 * d + 1]! - x[o + 1]!, dz = x[3 * d + 2]! - x[o + 2]!;
  return ax * (by * dz - bz * dy) - ay * (bx * dz - bz * dx) + az * (bx * dy - by * dx);
}

/** Which targets the coordinates violate (indices into the target lists). */
export interface StereoCheck {
  readonly wrongCentres: readonly number[];
  readonly wrongDoubleBonds: readonly number[];
}

/** A centre counts as set when its signed volume has the right sign and at least this fraction of the ideal one. */
const MIN_VOLUME_FRACTION = 0.05;

/**
 * Checks every stereo target on the coordinates.
 *
 * @example
 * ```ts
 * const { wrongCentres } = checkStereo(x, targets);
 * ```
 */
export function checkStereo(x: Float64Array, targets: StereoTargets): StereoCheck {
  const wrongCentres: number[] = [];
  targets.tetrahedral.forEach((t, i) => {
    const v = signedVolume(x, t.apex, t.atoms[0], t.atoms[1], t.atoms[2]);
    if (t.sign * v < MIN_VOLUME_FRACTION * t.idealVolume) wrongCentres.push(i);
  });
  const wrongDoubleBonds: number[] = [];
  targets.doubleBonds.forEach((t, i) => {
    const phi = dihedral(x, t.atoms[0], t.atoms[1], t.atoms[2], t.atoms[3]);
    if ((Math.cos(phi) > 0) !== t.cis) wrongDoubleBonds.push(i);
  });
  return { wrongCentres, wrongDoubleBonds };
}
