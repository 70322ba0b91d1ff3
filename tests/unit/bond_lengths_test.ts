/**
 * The bond-length table of src/chem/conformer/bond_lengths.ts against MMFF94 as RDKit reads it
 * (tests/data/reference/mmff_bond_lengths.json, written by scripts/reference/mmff_bond_lengths.py): every row's
 * value is MMFF94's r0 for its representative molecule, generate_3d's typing puts that molecule's bond in that
 * row, and the row exists only where DREIDING's own rule is 0.02 Å or more away.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { prepareMolecule } from "../../src/chem/conformer/molecule.ts";
import { assignTypes } from "../../src/chem/conformer/typing.ts";
import { bondLength } from "../../src/chem/conformer/parameters.ts";
import {
  BOND_LENGTH_ROWS,
  bondLengthRow,
  bondShiftKey,
  environment,
  naturalBondLength,
  REPLACEMENT_THRESHOLD,
} from "../../src/chem/conformer/bond_lengths.ts";
import { BOND_LENGTH_SHIFTS } from "../../src/chem/data/mmff_geometry.ts";

await loadTestRDKit();

interface MmffRow {
  atoms: [string, string];
  order: string;
  smiles: string;
  bond: [number, number];
  mmff_types: [number, number];
  r0: number;
  rule: boolean;
}

const MMFF = JSON.parse(
  readFileSync(join(ROOT, "tests/data/reference/mmff_bond_lengths.json"), "utf8"),
) as { provenance: { rdkit: string }; rows: MmffRow[] };

const sameKey = (p: readonly string[], q: readonly string[]) =>
  (p[0] === q[0] && p[1] === q[1]) || (p[0] === q[1] && p[1] === q[0]);

function representative(row: MmffRow) {
  const { graph } = prepareMolecule(row.smiles, 200);
  const types = assignTypes(graph);
  const bond = graph.bonds.find((b) => sameKey([String(b.a), String(b.b)], row.bond.map(String)));
  assert.ok(bond, `${row.smiles}: atoms ${row.bond} bonded`);
  return { graph, types, bond };
}

test("every table row is MMFF94's r0 as RDKit 2022.09 reads it, and every MMFF94 row is in the table", () => {
  assert.equal(MMFF.provenance.rdkit, "2022.09.3");
  assert.equal(BOND_LENGTH_ROWS.length, MMFF.rows.length);
  for (const m of MMFF.rows) {
    const row = BOND_LENGTH_ROWS.find((r) => r.order === m.order && sameKey(r.atoms, m.atoms));
    assert.ok(row, `${m.atoms.join(" ")} ${m.order}`);
    assert.equal(row.r0, m.r0, `${m.atoms.join(" ")} ${m.order}`);
    assert.equal(row.mmff.includes("(rule)"), m.rule, `${m.atoms.join(" ")}: empirical-rule flag`);
  }
});

test("generate_3d's typing puts each representative bond in its own row", () => {
  for (const m of MMFF.rows) {
    const { graph, types, bond } = representative(m);
    const row = bondLengthRow(graph, types, bond);
    assert.ok(row, `${m.smiles} ${m.bond}: no row`);
    assert.ok(
      row.order === m.order && sameKey(row.atoms, m.atoms),
      `${m.smiles}: got ${row.atoms} ${row.order}`,
    );
    // The natural length is the row's r0 less the class's fitted shift towards MMFF94's structures, if any.
    const shift = BOND_LENGTH_SHIFTS[bondShiftKey(graph, types, bond)] ?? 0;
    assert.ok(Math.abs(naturalBondLength(graph, types, bond) - (m.r0 - shift)) < 1e-9, m.smiles);
  }
});

test(`a row exists only where DREIDING's R_I + R_J − 0.01 Å is ${REPLACEMENT_THRESHOLD} Å or more off`, () => {
  for (const m of MMFF.rows) {
    const { types, bond } = representative(m);
    const dreiding = bondLength(types[bond.a]!, types[bond.b]!);
    assert.ok(
      Math.abs(dreiding - m.r0) >= REPLACEMENT_THRESHOLD - 1e-9,
      `${m.smiles}: DREIDING ${dreiding.toFixed(3)} vs MMFF94 ${m.r0}`,
    );
  }
});

test("bonds without a row keep DREIDING's rule; environments name sulfonyl S, phosphoryl P and charges", () => {
  const cases: [string, number, number, number][] = [
    ["CC", 0, 2, 1.09], // C_3–H: 0.77 + 0.33 − 0.01
    ["c1ccccc1", 0, 1, 1.39], // aromatic C:C
    ["CC=O", 1, 2, 1.22], // C_2=O_2
    ["CO", 0, 1, 1.42], // C_3–O_3
    ["C[NH3+]", 0, 1, 1.462], // ammonium: C_3–N_3+ falls back to C_3–N_3
  ];
  for (const [smiles, i, j, r0] of cases) {
    const { graph } = prepareMolecule(smiles, 200);
    const types = assignTypes(graph);
    const bond = graph.bonds.find((b) => sameKey([String(b.a), String(b.b)], [String(i), String(j)]))!;
    assert.equal(bondLengthRow(graph, types, bond), undefined, smiles);
    const shift = BOND_LENGTH_SHIFTS[bondShiftKey(graph, types, bond)] ?? 0;
    assert.ok(Math.abs(naturalBondLength(graph, types, bond) - (r0 - shift)) < 1e-9, smiles);
  }
  const label = (smiles: string, i: number) => {
    const { graph } = prepareMolecule(smiles, 200);
    return environment(graph, assignTypes(graph), i);
  };
  assert.equal(label("CS(C)(=O)=O", 1), "S_3(O2)");
  assert.equal(label("CS(C)=O", 1), "S_3(O)");
  assert.equal(label("CSC", 1), "S_3");
  assert.equal(label("COP(=O)(OC)OC", 2), "P_3(O)");
  assert.equal(label("C[N+](=O)[O-]", 1), "N_2+");
  assert.equal(label("C[N+](=O)[O-]", 3), "O_3-");
});
