import * as v from "valibot";
import { LIPINSKI_THRESHOLDS, lipinskiCheck } from "../chem/properties.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { componentFields, count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** Method text of lipinski_check results. */
export const LIPINSKI_METHOD = "Rule of five (Lipinski et al., Adv. Drug Deliv. Rev. 1997, 23, 3, " +
  "doi:10.1016/S0169-409X(96)00423-1): MW ≤ 500, logP ≤ 5 (Wildman–Crippen), HBD ≤ 5 (OH + NH), HBA ≤ 10 " +
  "(N + O); passes with at most one violation.";

/** The four criteria, in the order reported. */
const LIPINSKI_RULES = ["molecular_weight", "logp", "hbd", "hba"] as const;

/** `lipinski_check`: rule of five with per-rule breakdown. */
export const lipinskiCheckTool = defineTool({
  name: "lipinski_check",
  title: "Lipinski rule of five",
  annotations: LOCAL_COMPUTATION,
  description: "Lipinski's rule of five (Lipinski et al. 1997): MW ≤ " +
    `${LIPINSKI_THRESHOLDS.molecular_weight} g/mol, logP ≤ ${LIPINSKI_THRESHOLDS.logp} (Wildman–Crippen), ` +
    `donors ≤ ${LIPINSKI_THRESHOLDS.hbd} (OH + NH), acceptors ≤ ${LIPINSKI_THRESHOLDS.hba} (N + O); passes ` +
    "with at most one violation, each rule reported. A filter for oral small molecules, not a score (for " +
    "drug-likeness use QED in calc_properties). Salts: largest component. Errors: INVALID_SMILES, " +
    `MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    ...componentFields("evaluated"),
    rules: v.pipe(
      v.array(v.object({
        rule: v.pipe(
          v.picklist(LIPINSKI_RULES),
          v.description("Which criterion."),
        ),
        value: num("The molecule's value (MW in g/mol, logP, or a count)."),
        threshold: num("Upper bound; the criterion passes when value ≤ threshold."),
        passed: v.pipe(v.boolean(), v.description("Verdict: true when value ≤ threshold.")),
        definition: v.pipe(v.string(), v.description("How the value is computed.")),
      })),
      v.description("The four criteria in the order MW, logP, HBD, HBA."),
    ),
    violations: v.pipe(count("Criteria exceeded, 0–4."), v.maxValue(4)),
    passes: v.pipe(v.boolean(), v.description("True with at most one violation.")),
    method: v.pipe(v.string(), v.description("Rule and reference.")),
  }),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: {
    cap: 1000,
    columns: [
      "passes",
      "violations",
      ...LIPINSKI_RULES.map((rule) => `rules[rule=${rule}].value`),
      "parent_smiles",
    ],
  },
  run: ({ smiles }) => ({ smiles, ...lipinskiCheck(smiles), method: LIPINSKI_METHOD }),
});
