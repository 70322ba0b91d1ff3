import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { assertAgreement } from "./agreement.ts";
import { readFixture, validationSet } from "./comparison.ts";
import { type CountsFixture, countsSuite } from "./counts_suite.ts";

await loadTestRDKit();

test("the counts fixture is RDKit 2022.09's formula, rings and two distances of every validation molecule", () => {
  const fixture = readFixture<CountsFixture>("counts.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  assert.equal(fixture.molecules.length, validationSet().length);
  // Salts and mixtures are among them, so distances across components (null) are tested.
  assert.ok(fixture.molecules.filter((m) => m.distances.some(([, , d]) => d === null)).length >= 20);
  assert.ok(fixture.molecules.filter((m) => m.rings >= 4).length >= 100);
});

test("formula, ring count and topological distance equal RDKit's on the validation set", async () => {
  const n = validationSet().length;
  await assertAgreement(countsSuite, (row) => row.field.startsWith("distance") ? 2 * n : n);
});
