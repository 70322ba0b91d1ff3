/**
 * generate_3d's SDF records as RDKit's Python reads them (tests/data/reference/sdf_roundtrip.json; see
 * ./generate_3d_sdf_suite.ts): every molecule of the validation set, the drugs, a few radicals, and every molecule
 * of the stereo set as written and in each random atom order, was written (or refused by design), and RDKit found
 * the SMILES' connectivity, charges, radicals, hydrogen counts and stereo in every record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFixture, validationSet } from "./comparison.ts";
import { geometryFixture } from "./generate_3d_suite.ts";
import {
  isOrder,
  NO_MMFF94,
  REFUSALS,
  ROUND_TRIP_FIELDS,
  roundTripFixture,
  roundTripRows,
} from "./generate_3d_sdf_suite.ts";

const fixture = roundTripFixture();

test("the fixture covers the validation set, the drugs, radicals and the stereo set, in every order", () => {
  assert.equal(fixture.provenance.rdkit, "2022.09.3");
  // Keyed by set too: a few names of the extra list are also drugs, written in another atom order.
  const written = new Map(fixture.records.map((r) => [`${r.set} ${r.id}`, r.smiles]));
  for (const m of geometryFixture().molecules) assert.equal(written.get(`${m.set} ${m.id}`), m.smiles, m.id);
  const inGeometry = new Set(geometryFixture().molecules.map((m) => m.id));
  for (const m of validationSet()) {
    if (!inGeometry.has(m.id)) assert.equal(written.get(`no-mmff94 ${m.id}`), m.smiles, m.id);
  }
  assert.equal(written.get("radical TEMPO"), "CC1(C)CCCC(C)(C)N1[O]");
  const stereo = readFixture<{ molecules: { id: string; set: string; smiles: string; orders: string[] }[] }>(
    "stereo_orders.json",
  ).molecules;
  for (const m of stereo) {
    // As written too: the first five are the exact strings generate_3d once failed on.
    const set = m.set === "extra" ? "extra" : inGeometry.has(m.id) ? "validation" : "no-mmff94";
    assert.equal(written.get(`${set} ${m.id}`), m.smiles, m.id);
    m.orders.forEach((smiles, k) => assert.equal(written.get(`orders ${m.id}#${k + 1}`), smiles, smiles));
  }
  assert.ok(fixture.records.filter(isOrder).length >= 200);
});

test("generate_3d refuses only validation molecules outside geometry.json, and only by design", () => {
  const refused = fixture.records.filter((r) => r.error);
  assert.deepEqual(
    refused.filter((r) => r.set !== "no-mmff94" || !REFUSALS.has(r.error!)).map((r) => r.id),
    [],
  );
  // Each ICl2- salt (Cl[I]Cl, a radical iodine as RDKit reads the SMILES) is built and kept.
  const iodine = fixture.records.filter((r) => r.smiles.includes("Cl[I]Cl"));
  assert.ok(iodine.length >= 5 && iodine.every((r) => !r.error), JSON.stringify(iodine));
  assert.ok(fixture.records.filter((r) => r.set === "no-mmff94" && !r.error).length >= 35);
});

test("RDKit reads every record back with the SMILES' connectivity, charges, radicals, hydrogens and stereo", () => {
  for (const r of fixture.records) {
    if (r.error) continue;
    assert.ok(ROUND_TRIP_FIELDS.every((key) => r[key]), `${r.id} ${r.smiles}: ${JSON.stringify(r)}`);
  }
  for (const row of roundTripRows(fixture.records)) {
    // The one row that counts refusals: checked above.
    if (row.field === `SDF record written (${NO_MMFF94})`) continue;
    assert.equal(row.agreed, row.molecules, row.field);
  }
  assert.ok(fixture.records.filter((r) => r.set === "radical").length >= 6);
});
