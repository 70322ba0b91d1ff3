/**
 * A screen before RDKit's pattern fingerprints, read from the text alone: which aromatic nitrogen, oxygen and
 * sulfur a molecule's SMILES writes, and how many of its atoms have three or more ring bonds (ring fusions and
 * bridgeheads). A query atom written `n`, `o` or `s` outside brackets maps to an aromatic atom of that element,
 * and a query atom with three ring bonds to a molecule atom with at least three (the image of a cycle is a
 * cycle), so a molecule without what the query needs cannot contain it; likewise two rings of five or six
 * aromatic atoms sharing a bond (a benzene fused to a six- or a five-membered aromatic ring). RDKit's pattern
 * fingerprint tells naphthalene from quinoline poorly and ring fusion not at all; these classes do both.
 *
 * @module
 */
import { bridgeBonds } from "../bridges.ts";

/** Aromatic n, o and s as bits of a class. */
const AROMATIC_BITS: Readonly<Record<string, number>> = { n: 1, o: 2, s: 4 };
/** Fusion atoms counted up to this many. */
const MAX_FUSION = 2;
/** Fused aromatic rings as bits of a class, above the aromatic bits and the fusion count: six and six. */
const FUSED_66 = 1;
/** Five and six, or five and five. */
const FUSED_56 = 2;
/** Six and six, every atom of both an aromatic carbon (naphthalene, and what holds it). */
const FUSED_66_CARBON = 4;
/** Classes: three aromatic bits, fusion counts 0 to {@link MAX_FUSION}, three fused-ring bits. */
export const CLASS_COUNT = 8 * (MAX_FUSION + 1) * 8;
/** The class of a molecule this screen cannot read: it has everything, so every query searches it. */
const EVERYTHING = CLASS_COUNT - 1;

/** What a query needs of a molecule. */
export interface QueryNeeds {
  /** Aromatic bits every match needs. */
  readonly aromatic: number;
  /** Atoms with three or more ring bonds every match needs (capped). */
  readonly fusion: number;
  /** Fused aromatic ring bits every match needs. */
  readonly fused: number;
}

/** Needs nothing: the screen passes every molecule. */
export const NO_NEEDS: QueryNeeds = { aromatic: 0, fusion: 0, fused: 0 };

/** A SMILES or SMARTS as a graph: atoms' aromatic n, o, s bits, which atoms are aromatic, and bonds. */
interface TextGraph {
  readonly aromatic: number[];
  readonly isAromatic: boolean[];
  /** Aromatic carbons (`c`, or a bracket atom `[c…]` in a SMILES). */
  readonly carbon: boolean[];
  readonly bonds: [number, number][];
}

/** Atoms outside brackets, one character each (`Cl` and `Br` are read before these). */
const ORGANIC = new Set("BCNOPSFIbcnops*aA");
/** Bond and bond-expression characters between atoms: the bond exists, whatever it says. */
const BOND_CHARS = new Set("-=#:~@!,;&/\\");

/**
 * The graph a SMILES (`smarts` false) or SMARTS writes, or undefined when the text holds anything this reader
 * does not know (the screen then says nothing). A bracket atom counts as aromatic n, o or s only in a SMILES
 * (its symbol alone, such as `[nH]`); in a SMARTS a bracket may hold any expression, so it counts as nothing.
 */
function readGraph(text: string, smarts: boolean): TextGraph | undefined {
  const aromatic: number[] = [];
  const isAromatic: boolean[] = [];
  const carbon: boolean[] = [];
  const bonds: [number, number][] = [];
  const open = new Map<number, number>();
  const branches: number[] = [];
  let previous = -1;
  let i = 0;
  const atom = (bits: number, lower: boolean, isCarbon: boolean) => {
    aromatic.push(bits);
    isAromatic.push(lower);
    carbon.push(isCarbon);
    const at = aromatic.length - 1;
    if (previous >= 0) bonds.push([previous, at]);
    previous = at;
  };
  const ring = (label: number) => {
    if (previous < 0) return false;
    const partner = open.get(label);
    if (partner === undefined) open.set(label, previous);
    else {
      open.delete(label);
      bonds.push([partner, previous]);
    }
    return true;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "[") {
      const end = bracketEnd(text, i);
      if (end < 0) return undefined;
      const symbol = smarts ? "" : /^\d*([a-z]+|[A-Z][a-z]?)/.exec(text.slice(i + 1, end))?.[1] ?? "";
      atom(AROMATIC_BITS[symbol] ?? 0, /^[a-z]/.test(symbol), symbol === "c");
      i = end + 1;
    } else if ((c === "C" && next === "l") || (c === "B" && next === "r")) {
      atom(0, false, false);
      i += 2;
    } else if (ORGANIC.has(c)) {
      atom(AROMATIC_BITS[c] ?? 0, c >= "a" && c <= "z", c === "c");
      i++;
    } else if (c >= "0" && c <= "9") {
      if (!ring(c.charCodeAt(0) - 48)) return undefined;
      i++;
    } else if (c === "%" && /^\d\d$/.test(text.slice(i + 1, i + 3))) {
      if (!ring(Number(text.slice(i + 1, i + 3)))) return undefined;
      i += 3;
    } else if (c === "(" && previous >= 0) {
      branches.push(previous);
      i++;
    } else if (c === ")" && branches.length > 0) {
      previous = branches.pop()!;
      i++;
    } else if (c === "." && branches.length === 0) {
      previous = -1;
      i++;
    } else if (BOND_CHARS.has(c)) {
      i++;
    } else return undefined;
  }
  return open.size === 0 && branches.length === 0 ? { aromatic, isAromatic, carbon, bonds } : undefined;
}

/** Where the bracket atom opened at `at` closes (a SMARTS nests brackets in `$(...)`), or -1. */
function bracketEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

/** Atoms with three or more bonds that lie on a cycle (bonds that are not bridges), up to {@link MAX_FUSION}. */
function fusionAtoms(graph: TextGraph): number {
  const n = graph.aromatic.length;
  const neighbours: [number, number][][] = Array.from({ length: n }, () => []);
  graph.bonds.forEach(([a, b], k) => {
    neighbours[a]!.push([b, k]);
    neighbours[b]!.push([a, k]);
  });
  const bridge = bridgeBonds(neighbours, graph.bonds.length);
  let count = 0;
  for (let a = 0; a < n && count < MAX_FUSION; a++) {
    if (neighbours[a]!.filter(([, k]) => !bridge[k]).length >= 3) count++;
  }
  return count;
}

/**
 * {@link FUSED_66}, {@link FUSED_56} and {@link FUSED_66_CARBON} bits: two rings of five or six aromatic atoms
 * sharing a bond. Rings are simple cycles of the aromatic atoms whatever their bonds say, so a query's rings map
 * to rings of the molecule, of the same size and atoms of the same kinds.
 */
function fusedRings(graph: TextGraph): number {
  const n = graph.isAromatic.length;
  const next: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of graph.bonds) {
    if (graph.isAromatic[a] && graph.isAromatic[b]) {
      next[a]!.push(b);
      next[b]!.push(a);
    }
  }
  const rings: { edges: number[]; carbon: boolean }[] = [];
  const path: number[] = [];
  const onPath = new Uint8Array(n);
  const walk = (start: number, at: number) => {
    for (const to of next[at]!) {
      if (to === start && path.length >= 5 && path[1]! < at) {
        const edges = path.map((atom, i) => edgeKey(atom, path[(i + 1) % path.length]!, n));
        rings.push({ edges, carbon: path.every((atom) => graph.carbon[atom]) });
      }
      if (to <= start || path.length >= 6 || onPath[to]) continue;
      path.push(to);
      onPath[to] = 1;
      walk(start, to);
      onPath[to] = 0;
      path.pop();
    }
  };
  for (let start = 0; start < n; start++) {
    if (next[start]!.length < 2) continue;
    path.push(start);
    walk(start, start);
    path.pop();
  }
  let bits = 0;
  for (let i = 0; i < rings.length; i++) {
    for (let j = i + 1; j < rings.length; j++) {
      const [x, y] = [rings[i]!, rings[j]!];
      if (!x.edges.some((edge) => y.edges.includes(edge))) continue;
      const sixes = x.edges.length === 6 && y.edges.length === 6;
      bits |= sixes ? FUSED_66 : FUSED_56;
      if (sixes && x.carbon && y.carbon) bits |= FUSED_66_CARBON;
    }
  }
  return bits;
}

function edgeKey(a: number, b: number, n: number): number {
  return a < b ? a * n + b : b * n + a;
}

/** The class of a molecule from its canonical SMILES (a number below {@link CLASS_COUNT}). */
export function moleculeClass(smiles: string): number {
  const graph = readGraph(smiles, false);
  if (!graph) return EVERYTHING;
  const aromatic = graph.aromatic.reduce((bits, b) => bits | b, 0);
  return aromatic + 8 * fusionAtoms(graph) + 8 * (MAX_FUSION + 1) * fusedRings(graph);
}

/** What a SMARTS needs of every molecule containing it (nothing when this reader cannot tell). */
export function queryNeeds(smarts: string): QueryNeeds {
  const graph = readGraph(smarts.trim(), true);
  if (!graph) return NO_NEEDS;
  return {
    aromatic: graph.aromatic.reduce((bits, b) => bits | b, 0),
    fusion: fusionAtoms(graph),
    fused: fusedRings(graph),
  };
}

/** True when molecules of class `cls` may contain a query of `needs`. */
export function mayContain(cls: number, needs: QueryNeeds): boolean {
  const fusion = Math.floor(cls / 8) % (MAX_FUSION + 1);
  const fused = Math.floor(cls / (8 * (MAX_FUSION + 1)));
  return (cls & 7 & needs.aromatic) === needs.aromatic && fusion >= needs.fusion &&
    (fused & needs.fused) === needs.fused;
}
