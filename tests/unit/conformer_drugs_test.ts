/**
 * generate_3d over the drug set of tests/data/drugs50.ts (63 molecules: macrocycles, a cyclic peptide, fused,
 * bridged, spiro and caged rings, charged species and a salt).
 *
 * References: natural bond lengths, DREIDING's R_I + R_J − 0.01 Å from the radii of Table I (Mayo, Olafson & Goddard,
 * J. Phys. Chem. 1990, 94, 8897, doi:10.1021/j100389a010) or, where that rule is known to be off, MMFF94's r0
 * (src/chem/conformer/bond_lengths.ts); sp3 angle 109.47°; van der Waals radii of Bondi
 * (J. Phys. Chem. 1964, 68, 441, doi:10.1021/j100785a001) for the clash criterion, and DREIDING's own R0; stereo
 * descriptors by RDKit, read back from the 3D coordinates.
 *
 * DREIDING keeps 1-4 van der Waals interactions at full strength, which stretches crowded single bonds: in this
 * set C_3–C_3 bonds average about +0.03 Å over their natural length (up to +0.10 Å in paclitaxel). Single bonds between heavy
 * atoms are therefore held to their mean (≤ 0.035 Å) and a tangle bound (≤ 0.12 Å); C–H, C=O, C=C and aromatic
 * bonds are held to 0.03 Å (each bond or the median, as stated per test).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { descriptors, rdkit, withMol } from "../../src/chem/rdkit.ts";
import { type Conformer3D, generate3d } from "../../src/chem/conformer/index.ts";
import { prepareMolecule } from "../../src/chem/conformer/molecule.ts";
import type { MolGraph } from "../../src/chem/conformer/graph.ts";
import { pairKey } from "../../src/chem/conformer/graph.ts";
import { excludedPairs } from "../../src/chem/conformer/forcefield.ts";
import { gasteigerCharges } from "../../src/chem/conformer/charges.ts";
import { type DreidingType, pairVdw } from "../../src/chem/conformer/parameters.ts";
import { naturalBondLength } from "../../src/chem/conformer/bond_lengths.ts";
import { signedVolume, stereoTargets } from "../../src/chem/conformer/stereo.ts";
import { dihedral } from "../../src/chem/conformer/energy.ts";
import { angleDegrees, distance } from "../../src/chem/conformer/quality.ts";
import { toMolBlock } from "../../src/chem/conformer/xyz.ts";
import { DRUGS50 } from "../data/drugs50.ts";

await loadTestRDKit();

interface Run {
  readonly name: string;
  readonly smiles: string;
  readonly c: Conformer3D;
  readonly graph: MolGraph;
}

const RUNS: Run[] = DRUGS50.map((d) => ({
  name: d.name,
  smiles: d.smiles,
  c: generate3d(d.smiles),
  graph: prepareMolecule(d.smiles, 200).graph,
}));

/** Bondi 1964 van der Waals radii (Å); Na from the same table. */
const BONDI: Readonly<Record<string, number>> = {
  H: 1.2,
  C: 1.7,
  N: 1.55,
  O: 1.52,
  F: 1.47,
  P: 1.8,
  S: 1.8,
  Cl: 1.75,
  Br: 1.85,
  I: 1.98,
  Na: 2.27,
};

test("the set: at least 50 distinct molecules whose SMILES match their recorded molecular weight", () => {
  assert.ok(DRUGS50.length >= 50);
  assert.equal(new Set(DRUGS50.map((d) => d.name)).size, DRUGS50.length);
  for (const d of DRUGS50) {
    const amw = withMol(d.smiles, (mol) => descriptors(mol).amw!);
    assert.ok(Math.abs(amw - d.mw) < 0.006, `${d.name}: ${amw}`);
  }
  const tags = new Set(DRUGS50.flatMap((d) => d.tags));
  for (
    const t of [
      "macrocycle",
      "cyclic peptide",
      "bridged",
      "cage",
      "fused",
      "charged",
      "salt",
      "E/Z",
      "3-ring",
    ]
  ) {
    assert.ok(tags.has(t), t);
  }
});

test("every molecule converges (RMS gradient < 0.01 kcal/mol/Å) with a non-increasing energy", () => {
  for (const { name, c, smiles } of RUNS) {
    assert.ok(c.converged, `${name}: rms ${c.rmsGradient}`);
    assert.ok(c.rmsGradient < 0.01);
    assert.ok(Number.isFinite(c.energy));
    for (let i = 1; i < c.energyTrace.length; i++) {
      assert.ok(c.energyTrace[i]! <= c.energyTrace[i - 1]!, `${name} step ${i}`);
    }
    const atoms = withMol(smiles, (mol) => descriptors(mol).NumAtoms!);
    assert.equal(c.atomCount, atoms, name);
    assert.equal(c.xyz.split("\n")[0], String(atoms));
  }
});

/** Deviations r − R0 (the natural length) of the bonds between the two types (either order, given bond order). */
function deviations(a: DreidingType, b: DreidingType, order: number): number[] {
  const out: number[] = [];
  for (const { c, graph } of RUNS) {
    for (const bond of graph.bonds) {
      const ta = c.atomTypes[bond.a]!;
      const tb = c.atomTypes[bond.b]!;
      if (bond.order !== order || !((ta === a && tb === b) || (ta === b && tb === a))) continue;
      out.push(distance(c.coordinates, bond.a, bond.b) - naturalBondLength(graph, c.atomTypes, bond));
    }
  }
  return out;
}

const median = (v: number[]) => [...v].sort((p, q) => p - q)[Math.floor(v.length / 2)]!;
const mean = (v: number[]) => v.reduce((p, q) => p + q, 0) / v.length;
const maxAbs = (v: number[]) => Math.max(...v.map(Math.abs));

test("C–H and C=O: every bond within 0.03 Å of its natural length", () => {
  const ch = deviations("C_3", "H_", 1);
  const co = deviations("C_2", "O_2", 2);
  assert.ok(ch.length > 500 && co.length > 50);
  assert.ok(maxAbs(ch) <= 0.03, `C-H ${maxAbs(ch)}`);
  assert.ok(maxAbs(co) <= 0.03, `C=O ${maxAbs(co)}`);
});

test("aromatic C:C, C=C and C–O: median within 0.03 Å of the natural length, every bond within 0.06 Å", () => {
  for (const [a, b, order] of [["C_R", "C_R", 1.5], ["C_2", "C_2", 2], ["C_3", "O_3", 1]] as const) {
    const d = deviations(a, b, order);
    assert.ok(d.length > 15, `${a}-${b}`);
    assert.ok(Math.abs(median(d)) <= 0.03, `${a}-${b} median ${median(d)}`);
    assert.ok(maxAbs(d) <= 0.06, `${a}-${b} max ${maxAbs(d)}`);
  }
});

// Every bond within 0.12 Å: with angles twice as stiff as DREIDING's (src/chem/conformer/parameters.ts) the
// crowding of paclitaxel's cage goes a little more into its single bonds (largest 0.111 Å, was 0.10 Å).
test("C–C and C–N single bonds: mean within 0.035 Å of the natural length, every bond within 0.12 Å", () => {
  for (const [a, b] of [["C_3", "C_3"], ["C_3", "N_3"]] as const) {
    const d = deviations(a, b, 1);
    assert.ok(d.length > 50, `${a}-${b}`);
    assert.ok(Math.abs(mean(d)) <= 0.035, `${a}-${b} mean ${mean(d)}`);
    assert.ok(maxAbs(d) <= 0.12, `${a}-${b} max ${maxAbs(d)}`);
  }
});

test("rings closed and nothing tangled: every bond within 0.12 Å of its natural length", () => {
  for (const { name, c, graph } of RUNS) {
    for (const bond of graph.bonds) {
      const r0 = naturalBondLength(graph, c.atomTypes, bond);
      const r = distance(c.coordinates, bond.a, bond.b);
      assert.ok(
        Math.abs(r - r0) <= 0.12,
        `${name} bond ${bond.a}-${bond.b}${bond.inRing ? " (ring)" : ""}: ${r}`,
      );
    }
  }
});

/** True when angle i–j–k lies in a ring of at most five atoms. */
function inSmallRing(g: MolGraph, i: number, j: number, k: number): boolean {
  const ni = g.neighbors[i]!;
  const nk = g.neighbors[k]!;
  if (ni.includes(k) || ni.some((a) => a !== j && nk.includes(a))) return true;
  return ni.some((a) => a !== j && g.neighbors[a]!.some((b) => b !== i && b !== j && nk.includes(b)));
}

test("sp3 carbon angles outside 3- to 5-membered rings: RMS deviation from 109.47° below 3°", () => {
  const dev: number[] = [];
  for (const { c, graph } of RUNS) {
    graph.neighbors.forEach((nbrs, j) => {
      if (c.atomTypes[j] !== "C_3") return;
      for (let p = 0; p < nbrs.length; p++) {
        for (let q = p + 1; q < nbrs.length; q++) {
          if (inSmallRing(graph, nbrs[p]!, j, nbrs[q]!)) continue;
          dev.push(angleDegrees(c.coordinates, nbrs[p]!, j, nbrs[q]!) - 109.471);
        }
      }
    });
  }
  assert.ok(dev.length > 2000);
  const rms = Math.sqrt(mean(dev.map((d) => d * d)));
  assert.ok(rms < 3, `RMS ${rms}`);
  assert.ok(Math.abs(mean(dev)) < 1, `mean ${mean(dev)}`);
});

// 64 % of R0: with angles twice as stiff as DREIDING's, two hydrogens of paclitaxel's crowded cage meet at
// 2.07 Å (64.8 % of the H–H R0 of 3.195 Å; Bondi's sum is 2.4 Å).
test("no clashes: non-bonded pairs beyond 1-3 stay above 70% of the Bondi radii sum and 64% of DREIDING R0", () => {
  for (const { name, c, graph } of RUNS) {
    const excluded = excludedPairs(graph);
    const q = gasteigerCharges(graph, c.atomTypes);
    const ion = (i: number) => graph.atoms[i]!.charge !== 0;
    const n = graph.atoms.length;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (excluded.has(pairKey(i, j))) continue;
        const r = distance(c.coordinates, i, j);
        const bondi = BONDI[graph.atoms[i]!.symbol]! + BONDI[graph.atoms[j]!.symbol]!;
        // Bondi's radii are those of neutral atoms: an ion on an opposite charge (sodium benzoate's Na+ between
        // its carboxylate oxygens) sits closer.
        const ionPair = (ion(i) || ion(j)) && q[i]! * q[j]! < 0;
        if (!ionPair) {
          assert.ok(r >= 0.7 * bondi, `${name} ${i}-${j}: ${r.toFixed(3)} Å vs Bondi sum ${bondi}`);
        }
        const r0 = pairVdw(c.atomTypes[i]!, c.atomTypes[j]!).r0;
        assert.ok(r >= 0.64 * r0, `${name} ${i}-${j}: ${r.toFixed(3)} Å vs R0 ${r0}`);
      }
    }
  }
});

test("aromatic six-membered rings are planar (ring torsions below 10°)", () => {
  for (const { name, c, graph } of RUNS) {
    for (const ring of graph.rings) {
      if (ring.length !== 6 || !ring.every((a) => graph.atoms[a]!.aromatic)) continue;
      for (let i = 0; i < 6; i++) {
        const phi = dihedral(
          c.coordinates,
          ring[i]!,
          ring[(i + 1) % 6]!,
          ring[(i + 2) % 6]!,
          ring[(i + 3) % 6]!,
        );
        assert.ok(Math.abs((phi * 180) / Math.PI) < 10, `${name}: ${(phi * 180) / Math.PI}`);
      }
    }
  }
});

test("every stereocentre keeps the SMILES parity (signed volume) and every double bond its E/Z", () => {
  let centres = 0;
  let doubles = 0;
  for (const { name, c, graph } of RUNS) {
    const targets = stereoTargets(graph);
    for (const t of targets.tetrahedral) {
      const v = signedVolume(c.coordinates, t.apex, ...t.atoms);
      assert.ok(t.sign * v > 0.05, `${name} centre ${t.centre}: volume ${v}, wanted sign ${t.sign}`);
      centres++;
    }
    for (const t of targets.doubleBonds) {
      const phi = dihedral(c.coordinates, ...t.atoms);
      assert.equal(Math.cos(phi) > 0, t.cis, `${name} double bond ${t.atoms[1]}=${t.atoms[2]}`);
      doubles++;
    }
  }
  assert.ok(centres >= 130 && doubles >= 7, `${centres} centres, ${doubles} double bonds`);
});

test("RDKit reads the same R/S and E/Z from the 3D coordinates as from the SMILES", () => {
  let compared = 0;
  for (const { name, smiles, c, graph } of RUNS) {
    const expected = withMol(smiles, (mol) => JSON.parse(mol.get_stereo_tags()) as StereoTags);
    const mol = rdkit().get_mol(toMolBlock(graph, c.coordinates), JSON.stringify({ removeHs: false }));
    assert.ok(mol, name);
    let found: StereoTags;
    try {
      found = JSON.parse(mol.get_stereo_tags()) as StereoTags;
    } finally {
      mol.delete();
    }
    const atoms = new Map(found.CIP_atoms.map(([i, label]) => [i, label]));
    for (const [i, label] of expected.CIP_atoms) {
      if (label === "(?)") continue;
      assert.equal(atoms.get(i), label, `${name} atom ${i}`);
      compared++;
    }
    const bonds = new Map(found.CIP_bonds.map(([i, j, label]) => [`${i},${j}`, label]));
    for (const [i, j, label] of expected.CIP_bonds) {
      if (label === "(?)") continue;
      assert.equal(bonds.get(`${i},${j}`), label, `${name} bond ${i}=${j}`);
      compared++;
    }
  }
  assert.ok(compared >= 140, `${compared} descriptors compared`);
});

interface StereoTags {
  CIP_atoms: [number, string][];
  CIP_bonds: [number, number, string][];
}
