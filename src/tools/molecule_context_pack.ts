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
    identifiers: v.pipe(identifiersSchema, v.description("Canonical SMILES, InChI, InChIKey and formula.")),
    properties: v.pipe(
      calcPropertiesTool.output,
      v.description("calc_properties result: MW, exact mass, logP, TPSA, HBD/HBA, rotatable bonds, QED."),
    ),
    lipinski: v.pipe(
      lipinskiCheckTool.output,
      v.description("lipinski_check result: each rule, violations and verdict."),
    ),
    sa_score: v.pipe(
      saScoreTool.output,
      v.description("sa_score result: synthetic accessibility 1 (easy) to 10 (hard)."),
    ),
    pains: v.pipe(painsCheckTool.output, v.description("pains_check result: PAINS alerts that matched.")),
    brenk: v.pipe(brenkCheckTool.output, v.description("brenk_check result: Brenk alerts that matched.")),
    boiled_egg: v.pipe(
      boiledEggTool.output,
      v.description("boiled_egg result: GI absorption and BBB permeation."),
    ),
    admet: v.pipe(
      admetProfileTool.output,
      v.description("admet_profile result: seven heuristic ADMET estimates."),
    ),
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
