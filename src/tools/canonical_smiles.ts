import * as v from "valibot";
import { canonicalSmiles } from "../chem/identity.ts";
import { canonicalSmilesField, givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `canonical_smiles`: one unique SMILES per molecule. */
export const canonicalSmilesTool = defineTool({
  name: "canonical_smiles",
  title: "Canonical SMILES",
  description: "Canonicalize a SMILES string with RDKit so the same molecule always gives the same text " +
    "(stereochemistry and isotopes kept). Use it to deduplicate or compare molecules written differently, e.g. " +
    "'OCC' and 'C(O)C' both give 'CCO'. Fails with INVALID_SMILES if RDKit cannot parse the input.",
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
  }),
  run: ({ smiles }) => ({ smiles, canonical_smiles: canonicalSmiles(smiles) }),
});
