/** The alerts reference suite (tests/reference/alerts_suite.ts) must agree with the RDKit fixtures everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { validationSet } from "./comparison.ts";
import { alertsSuite } from "./alerts_suite.ts";

test("pains_check, brenk_check and sa_score agree with RDKit 2022.09's FilterCatalog and sascorer.py on the whole validation set", async () => {
  const molecules = validationSet().length;
  await assertAgreement(alertsSuite, () => molecules);
});
