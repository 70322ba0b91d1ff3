/**
 * The editable molecule the standardiser works on: RDKit's own JSON (rdkitjson) read into plain atoms and bonds,
 * changed where MolStandardize changes an RDKit molecule in place (charges, hydrogen counts, bonds), and written
 * back for RDKit to sanitise. RDKit MinimalLib has no atom-level setters, so this is how charges and hydrogen
 * counts change; every atom is written with its hydrogen count fixed, as RDKit's own code fixes them.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { VALENCES } from "../data/standardize_rules.ts";
import { ELEMENTS } from "../moljson/schema.ts";
import { type Mol, rdkit } from "../rdkit.ts";
import type { RdkitJsonDoc } from "../rdkit_json.ts";

/** One atom. */
export interface GAtom {
  /** Atomic number. */
  z: number;
  /** Formal charge. */
  chg: number;
  /** Hydrogens on the atom (implicit and explicit). */
  hs: number;
  /** Isotope (0: natural). */
  isotope: number;
  /** Radical electrons. */
  nRad: number;
  /** Tetrahedral tag relative to the bond order, as rdkitjson writes it. */
  stereo: string;
  /** Aromatic in the molecule read. */
  aromatic: boolean;
  /** Its hydrogen count was written in the input (a bracket atom): RDKit never recomputes it. */
  fixedHs: boolean;
}

/** One bond; `extra` keeps rdkitjson's stereo fields. */
export interface GBond {
  a: number;
  b: number;
  /** RDKit's bond type as rdkitjson writes it: 1–3 for single to triple, 17 dative, 0 and 21 zero-order. */
  bo: number;
  extra: Record<string, unknown>;
}

/** A molecule as atoms and bonds. */
export interface Graph {
  atoms: GAtom[];
  bonds: GBond[];
}

/**
 * A copy of a graph whose atoms and bonds can be changed without touching the original. A bond's `extra` is
 * copied one level deep: its fields are replaced, never changed in place.
 */
export function cloneGraph(g: Graph): Graph {
  return {
    atoms: g.atoms.map((a) => ({ ...a })),
    bonds: g.bonds.map((b) => ({ ...b, extra: { ...b.extra } })),
  };
}

/**
 * The index of the bond between two atoms, in either order, or undefined: tautomers share one bond list (only
 * orders and hydrogens change), so one table serves all of them.
 */
export function bondIndex(g: Graph): (a: number, b: number) => number | undefined {
  const n = g.atoms.length;
  const index = new Map<number, number>();
  g.bonds.forEach((bond, i) => index.set(bond.a * n + bond.b, i).set(bond.b * n + bond.a, i));
  return (a, b) => index.get(a * n + b);
}

/** Reads an RDKit molecule; `fixedHs` marks the atoms whose hydrogen count RDKit keeps as written. */
export function readGraph(mol: Mol, fixedHs?: readonly boolean[]): Graph {
  return graphOfJson(mol.get_json(), fixedHs).graph;
}

/** A graph from rdkitjson text, with the bonds RDKit marked aromatic and the rings it found (SSSR). */
export function graphOfJson(
  text: string,
  fixedHs?: readonly boolean[],
): { graph: Graph; aromaticBonds: Set<number>; rings: number[][] } {
  const doc = JSON.parse(text) as RdkitJsonDoc;
  const m = doc.molecules[0];
  if (!m) return { graph: { atoms: [], bonds: [] }, aromaticBonds: new Set(), rings: [] };
  const aromatic = new Set(m.extensions?.flatMap((e) => e.aromaticAtoms ?? []) ?? []);
  const atoms = m.atoms.map((a, i): GAtom => ({
    z: a.z ?? 6,
    chg: a.chg ?? 0,
    hs: a.impHs ?? 0,
    isotope: a.isotope ?? 0,
    nRad: a.nRad ?? 0,
    stereo: a.stereo ?? "unspecified",
    aromatic: aromatic.has(i),
    fixedHs: fixedHs?.[i] ?? true,
  }));
  const bonds = (m.bonds ?? []).map(({ atoms: [a, b], bo, ...extra }): GBond => ({
    a,
    b,
    bo: bo ?? 1,
    extra,
  }));
  const aromaticBonds = new Set(m.extensions?.flatMap((e) => e.aromaticBonds ?? []) ?? []);
  const rings = m.extensions?.flatMap((e) => e.atomRings ?? []) ?? [];
  return { graph: { atoms, bonds }, aromaticBonds, rings };
}

/** The rdkitjson text of a graph. */
export function graphJson(g: Graph): string {
  const atoms = g.atoms.map((a) => ({
    z: a.z,
    impHs: a.hs,
    chg: a.chg,
    nRad: a.nRad,
    isotope: a.isotope,
    stereo: a.stereo,
  }));
  const bonds = g.bonds.map((b) => ({ ...b.extra, atoms: [b.a, b.b], bo: b.bo }));
  return JSON.stringify({
    rdkitjson: { version: 12 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
      bond: { bo: 1, stereo: "unspecified" },
    },
    molecules: [{ atoms, bonds }],
  });
}

// RDKit's stereo perception on reading JSON would drop the cis/trans set on bonds; SMILES written from the
// molecule keeps it, and canonicalSmiles() re-reads that SMILES for RDKit's stereo clean-up.
const READ_OPTIONS = JSON.stringify({ assignStereo: false });

/** A sanitised RDKit molecule of the graph (the caller frees it); throws UNSUPPORTED_MOLECULE if RDKit refuses. */
export function buildMol(g: Graph): Mol {
  return buildMolFromJson(graphJson(g));
}

/** {@link buildMol} of a graph's rdkitjson text (see {@link graphJson}). */
export function buildMolFromJson(json: string): Mol {
  const mol = rdkit().get_mol(json, READ_OPTIONS);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit could not sanitise the standardised structure.");
  }
  return mol;
}

const CACHE_SIZE = 8;
const built = new Map<string, Mol>();

/**
 * The RDKit molecule of a graph for reading (matching, writing), built once per distinct graph: the steps look at
 * the same structure several times between changes. The cache owns it: do not delete it or keep it past the
 * next call.
 */
export function molFor(g: Graph): Mol {
  const key = graphJson(g);
  const hit = built.get(key);
  if (hit) {
    built.delete(key);
    built.set(key, hit);
    return hit;
  }
  const mol = buildMolFromJson(key);
  built.set(key, mol);
  if (built.size > CACHE_SIZE) {
    const [oldest, old] = built.entries().next().value as [string, Mol];
    built.delete(oldest);
    old.delete();
  }
  return mol;
}

/**
 * RDKit's canonical SMILES of a built molecule after its stereo clean-up (a tag on an atom or bond that is not a
 * stereocentre dropped), as MolStandardize's cleanup ends with.
 */
export function canonicalSmiles(mol: Mol): string {
  const smiles = mol.get_smiles();
  const reread = rdkit().get_mol(smiles);
  if (!reread) return smiles;
  try {
    return reread.get_smiles();
  } finally {
    reread.delete();
  }
}

/** What a bond adds to its atoms' valence: its order; nothing for dative, ionic, hydrogen and zero bonds. */
export function bondOrder(bo: number): number {
  if (bo >= 1 && bo <= 6) return bo;
  if (bo === 12) return 1.5;
  return 0;
}

/** Sum of bond orders at an atom plus its hydrogens (RDKit's total valence). */
export function totalValence(g: Graph, i: number): number {
  let v = g.atoms[i]?.hs ?? 0;
  for (const b of g.bonds) if (b.a === i || b.b === i) v += bondOrder(b.bo);
  return v;
}

/** Neighbours of an atom (bonded heavy or hydrogen atoms of the graph). */
export function degree(g: Graph, i: number): number {
  return g.bonds.reduce((n, b) => n + (b.a === i || b.b === i ? 1 : 0), 0);
}

/** RDKit's allowed valences of an element (`[-1]`: any). */
export function valenceList(z: number): readonly number[] {
  return VALENCES[z] ?? [-1];
}

// RDKit's isEarlyAtom table (Atom.cpp): elements whose positive charge removes a bond rather than adds one.
// deno-fmt-ignore
const EARLY = new Set([3, 4, 5, 11, 12, 13, 19, 20, 21, 22, 30, 31, 32, 37, 38, 39, 40, 41, 48, 49, 50, 51, 55, 56, 57,
  58, 59, 60, 61, 72, 73, 80, 81, 82, 83, 87, 88, 89, 90, 91, 92, 93, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113,
  114, 115, 116, 117, 118]);

/** RDKit's isEarlyAtom. */
export function isEarlyAtom(z: number): boolean {
  return EARLY.has(z);
}

/**
 * Hydrogens RDKit would give an atom whose count it computes (not a bracket atom), from its bonds, charge and
 * radicals (RDKit's Atom::calcImplicitValence, non-strict).
 */
export function implicitHs(g: Graph, i: number): number {
  const atom = g.atoms[i];
  if (!atom || atom.z === 0) return 0;
  const explicit = totalValence(g, i) - atom.hs + atom.nRad;
  if (atom.z === 1 && explicit === atom.nRad && atom.nRad === 0) return atom.chg === 0 ? 1 : 0;
  const valences = valenceList(atom.z);
  const dv = valences[0] ?? -1;
  if (dv === -1) return 0;
  let chg = isEarlyAtom(atom.z) ? -atom.chg : atom.chg;
  if (atom.z === 6 && chg > 0) chg = -chg;
  if (atom.aromatic) return explicit <= dv + chg ? dv + chg - explicit : 0;
  for (const v of valences) {
    if (v < 0) break;
    if (explicit <= v + chg) return v + chg - explicit;
  }
  return 0;
}

/** All matches of a compiled query, as atom index lists (RDKit's SubstructMatch order, unique atom sets). */
export function matchAll(mol: Mol, query: Mol): number[][] {
  const text = mol.get_substruct_matches(query);
  const found = JSON.parse(text) as { atoms: number[] }[] | Record<string, never>;
  return Array.isArray(found) ? found.map((m) => m.atoms) : [];
}

/** The first match of a compiled query, or undefined. */
export function matchFirst(mol: Mol, query: Mol): number[] | undefined {
  const found = JSON.parse(mol.get_substruct_match(query)) as { atoms?: number[] };
  return found.atoms && found.atoms.length > 0 ? found.atoms : undefined;
}

/** Compiles SMARTS once, on first use. */
export function lazyQuery(smarts: string): () => Mol {
  let query: Mol | undefined;
  return () => {
    if (!query) {
      const q = rdkit().get_qmol(smarts);
      if (!q) throw new Error(`RDKit rejected the built-in SMARTS ${smarts}`);
      query = q;
    }
    return query;
  };
}

/** Element symbol with charge and hydrogens, as a chemist writes the atom: `[NH3+]`, `[O-]`. */
export function atomLabel(a: Pick<GAtom, "z" | "chg" | "hs">): string {
  const symbol = symbolOf(a.z);
  const h = a.hs === 0 ? "" : a.hs === 1 ? "H" : `H${a.hs}`;
  const c = a.chg === 0 ? "" : a.chg === 1 ? "+" : a.chg === -1 ? "-" : a.chg > 0 ? `+${a.chg}` : `${a.chg}`;
  return `[${symbol}${h}${c}]`;
}

/** Element symbol of an atomic number. */
export function symbolOf(z: number): string {
  return ELEMENTS[z] ?? `#${z}`;
}
