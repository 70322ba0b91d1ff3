/** The depict reference suite (tests/reference/depict_suite.ts) must agree with the RDKit fixture everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { DEPICT_MOLECULES, depictSuite } from "./depict_suite.ts";

test("depict's highlighted atoms and bonds are RDKit 2022.09's GetSubstructMatches on 500 molecules × 8 SMARTS", async () => {
  await assertAgreement(depictSuite, () => DEPICT_MOLECULES);
});
