/**
 * Unfolded Morgan (ECFP-like) environment identifiers, computed in TypeScript from an RDKit molecule.
 *
 * RDKit MinimalLib only returns folded Morgan bit vectors, but the SA score (Ertl & Schuffenhauer 2009) looks up
 * RDKit's raw 32-bit environment identifiers in its fragment table. This module re-implements the Morgan
 * algorithm (Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742, doi:10.1021/ci100050t) with the conventions of
 * RDKit's `MorganGenerator` (default settings: connectivity atom invariants with ring membership, bond-type
 * bond invariants, no chirality, duplicate environments removed), so that the identifiers equal RDKit's
 * `GetMorganGenerator(radius=2).GetSparseCountFingerprint(mol)` keys. Folding them modulo `nBits` reproduces
 * MinimalLib's `get_morgan_fp_as_uint8array` bits exactly (checked in tests/unit/morgan_test.ts).
 *
 * @module
 */
import { type Mol, rdkit } from "./rdkit.ts";
import type { RdkitJsonAtom } from "./rdkit_json.ts";
import { ChemError } from "../errors.ts";

/** One atom as the Morgan invariants need it. */
export interface MorganAtom {
  /** Atomic number (0 for a dummy atom). */
  readonly z: number;
  /** Hydrogens not present as graph atoms (RDKit `getTotalNumHs()`). */
  readonly hs: number;
  /** Formal charge. */
  readonly charge: number;
  /** Isotope mass number, 0 when unspecified. */
  readonly isotope: number;
  /** True when the atom belongs to at least one ring of RDKit's ring perception. */
  readonly inRing: boolean;
}

/** One bond: its two atoms and RDKit's `Bond::BondType` enum value. */
export interface MorganBond {
  readonly a: number;
  readonly b: number;
  readonly type: number;
}

/** The molecular graph a Morgan fingerprint is computed on. */
export interface MorganGraph {
  readonly atoms: readonly MorganAtom[];
  readonly bonds: readonly MorganBond[];
  /** Indices of bonds whose RDKit type the JSON does not say (written as order 0: zero-order, unspecified, …). */
  readonly ambiguousBonds: readonly number[];
  /** The rings RDKit's ring info lists (`AtomRings()`, atom indices), used by the SA score macrocycle term. */
  readonly rings: readonly (readonly number[])[];
}

/** One environment that contributes to the fingerprint. */
export interface MorganEnvironment {
  /** Unfolded 32-bit identifier (unsigned). */
  readonly id: number;
  /** Central atom index. */
  readonly atom: number;
  /** Radius of the environment (0, 1, 2, …). */
  readonly radius: number;
}

// RDKit Bond::BondType values (Code/GraphMol/Bond.h).
const BOND_AROMATIC = 12;
const BOND_ZERO = 21;
// Every BondType the JSON writer folds into order 0, most likely first (ZERO, UNSPECIFIED, then the rest).
const ORDER_ZERO_TYPES = [21, 0, 13, 14, 15, 16, 18, 19, 20, 5, 6, 7, 8, 9, 10, 11];
/** Bits of the check fingerprint: a prime, so ids that differ anywhere rarely fold together. */
const CHECK_BITS = 65_521;
const GOLDEN = 0x9e3779b9;

/** boost-style hash_combine on 32-bit unsigned seeds, as in RDKit's RDGeneral/hash/hash.hpp. */
function combine(seed: number, value: number): number {
  return (seed ^ ((value >>> 0) + GOLDEN + ((seed << 6) >>> 0) + (seed >>> 2))) >>> 0;
}

/** Hash of a (bond invariant, atom invariant) pair: RDKit hashes a std::pair by combining both into seed 0. */
function hashPair(bond: number, atom: number): number {
  return combine(combine(0, bond), atom);
}

interface RdkitJson {
  defaults?: { atom?: RdkitJsonAtom; bond?: { bo?: number } };
  molecules?: {
    atoms?: RdkitJsonAtom[];
    bonds?: { bo?: number; atoms: [number, number] }[];
    extensions?: { name?: string; aromaticBonds?: number[]; atomRings?: number[][] }[];
  }[];
}

/**
 * Reads the graph of an RDKit molecule from its RDKit JSON (atoms with total H counts, bonds with orders,
 * aromatic bonds and ring membership as RDKit perceived them).
 *
 * @example
 * ```ts
 * const graph = withMol("CCO", morganGraph); // graph.atoms.length === 3
 * ```
 */
export function morganGraph(mol: Mol): MorganGraph {
  const json = JSON.parse(mol.get_json()) as RdkitJson;
  const atomDefaults = json.defaults?.atom ?? {};
  const bondOrderDefault = json.defaults?.bond?.bo ?? 1;
  const molecule = json.molecules?.[0] ?? {};
  const ext = (molecule.extensions ?? []).find((e) => e.name === "rdkitRepresentation") ?? {};
  const rings = ext.atomRings ?? [];
  const ringAtoms = new Set(rings.flat());
  const aromatic = new Set(ext.aromaticBonds ?? []);
  const atoms = (molecule.atoms ?? []).map((raw, i): MorganAtom => {
    const atom = { ...atomDefaults, ...raw };
    return {
      z: atom.z ?? 6,
      hs: atom.impHs ?? 0,
      charge: atom.chg ?? 0,
      isotope: atom.isotope ?? 0,
      inRing: ringAtoms.has(i),
    };
  });
  const ambiguousBonds: number[] = [];
  const bonds = (molecule.bonds ?? []).map((raw, i): MorganBond => {
    const order = raw.bo ?? bondOrderDefault;
    if (order === 0 && !aromatic.has(i)) ambiguousBonds.push(i);
    // JSON orders 1-4 and 17 are RDKit's SINGLE..QUADRUPLE and DATIVE enum values; 0 is resolved later.
    return {
      a: raw.atoms[0],
      b: raw.atoms[1],
      type: aromatic.has(i) ? BOND_AROMATIC : order === 0 ? BOND_ZERO : order,
    };
  });
  return { atoms, bonds, ambiguousBonds, rings };
}

const massDeltaCache = new Map<string, number>();

/**
 * `int(mass(isotope) - standard atomic weight)` as RDKit computes it for the invariants, with RDKit's own
 * isotope table (a one-atom probe molecule, cached per isotope).
 */
function isotopeMassDelta(z: number, isotope: number): number {
  if (isotope === 0) return 0;
  const key = `${z}:${isotope}`;
  const cached = massDeltaCache.get(key);
  if (cached !== undefined) return cached;
  const delta = Math.trunc(probeMass(z, isotope) - probeMass(z, 0));
  massDeltaCache.set(key, delta);
  return delta;
}

/** Mass of one bare atom (isotope mass, or the standard atomic weight when isotope is 0). */
function probeMass(z: number, isotope: number): number {
  const json = JSON.stringify({
    rdkitjson: { version: 12 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
      bond: { bo: 1, stereo: "unspecified" },
    },
    molecules: [{ atoms: [{ z, isotope, impHs: 0 }], bonds: [] }],
  });
  const probe = rdkit().get_mol(json, JSON.stringify({ sanitize: false }));
  if (!probe) return 0;
  try {
    const d = JSON.parse(probe.get_descriptors()) as { exactmw?: number; amw?: number };
    return (isotope ? d.exactmw : d.amw) ?? 0;
  } finally {
    probe.delete();
  }
}

/**
 * RDKit's connectivity invariants (atomic number, total degree, total H count, formal charge, isotope mass
 * delta, ring membership), each hashed with boost's hash_range.
 */
export function connectivityInvariants(graph: MorganGraph): Uint32Array {
  const n = graph.atoms.length;
  const degree = new Uint32Array(n);
  const hNeighbours = new Uint32Array(n);
  for (const { a, b } of graph.bonds) {
    degree[a]!++;
    degree[b]!++;
    if (graph.atoms[b]!.z === 1) hNeighbours[a]!++;
    if (graph.atoms[a]!.z === 1) hNeighbours[b]!++;
  }
  return Uint32Array.from(graph.atoms, (atom, i) => {
    const components = [
      atom.z,
      degree[i]! + atom.hs,
      atom.hs + hNeighbours[i]!,
      atom.charge,
      isotopeMassDelta(atom.z, atom.isotope),
    ];
    if (atom.inRing) components.push(1);
    let seed = 0;
    for (const c of components) seed = combine(seed, c);
    return seed;
  });
}

/** A bond set as a fixed-width bit vector (RDKit uses boost::dynamic_bitset over bond indices). */
class BondSet {
  readonly words: Uint32Array;
  constructor(words: number) {
    this.words = new Uint32Array(words);
  }
  set(bond: number): void {
    this.words[bond >>> 5]! |= 1 << (bond & 31);
  }
  or(other: BondSet): void {
    for (let i = 0; i < this.words.length; i++) this.words[i]! |= other.words[i]!;
  }
  copy(): BondSet {
    const c = new BondSet(this.words.length);
    c.words.set(this.words);
    return c;
  }
  key(): string {
    return this.words.join(",");
  }
  /** boost::dynamic_bitset operator< for equal sizes: compares blocks from the most significant one down. */
  compare(other: BondSet): number {
    for (let i = this.words.length - 1; i >= 0; i--) {
      const x = this.words[i]!;
      const y = other.words[i]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }
}

interface Candidate {
  readonly bonds: BondSet;
  readonly id: number;
  readonly atom: number;
}

/**
 * Morgan environments of a graph with RDKit's default generator settings (radius `radius`, bond types used,
 * chirality ignored, redundant environments removed). Radius-0 environments come first, in atom order.
 *
 * @example
 * ```ts
 * const envs = withMol("CCO", (mol) => morganEnvironments(morganGraph(mol), 2));
 * ```
 */
export function morganEnvironments(graph: MorganGraph, radius = 2): MorganEnvironment[] {
  const nAtoms = graph.atoms.length;
  const nWords = Math.max(1, Math.ceil(graph.bonds.length / 32));
  const incident: { bond: number; other: number }[][] = Array.from({ length: nAtoms }, () => []);
  graph.bonds.forEach(({ a, b }, bond) => {
    incident[a]!.push({ bond, other: b });
    incident[b]!.push({ bond, other: a });
  });
  let current = connectivityInvariants(graph);
  const result: MorganEnvironment[] = Array.from(current, (id, atom) => ({ id, atom, radius: 0 }));
  const seen = new Set<string>();
  const dead = new Uint8Array(nAtoms);
  let neighbourhoods = Array.from({ length: nAtoms }, () => new BondSet(nWords));
  const roundNeighbourhoods = neighbourhoods.map((s) => s.copy());
  for (let layer = 0; layer < radius; layer++) {
    const next = new Uint32Array(nAtoms);
    const candidates: Candidate[] = [];
    for (let atom = 0; atom < nAtoms; atom++) {
      if (dead[atom]) continue;
      const bonds = incident[atom]!;
      if (bonds.length === 0) {
        dead[atom] = 1;
        continue;
      }
      const env = roundNeighbourhoods[atom]!;
      const pairs: [number, number][] = [];
      for (const { bond, other } of bonds) {
        env.set(bond);
        env.or(neighbourhoods[other]!);
        pairs.push([graph.bonds[bond]!.type, current[other]!]);
      }
      pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      let invariant = combine(layer, current[atom]!);
      for (const [bondInv, atomInv] of pairs) invariant = combine(invariant, hashPair(bondInv, atomInv));
      next[atom] = invariant;
      candidates.push({ bonds: env.copy(), id: invariant, atom });
    }
    candidates.sort((p, q) => p.bonds.compare(q.bonds) || p.id - q.id || p.atom - q.atom);
    for (const c of candidates) {
      const key = c.bonds.key();
      if (seen.has(key)) {
        dead[c.atom] = 1;
        continue;
      }
      seen.add(key);
      result.push({ id: c.id, atom: c.atom, radius: layer + 1 });
    }
    current = next;
    neighbourhoods = roundNeighbourhoods.map((s) => s.copy());
  }
  return result;
}

/**
 * Morgan radius-`radius` environments of a molecule, checked against RDKit: the ids folded modulo a prime
 * (65521) must equal MinimalLib's own folded Morgan fingerprint. Bonds whose type RDKit's JSON leaves open
 * (order 0) are resolved by trying RDKit's candidate bond types. Throws `ChemError("UNSUPPORTED_MOLECULE")` if
 * no reading reproduces RDKit, so a wrong id can never reach a caller silently.
 *
 * @example
 * ```ts
 * const envs = withMol("c1ccccc1O", (mol) => verifiedMorganEnvironments(mol));
 * ```
 */
export function verifiedMorganEnvironments(
  mol: Mol,
  radius = 2,
  graph: MorganGraph = morganGraph(mol),
): MorganEnvironment[] {
  const reference = mol.get_morgan_fp_as_uint8array(
    JSON.stringify({ radius, nBits: CHECK_BITS }),
  ) as Uint8Array;
  const candidates = graph.ambiguousBonds.length ? ORDER_ZERO_TYPES : [BOND_ZERO];
  for (const type of candidates) {
    const bonds = graph.bonds.map((b, i) => graph.ambiguousBonds.includes(i) ? { ...b, type } : b);
    const envs = morganEnvironments({ ...graph, bonds }, radius);
    if (sameBytes(foldIds(envs.map((e) => e.id), CHECK_BITS), reference)) return envs;
  }
  throw new ChemError(
    "UNSUPPORTED_MOLECULE",
    "This molecule's Morgan environments could not be reproduced exactly (unusual bond types); no score is given " +
      "rather than an approximate one.",
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Sparse Morgan count fingerprint: unfolded identifier → number of environments with that identifier, as
 * RDKit's `GetMorganGenerator(radius).GetSparseCountFingerprint(mol).GetNonzeroElements()`.
 *
 * @example
 * ```ts
 * const counts = withMol("CCO", (mol) => morganCounts(mol)); // 6 ids, e.g. 2246728737 (the CH3 atom), each ×1
 * ```
 */
export function morganCounts(mol: Mol, radius = 2): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { id } of verifiedMorganEnvironments(mol, radius)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/**
 * Folds unfolded identifiers into an `nBits` bit vector with the byte layout of MinimalLib's
 * `get_morgan_fp_as_uint8array` (bit i is `(bytes[i >> 3] >> (i & 7)) & 1`).
 *
 * @example
 * ```ts
 * foldIds([2246728737], 2048); // Uint8Array(256) with bit 1057 (= 2246728737 % 2048) set
 * ```
 */
export function foldIds(ids: Iterable<number>, nBits: number): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(nBits / 8));
  for (const id of ids) {
    const bit = id % nBits;
    bytes[bit >> 3]! |= 1 << (bit & 7);
  }
  return bytes;
}
