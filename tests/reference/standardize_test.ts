import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { assertAgreement, leftOut } from "./agreement.ts";
import { readFixture } from "./comparison.ts";
import { standardizeAnswers, type StandardizeFixture, standardizeSuite } from "./standardize_suite.ts";

await loadTestRDKit();

test("the standardize fixture is RDKit 2022.09's rdMolStandardize on RDKit's tests, NCI and the validation set", () => {
  const fixture = readFixture<StandardizeFixture>("standardize.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  assert.ok(fixture.molecules.length >= 5000, `${fixture.molecules.length} molecules`);
  const sources = new Set(fixture.molecules.map((m) => m.id.split(":")[0]));
  for (const source of ["rdkit-test", "NCI"]) assert.ok(sources.has(source), source);
  // Each step is exercised: fragments removed and charges neutralised on hundreds of molecules.
  const differ = (f: "cleanup" | "fragment_parent", g: "fragment_parent" | "charge_parent") =>
    fixture.molecules.filter((m) => typeof m[g] === "string" && m[g] !== m[f]).length;
  assert.ok(differ("cleanup", "fragment_parent") > 300);
  assert.ok(differ("fragment_parent", "charge_parent") > 150);
  assert.ok(fixture.molecules.some((m) => /\[(Na|K|Fe|Cu|Zn|Pt|Pd|Co)/.test(m.smiles)));
});

test("standardize agrees with RDKit's Cleanup, FragmentParent, ChargeParent and TautomerParent on ≥ 99.5 % of ≥ 5,000 molecules", async () => {
  const total = standardizeAnswers().length;
  const rows = await assertAgreement(standardizeSuite, () => total);
  for (const row of rows) {
    const share = row.agreed / total;
    assert.ok(share >= 0.995, `${row.field}: ${row.agreed}/${total}`);
    assert.ok(leftOut(row) <= total * 0.005, `${row.field}: ${leftOut(row)} left out`);
  }
});
