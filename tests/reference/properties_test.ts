/** The properties reference suite (tests/reference/properties_suite.ts) must agree with the RDKit fixtures everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { validationSet } from "./comparison.ts";
import { propertiesSuite } from "./properties_suite.ts";

test("calc_properties, lipinski_check, boiled_egg and admet_profile agree with RDKit 2022.09's descriptors on the whole validation set", async () => {
  const molecules = validationSet().length;
  await assertAgreement(propertiesSuite, () => molecules);
});
