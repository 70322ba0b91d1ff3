/**
 * The `generate_3d` tool module: argument validation, the result against its own output schema (valibot and the
 * published JSON Schema, checked by an independent validator), XYZ consistency, the SDF record (read back by
 * RDKit with the XYZ's atoms, coordinates, bonds, charges, radicals and stereo) and the description's promises.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { generate3dTool } from "../../src/tools/generate_3d.ts";
import { jsonSchemaOf } from "../../src/tools/registry.ts";
import { ChemError } from "../../src/errors.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { prepareMolecule } from "../../src/chem/conformer/molecule.ts";
import { toMolBlock } from "../../src/chem/conformer/xyz.ts";

await loadTestRDKit();

test("input: smiles required, max_iterations an integer 1–20000 defaulting to 10000", () => {
  assert.equal(v.safeParse(generate3dTool.input, {}).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 0 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 1.5 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 20_001 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", extra: 1 }).success, false);
  const ok = v.parse(generate3dTool.input, { smiles: "CCO" });
  assert.equal(ok.max_iterations, 10_000);
  const schema = jsonSchemaOf(generate3dTool.input, "input");
  assert.deepEqual(schemaErrors(schema, { smiles: "CCO", max_iterations: 100 }), []);
  assert.notDeepEqual(schemaErrors(schema, { smiles: "CCO", max_iterations: "100" }), []);
});

test("result for L-alanine matches the output schema and its XYZ", async () => {
  const r = await generate3dTool.run(v.parse(generate3dTool.input, { smiles: "C[C@@H](C(=O)O)N" }));
  const parsed = v.safeParse(generate3dTool.output, r);
  assert.ok(parsed.success, JSON.stringify(parsed.issues));
  assert.deepEqual(schemaErrors(jsonSchemaOf(generate3dTool.output, "output"), r), []);
  assert.equal(r.atom_count, 13);
  assert.equal(r.heavy_atom_count, 6);
  assert.equal(r.atom_types.length, 13);
  assert.deepEqual(r.atom_types.slice(0, 6), ["C_3", "C_3", "C_2", "O_2", "O_3", "N_3"]);
  assert.equal(r.sdf, undefined, "XYZ is the default format");
  const lines = r.xyz!.trimEnd().split("\n");
  assert.equal(lines.length, 2 + 13);
  assert.equal(lines[0], "13");
  assert.ok(lines[1]!.startsWith("C[C@@H](C(=O)O)N E="));
  assert.ok(lines[1]!.includes(`${r.energy_kcal_mol.toFixed(4)} kcal/mol`));
  const t = r.energy_terms_kcal_mol;
  assert.ok(
    Math.abs(
      t.bond + t.angle + t.torsion + t.inversion + t.van_der_waals + t.electrostatic - r.energy_kcal_mol,
    ) < 1e-3,
  );
  assert.equal(r.converged, true);
  assert.ok(r.rms_gradient < 0.01);
  assert.deepEqual(r.stereo, { tetrahedral_centers: 1, double_bonds: 0 });
  assert.equal(r.force_field, "DREIDING");
  assert.match(
    r.method,
    /Mayo, Olafson & Goddard, J\. Phys\. Chem\. 1990, 94, 8897.*10\.1021\/j100389a010/,
  );
  assert.match(r.method, /heuristic|Rule-based/);
});

test("max_iterations is honoured and reported as not converged", async () => {
  const r = await generate3dTool.run({ smiles: "CCCCCCCCCC", max_iterations: 5, format: "xyz" });
  assert.equal(r.iterations, 5);
  assert.equal(r.converged, false);
});

test("description names the method, reference, units, limits and every failure code", () => {
  const d = generate3dTool.description;
  for (
    const word of ["DREIDING", "Mayo et al. 1990", "kcal/mol", "Å", "200 heavy atoms", "Heuristic"]
  ) {
    assert.ok(d.includes(word), word);
  }
  for (
    const code of [
      "INVALID_SMILES",
      "MOLECULE_TOO_LARGE",
      "UNSUPPORTED_MOLECULE",
      "COMPUTATION_TIMEOUT",
      "EMBEDDING_FAILED",
    ]
  ) {
    assert.ok(d.includes(code), code);
  }
});

test("chemistry failures surface as ChemError", () => {
  assert.throws(
    () => generate3dTool.run({ smiles: "C1CC", max_iterations: 10, format: "xyz" }),
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
  );
});

test("format 'sdf': one SDF record with the XYZ's atoms and coordinates, bonds, charges and stereo for RDKit", async () => {
  const smiles = "C[C@@H]([NH3+])C(=O)[O-].C/C=C/Cl";
  const xyz = await generate3dTool.run(v.parse(generate3dTool.input, { smiles }));
  const r = await generate3dTool.run(v.parse(generate3dTool.input, { smiles, format: "sdf" }));
  assert.equal(r.xyz, undefined);
  assert.deepEqual(schemaErrors(jsonSchemaOf(generate3dTool.output, "output"), r), []);
  const sdf = r.sdf!;
  assert.ok(sdf.endsWith("\n$$$$\n"));
  assert.match(sdf, new RegExp(`> <energy_kcal_mol>\n${r.energy_kcal_mol.toFixed(4)}\n`));
  const lines = sdf.split("\n");
  assert.equal(lines[0], smiles);
  assert.equal(lines[1]!.slice(20, 22), "3D");
  assert.equal(lines[3], " 22 20  0  0  1  0  0  0  0  0999 V2000");
  const xyzRows = xyz.xyz!.trimEnd().split("\n").slice(2).map((l) => l.trim().split(/\s+/));
  const atomRows = lines.slice(4, 4 + 22).map((l) => l.trim().split(/\s+/));
  // Same element, same coordinates to the last written digit, same order.
  assert.deepEqual(atomRows.map((a) => [a[3], a[0], a[1], a[2]]), xyzRows);
  const mol = rdkit().get_mol(sdf, JSON.stringify({ removeHs: false }))!;
  const given = rdkit().get_mol(smiles)!;
  try {
    assert.equal(mol.get_num_atoms(), 22);
    mol.remove_hs_in_place();
    assert.equal(mol.get_smiles(), given.get_smiles());
  } finally {
    mol.delete();
    given.delete();
  }
});

test("radicals: the record gives their valence and spin, so RDKit adds no hydrogens to them (V2000 and V3000)", async () => {
  // TEMPO's oxygen, the iodine of ICl2 and carbons with one, two and three unpaired electrons.
  const smiles = "CC1(C)CCCC(C)(C)N1[O].Cl[I]Cl.C[CH2].[CH2].C[C]";
  const r = await generate3dTool.run(v.parse(generate3dTool.input, { smiles, format: "sdf" }));
  const sdf = r.sdf!;
  assert.match(sdf, /^M {2}RAD {2}4(?: +\d+ +[23]){4}$/m);
  const { graph } = prepareMolecule(`${Array(250).fill("C").join(".")}.${smiles}`, 300);
  const block = toMolBlock(graph, Float64Array.from({ length: 3 * graph.atoms.length }, (_, i) => i * 0.37));
  assert.ok(/^M {2}V30 \d+ O .* RAD=2 VAL=1$/m.test(block), "TEMPO's oxygen: doublet, one bond");
  assert.ok(
    /^M {2}V30 \d+ C .* VAL=1$/m.test(block),
    "the carbon with three unpaired electrons: valence only",
  );
  for (const [text, expected] of [[sdf, smiles], [block, `${Array(250).fill("C").join(".")}.${smiles}`]]) {
    const mol = rdkit().get_mol(text!, JSON.stringify({ removeHs: false }))!;
    const given = rdkit().get_mol(expected!)!;
    try {
      mol.remove_hs_in_place();
      assert.equal(mol.get_smiles(), given.get_smiles());
    } finally {
      mol.delete();
      given.delete();
    }
  }
});

test("molfiles above 999 atoms are written as V3000 and read back whole", () => {
  const { graph } = prepareMolecule(Array(250).fill("C").join("."), 250);
  const x = Float64Array.from({ length: 3 * graph.atoms.length }, (_, i) => i * 0.37);
  const block = toMolBlock(graph, x, "250 methanes");
  assert.match(block.split("\n")[3]!, /V3000$/);
  const mol = rdkit().get_mol(block, JSON.stringify({ removeHs: false }))!;
  try {
    assert.equal(mol.get_num_atoms(), 1250);
    assert.equal(JSON.parse(mol.get_descriptors()).NumHeavyAtoms, 250);
  } finally {
    mol.delete();
  }
});
