/**
 * generate_3d's SDF records as RDKit's Python reads them (tests/data/reference/sdf_roundtrip.json; see
 * ./generate_3d_sdf_suite.ts): every molecule of the geometry fixture and every random atom order of the stereo
 * set was written, and RDKit found the SMILES' connectivity, charges and stereo in every record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFixture } from "./comparison.ts";
import { geometryFixture } from "./generate_3d_suite.ts";
import { isOrder, roundTripFixture, roundTripRows } from "./generate_3d_sdf_suite.ts";

const fixture = roundTripFixture();

test("the fixture covers every molecule of the geometry fixture and every order of the stereo set", () => {
  assert.equal(fixture.provenance.rdkit, "2022.09.3");
  const ids = new Set(fixture.records.map((r) => r.id));
  for (const m of geometryFixture().molecules) assert.ok(ids.has(m.id), m.id);
  const orders =
    readFixture<{ molecules: { id: string; orders: string[] }[] }>("stereo_orders.json").molecules;
  for (const m of orders) m.orders.forEach((smiles, k) => assert.ok(ids.has(`${m.id}#${k + 1}`), smiles));
  assert.ok(fixture.records.filter(isOrder).length >= 200);
});

test("RDKit reads every record back with the SMILES' connectivity, charges and stereo", () => {
  assert.deepEqual(fixture.records.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`), []);
  for (const r of fixture.records) {
    assert.ok(r.connectivity && r.charges && r.stereo, `${r.id} ${r.smiles}: ${JSON.stringify(r)}`);
  }
  for (const row of roundTripRows(fixture.records)) assert.equal(row.agreed, row.molecules, row.field);
});
