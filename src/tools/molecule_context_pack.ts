import * as v from "valibot";
import { ALERTS_MAX_HEAVY_ATOMS } from "../chem/alerts.ts";
import { identifiers } from "../chem/represent.ts";
import { MolJsonSchema } from "../chem/moljson/schema.ts";
import { toMolJson } from "../chem/moljson/writer.ts";
import { ADMET_ENDPOINTS, admetProfileTool } from "./admet_profile.ts";
import { boiledEggTool } from "./boiled_egg.ts";
import { brenkCheckTool } from "./brenk_check.ts";
import { calcPropertiesTool } from "./calc_properties.ts";
import { canonicalSmilesField, givenSmiles, smilesArg } from "./common.ts";
import { type ContextPack, renderContext } from "./context_render.ts";
import { lipinskiCheckTool } from "./lipinski_check.ts";
import { painsCheckTool } from "./pains_check.ts";
import { saScoreTool } from "./sa_score.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

const FORMATS = ["json", "markdown", "prompt"] as const;

const identifiersSchema = v.object({
  canonical_smiles: canonicalSmilesField,
  inchi: v.pipe(v.string(), v.description("Standard InChI (empty when InChI cannot represent the input).")),
  inchikey: v.pipe(v.string(), v.description("Standard InChIKey (empty when there is no InChI).")),
  formula: v.pipe(v.string(), v.description("Molecular formula in Hill order, charge appended.")),
});

/** A section of the pack: a tool's result less the fields the pack gives once (see `sections`). */
const section = (tool: string, dropped: string) =>
  v.optional(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description(
        `json: the ${tool} result${dropped ? ` less ${dropped}` : ""}; fields as in ${tool}'s outputSchema.`,
      ),
    ),
  );

/**
 * The sections as the json format carries them: each tool's result, checked against that tool's output schema,
 * less what would repeat: the `smiles` echo (given once at the top), and the parent SMILES and component count
 * of lipinski and admet (the same as properties'); and less the workings a summary can do without (each
 * Lipinski rule's definition, the SA score's terms and counts, QED's desirabilities), which the single tools give.
 */
function sections(pack: ContextPack): Record<string, unknown> {
  const { smiles: _p, qed_details, ...properties } = v.parse(calcPropertiesTool.output, pack.properties);
  const { desirability: _q, ...qed } = qed_details;
  const { smiles: _l, parent_smiles: _lp, fragment_count: _lf, rules, ...lipinski } = v.parse(
    lipinskiCheckTool.output,
    pack.lipinski,
  );
  const { smiles: _a, parent_smiles: _ap, fragment_count: _af, ...admet } = v.parse(
    admetProfileTool.output,
    pack.admet,
  );
  const { smiles: _s, components: _c, counts: _n, ...sa_score } = v.parse(saScoreTool.output, pack.sa_score);
  const { smiles: _pa, ...pains } = v.parse(painsCheckTool.output, pack.pains);
  const { smiles: _b, ...brenk } = v.parse(brenkCheckTool.output, pack.brenk);
  return {
    identifiers: pack.identifiers,
    properties: { ...properties, qed_details: qed },
    // Each rule's definition is in the method text.
    lipinski: { rules: rules.map(({ definition: _d, ...rule }) => rule), ...lipinski },
    sa_score,
    pains,
    brenk,
    boiled_egg: v.parse(boiledEggTool.output, pack.boiled_egg),
    admet,
    moljson: v.parse(MolJsonSchema, pack.moljson),
  };
}

/**
 * `molecule_context_pack`: everything an LLM needs about one molecule in one result. Every number comes from the
 * same function the single-purpose tool uses; each format carries every section exactly once.
 */
export const moleculeContextPackTool = defineTool({
  name: "molecule_context_pack",
  title: "Molecule context pack",
  annotations: LOCAL_COMPUTATION,
  description:
    "Everything about one molecule in one result, each section once: identifiers (InChI, formula), " +
    "properties (calc_properties), drug-likeness (lipinski_check, sa_score, pains_check, " +
    "brenk_check, boiled_egg), heuristic ADMET (admet_profile) and the MolJSON graph. Use it instead of those " +
    "tools one by one. format 'json': sections as objects; 'markdown': tables for a chemist; 'prompt': a " +
    "compact text block for an LLM (both in rendered). Errors: " +
    "INVALID_SMILES, MOLECULE_TOO_LARGE (> " +
    `${ALERTS_MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({
    smiles: smilesArg(),
    format: v.optional(
      v.pipe(
        v.picklist(FORMATS),
        v.description("Shape of the result (see the tool description)."),
      ),
      "json",
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    format: v.pipe(v.picklist(FORMATS), v.description("The format requested.")),
    identifiers: v.optional(
      v.pipe(identifiersSchema, v.description("json: canonical SMILES, InChI, InChIKey and formula.")),
    ),
    properties: section("calc_properties", "smiles and qed_details.desirability"),
    lipinski: section("lipinski_check", "smiles, parent_smiles, fragment_count and rules' definitions"),
    sa_score: section("sa_score", "smiles, components and counts"),
    pains: section("pains_check", "smiles"),
    brenk: section("brenk_check", "smiles"),
    boiled_egg: section("boiled_egg", ""),
    admet: section("admet_profile", "smiles, parent_smiles and fragment_count"),
    moljson: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description("json: MolJSON v1 graph, as in smiles_to_moljson's outputSchema."),
      ),
    ),
    rendered: v.optional(
      v.pipe(v.string(), v.description("markdown and prompt: the whole pack as Markdown or prompt text.")),
    ),
  }),
  placement: {
    where: "pool",
    cost: ({ smiles }) => textsCost(smiles),
    // Covers identifiers (InChI), the descriptors and QED alerts, Lipinski, the SA fragment table, PAINS and
    // Brenk, BOILED-Egg, ADMET, MolJSON and the renderers.
    warmUp: [{ smiles: WARM_UP_SMILES.atenolol, format: "markdown" }],
  },
  list: {
    cap: 10,
    shared: [
      "properties.method",
      "lipinski.method",
      "sa_score.method",
      "pains.method",
      "pains.alerts_checked",
      "brenk.method",
      "brenk.alerts_checked",
      "boiled_egg.method",
      "admet.method",
      "admet.heuristic",
      ...ADMET_ENDPOINTS.map((endpoint) => `admet.endpoints.${endpoint}.reference`),
      "moljson.format",
      "moljson.version",
    ],
  },
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
    if (format === "json") return { smiles, format, ...sections(pack) };
    return { smiles, format, rendered: renderContext(pack, format) };
  },
});
