import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { readFixture, validationSet } from "./comparison.ts";
import { type BricsFixture, compareAll, retrosynthesisSuite } from "./retrosynthesis_suite.ts";

await loadTestRDKit();

test("the BRICS fixture is RDKit 2022.09's answer for the whole validation set and the drug set", () => {
  const fixture = readFixture<BricsFixture>("brics.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  assert.ok(fixture.provenance.calls.some((call) => call.includes("BRICS.FindBRICSBonds(mol)")));
  const expected = [
    ...validationSet().map((m) => [m.id, m.smiles]),
    ...DRUGS50.map((d) => [`drug:${d.name}`, d.smiles]),
  ];
  assert.deepEqual(fixture.molecules.map((m) => [m.id, m.smiles]), expected);
  assert.ok(fixture.molecules.reduce((n, m) => n + m.bonds.length, 0) > 3000);
});

test("retrosynthesis cuts RDKit's BRICS bonds with RDKit's labels and fragments on every molecule", async () => {
  const rows = await retrosynthesisSuite.run();
  assert.deepEqual(rows.map((r) => r.field), ["bond set and labels", "fragments per disconnection"]);
  for (const row of rows) {
    assert.equal(row.molecules, validationSet().length + DRUGS50.length - 3, row.field);
    assert.equal(row.agreed, row.molecules, `${row.field}: ${row.worst}`);
    assert.equal(row.worst, "none");
  }
});

test("only the three molecules RDKit 2026.09 cannot parse are left out; stereo-kept cuts are named", () => {
  const { compared, refused } = compareAll();
  // SiF6, PF6 and an Al(acac)3-like complex with neutral six-coordinate centres: RDKit 2026 refuses them.
  assert.deepEqual(refused.map((r) => r.id), ["NCI-3402", "NCI-4650", "NCI-4844"]);
  const kept = compared.filter((r) => r.keptCentres > 0).map((r) => r.id);
  assert.ok(kept.includes("drug:(S)-naproxen") && kept.includes("drug:captopril"), kept.join(" "));
  for (const row of compared) {
    assert.deepEqual(row.oursBonds, row.rdkitBonds, row.id);
    assert.deepEqual(row.fragmentMismatches, [], row.id);
  }
});
