/** The graph reference suite (tests/reference/graph_suite.ts) must agree with the RDKit fixtures everywhere. */
import { test } from "node:test";
import { assertAgreement } from "./agreement.ts";
import { readFixture, validationSet } from "./comparison.ts";
import { graphSuite } from "./graph_suite.ts";

test("ecfp4, tanimoto, smarts_match and find_mcs agree with RDKit 2022.09 on the whole validation set", async () => {
  const molecules = validationSet().length;
  const pairs =
    readFixture<{ provenance: { pairs: unknown[] } }>("fingerprints.json").provenance.pairs.length;
  const groups = readFixture<{ molecules: unknown[] }>("mcs.json").molecules.length;
  await assertAgreement(
    graphSuite,
    (row) => row.tool === "tanimoto" ? pairs : row.tool === "find_mcs" ? groups : molecules,
  );
});
