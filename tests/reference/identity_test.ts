/** The identity reference suite (tests/reference/identity_suite.ts) must agree with the RDKit fixtures everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { validationSet } from "./comparison.ts";
import { identitySuite } from "./identity_suite.ts";

test("parse_smiles, canonical_smiles, InChI and formula agree with RDKit 2022.09 on the whole validation set", async () => {
  const molecules = validationSet().length;
  await assertAgreement(identitySuite, () => molecules);
});
