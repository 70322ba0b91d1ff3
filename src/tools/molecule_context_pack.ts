import * as v from "valibot";
import { identifiers } from "../chem/represent.ts";
import { MolJsonSchema, toMolJson } from "../chem/moljson.ts";
import { admetProfileTool } from "./admet_profile.ts";
import { boiledEggTool } from "./boiled_egg.ts";
import { brenkCheckTool } from "./brenk_check.ts";
import { calcPropertiesTool } from "./calc_properties.ts";
import { canonicalSmilesField, givenSmiles, smilesArg } from "./common.ts";
import { type ContextPack, renderContext } from "./context_render.ts";
import { lipinskiCheckTool } from "./lipinski_check.ts";
import { painsCheckTool } from "./pains_check.ts";
import { saScoreTool } from "./sa_score.ts";
import { defineTool } from "./tool.ts";

const FORMATS = ["json", "markdown", "prompt"] as const;

const identifiersSchema = v.object({
  canonical_smiles: canonicalSmilesField,
  inchi: v.pipe(v.string(), v.description("Standard InChI (empty when InChI cannot represent the input).")),
  inchikey: v.pipe(v.string(), v.description("Standard InChIKey (empty when there is no InChI).")),
  formula: v.pipe(v.string(), v.description("Molecular formula in Hill order, charge appended.")),
});

/**
 * `molecule_context_pack`: everything an LLM needs about one molecule in one object. Every number comes from the
 * same function the single-purpose tool uses, and each section's schema is that tool's output schema.
 */
export const moleculeContextPackTool = defineTool({
  name: "molecule_context_pack",
  title: "Molecule context pack",
  description:
    "Assemble one context object for a molecule: identifiers (canonical SMILES, InChI, InChIKey, " +
    "formula), properties (calc_properties: MW g/mol, exact mass Da, Wildman–Crippen logP, TPSA Å², HBD, HBA, " +
    "rotatable bonds, QED), drug-likeness (lipinski_check, sa_score, pains_check, brenk_check, boiled_egg), " +
    "ADMET heuristic estimates (admet_profile) and the MolJSON atom/bond graph. Each section is exactly the " +
    "result of the tool of the same name. format 'json' (default) returns the object; 'markdown' also renders " +
    "tidy tables for a human; 'prompt' renders a compact plain-text block to paste into an LLM prompt. Use it " +
    "when a model needs the whole picture at once instead of calling eight tools. Fails with INVALID_SMILES or " +
    "MOLECULE_TOO_LARGE (limits as in the section tools: 300 heavy atoms for the alert screens).",
  input: v.strictObject({
    smiles: smilesArg(),
    format: v.optional(
      v.pipe(
        v.picklist(FORMATS),
        v.description(
          "'json' (default): the object only; 'markdown': plus tables; 'prompt': plus a text block.",
        ),
      ),
      "json",
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    format: v.pipe(v.picklist(FORMATS), v.description("The format requested.")),
    identifiers: identifiersSchema,
    properties: calcPropertiesTool.output,
    lipinski: lipinskiCheckTool.output,
    sa_score: saScoreTool.output,
    pains: painsCheckTool.output,
    brenk: brenkCheckTool.output,
    boiled_egg: boiledEggTool.output,
    admet: admetProfileTool.output,
    moljson: MolJsonSchema,
    rendered: v.pipe(
      v.string(),
      v.description("The pack rendered as the requested format (for 'json', the object as indented JSON)."),
    ),
  }),
  run: async ({ smiles, format }) => {
    const args = { smiles };
    const pack: ContextPack = {
      identifiers: identifiers(smiles),
      properties: await calcPropertiesTool.run(args),
      lipinski: await lipinskiCheckTool.run(args),
      sa_score: await saScoreTool.run(args),
      pains: await painsCheckTool.run(args),
      brenk: await brenkCheckTool.run(args),
      boiled_egg: await boiledEggTool.run(args),
      admet: await admetProfileTool.run(args),
      moljson: toMolJson(smiles),
    };
    return { smiles, format, ...pack, rendered: renderContext(pack, format) };
  },
});
