/**
 * The held-out suite (tests/reference/held_out_suite.ts): on molecules outside the validation set, every field
 * agrees with RDKit 2022.09 or differs by a checked version change, and every difference the whole scan found is
 * among the molecules the suite checks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertAgreement, leftOut } from "./agreement.ts";
import { readFixture } from "./comparison.ts";
import { type HeldOutFixture, heldOutSuite } from "./held_out_suite.ts";
import { HELD_OUT_FIELDS } from "./held_out_values.ts";

test("sa_score, calc_properties and canonical_smiles agree with RDKit 2022.09 on held-out molecules, or differ by a checked version change", async () => {
  const fixture = readFixture<HeldOutFixture>("held_out.json");
  const { scan } = fixture.provenance;
  const rows = await assertAgreement(heldOutSuite, () => fixture.molecules.length);
  const refused = Object.values(scan.refused).reduce((n, k) => n + k, 0);
  assert.equal(rows.length, HELD_OUT_FIELDS.length);
  HELD_OUT_FIELDS.forEach((field, i) => {
    assert.equal(leftOut(rows[i]!), scan.differing[field.key]! + refused, `${field.key}: ${rows[i]!.field}`);
  });
});
