import * as v from "valibot";
import { ALERTS_MAX_HEAVY_ATOMS, PAINS_METHOD, painsCheckSmiles } from "../chem/alerts.ts";
import { alertOutput, alertResult } from "./brenk_check.ts";
import { smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `pains_check`: PAINS substructure filters. */
export const painsCheckTool = defineTool({
  name: "pains_check",
  title: "PAINS structural alerts",
  description: "Screen a molecule against the 480 PAINS (pan-assay interference compounds) substructure " +
    "classes of Baell & Holloway (J. Med. Chem. 2010, 53, 2719, doi:10.1021/jm901137j): families A (16), B (55) " +
    "and C (409), as the SMARTS of RDKit's FilterCatalog. Flags chemotypes that frequently give false positives " +
    "in high-throughput assays (e.g. ene_rhod rhodanines, catechols, quinones, azo dyes, hydroxyphenyl " +
    "hydrazones). Each alert reports its class name (the number in parentheses is the compound count in the " +
    "original study), its family and the matched atom indices (0-based, SMILES order). passes = no alert. A hit " +
    "is a warning about assay interference, not proof of it; a pass is not proof of a clean compound. Limit: " +
    `${ALERTS_MAX_HEAVY_ATOMS} heavy atoms. Fails with INVALID_SMILES or MOLECULE_TOO_LARGE.`,
  input: v.strictObject({
    smiles: smilesArg(
      `Molecule as SMILES (at most ${ALERTS_MAX_HEAVY_ATOMS} heavy atoms), e.g. 'S=C1SC(=Cc2ccccc2)C(=O)N1'.`,
    ),
  }),
  output: alertOutput("PAINS class", "PAINS_A, PAINS_B or PAINS_C"),
  run: ({ smiles }) => alertResult(smiles, painsCheckSmiles(smiles, ALERTS_MAX_HEAVY_ATOMS), PAINS_METHOD),
});
