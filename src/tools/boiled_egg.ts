import * as v from "valibot";
import { boiledEgg } from "../chem/boiled_egg.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `boiled_egg`: BOILED-Egg GI absorption and BBB permeation zones. */
export const boiledEggTool = defineTool({
  name: "boiled_egg",
  title: "BOILED-Egg GI absorption and BBB permeation",
  annotations: LOCAL_COMPUTATION,
  description:
    "BOILED-Egg (Daina & Zoete 2016): passive GI absorption (white ellipse) and BBB permeation (yolk) from " +
    "WLOGP (Wildman–Crippen) and TPSA (Å², with S and P, so above calc_properties' TPSA for S/P compounds); " +
    "independent verdicts, P-gp efflux not modelled. For other ADMET estimates use admet_profile. Salts: " +
    `largest component. Errors: INVALID_SMILES, MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms).`,
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
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["gi_absorbed", "bbb_penetrant", "logp", "tpsa"] },
  run: ({ smiles }) => boiledEgg(smiles),
});
