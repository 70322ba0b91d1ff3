/**
 * Property test: the atom order of a SMILES does not decide whether generate_3d finds the requested stereoisomer.
 * Every stereo molecule of the validation set (and the stereo-dense structures of scripts/reference/
 * stereo_orders.py: epoxides, aziridines, cyclopropanes, bridged and caged rings, macrolides, steroids, sugars,
 * terpenes) is built as written and in three atom orders that RDKit's Python wrote at random with a fixed seed
 * (`Chem.MolToSmiles(mol, doRandom=True)`, tests/data/reference/stereo_orders.json). The SMILES as written
 * count: the orders that once failed (the first five of the list) were found as written, and random orders
 * rarely hit them. Each structure must come back, and RDKit (MinimalLib) must read the same R/S and E/Z from
 * its SDF record as from the SMILES it was built from. Coverage: every molecule of the fixture as written and in
 * every one of its orders (no sampling).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { conformerSdf, generate3d } from "../../src/chem/conformer/index.ts";
import { rdkit, withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import { readFixture } from "./comparison.ts";

await loadTestRDKit();

interface StereoOrders {
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly molecules: readonly {
    readonly id: string;
    readonly set: "validation" | "extra";
    readonly smiles: string;
    readonly orders: readonly string[];
  }[];
}

interface StereoTags {
  CIP_atoms: [number, string][];
  CIP_bonds: [number, number, string][];
}

const fixture = readFixture<StereoOrders>("stereo_orders.json");

/** The CIP labels RDKit gives the specified stereo elements, as "atom:label" / "atom,atom:label" strings. */
function labels(tags: StereoTags, keep?: Set<string>): string[] {
  const atoms = tags.CIP_atoms.filter(([, l]) => l !== "(?)").map(([i, l]) => `${i}:${l}`);
  const bonds = tags.CIP_bonds.filter(([, , l]) => l !== "(?)").map(([i, j, l]) => `${i},${j}:${l}`);
  const all = [...atoms, ...bonds];
  return keep ? all.filter((s) => keep.has(s.slice(0, s.indexOf(":")))) : all;
}

function readBack(sdf: string): StereoTags {
  const mol = rdkit().get_mol(sdf, JSON.stringify({ removeHs: false }));
  assert.ok(mol, "RDKit reads the SDF record");
  try {
    return JSON.parse(mol.get_stereo_tags()) as StereoTags;
  } finally {
    mol.delete();
  }
}

const runs: { id: string; smiles: string; error?: string; wanted: string[]; found: string[] }[] = [];
for (const m of fixture.molecules) {
  for (const smiles of [m.smiles, ...m.orders]) {
    const wanted = labels(withMol(smiles, (mol) => JSON.parse(mol.get_stereo_tags()) as StereoTags));
    try {
      const sdf = conformerSdf(generate3d(smiles));
      // Centres the SMILES leaves open get a label from the 3D structure too; only the specified ones count.
      const specified = new Set(wanted.map((s) => s.slice(0, s.indexOf(":"))));
      runs.push({ id: m.id, smiles, wanted, found: labels(readBack(sdf), specified) });
    } catch (error) {
      if (!(error instanceof ChemError)) throw error;
      runs.push({ id: m.id, smiles, error: error.code, wanted, found: [] });
    }
  }
}

test("the fixture: every stereo molecule of the validation set and the extra list, three orders each", () => {
  assert.equal(fixture.provenance.rdkit, "2022.09.3");
  const validation = fixture.molecules.filter((m) => m.set === "validation").length;
  const extra = fixture.molecules.filter((m) => m.set === "extra").length;
  assert.ok(validation >= 55 && extra >= 38, `${validation} validation, ${extra} extra molecules`);
  for (const m of fixture.molecules) {
    assert.equal(m.orders.length, 3, m.id);
    assert.equal(new Set(m.orders).size, 3, m.id);
    // Every order is the same molecule: MinimalLib's canonical SMILES agree.
    const canonical = withMol(m.smiles, (mol) => mol.get_smiles());
    for (const order of m.orders) assert.equal(withMol(order, (mol) => mol.get_smiles()), canonical, order);
  }
});

test("the SMILES generate_3d once failed on are run exactly as written", () => {
  const issue = [
    "CC[C@H]1O[C@@]1(C)CCC",
    "C(C)[C@H]1O[C@@]1(C)CCC",
    "CCC[C@@]1(C)O[C@@H]1CC",
    "O1[C@](CCC)([C@H]1CC)C",
    "N#CC1=C(C#N)[C@@H]2C3=C(C=C4[C@H]5CC[C@H](C5)[C@]42C(C#N)=C1C#N)[C@@H]1CCC3C1",
  ];
  for (const smiles of issue) {
    const run = runs.find((r) => r.smiles === smiles);
    assert.ok(run && !run.error && run.wanted.length > 0, smiles);
  }
});

test("every order gives a structure: no EMBEDDING_FAILED, no other error", () => {
  assert.equal(runs.length, 4 * fixture.molecules.length);
  assert.deepEqual(runs.filter((r) => r.error).map((r) => `${r.id} ${r.smiles}: ${r.error}`), []);
});

test("every order gives the requested stereoisomer: RDKit reads the SMILES' R/S and E/Z back from the SDF", () => {
  let elements = 0;
  for (const r of runs) {
    if (r.error) continue;
    assert.deepEqual(r.found.sort(), [...r.wanted].sort(), `${r.id} ${r.smiles}`);
    elements += r.wanted.length;
  }
  assert.ok(elements >= 1000, `${elements} stereo elements compared`);
});
