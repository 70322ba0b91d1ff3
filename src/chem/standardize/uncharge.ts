/**
 * RDKit's Uncharger (MolStandardize/Charge.cpp, RDKit 2022.09, canonical ordering on): anions take a proton
 * (early elements lose a hydride instead), cations with hydrogens lose protons, while as many acid anions are
 * kept as there are cations without hydrogens to balance them.
 *
 * @module
 */
import type { Mol } from "../rdkit.ts";
import { atomLabel, type GAtom, type Graph, isEarlyAtom, lazyQuery, matchAll, molFor } from "./graph.ts";

const POS_H = lazyQuery("[+,+2,+3,+4;!h0;!$(*~[-]),$(*(~[-])~[-])]");
const POS_NOH = lazyQuery("[+,+2,+3,+4;h0;!$(*~[-]),$(*(~[-])~[-])]");
const NEG = lazyQuery("[-!$(*~[+,+2,+3,+4])]");
const NEG_ACID = lazyQuery(
  "[$([O,S;-][C,S;+0]=[O,S]),$([O,S;-][N,P;+](=[O,S])[O,S;-]),$([O-][Cl,Br,I;+,+2,+3][O-]),$([n-]1nnnc1),$([n-]1ncnn1)]",
);

function neutralizeNeg(atom: GAtom, hDelta = 1): void {
  atom.hs += hDelta;
  atom.fixedHs = true;
  atom.chg += 1;
}

function neutralizeNegIfPossible(atom: GAtom): boolean {
  const early = isEarlyAtom(atom.z);
  if (early && atom.hs === 0) return false;
  neutralizeNeg(atom, early ? -1 : 1);
  return true;
}

/**
 * Canonical atom ranks, approximated by the atoms' places in RDKit's canonical SMILES (MinimalLib exposes no
 * ranking): the order in which equivalent anions are neutralised when only some of them are.
 */
function canonicalRanks(mol: Mol): number[] {
  mol.get_smiles();
  const order = JSON.parse(mol.get_prop("_smilesAtomOutputOrder").replace(/,\]$/, "]")) as number[];
  const ranks: number[] = [];
  order.forEach((atom, place) => (ranks[atom] = place));
  return ranks;
}

const byRank = (ranks: readonly number[]) => (x: number, y: number) =>
  (ranks[x] ?? x) - (ranks[y] ?? y) || x - y;

/** Neutralises `g` in place as RDKit's Uncharger does; returns each atom changed, in words. */
export function uncharge(g: Graph): string[] {
  const before = g.atoms.map((a) => ({ ...a }));
  const mol = molFor(g);
  {
    const p = matchAll(mol, POS_H()).flat();
    const qMatched = matchAll(mol, POS_NOH()).reduce((sum, m) => sum + (g.atoms[m[0] ?? -1]?.chg ?? 0), 0);
    const nAtoms = matchAll(mol, NEG()).map((m) => m[0] ?? -1);
    const aAtoms = matchAll(mol, NEG_ACID()).map((m) => m[0] ?? -1);
    const nNeg = g.atoms.filter((a) => a.chg < 0).length;
    const needs = qMatched > 0 && (nAtoms.length > 0 || aAtoms.length > 0);
    const ranks = needs ? canonicalRanks(mol) : g.atoms.map((_, i) => i);
    nAtoms.sort(byRank(ranks));
    aAtoms.sort(byRank(ranks));
    if (needs) neutralizeBalanced(g, nAtoms, aAtoms, nNeg, qMatched);
    else for (const i of nAtoms) if (g.atoms[i]) neutralizeNegIfPossible(g.atoms[i]!);
    neutralizePositive(g, p);
  }
  return g.atoms.flatMap((a, i) => {
    const was = before[i];
    return was && (was.chg !== a.chg || was.hs !== a.hs) ? [`${atomLabel(was)} → ${atomLabel(a)}`] : [];
  });
}

function neutralizeBalanced(
  g: Graph,
  nAtoms: number[],
  aAtoms: number[],
  nNeg: number,
  qMatched: number,
): void {
  let surplus = nNeg - qMatched;
  if (surplus > 0 && nAtoms.length > 0) {
    const acids = new Set(aAtoms);
    for (const i of nAtoms) {
      const atom = g.atoms[i];
      if (acids.has(i) || !atom) continue;
      if (neutralizeNegIfPossible(atom) && !--surplus) break;
    }
  }
  surplus = aAtoms.length - qMatched;
  if (surplus <= 0) return;
  const skip = new Set<number>();
  for (const i of nAtoms) {
    for (const b of g.bonds) {
      if (b.a !== i && b.b !== i) continue;
      const nbr = b.a === i ? b.b : b.a;
      if ((g.atoms[nbr]?.chg ?? 0) > 0) {
        if (!skip.has(nbr)) skip.add(nbr);
        else skip.add(i);
        break;
      }
    }
  }
  for (const i of aAtoms) {
    const atom = g.atoms[i];
    if (!atom || atom.chg >= 0 || skip.has(i)) continue;
    neutralizeNeg(atom);
    if (!--surplus) break;
  }
}

function neutralizePositive(g: Graph, p: number[]): void {
  let net = g.atoms.reduce((sum, a) => sum + a.chg, 0);
  if (net <= 0) return;
  for (const i of p) {
    const atom = g.atoms[i];
    if (!atom) continue;
    atom.fixedHs = true;
    while (atom.chg > 0 && net > 0) {
      atom.chg -= 1;
      net--;
      if (atom.z !== 6 && !isEarlyAtom(atom.z)) {
        const n = atom.hs;
        if (n >= 1) atom.hs = n - 1;
        if (n === 1) break;
      } else atom.hs += 1;
    }
    if (!net) break;
  }
}
