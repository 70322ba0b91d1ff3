/**
 * The molecular graph the 3D engine works on: every atom including hydrogens, Kekulé bond orders with
 * RDKit's aromaticity flags, ring bonds, and the stereo annotations RDKit parsed from the SMILES.
 *
 * Built from RDKit MinimalLib's CommonChem JSON (`get_json`) after `add_hs_in_place`, so atom indices are
 * RDKit's: heavy atoms in SMILES order, then the added hydrogens.
 *
 * @module
 */
import { bridgeBonds } from "../bridges.ts";
import type { Mol } from "../rdkit.ts";
import type { RdkitJsonDoc } from "../rdkit_json.ts";

/** Element symbols by atomic number (index 0 unused). */
const SYMBOLS = (
  "_ H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
  "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu " +
  "Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn"
).split(" ");

/**
 * Element symbol for an atomic number ("X" beyond radon).
 *
 * @example
 * ```ts
 * elementSymbol(17); // "Cl"
 * ```
 */
export function elementSymbol(z: number): string {
  return SYMBOLS[z] ?? "X";
}

/** Tetrahedral parity as RDKit stores it: the neighbours after the first, seen from the first, turn this way. */
export type ChiralTag = "cw" | "ccw";

/** One atom. */
export interface GraphAtom {
  /** Atomic number. */
  readonly z: number;
  /** Element symbol. */
  readonly symbol: string;
  /** Formal charge. */
  readonly charge: number;
  /** Mass number when the SMILES gives one (e.g. 2 for [2H]), else 0. */
  readonly isotope: number;
  /** Unpaired electrons as RDKit counts them (1 for TEMPO's oxygen or the iodine of `Cl[I]Cl`), else 0. */
  readonly radicals: number;
  /** RDKit aromaticity flag. */
  readonly aromatic: boolean;
  /** Tetrahedral parity from the SMILES, relative to {@link MolGraph.neighbors} order; null if unspecified. */
  readonly chiral: ChiralTag | null;
}

/** One bond. */
export interface GraphBond {
  /** First atom index. */
  readonly a: number;
  /** Second atom index. */
  readonly b: number;
  /** Kekulé order (0 for RDKit zero-order bonds, 1, 2, 3). */
  readonly kekule: number;
  /** RDKit aromaticity flag. */
  readonly aromatic: boolean;
  /** Bond order used by the force field: 1.5 for aromatic bonds, else the Kekulé order. */
  readonly order: number;
  /** True when the bond lies on a ring (is not a bridge of the graph). */
  inRing: boolean;
  /** Double-bond stereo from the SMILES, with the reference atoms on each end; null if none. */
  readonly stereo: { readonly kind: "cis" | "trans"; readonly atoms: readonly [number, number] } | null;
}

/** The whole molecule. */
export interface MolGraph {
  readonly atoms: readonly GraphAtom[];
  readonly bonds: readonly GraphBond[];
  /** Neighbours of each atom in RDKit bond order (the order chiral tags refer to). */
  readonly neighbors: readonly (readonly number[])[];
  /** Rings as atom lists (RDKit's ring perception), in ring order. */
  readonly rings: readonly (readonly number[])[];
  /** Number of atoms that are not hydrogen. */
  readonly heavyAtomCount: number;
}

/**
 * Reads the graph of an RDKit molecule that already carries explicit hydrogens.
 *
 * @example
 * ```ts
 * const g = withMol("CCO", (mol) => { mol.add_hs_in_place(); return graphFromRDKit(mol); });
 * g.atoms.length; // 9
 * ```
 */
export function graphFromRDKit(mol: Mol): MolGraph {
  return graphFromJson(mol.get_json());
}

/**
 * Parses RDKit CommonChem JSON (`rdkitjson` version 10+) into a {@link MolGraph}.
 *
 * @example
 * ```ts
 * const g = graphFromJson(mol.get_json());
 * ```
 */
export function graphFromJson(json: string): MolGraph {
  const doc = JSON.parse(json) as RdkitJsonDoc;
  const molecule = doc.molecules[0];
  if (!molecule) throw new Error("RDKit JSON holds no molecule");
  const atomDefaults = doc.defaults?.atom ?? {};
  const bondDefaults = doc.defaults?.bond ?? {};
  const ext = molecule.extensions?.find((e) => e.name === "rdkitRepresentation") ?? {};
  const aromaticAtoms = new Set(ext.aromaticAtoms ?? []);
  const aromaticBonds = new Set(ext.aromaticBonds ?? []);

  const atoms: GraphAtom[] = molecule.atoms.map((raw, i) => {
    const a = { ...atomDefaults, ...raw };
    const z = a.z ?? 6;
    const stereo = a.stereo === "cw" || a.stereo === "ccw" ? a.stereo : null;
    return {
      z,
      symbol: elementSymbol(z),
      charge: a.chg ?? 0,
      isotope: a.isotope ?? 0,
      radicals: a.nRad ?? 0,
      aromatic: aromaticAtoms.has(i),
      chiral: stereo,
    };
  });
  const bonds: GraphBond[] = (molecule.bonds ?? []).map((raw, i) => {
    const b = { ...bondDefaults, ...raw };
    const kekule = b.bo ?? 1;
    const aromatic = aromaticBonds.has(i);
    const stereoKind = b.stereo === "cis" || b.stereo === "trans" ? b.stereo : null;
    return {
      a: raw.atoms[0],
      b: raw.atoms[1],
      kekule,
      aromatic,
      order: aromatic ? 1.5 : kekule,
      inRing: false,
      stereo: stereoKind && raw.stereoAtoms
        ? { kind: stereoKind, atoms: [raw.stereoAtoms[0], raw.stereoAtoms[1]] }
        : null,
    };
  });
  const neighbors: number[][] = atoms.map(() => []);
  const incident: [number, number][][] = atoms.map(() => []);
  bonds.forEach((bond, k) => {
    neighbors[bond.a]!.push(bond.b);
    neighbors[bond.b]!.push(bond.a);
    incident[bond.a]!.push([bond.b, k]);
    incident[bond.b]!.push([bond.a, k]);
  });
  const bridge = bridgeBonds(incident, bonds.length);
  bonds.forEach((bond, k) => (bond.inRing = !bridge[k]));
  return {
    atoms,
    bonds,
    neighbors,
    rings: ext.atomRings ?? [],
    heavyAtomCount: atoms.filter((a) => a.z !== 1).length,
  };
}

/**
 * Order-independent key of an atom pair.
 *
 * @example
 * ```ts
 * pairKey(5, 2) === pairKey(2, 5); // true ("2,5")
 * ```
 */
export function pairKey(i: number, j: number): string {
  return i < j ? `${i},${j}` : `${j},${i}`;
}

/**
 * The atoms that atom `i` shares a double bond with in the Kekulé form.
 *
 * @example
 * ```ts
 * doubleBonded(graphFromJson(json), 1); // [2] for the carbonyl carbon of acetaldehyde "CC=O"
 * ```
 */
export function doubleBonded(g: MolGraph, i: number): number[] {
  return g.bonds.filter((b) => b.kekule === 2 && (b.a === i || b.b === i)).map((
    b,
  ) => (b.a === i ? b.b : b.a));
}
