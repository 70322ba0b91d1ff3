import * as v from "valibot";
import { ALERTS_MAX_HEAVY_ATOMS, PAINS_METHOD, painsCheckSmiles } from "../chem/alerts.ts";
import { alertOutput, alertResult } from "./brenk_check.ts";
import { smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `pains_check`: PAINS substructure filters. */
export const painsCheckTool = defineTool({
  name: "pains_check",
  title: "PAINS structural alerts",
  annotations: LOCAL_COMPUTATION,
  description:
    "Screen for the 480 PAINS classes (Baell & Holloway 2010; RDKit FilterCatalog): chemotypes that often " +
    "give false positives in high-throughput assays (rhodanines, catechols, quinones). Each hit gives its " +
    "class, family and matched atoms; passes = no hit. A hit is a warning, not proof. For reactive or toxic " +
    "groups use brenk_check. Errors: INVALID_SMILES, " +
    "MOLECULE_TOO_LARGE (> " +
    `${ALERTS_MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({
    smiles: smilesArg(),
  }),
  output: alertOutput("PAINS class", "PAINS_A, PAINS_B or PAINS_C"),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["passes", "alerts.name"] },
  run: ({ smiles }) => alertResult(smiles, painsCheckSmiles(smiles, ALERTS_MAX_HEAVY_ATOMS), PAINS_METHOD),
});
