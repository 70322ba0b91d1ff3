/**
 * Angle-specific equilibrium angles θ0 where DREIDING's one angle per centre type is known to be off.
 *
 * DREIDING (Mayo, Olafson & Goddard, J. Phys. Chem. 1990, 94, 8897) gives every angle at a centre the centre
 * type's θ0, whatever the ends and rings: 109.47° in a cyclopropane or cyclobutane, 120° inside a furan, 180° at
 * a perchlorate chlorine (DREIDING has only a terminal chlorine). MMFF94 (T. A. Halgren, J. Comput. Chem. 1996,
 * 17, 490–519, parameter file MMFFANG.PAR) sets θ0 per triple of MMFF94 atom types, with its own angle types for
 * three- and four-membered rings, and an empirical rule where the file has no entry.
 *
 * Here an angle is classed by the environments of its three atoms (./bond_lengths.ts `environment`: the DREIDING
 * type, with sulfonyl, sulfinyl and phosphoryl S and P and formal charges apart; the two resonance-equivalent
 * oxygens of a carboxylate, nitro group, sulfonate or phosphate alike; amide-type N_R apart from anilines,
 * enamines and amidines, see {@link AMIDE_NITROGEN}) and by the size of the
 * smallest ring through all three (3 to 6; larger rings and chains count as open, and an open angle at an atom of
 * a three- or four-membered ring has a tag of its own), and most specifically by the
 * centre's other neighbours too. A class's θ0 is fitted to MMFF94's structures: the mean angle of the class in
 * RDKit's ETKDG + MMFF94 structures of the oracle's training molecules (tests/data/reference/geometry.json,
 * outside the subset the tests compare), or, for a class with fewer than three training angles, MMFF94's own θ0
 * for it (MMFFANG.PAR; only where MMFF94 gives the whole class one θ0 within 5°), then corrected for what the rest
 * of this force field does to the angle
 * (table in ../data/mmff_geometry.ts, written by scripts/mmff_geometry.ts, which says how). Lookup goes from the most
 * specific key to the centre alone (same ring size), then to DREIDING's θ0 (60° and 90° inside three- and
 * four-membered rings).
 *
 * @module
 */
import { environment, resonanceEquivalentOxygen } from "./bond_lengths.ts";
import { doubleBonded, type MolGraph } from "./graph.ts";
import { type DreidingType, VALENCE } from "./parameters.ts";
import { MMFF_ANGLES } from "../data/mmff_geometry.ts";

/** Citation of MMFF94's angle parameters. */
export const MMFF94_ANGLE_REFERENCE = "Halgren, J. Comput. Chem. 1996, 17, 490-519 (MMFFANG.PAR)";

/** Rings larger than this count as open chains (their angles are not set by the ring). */
const LARGEST_RING = 6;

/**
 * Size of the smallest ring in which i–j–k are three consecutive atoms (3–6), or 0.
 *
 * @example
 * ```ts
 * angleRing(graph, 1, 0, 2); // 3 for a cyclopropane angle
 * ```
 */
export function angleRing(g: MolGraph, i: number, j: number, k: number): number {
  return ringAngles(g).get(i < k ? `${i},${j},${k}` : `${k},${j},${i}`) ?? 0;
}

const RING_ANGLES = new WeakMap<MolGraph, Map<string, number>>();

/** Smallest ring size (3–6) of every angle that lies in one, keyed "end,centre,end" with the smaller end first. */
function ringAngles(g: MolGraph): Map<string, number> {
  const cached = RING_ANGLES.get(g);
  if (cached) return cached;
  const map = new Map<string, number>();
  for (const ring of g.rings) {
    if (ring.length > LARGEST_RING) continue;
    ring.forEach((j, p) => {
      const a = ring[(p + ring.length - 1) % ring.length]!;
      const b = ring[(p + 1) % ring.length]!;
      const key = a < b ? `${a},${j},${b}` : `${b},${j},${a}`;
      map.set(key, Math.min(map.get(key) ?? Infinity, ring.length));
    });
  }
  RING_ANGLES.set(g, map);
  return map;
}

const ENVIRONMENTS = new WeakMap<MolGraph, string[]>();

/**
 * The label of a terminal oxygen that resonance makes equivalent to another (carboxylate, nitro, sulfonate,
 * phosphate): O_2 and O_3− there are one Kekulé form, and MMFF94 types both oxygens alike.
 */
export const RESONANCE_OXYGEN = "O_2/O_3-";

/**
 * The label of an amide-type nitrogen: a non-aromatic N_R bonded to a carbonyl or thiocarbonyl carbon or to a
 * doubly bonded nitrogen (amides, ureas, carbamates, hydrazides, hydrazones), MMFF94's atom type 10 (NC=O, NC=S,
 * NN=C, NN=N). Its lone pair is delocalised into that π bond and the nitrogen is planar; an N_R bonded only to an
 * aryl ring, a C=C or a C=N (anilines, enamines, amidines: MMFF94's type 40, NC=C) is pyramidal in MMFF94's
 * structures (angle sum about 335–345°), and DREIDING types both N_R.
 */
export const AMIDE_NITROGEN = "N_R(am)";

/** True for a non-aromatic N_R of the amide type ({@link AMIDE_NITROGEN}). */
export function amideNitrogen(g: MolGraph, types: readonly DreidingType[], i: number): boolean {
  if (types[i] !== "N_R" || g.atoms[i]!.aromatic) return false;
  return g.neighbors[i]!.some((j) => {
    const symbol = g.atoms[j]!.symbol;
    if (symbol !== "C" && symbol !== "N") return false;
    return doubleBonded(g, j).some((k) => {
      const other = g.atoms[k]!.symbol;
      return symbol === "C" ? other === "O" || other === "S" : other === "C" || other === "N";
    });
  });
}

/**
 * The environment label of every atom (./bond_lengths.ts; {@link RESONANCE_OXYGEN} and {@link AMIDE_NITROGEN}
 * apart), once per graph.
 */
function environments(g: MolGraph, types: readonly DreidingType[]): string[] {
  const cached = ENVIRONMENTS.get(g);
  if (cached) return cached;
  const list = g.atoms.map((_, i) =>
    resonanceEquivalentOxygen(g, i)
      ? RESONANCE_OXYGEN
      : amideNitrogen(g, types, i)
      ? AMIDE_NITROGEN
      : environment(g, types, i)
  );
  ENVIRONMENTS.set(g, list);
  return list;
}

/**
 * The five lookup keys of an angle, most specific first: ends and the centre's other neighbours by environment
 * (what sits on the centre shifts its angles: the ipso angle of a substituted benzene, H–C–H in CH3 against CH2),
 * then ends by environment, the same class from MMFF94's θ0 (for classes the training structures have too few
 * angles of), ends by element, the centre alone; each with the ring size.
 *
 * @example
 * ```ts
 * angleKeys(graph, types, 1, 0, 2);
 * // e.g. ["H_ C_3 H_ r0 [C_3]", "H_ C_3 H_ r0", "θ0 H_ C_3 H_ r0", "H C_3 H r0", "C_3 r0"]
 * ```
 */
export function angleKeys(
  g: MolGraph,
  types: readonly DreidingType[],
  i: number,
  j: number,
  k: number,
): [string, string, string, string, string] {
  const ring = ringTag(g, j, angleRing(g, i, j, k));
  const env = environments(g, types);
  const centre = env[j]!;
  const [a, b] = [env[i]!, env[k]!].sort();
  const [ea, eb] = [g.atoms[i]!.symbol, g.atoms[k]!.symbol].sort();
  const others = g.neighbors[j]!.filter((n) => n !== i && n !== k).map((n) => env[n]!).sort();
  const ends = `${a} ${centre} ${b} ${ring}`;
  return [
    `${ends} [${others.join(" ")}]`,
    ends,
    `${THETA0_PREFIX}${ends}`,
    `${ea} ${centre} ${eb} ${ring}`,
    `${centre} ${ring}`,
  ];
}

/**
 * The ring part of an angle's key: `rN` for an angle inside a ring of N atoms (3–6), `r0` for an open one, and
 * `r0@3` or `r0@4` for an open angle at an atom of a three- or four-membered ring, whose exocyclic angles open
 * wide to make room for the small ring angle (about 118° at a cyclopropane carbon, 130° at an azetidine nitrogen).
 */
function ringTag(g: MolGraph, centre: number, ring: number): string {
  if (ring !== 0) return `r${ring}`;
  const small = Math.min(...g.rings.filter((r) => r.length <= 4 && r.includes(centre)).map((r) => r.length));
  return Number.isFinite(small) ? `r0@${small}` : "r0";
}

/**
 * The planarity class of a trivalent nitrogen (see ../data/mmff_geometry.ts `NITROGEN_ANGLE_SUMS`): its
 * environment, RDKit's aromatic flag ({@link aromaticFlag}: rings with an exocyclic double bond, such as pyridones
 * and pyrazolones, are not aromatic in MMFF94), the smallest ring through two of its bonds, and its neighbours'
 * environments (aromatic ones starred).
 *
 * @example
 * ```ts
 * nitrogenKey(graph, types, 5); // e.g. "N_R(am) r0 [C_2 C_3 H_HB]" for an amide NH
 * ```
 */
export function nitrogenKey(g: MolGraph, types: readonly DreidingType[], i: number): string {
  const env = environments(g, types);
  const flag = g.atoms[i]!.aromatic ? aromaticFlag(g, i) : "";
  const nbrs = g.neighbors[i]!;
  let ring = 0;
  for (let a = 0; a < nbrs.length; a++) {
    for (let b = a + 1; b < nbrs.length; b++) {
      const r = angleRing(g, nbrs[a]!, i, nbrs[b]!);
      if (r > 0 && (ring === 0 || r < ring)) ring = r;
    }
  }
  const others = nbrs.map((n) => env[n]! + (g.atoms[n]!.aromatic ? "*" : "")).sort();
  return `${env[i]}${flag} r${ring} [${others.join(" ")}]`;
}

/**
 * True when atom i is aromatic as MMFF94 has it: RDKit's flag, except in a ring with an exocyclic double bond
 * (a pyridone, a pyrazolone).
 *
 * @example
 * ```ts
 * mmffAromatic(graph, 0); // false for antipyrine's N-methyl nitrogen, true for pyridine's
 * ```
 */
export function mmffAromatic(g: MolGraph, i: number): boolean {
  return g.atoms[i]!.aromatic && aromaticFlag(g, i) === "(ar)";
}

/**
 * The aromatic flag of nitrogen i in a {@link nitrogenKey} key: `(ar)`, or, in an all-aromatic ring of which an
 * atom carries a non-aromatic double bond out of the ring, `(ar=am)` when i is bonded to such an atom (the
 * nitrogen of a pyridone's or pyrazolone's N–C=O) and `(ar=)` when not (a pyrazolone's other nitrogen).
 */
function aromaticFlag(g: MolGraph, i: number): string {
  const exo = g.bonds.filter((b) => b.kekule === 2 && !b.aromatic);
  const carriers = new Set<number>();
  for (const ring of g.rings) {
    if (!ring.includes(i) || !ring.every((a) => g.atoms[a]!.aromatic)) continue;
    for (const b of exo) {
      if (ring.includes(b.a) !== ring.includes(b.b)) carriers.add(ring.includes(b.a) ? b.a : b.b);
    }
  }
  if (carriers.size === 0) return "(ar)";
  return g.neighbors[i]!.some((n) => carriers.has(n)) ? "(ar=am)" : "(ar=)";
}

/** Prefix of the keys whose θ0 starts from MMFF94's own reference angle (MMFFANG.PAR), see {@link angleKeys}. */
export const THETA0_PREFIX = "θ0 ";

/**
 * θ0 of angle i–j–k in degrees (see the module text).
 *
 * @example
 * ```ts
 * naturalAngle(graph, types, 1, 0, 2); // about 60 in a cyclopropane, 109.47 (DREIDING) for ethane's H–C–H
 * ```
 */
export function naturalAngle(
  g: MolGraph,
  types: readonly DreidingType[],
  i: number,
  j: number,
  k: number,
): number {
  for (const key of angleKeys(g, types, i, j, k)) {
    const theta = MMFF_ANGLES[key];
    if (theta !== undefined) return theta;
  }
  const ring = angleRing(g, i, j, k);
  return ring === 3 ? 60 : ring === 4 ? 90 : VALENCE[types[j]!].theta;
}
