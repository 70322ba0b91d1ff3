/**
 * generate_3d's SDF records as RDKit's Python reads them (tests/data/reference/sdf_roundtrip.json; see
 * ./generate_3d_sdf_suite.ts): every molecule of the geometry fixture, and every molecule of the stereo set as
 * written and in each random atom order, was written, and RDKit found the SMILES' connectivity, charges and
 * stereo in every record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFixture } from "./comparison.ts";
import { geometryFixture } from "./generate_3d_suite.ts";
import { isOrder, roundTripFixture, roundTripRows } from "./generate_3d_sdf_suite.ts";

const fixture = roundTripFixture();

test("the fixture covers every molecule of the geometry fixture and of the stereo set, in every order", () => {
  assert.equal(fixture.provenance.rdkit, "2022.09.3");
  // Keyed by set too: a few names of the extra list are also drugs, written in another atom order.
  const written = new Map(fixture.records.map((r) => [`${r.set} ${r.id}`, r.smiles]));
  for (const m of geometryFixture().molecules) assert.equal(written.get(`${m.set} ${m.id}`), m.smiles, m.id);
  const stereo = readFixture<{ molecules: { id: string; set: string; smiles: string; orders: string[] }[] }>(
    "stereo_orders.json",
  ).molecules;
  for (const m of stereo) {
    // As written too: the first five are the exact strings generate_3d once failed on.
    assert.equal(written.get(`${m.set} ${m.id}`), m.smiles, m.id);
    m.orders.forEach((smiles, k) => assert.equal(written.get(`orders ${m.id}#${k + 1}`), smiles, smiles));
  }
  assert.ok(fixture.records.filter(isOrder).length >= 200);
});

test("RDKit reads every record back with the SMILES' connectivity, charges and stereo", () => {
  assert.deepEqual(fixture.records.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`), []);
  for (const r of fixture.records) {
    assert.ok(r.connectivity && r.charges && r.stereo, `${r.id} ${r.smiles}: ${JSON.stringify(r)}`);
  }
  for (const row of roundTripRows(fixture.records)) assert.equal(row.agreed, row.molecules, row.field);
});
