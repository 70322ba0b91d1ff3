import * as v from "valibot";
import { standardize, STANDARDIZE_STEPS, TAUTOMER_TIMEOUT_S } from "../chem/standardize/pipeline.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { canonicalSmilesField, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `standardize`: RDKit's MolStandardize cleanup, fragment parent, uncharging and canonical tautomer. */
export const standardizeTool = defineTool({
  name: "standardize",
  title: "Standardize a molecule",
  annotations: LOCAL_COMPUTATION,
  description:
    "Standardise as RDKit's rdMolStandardize, steps in this order: cleanup (remove H, disconnect metals, " +
    "normalise nitro/azide/sulfoxide forms, reionise), fragment_parent (largest fragment: drops salts, " +
    "solvents), uncharge (neutralise), tautomer (RDKit's canonical tautomer, ≤ 1,000 tautomers). Default all. " +
    "Gives canonical SMILES, InChIKey, each step's changes ([] = none). For deduplication; property tools " +
    `describe the molecule as given. Limits: ${MAX_HEAVY_ATOMS} heavy atoms, ${TAUTOMER_TIMEOUT_S} s. ` +
    "Errors: INVALID_SMILES, MOLECULE_TOO_LARGE, COMPUTATION_TIMEOUT.",
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
    // Not `steps`, the argument's name: a list answer would take a field named as an argument for its echo.
    trace: v.pipe(
      v.array(v.object({
        step: v.pipe(v.picklist(STANDARDIZE_STEPS), v.description("The step.")),
        changes: v.pipe(v.array(v.string()), v.description("What changed, in words; [] when nothing did.")),
      })),
      v.description("Each step run, in order."),
    ),
  }),
  // Several milliseconds for a drug-sized molecule and up to its time limit for a tautomer-rich one
  // (bench/standardize_bench.ts): pooled.
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["smiles", "inchikey"] },
  run: ({ smiles, steps }) => standardize(smiles, steps),
});
