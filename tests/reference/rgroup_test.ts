import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { assertAgreement } from "./agreement.ts";
import { readFixture } from "./comparison.ts";
import { type RgroupFixture, rgroupSuite } from "./rgroup_suite.ts";

await loadTestRDKit();

test("the rgroup fixture is RDKit 2022.09's decomposition of four series, with FWDecompose's R² 0.81", () => {
  const fixture = readFixture<RgroupFixture>("rgroup.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  assert.deepEqual(fixture.series.map((s) => s.name), ["CHEMBL2321810", "cdk2", "bzr", "fraggle"]);
  const chembl = fixture.series[0]!;
  assert.equal(chembl.smiles.length, 1017);
  assert.equal(chembl.rows.length, 628);
  assert.equal(chembl.fit!.ridge.r2.toFixed(2), "0.81");
  // The symmetric core: every one of 100 molecules matched, R groups at up to five positions.
  assert.equal(fixture.series[3]!.rows.length, 100);
});

test("rgroup_decompose gives RDKit's rows and unmatched molecules, and FWDecompose's and lstsq's fits within 1e-6", async () => {
  const fixture = readFixture<RgroupFixture>("rgroup.json");
  const size = new Map(fixture.series.map((s) => [s.name, s]));
  await assertAgreement(rgroupSuite, (row) => {
    const s = size.get(row.field.split(":")[0]!)!;
    if (row.field.includes("unmatched")) return 1;
    if (row.field.includes("fit")) {
      const subs = Object.values(s.fit!.ridge.contributions).reduce((n, c) => n + Object.keys(c).length, 0);
      return subs + 2;
    }
    return s.rows.length;
  });
});
