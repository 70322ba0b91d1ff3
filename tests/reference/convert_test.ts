import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { assertAgreement } from "./agreement.ts";
import { readFixture, validationSet } from "./comparison.ts";
import { type ConvertFixture, convertSuite } from "./convert_suite.ts";

await loadTestRDKit();

const convertRows = [
  "SMILES → MOL V2000 → SMILES",
  "SMILES → MOL V3000 → SMILES",
  "RDKit's V2000 blocks read",
  "RDKit's V3000 blocks read",
  "our V2000 blocks read by RDKit's Python",
  "our V3000 blocks read by RDKit's Python",
  "InChI of the MOL block = InChI of the SMILES",
];

test("the convert fixture is RDKit 2022.09's canonical SMILES of 1,000 validation molecules, 250 with MOL blocks", () => {
  const fixture = readFixture<ConvertFixture>("convert.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  const ids = new Set(validationSet().map((m) => m.id));
  assert.equal(fixture.molecules.length, 1000);
  assert.ok(fixture.molecules.every((m) => ids.has(m.id)));
  const blocks = fixture.molecules.filter((m) => m.v3000 !== undefined);
  assert.equal(blocks.length, 250);
  assert.ok(blocks.every((m) => m.v3000!.includes("V3000") && m.v2000!.includes("V2000")));
  assert.ok(blocks.every((m) => m.ours_v2000_fnv !== undefined && m.ours_v3000_fnv !== undefined));
  // Stereo, charges and isotopes are among them, so the round trip is tested on them.
  assert.ok(fixture.molecules.filter((m) => m.canonical.includes("@")).length >= 25);
  assert.ok(fixture.molecules.filter((m) => /[/\\]/.test(m.canonical)).length >= 25);
  assert.ok(fixture.molecules.filter((m) => /[+-]\]/.test(m.canonical)).length > 400);
});

test("convert round-trips 1,000 molecules through V2000 and V3000, reads RDKit's blocks as RDKit does, and RDKit's Python reads convert's", async () => {
  const covered = [1000, 1000, 250, 250, 250, 250, 1000];
  const rows = await assertAgreement(convertSuite, (row) => covered[convertRows.indexOf(row.field)]!);
  // The known differences (convert_suite.ts) leave out a handful, each checked to be the stated one.
  for (const row of rows) {
    assert.ok(row.molecules >= 0.99 * covered[convertRows.indexOf(row.field)]!, row.field);
  }
});
