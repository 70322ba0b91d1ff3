import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { assertAgreement } from "./agreement.ts";
import { readFixture, validationSet } from "./comparison.ts";
import { type ReactionFixture, reactionsSuite } from "./reactions_suite.ts";

await loadTestRDKit();

test("the reaction fixture is RDKit 2022.09's RunReactants on published templates and held-out molecules", () => {
  const fixture = readFixture<ReactionFixture>("reactions.json");
  assert.match(fixture.provenance.rdkit, /^2022\.09\./);
  const ids = new Set(validationSet().map((m) => m.id));
  assert.ok(fixture.held_out.length > 300 && fixture.held_out.every(([id]) => ids.has(id)));
  const sets = new Map<string, number>();
  for (const t of fixture.templates) sets.set(t.set, (sets.get(t.set) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(sets), {
    RECAP: 12,
    "RECAP unmapped": 12,
    deprotection: 25,
    BRICS: 46,
  });
  assert.ok(fixture.templates.reduce((n, t) => n + t.products.length, 0) > 3000);
});

test("run_reaction gives RDKit's products, their first reactants and unsanitisable counts for every template", async () => {
  const rows = await assertAgreement(reactionsSuite, (row) => row.molecules);
  assert.equal(rows.reduce((n, r) => n + r.molecules, 0), 95);
});
