/**
 * RDKit's MetalDisconnector (MolStandardize/Metal.cpp, RDKit 2022.09): bonds between a metal and N, O or F, and
 * between a transition metal and other non-metals, are cut; the non-metal keeps the electrons (a negative charge,
 * or a radical made good) and the metal takes the matching positive charge, within its allowed valences.
 *
 * @module
 */
import {
  bondOrder,
  degree,
  type Graph,
  implicitHs,
  lazyQuery,
  matchAll,
  symbolOf,
  totalValence,
  valenceList,
} from "./graph.ts";
import type { Mol } from "../rdkit.ts";

const METAL_NOF = lazyQuery(
  "[Li,Na,K,Rb,Cs,Fr,Be,Mg,Ca,Sr,Ba,Ra,Sc,Ti,V,Cr,Mn,Fe,Co,Ni,Cu,Zn,Al,Ga,Y,Zr,Nb,Mo,Tc,Ru,Rh,Pd,Ag,Cd,In,Sn,Hf,Ta," +
    "W,Re,Os,Ir,Pt,Au,Hg,Tl,Pb,Bi]~[#7,#8,F]",
);
const METAL_NON = lazyQuery(
  "[Al,Sc,Ti,V,Cr,Mn,Fe,Co,Ni,Cu,Zn,Y,Zr,Nb,Mo,Tc,Ru,Rh,Pd,Ag,Cd,Hf,Ta,W,Re,Os,Ir,Pt,Au]~" +
    "[B,C,Si,P,As,Sb,S,Se,Te,Cl,Br,I,At]",
);

interface NonMetal {
  cutBonds: number;
  metals: number[];
}

/**
 * Cuts metal–non-metal bonds of `g` (matched on `mol`, the same molecule built by RDKit) and sets the charges;
 * returns one sentence per cut bond. Changes `g` in place.
 */
export function disconnectMetals(g: Graph, mol: Mol): string[] {
  const said: string[] = [];
  const nonMetals = new Map<number, NonMetal>();
  const excess = new Map<number, number>();
  const valenceBefore = g.atoms.map((_, i) => totalValence(g, i));
  for (const query of [METAL_NOF(), METAL_NON()]) {
    for (const [metal, other] of matchAll(mol, query)) {
      if (metal === undefined || other === undefined) continue;
      const at = g.bonds.findIndex((b) =>
        (b.a === metal && b.b === other) || (b.a === other && b.b === metal)
      );
      const bond = g.bonds[at];
      if (!bond) continue;
      excess.set(metal, 0);
      g.bonds.splice(at, 1);
      const entry = nonMetals.get(other) ?? { cutBonds: 0, metals: [] };
      entry.cutBonds += bondOrder(bond.bo);
      if (!entry.metals.includes(metal)) entry.metals.push(metal);
      nonMetals.set(other, entry);
      said.push(`cut bond ${symbolOf(g.atoms[metal]?.z ?? 0)}–${symbolOf(g.atoms[other]?.z ?? 0)}`);
    }
  }
  for (const [i, entry] of [...nonMetals].sort((x, y) => x[0] - y[0])) {
    chargeNonMetal(g, i, entry, valenceBefore[i] ?? 0, excess);
  }
  for (const [i, extra] of [...excess].sort((x, y) => x[0] - y[0])) chargeMetal(g, i, extra);
  return said;
}

function chargeNonMetal(
  g: Graph,
  i: number,
  entry: NonMetal,
  before: number,
  excess: Map<number, number>,
): void {
  const a = g.atoms[i];
  if (!a) return;
  const rad = a.nRad;
  let fc = -entry.cutBonds;
  let after = 0;
  let lone = 0;
  const valens = valenceList(a.z);
  if (valens.length > 0 && valens[0] !== -1) {
    for (let k = 0; k < valens.length; k++) {
      const v = valens[k] ?? 0;
      after = before + rad - entry.cutBonds;
      if (after > v) {
        if (k + 1 < valens.length) continue;
        after = v;
        break;
      }
      fc = after - v;
      if (rad % 2 === 1 && fc < 0) {
        fc++;
        lone++;
        a.nRad = a.z < 7 ? rad + 1 : 0;
      }
      break;
    }
  }
  // RDKit's total degree here counts the bonds left and the hydrogens the atom had.
  const totalDegree = degree(g, i) + a.hs;
  if (fc === -1 && after === totalDegree + 1) fc = 0;
  a.chg = fc;
  if (entry.cutBonds === 0 || (fc === -1 && a.z === 6 && after === totalDegree + 2)) fc = 0;
  const metals = [...entry.metals].sort((x, y) => (excess.get(x) ?? 0) - (excess.get(y) ?? 0));
  fc += lone;
  while (fc < 0) {
    for (const m of metals) {
      if (fc++ >= 0) break;
      excess.set(m, (excess.get(m) ?? 0) + 1);
    }
  }
  if (!a.fixedHs) a.hs = implicitHs(g, i);
}

function chargeMetal(g: Graph, i: number, extra: number): void {
  const a = g.atoms[i];
  if (!a) return;
  const current = a.chg;
  let fc = extra + (current > 0 ? current : 0);
  const valens = valenceList(a.z);
  if (valens.length > 0 && valens[0] !== -1) {
    for (let k = 0; k < valens.length; k++) {
      const v = valens[k] ?? 0;
      if (fc > v) {
        if (k + 1 < valens.length && fc >= v) continue;
        fc = v;
        break;
      }
    }
  }
  if (fc > current) a.chg = fc;
  a.nRad = 0;
  a.hs = 0;
  a.fixedHs = false;
  a.hs = implicitHs(g, i);
}
