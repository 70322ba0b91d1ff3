import * as v from "valibot";
import { ECFP4_METHOD, ecfp4Of, similarityOf, tanimoto } from "../chem/fingerprint.ts";
import { count, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `tanimoto`: ECFP4 similarity of two molecules. */
export const tanimotoTool = defineTool({
  name: "tanimoto",
  title: "Tanimoto similarity",
  annotations: LOCAL_COMPUTATION,
  description: "Tanimoto similarity (0–1) on ECFP4 (RDKit Morgan radius 2, 2048 bits) of smiles_a to " +
    "smiles_b; above about 0.4 suggests related chemotypes. For a shared scaffold use find_mcs. Error: " +
    "INVALID_SMILES.",
  input: v.strictObject({
    smiles_a: smilesArg("First molecule as SMILES."),
    smiles_b: smilesArg("Second molecule as SMILES."),
  }),
  output: v.object({
    smiles_a: v.pipe(v.string(), v.description("The first SMILES as given.")),
    smiles_b: v.pipe(v.string(), v.description("The second SMILES as given.")),
    similarity: v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description("Tanimoto coefficient, 0–1.")),
    common_bits: count("Bits set in both fingerprints."),
    bits_a: count("Bits set in the first fingerprint."),
    bits_b: count("Bits set in the second fingerprint."),
    method: v.pipe(v.string(), v.description("Fingerprint definition and reference.")),
  }),
  placement: { where: "by_cost", cost: ({ smiles_a, smiles_b }) => textsCost(smiles_a, smiles_b) },
  list: {
    cap: 1000,
    item: "smiles_b",
    columns: ["similarity", "common_bits", "bits_b"],
    shared: ["bits_a"],
    // The query's fingerprint is computed once for the whole list, not once per molecule.
    prepare: ({ smiles_a }) => {
      const a = ecfp4Of(smiles_a as string);
      return (smiles_b) => ({
        smiles_a,
        smiles_b,
        ...similarityOf(a, ecfp4Of(smiles_b)),
        method: ECFP4_METHOD,
      });
    },
  },
  run: ({ smiles_a, smiles_b }) => ({
    smiles_a,
    smiles_b,
    ...tanimoto(smiles_a, smiles_b),
    method: ECFP4_METHOD,
  }),
});
