import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { parseSmilesTool } from "../../src/tools/parse_smiles.ts";
import { topologicalDistance } from "../../src/chem/graph_distance.ts";
import { withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

test("calc_properties gives the Hill formula and the SSSR ring count beside the aromatic rings", async () => {
  // Naphthalene fused to cyclopropane: 3 rings, 2 aromatic.
  const p = await calcPropertiesTool.run({ smiles: "c1ccc2cc3c(cc2c1)C3" });
  assert.equal(p.rings, 3);
  assert.equal(p.aromatic_rings, 2);
  assert.equal(p.formula, "C11H8");
  // The component the other values describe: the cation, charge appended.
  const salt = await calcPropertiesTool.run({ smiles: "C[N+](C)(C)CC.[Br-]" });
  assert.equal(salt.formula, "C5H14N+");
  assert.equal(salt.rings, 0);
  // Implicit and explicit hydrogens count; an isotope counts as its element.
  assert.equal((await calcPropertiesTool.run({ smiles: "[2H]OC1CC1" })).formula, "C3H6O");
});

test("parse_smiles gives the bonds on a shortest path between two atoms in the SMILES' order", async () => {
  // Cyclohexane: the shorter way round the ring.
  assert.equal((await parseSmilesTool.run({ smiles: "C1CCCCC1", atoms: [0, 4] })).distance, 2);
  assert.equal((await parseSmilesTool.run({ smiles: "OCC(N)CCl", atoms: [0, 5] })).distance, 4);
  assert.equal((await parseSmilesTool.run({ smiles: "CC", atoms: [1, 1] })).distance, 0);
  assert.equal((await parseSmilesTool.run({ smiles: "CCO.[Na+]", atoms: [0, 3] })).distance, null);
  assert.equal("distance" in (await parseSmilesTool.run({ smiles: "CCO" })), false);
});

test("an atom index past the molecule is refused with the atoms it has", () => {
  assert.throws(
    () => withMol("CCO", (mol) => topologicalDistance(mol, 0, 3)),
    (e: unknown) => e instanceof ChemError && e.code === "UNSUPPORTED_MOLECULE" && /0 to 2/.test(e.message),
  );
});
