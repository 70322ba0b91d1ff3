import * as v from "valibot";
import { boiledEgg } from "../chem/boiled_egg.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { num, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `boiled_egg`: BOILED-Egg GI absorption and BBB permeation zones. */
export const boiledEggTool = defineTool({
  name: "boiled_egg",
  title: "BOILED-Egg GI absorption and BBB permeation",
  description:
    "Predict passive gastrointestinal absorption and blood–brain barrier permeation with the BOILED-Egg " +
    "(Daina & Zoete, ChemMedChem 2016, 11, 1117, doi:10.1002/cmdc.201600182): two published ellipses in the " +
    "WLOGP–TPSA plane. Inside the white → gi_absorbed; inside the yolk → bbb_penetrant. WLOGP is the " +
    "Wildman–Crippen logP (RDKit CrippenClogP stands in for the original implementation); TPSA (Å²) follows Ertl " +
    "2000 including S and P contributions, as in the paper and SwissADME, so it can exceed calc_properties' TPSA " +
    "for S/P-containing molecules. The two verdicts are independent, as in the paper: the yolk lies inside the " +
    "white except for very apolar molecules (TPSA below about 8 Å²), which can be BBB-penetrant without being " +
    "predicted GI-absorbed. Heuristic estimate of passive permeation only: P-gp efflux and active transport are " +
    "not modelled. Salts and mixtures: the largest component is used. Fails with INVALID_SMILES, or " +
    `MOLECULE_TOO_LARGE above ${MAX_HEAVY_ATOMS} heavy atoms.`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    gi_absorbed: v.pipe(
      v.boolean(),
      v.description("Inside the white ellipse: passive GI absorption predicted."),
    ),
    bbb_penetrant: v.pipe(v.boolean(), v.description("Inside the yolk ellipse: BBB permeation predicted.")),
    logp: num("WLOGP: Wildman–Crippen logP (RDKit), 4 decimals."),
    tpsa: num("TPSA including S and P contributions, Å² (2 decimals)."),
    method: v.pipe(
      v.string(),
      v.description("Fixed text naming the BOILED-Egg method (2016) and reference."),
    ),
  }),
  run: ({ smiles }) => boiledEgg(smiles),
});
