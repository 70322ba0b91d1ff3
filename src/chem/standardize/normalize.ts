/**
 * RDKit's Normalizer (MolStandardize/Normalize.cpp, RDKit 2022.09) over RDKit's own reaction engine: each
 * fragment in turn, the transforms tried in order; a transform is run up to 20 times on its own product (the
 * alphabetically first SMILES of the products RDKit can sanitise); after any transform applies, the list starts
 * again, at most 200 times, never returning to a structure already produced.
 *
 * @module
 */
import { NORMALIZATIONS } from "../data/standardize_rules.ts";
import { type Mol, rdkit } from "../rdkit.ts";
import { buildMol, type Graph, matchFirst, molFor, readGraph } from "./graph.ts";

/** RDKit's MAX_RESTARTS. */
export const MAX_RESTARTS = 200;
const TRANSFORM_REPEATS = 20;

type Reaction = NonNullable<ReturnType<ReturnType<typeof rdkit>["get_rxn"]>>;
/** A transform and its reactant pattern alone. */
interface Transform {
  rxn: Reaction;
  reactant: Mol;
}
let compiled: Transform[] | undefined;

function transforms(): Transform[] {
  compiled ??= NORMALIZATIONS.map(([name, smarts]) => {
    const rxn = rdkit().get_rxn(smarts);
    const reactant = rdkit().get_qmol(smarts.split(">>")[0] ?? "");
    if (!rxn || !reactant) throw new Error(`RDKit rejected the normalisation ${name}`);
    return { rxn, reactant };
  });
  return compiled;
}

/** Connected components of a graph, each its atom indices in increasing order, ordered by their first atom. */
export function components(g: Graph): number[][] {
  const parent = g.atoms.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] ?? i] ?? i;
    return i;
  };
  for (const b of g.bonds) parent[find(b.a)] = find(b.b);
  const groups = new Map<number, number[]>();
  g.atoms.forEach((_, i) => {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(i);
    groups.set(root, list);
  });
  return [...groups.values()].sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
}

/** The sub-graph of the given atoms, renumbered in their order. */
export function subGraph(g: Graph, atoms: readonly number[]): Graph {
  const index = new Map(atoms.map((a, i) => [a, i]));
  return {
    atoms: atoms.map((a) => ({ ...g.atoms[a]! })),
    bonds: g.bonds.filter((b) => index.has(b.a) && index.has(b.b))
      .map((b) => ({
        ...b,
        a: index.get(b.a)!,
        b: index.get(b.b)!,
        extra: renumbered(b.extra, (i) => index.get(i)),
      })),
  };
}

/** A bond's rdkitjson fields with its stereo reference atoms renumbered; stereo dropped if one is gone. */
function renumbered(
  extra: Record<string, unknown>,
  map: (i: number) => number | undefined,
): Record<string, unknown> {
  const refs = extra.stereoAtoms;
  if (!Array.isArray(refs)) return extra;
  const mapped = refs.map((i) => map(i as number));
  if (mapped.some((i) => i === undefined)) {
    const { stereoAtoms: _s, stereo: _t, ...rest } = extra;
    return rest;
  }
  return { ...extra, stereoAtoms: mapped };
}

/** Graphs side by side, atoms renumbered (RDKit's combineMols). */
export function combine(parts: readonly Graph[]): Graph {
  const out: Graph = { atoms: [], bonds: [] };
  for (const part of parts) {
    const offset = out.atoms.length;
    out.atoms.push(...part.atoms);
    out.bonds.push(
      ...part.bonds.map((b) => ({
        ...b,
        a: b.a + offset,
        b: b.b + offset,
        extra: renumbered(b.extra, (i) => i + offset),
      })),
    );
  }
  return out;
}

/**
 * Normalises every fragment of `g`; returns the new graph and the names of the transforms applied, in order.
 * RDKit joins the normalised fragments last first, then the others in order: so does this.
 */
export function normalize(g: Graph): { graph: Graph; applied: string[] } {
  if (g.atoms.length === 0) return { graph: g, applied: [] };
  const applied: string[] = [];
  const parts = components(g).map((atoms) => normalizeFragment(subGraph(g, atoms), applied));
  const last = parts.pop();
  return { graph: combine(last ? [last, ...parts] : parts), applied };
}

function normalizeFragment(fragment: Graph, applied: string[]): Graph {
  // The fragment's own molecule belongs to the cache; the products made from it belong here.
  let mol = molFor(fragment);
  let owned = false;
  let graph = fragment;
  const seen = new Set<string>();
  try {
    for (let restart = 0; restart < MAX_RESTARTS; restart++) {
      let changed = false;
      for (const [k, transform] of transforms().entries()) {
        const product = applyTransform(mol, transform);
        if (!product) continue;
        if (seen.has(product.smiles)) {
          product.mol.delete();
          continue;
        }
        seen.add(product.smiles);
        applied.push(NORMALIZATIONS[k]?.[0] ?? "");
        if (owned) mol.delete();
        mol = product.mol;
        owned = true;
        graph = readGraph(mol);
        changed = true;
        break;
      }
      if (!changed) break;
    }
    return graph;
  } finally {
    if (owned) mol.delete();
  }
}

interface Product {
  smiles: string;
  mol: Mol;
}

function applyTransform(start: Mol, { rxn, reactant }: Transform): Product | undefined {
  // Most transforms match nothing: one substructure test is cheaper than running the reaction.
  if (!matchFirst(start, reactant)) return undefined;
  let current: Product | undefined;
  for (let i = 0; i < TRANSFORM_REPEATS; i++) {
    const products = runOnce(current?.mol ?? start, rxn);
    if (products.length === 0) return current;
    products.sort((x, y) => (x.smiles < y.smiles ? -1 : x.smiles > y.smiles ? 1 : 0));
    const [first, ...rest] = products;
    for (const p of rest) p.mol.delete();
    current?.mol.delete();
    current = first;
  }
  return current;
}

/** One run of a transform: each product RDKit can sanitise, once per canonical SMILES, in product order. */
function runOnce(mol: Mol, rxn: Reaction): Product[] {
  const module = rdkit();
  const reactants = new module.MolList();
  const out = new Map<string, Mol>();
  try {
    reactants.append(mol);
    const results = rxn.run_reactants(reactants, 1000);
    try {
      for (let i = 0; i < results.size(); i++) {
        const list = results.get(i);
        const raw = list?.at(0);
        try {
          const sanitised = raw ? reorderedCopy(raw) : null;
          if (!sanitised) continue;
          const smiles = sanitised.get_smiles();
          if (out.has(smiles)) sanitised.delete();
          else out.set(smiles, sanitised);
        } finally {
          raw?.delete();
          list?.delete();
        }
      }
    } finally {
      results.delete();
    }
  } finally {
    reactants.delete();
  }
  return [...out].map(([smiles, m]) => ({ smiles, mol: m }));
}

/**
 * A sanitised copy of a reaction product with the product's atom order: MinimalLib returns products unsanitised
 * and has no sanitiser, so the product is written as SMILES, parsed (which sanitises it, and fails where RDKit's
 * would), and its atoms put back in the product's order, on which later steps' first matches depend.
 */
function reorderedCopy(raw: Mol): Mol | null {
  let text: string;
  let order: number[];
  try {
    text = raw.get_smiles();
    order = JSON.parse(raw.get_prop("_smilesAtomOutputOrder").replace(/,\]$/, "]")) as number[];
  } catch {
    return null;
  }
  const parsed = rdkit().get_mol(text);
  if (!parsed || !parsed.is_valid()) {
    parsed?.delete();
    return null;
  }
  try {
    const g = readGraph(parsed);
    if (order.length !== g.atoms.length) return parsed.copy();
    const inverse: number[] = [];
    order.forEach((productIndex, smilesIndex) => (inverse[productIndex] = smilesIndex));
    return buildMol(subGraph(g, inverse));
  } finally {
    parsed.delete();
  }
}
