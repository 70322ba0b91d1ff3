/**
 * RDKit's Reionizer and Uncharger (MolStandardize/Charge.cpp, RDKit 2022.09). The Reionizer moves a proton
 * from the strongest acid still protonated to the weakest conjugate base that is ionised, by RDKit's ranked
 * acid–base pairs, after setting lone alkali, alkaline-earth and chloride ions to their usual charges. The
 * Uncharger neutralises charges that have a neutral form: anions take a proton, cations with hydrogens lose one,
 * keeping as many acid anions as there are cations without hydrogens (zwitterions stay zwitterions).
 *
 * @module
 */
import { ACID_BASE_PAIRS } from "../data/standardize_rules.ts";
import type { Mol } from "../rdkit.ts";
import {
  atomLabel,
  type Graph,
  implicitHs,
  lazyQuery,
  matchAll,
  matchFirst,
  molFor,
  totalValence,
  valenceList,
} from "./graph.ts";

const CHARGE_CORRECTIONS = [
  { query: lazyQuery("[Li,Na,K;X0+0]"), charge: 1 },
  { query: lazyQuery("[Mg,Ca;X0+0]"), charge: 2 },
  { query: lazyQuery("[Cl;X0+0]"), charge: -1 },
];
const ACIDS = ACID_BASE_PAIRS.map(([, acid]) => lazyQuery(acid));
const BASES = ACID_BASE_PAIRS.map(([, , base]) => lazyQuery(base));

const netCharge = (g: Graph) => g.atoms.reduce((sum, a) => sum + a.chg, 0);

/** The first acid–base pair whose acid form matches, and the match (RDKit's strongestProtonated). */
function strongestProtonated(mol: Mol): [number, number[]] | undefined {
  for (const [k, acid] of ACIDS.entries()) {
    const match = matchFirst(mol, acid());
    if (match) return [k, match];
  }
  return undefined;
}

/** The last pair whose base form matches, and the match (RDKit's weakestIonized). */
function weakestIonized(mol: Mol): [number, number[]] | undefined {
  for (let k = BASES.length - 1; k >= 0; k--) {
    const match = matchFirst(mol, BASES[k]!());
    if (match) return [k, match];
  }
  return undefined;
}

/** Reionises `g` in place; returns what moved, in words. */
export function reionize(g: Graph): string[] {
  const said: string[] = [];
  const start = netCharge(g);
  let corrected = false;
  for (const cc of CHARGE_CORRECTIONS) {
    for (const match of matchAll(molFor(g), cc.query())) {
      for (const i of match) {
        const atom = g.atoms[i];
        if (!atom) continue;
        said.push(`${atomLabel(atom)} given its ionic charge`);
        atom.chg = cc.charge;
        corrected = true;
      }
    }
  }
  const current = netCharge(g);
  let diff = current - start;
  if (corrected && current !== 0) {
    while (diff > 0) {
      const found = strongestProtonated(molFor(g));
      if (!found) break;
      const atom = g.atoms[found[1].at(-1) ?? -1];
      if (!atom) break;
      atom.chg -= 1;
      if (atom.hs > 0) atom.hs -= 1;
      said.push(`${ACID_BASE_PAIRS[found[0]]?.[0]} deprotonated to balance the charge`);
      diff--;
    }
  }
  moveProtons(g, said);
  return said;
}

function moveProtons(g: Graph, said: string[]): void {
  const moved = new Set<string>();
  for (;;) {
    const mol = molFor(g);
    const acid = strongestProtonated(mol);
    const base = acid ? weakestIonized(mol) : undefined;
    if (!acid || !base || acid[0] >= base[0]) return;
    const p = acid[1].at(-1) ?? -1;
    const q = base[1].at(-1) ?? -1;
    if (p === q) return;
    const key = [p, q].sort((x, y) => x - y).join(",");
    if (moved.has(key)) return;
    moved.add(key);
    const patom = g.atoms[p];
    const iatom = g.atoms[q];
    if (!patom || !iatom) return;
    patom.chg -= 1;
    if (patom.hs > 0) patom.hs -= 1;
    const found = valenceList(iatom.z).includes(totalValence(g, q));
    iatom.chg += 1;
    if (iatom.fixedHs || ((patom.z === 7 || patom.z === 15) && patom.aromatic) || !found) iatom.hs += 1;
    else iatom.hs = implicitHs(g, q);
    said.push(`proton moved from ${ACID_BASE_PAIRS[acid[0]]?.[0]} to ${ACID_BASE_PAIRS[base[0]]?.[0]}`);
  }
}
