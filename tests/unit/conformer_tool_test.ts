/**
 * The `generate_3d` tool module: argument validation, the result against its own output schema (valibot and the
 * published JSON Schema, checked by an independent validator), XYZ consistency and the description's promises.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { generate3dTool } from "../../src/tools/generate_3d.ts";
import { jsonSchemaOf } from "../../src/tools/registry.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

test("input: smiles required, max_iterations an integer 1–20000 defaulting to 5000", () => {
  assert.equal(v.safeParse(generate3dTool.input, {}).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 0 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 1.5 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", max_iterations: 20_001 }).success, false);
  assert.equal(v.safeParse(generate3dTool.input, { smiles: "CCO", extra: 1 }).success, false);
  const ok = v.parse(generate3dTool.input, { smiles: "CCO" });
  assert.equal(ok.max_iterations, 5000);
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
  const lines = r.xyz.trimEnd().split("\n");
  assert.equal(lines.length, 2 + 13);
  assert.equal(lines[0], "13");
  assert.ok(lines[1]!.startsWith("C[C@@H](C(=O)O)N E="));
  assert.ok(lines[1]!.includes(`${r.energy_kcal_mol.toFixed(4)} kcal/mol`));
  const t = r.energy_terms_kcal_mol;
  assert.ok(
    Math.abs(t.bond + t.angle + t.torsion + t.inversion + t.van_der_waals - r.energy_kcal_mol) < 1e-3,
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
  const r = await generate3dTool.run({ smiles: "CCCCCCCCCC", max_iterations: 5 });
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
    () => generate3dTool.run({ smiles: "C1CC", max_iterations: 10 }),
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
  );
});
