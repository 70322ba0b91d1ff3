/** The moljson reference suite (tests/reference/moljson_suite.ts) must agree with the RDKit fixtures everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { validationSet } from "./comparison.ts";
import { moljsonSuite } from "./moljson_suite.ts";

test("smiles_to_moljson agrees with RDKit 2022.09's atoms and bonds on the whole validation set", async () => {
  const molecules = validationSet().length;
  await assertAgreement(moljsonSuite, () => molecules);
});
