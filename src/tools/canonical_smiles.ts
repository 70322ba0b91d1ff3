import * as v from "valibot";
import { canonicalSmiles } from "../chem/identity.ts";
import { canonicalSmilesField, givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `canonical_smiles`: one unique SMILES per molecule. */
export const canonicalSmilesTool = defineTool({
  name: "canonical_smiles",
  title: "Canonical SMILES",
  annotations: LOCAL_COMPUTATION,
  description:
    "RDKit canonical isomeric SMILES (stereo and isotopes kept): one molecule always gives one string, so " +
    "use it to deduplicate or compare molecules written differently. Example: 'OCC' and 'C(O)C' both give " +
    "'CCO'. Error: INVALID_SMILES.",
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
  }),
  placement: { where: "by_cost", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["canonical_smiles"] },
  run: ({ smiles }) => ({ smiles, canonical_smiles: canonicalSmiles(smiles) }),
});
