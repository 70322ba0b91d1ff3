/**
 * The specification's twenty tools, in the order `tools/list` shows them: the default listing, and the
 * one-molecule tools `batch` runs over lists.
 *
 * @module
 */
import type { Tool } from "./tool.ts";
import { canonicalSmilesTool } from "./canonical_smiles.ts";
import { ecfp4Tool } from "./ecfp4.ts";
import { parseSmilesTool } from "./parse_smiles.ts";
import { smartsMatchTool } from "./smarts_match.ts";
import { tanimotoTool } from "./tanimoto.ts";
import { saScoreTool } from "./sa_score.ts";
import { calcPropertiesTool } from "./calc_properties.ts";
import { lipinskiCheckTool } from "./lipinski_check.ts";
import { boiledEggTool } from "./boiled_egg.ts";
import { admetProfileTool } from "./admet_profile.ts";
import { generate3dTool } from "./generate_3d.ts";
import { nameToSmilesTool } from "./name_to_smiles.ts";
import { findMcsTool } from "./find_mcs.ts";
import { retrosynthesisTool } from "./retrosynthesis.ts";
import { smilesToMoljsonTool } from "./smiles_to_moljson.ts";
import { moljsonToSmilesTool } from "./moljson_to_smiles.ts";
import { representationRouterTool } from "./representation_router.ts";
import { moleculeContextPackTool } from "./molecule_context_pack.ts";
import { painsCheckTool } from "./pains_check.ts";
import { brenkCheckTool } from "./brenk_check.ts";

/** The specification's tools, each taking its arguments as the specification shows them. */
export const SPEC_TOOLS: readonly Tool[] = [
  nameToSmilesTool,
  parseSmilesTool,
  canonicalSmilesTool,
  ecfp4Tool,
  tanimotoTool,
  smartsMatchTool,
  calcPropertiesTool,
  lipinskiCheckTool,
  saScoreTool,
  painsCheckTool,
  brenkCheckTool,
  admetProfileTool,
  boiledEggTool,
  findMcsTool,
  generate3dTool,
  retrosynthesisTool,
  smilesToMoljsonTool,
  moljsonToSmilesTool,
  representationRouterTool,
  moleculeContextPackTool,
] as unknown as readonly Tool[];
