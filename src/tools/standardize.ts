import * as v from "valibot";
import { standardize, STANDARDIZE_STEPS } from "../chem/standardize/pipeline.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { canonicalSmilesField, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `standardize`: RDKit's MolStandardize cleanup, fragment parent and uncharging. */
export const standardizeTool = defineTool({
  name: "standardize",
  title: "Standardize a molecule",
  annotations: LOCAL_COMPUTATION,
  description:
    "Standardise a molecule as RDKit's rdMolStandardize does, steps in this order: cleanup (remove H, " +
    "disconnect metals, normalise nitro/azide/sulfoxide… forms, reionise), fragment_parent (keep the largest " +
    "fragment: salts, solvents), uncharge (neutralise where a neutral form exists). Default all. Gives " +
    "canonical SMILES, InChIKey and what each step changed ([] = nothing). For deduplication and comparison; " +
    `property tools describe the molecule as given. Limit: ${MAX_HEAVY_ATOMS} heavy atoms. ` +
    "Errors: INVALID_SMILES, MOLECULE_TOO_LARGE.",
  input: v.strictObject({
    smiles: smilesArg(),
    steps: v.optional(
      v.pipe(
        v.array(v.picklist(STANDARDIZE_STEPS)),
        v.minLength(1),
        v.description("Steps to run (always in the order above)."),
      ),
    ),
  }),
  output: v.object({
    smiles: canonicalSmilesField,
    inchikey: v.optional(
      v.pipe(v.string(), v.description("Standard InChIKey; absent where InChI has no form.")),
    ),
    steps: v.pipe(
      v.array(v.object({
        step: v.picklist(STANDARDIZE_STEPS),
        changes: v.pipe(v.array(v.string()), v.description("What changed, in words; [] when nothing did.")),
      })),
      v.description("Each step run, in order."),
    ),
  }),
  // About 4 ms for a drug-sized molecule (bench/standardize_bench.ts), more than the protocol thread should
  // spend: pooled, as calc_properties.
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["smiles", "inchikey"] },
  run: ({ smiles, steps }) => standardize(smiles, steps),
});
