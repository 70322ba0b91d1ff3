/**
 * RDKit's canonical tautomer (MolStandardize/Tautomer.cpp, RDKit 2022.09, default parameters): tautomers are
 * enumerated by moving a hydrogen from the first atom of a transform's match to its last and flipping the bonds
 * between (on the Kekulé form, aromatic atoms still aromatic), up to 1,000 tautomers and 1,000 transform matches;
 * stereo of the atoms and bonds any tautomer changed is removed; the tautomer with the highest score (aromatic
 * rings, RDKit's substructure terms, hydrogens on P, S, Se and Te) wins, ties to the first canonical SMILES.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { TAUTOMER_SCORE_TERMS, TAUTOMER_TRANSFORMS } from "../data/tautomer_rules.ts";
import { type Mol, rdkit } from "../rdkit.ts";
import {
  bondIndex,
  buildMolFromJson,
  cloneGraph,
  type Graph,
  graphJson,
  graphOfJson,
  matchAll,
  molFor,
} from "./graph.ts";

/** RDKit's default limits. */
export const MAX_TAUTOMERS = 1000;
export const MAX_TRANSFORMS = 1000;

const BOND_TYPES: Record<string, number> = { "-": 1, "=": 2, "#": 3, ":": 12 };
const CHARGES: Record<string, number> = { "+": 1, "-": -1, "0": 0 };

interface Transform {
  query: Mol;
  /** Query bonds as pairs of query atom indices. */
  bonds: [number, number][];
  bondTypes: number[];
  charges: number[];
}

let transforms: Transform[] | undefined;
let scoreTerms: { query: Mol; score: number }[] | undefined;

function compiled(): Transform[] {
  transforms ??= TAUTOMER_TRANSFORMS.map(([name, smarts, bonds, charges]) => {
    const query = rdkit().get_qmol(smarts);
    if (!query) throw new Error(`RDKit rejected the tautomer transform ${name}`);
    const doc = JSON.parse(query.get_json()) as { molecules: { bonds?: { atoms: [number, number] }[] }[] };
    return {
      query,
      bonds: (doc.molecules[0]?.bonds ?? []).map((b) => b.atoms),
      bondTypes: [...bonds].map((c) => BOND_TYPES[c] ?? 1),
      charges: [...charges].map((c) => CHARGES[c] ?? 0),
    };
  });
  return transforms;
}

function terms(): { query: Mol; score: number }[] {
  scoreTerms ??= TAUTOMER_SCORE_TERMS.map(([name, smarts, score]) => {
    const query = rdkit().get_qmol(smarts);
    if (!query) throw new Error(`RDKit rejected the tautomer score term ${name}`);
    return { query, score };
  });
  return scoreTerms;
}

/** One tautomer: its sanitised graph (rdkitjson writes it Kekulé, with its aromatic atoms). */
interface Tautomer {
  kekule: Graph;
  aromaticBonds: Set<number>;
  /** Its score, taken while RDKit's molecule of it was at hand (none for the input: scored at the end). */
  score?: number;
  done: boolean;
  modifiedAtoms: number;
  modifiedBonds: number;
}

// Matching is on the Kekulé form with aromatic atoms still aromatic, as RDKit's Kekulize(clearAromaticFlags=false)
// leaves it: the JSON is read without kekulisation or aromaticity perception.
const KEKULE_OPTIONS = JSON.stringify({ kekulize: false, setAromaticity: false, assignStereo: false });

function kekuleMol(g: Graph): Mol | null {
  const doc = JSON.parse(graphJson(g)) as { molecules: Record<string, unknown>[] };
  const aromaticAtoms = g.atoms.flatMap((a, i) => (a.aromatic ? [i] : []));
  doc.molecules[0]!.extensions = [{ name: "rdkitRepresentation", formatVersion: 2, aromaticAtoms }];
  return rdkit().get_mol(JSON.stringify(doc), KEKULE_OPTIONS);
}

const bondType = (g: Graph, aromaticBonds: ReadonlySet<number>, i: number) =>
  aromaticBonds.has(i) ? 12 : g.bonds[i]?.bo ?? 0;

function aromaticBondsOf(mol: Mol): Set<number> {
  const doc = JSON.parse(mol.get_json()) as { molecules: { extensions?: { aromaticBonds?: number[] }[] }[] };
  return new Set(doc.molecules[0]?.extensions?.flatMap((e) => e.aromaticBonds ?? []) ?? []);
}

/** State of one enumeration. */
interface Enumeration {
  input: Graph;
  inputAromaticBonds: Set<number>;
  /** The bond between two atoms (see {@link bondIndex}), the same for every tautomer. */
  bondOf: (a: number, b: number) => number | undefined;
  /**
   * The canonical SMILES each graph written so far gave (null: RDKit refused it), by its rdkitjson text: most
   * matches remake a tautomer already made, and its text says so before RDKit sanitises it again.
   */
  made: Map<string, string | null>;
  tautomers: Map<string, Tautomer>;
  modifiedAtoms: Set<number>;
  modifiedBonds: Set<number>;
  transformsRun: number;
  deadline: number;
}

/** Removes the stereo of every atom and bond any tautomer changed; true if something was removed. */
function stripStereo(g: Graph, e: Enumeration): boolean {
  let changed = false;
  for (const i of e.modifiedAtoms) {
    const atom = g.atoms[i];
    if (atom && atom.stereo !== "unspecified") {
      atom.stereo = "unspecified";
      changed = true;
    }
  }
  for (const i of e.modifiedBonds) {
    const bond = g.bonds[i];
    if (bond && ("stereo" in bond.extra || "stereoAtoms" in bond.extra)) {
      const { stereo, stereoAtoms: _s, ...rest } = bond.extra;
      changed ||= stereo !== undefined && stereo !== "unspecified";
      bond.extra = rest;
    }
  }
  return changed;
}

/**
 * The new tautomer a match makes, with its canonical SMILES and score; undefined when RDKit cannot sanitise it
 * or it is one already made.
 */
function applyMatch(
  t: Tautomer,
  transform: Transform,
  match: number[],
  e: Enumeration,
): [string, Graph, Set<number>, number] | undefined {
  const g = cloneGraph(t.kekule);
  const firstIdx = match[0]!;
  const lastIdx = match.at(-1)!;
  const first = g.atoms[firstIdx]!;
  const last = g.atoms[lastIdx]!;
  e.modifiedAtoms.add(firstIdx).add(lastIdx);
  first.hs = Math.max(0, first.hs - 1);
  last.hs += 1;
  transform.bonds.forEach(([qa, qb], k) => {
    const a = match[qa]!;
    const b = match[qb]!;
    const index = e.bondOf(a, b);
    const bond = index === undefined ? undefined : g.bonds[index];
    if (!bond) return;
    if (transform.bondTypes.length > 0) bond.bo = transform.bondTypes[k] ?? bond.bo;
    else if (bond.bo === 1) bond.bo = 2;
    else if (bond.bo === 2) bond.bo = 1;
    e.modifiedBonds.add(index!);
  });
  transform.charges.forEach((c, k) => {
    const atom = g.atoms[match[k] ?? -1];
    if (atom) atom.chg += c;
  });
  stripStereo(g, e);
  const json = graphJson(g);
  const known = e.made.get(json);
  // A graph met before gives what it gave then: nothing new unless its tautomer was since re-keyed.
  if (known === null || (known !== undefined && e.tautomers.has(known))) return undefined;
  let mol: Mol;
  try {
    mol = buildMolFromJson(json);
  } catch (error) {
    // RDKit refusing to sanitise a tautomer ends that branch; anything else is a fault of ours.
    if (!(error instanceof ChemError)) throw error;
    e.made.set(json, null);
    return undefined;
  }
  try {
    const smiles = mol.get_smiles();
    e.made.set(json, smiles);
    if (e.tautomers.has(smiles)) return undefined;
    const { graph: product, aromaticBonds, rings } = graphOfJson(mol.get_json());
    product.atoms.forEach((a, i) => (a.stereo = g.atoms[i]?.stereo ?? a.stereo));
    product.bonds.forEach((b, i) => (b.extra = g.bonds[i]?.extra ?? b.extra));
    return [smiles, product, aromaticBonds, scoreOf(mol, rings, product, aromaticBonds, e.bondOf)];
  } finally {
    mol.delete();
  }
}

function checkDeadline(e: Enumeration): void {
  if (Date.now() > e.deadline) {
    throw new ChemError(
      "COMPUTATION_TIMEOUT",
      `Tautomer enumeration passed its time limit after ${e.tautomers.size} tautomers.`,
      { tautomers: e.tautomers.size },
    );
  }
}

/** Keys in RDKit's std::map order: the first key after `key` among those present now. */
function nextKey(keys: Iterable<string>, after: string | undefined): string | undefined {
  let best: string | undefined;
  for (const k of keys) if ((after === undefined || k > after) && (best === undefined || k < best)) best = k;
  return best;
}

/** One pass over the tautomers not yet done, in SMILES order (new ones after the current are met in it). */
function enumeratePass(e: Enumeration): "ok" | "max_tautomers" | "max_transforms" {
  for (
    let key = nextKey(e.tautomers.keys(), undefined);
    key !== undefined;
    key = nextKey(e.tautomers.keys(), key)
  ) {
    const t = e.tautomers.get(key)!;
    if (t.done) continue;
    const kmol = kekuleMol(t.kekule);
    if (!kmol) {
      t.done = true;
      continue;
    }
    try {
      for (const transform of compiled()) {
        checkDeadline(e);
        const matches = matchAll(kmol, transform.query);
        if (matches.length === 0) continue;
        e.transformsRun++;
        for (const match of matches) {
          if (e.transformsRun >= MAX_TRANSFORMS) return "max_transforms";
          if (e.tautomers.size >= MAX_TAUTOMERS) return "max_tautomers";
          const made = applyMatch(t, transform, match, e);
          if (!made) continue;
          const [smiles, graph, aromaticBonds, score] = made;
          e.input.bonds.forEach((_, i) => {
            if (bondType(e.input, e.inputAromaticBonds, i) !== bondType(graph, aromaticBonds, i)) {
              e.modifiedBonds.add(i);
            }
          });
          e.tautomers.set(smiles, {
            kekule: graph,
            aromaticBonds,
            score,
            done: false,
            modifiedAtoms: e.modifiedAtoms.size,
            modifiedBonds: e.modifiedBonds.size,
          });
        }
      }
    } finally {
      kmol.delete();
    }
    t.done = true;
  }
  return "ok";
}

/** Strips from older tautomers the stereo of atoms and bonds changed since they were made, re-keyed. */
function restripOlder(e: Enumeration): void {
  for (const [key, t] of [...e.tautomers]) {
    if (t.modifiedAtoms >= e.modifiedAtoms.size && t.modifiedBonds >= e.modifiedBonds.size) continue;
    if (!stripStereo(t.kekule, e)) continue;
    e.tautomers.delete(key);
    t.modifiedAtoms = e.modifiedAtoms.size;
    t.modifiedBonds = e.modifiedBonds.size;
    const mol = molFor(t.kekule);
    const smiles = mol.get_smiles();
    if (!e.tautomers.has(smiles)) e.tautomers.set(smiles, t);
  }
}

/** RDKit's tautomer score of one sanitised tautomer. */
function score(g: Graph, aromaticBonds: ReadonlySet<number>, bondOf: Enumeration["bondOf"]): number {
  const mol = molFor(g);
  return scoreOf(mol, graphOfJson(mol.get_json()).rings, g, aromaticBonds, bondOf);
}

/** The score of a tautomer from RDKit's molecule of it and the rings RDKit found in it. */
function scoreOf(
  mol: Mol,
  rings: readonly number[][],
  g: Graph,
  aromaticBonds: ReadonlySet<number>,
  bondOf: Enumeration["bondOf"],
): number {
  let total = 0;
  for (const ring of rings) {
    let allAromatic = true;
    let allCarbon = true;
    ring.forEach((a, k) => {
      const b = ring[(k + 1) % ring.length]!;
      const index = bondOf(a, b);
      if (index === undefined || !aromaticBonds.has(index)) allAromatic = false;
      if (g.atoms[a]?.z !== 6 || g.atoms[b]?.z !== 6) allCarbon = false;
    });
    if (allAromatic) total += allCarbon ? 250 : 100;
  }
  for (const term of terms()) total += matchAll(mol, term.query).length * term.score;
  for (const atom of g.atoms) if ([15, 16, 34, 52].includes(atom.z)) total -= atom.hs;
  return total;
}

/** The canonical tautomer of a graph and how many tautomers were seen (1: none other). */
export function canonicalTautomer(g: Graph, deadline: number): { graph: Graph; tautomers: number } {
  const mol = molFor(g);
  const inputAromaticBonds = aromaticBondsOf(mol);
  const e: Enumeration = {
    input: g,
    inputAromaticBonds,
    bondOf: bondIndex(g),
    made: new Map(),
    tautomers: new Map([[mol.get_smiles(), {
      kekule: cloneGraph(g),
      aromaticBonds: inputAromaticBonds,
      done: false,
      modifiedAtoms: 0,
      modifiedBonds: 0,
    }]]),
    modifiedAtoms: new Set(),
    modifiedBonds: new Set(),
    transformsRun: 0,
    deadline,
  };
  for (;;) {
    const status = enumeratePass(e);
    restripOlder(e);
    const completed = [...e.tautomers.values()].every((t) => t.done);
    if (completed || status === "max_transforms") break;
    if (status === "max_tautomers" && e.tautomers.size >= MAX_TAUTOMERS) break;
  }
  if (e.tautomers.size === 1) return { graph: g, tautomers: 1 };
  let best: [string, Tautomer] | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const entry of e.tautomers) {
    checkDeadline(e);
    const s = entry[1].score ?? score(entry[1].kekule, entry[1].aromaticBonds, e.bondOf);
    if (s > bestScore || (s === bestScore && best && entry[0] < best[0])) {
      best = entry;
      bestScore = s;
    }
  }
  return { graph: best![1].kekule, tautomers: e.tautomers.size };
}
