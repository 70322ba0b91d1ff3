import * as v from "valibot";
import { admetProfile } from "../chem/admet.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { componentFields, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

const endpointFields = {
  prediction: v.pipe(
    v.string(),
    v.description("Categorical estimate (values listed in the tool description)."),
  ),
  reference: v.pipe(v.string(), v.description("Author and year of the rule (full reference in method).")),
  rationale: v.pipe(v.string(), v.description("The rule, the values it read and why this estimate.")),
};

const endpointSchema = (what: string) => v.pipe(v.object(endpointFields), v.description(what));

/** The endpoints of an ADMET profile, in the order of its list rows. */
export const ADMET_ENDPOINTS = [
  "bbb",
  "caco2",
  "herg",
  "cyp3a4",
  "ames",
  "ppb",
  "hepatic_clearance",
] as const;

/** `admet_profile`: seven heuristic ADMET estimates from published rules of thumb. */
export const admetProfileTool = defineTool({
  name: "admet_profile",
  title: "ADMET profile (published rules of thumb)",
  annotations: LOCAL_COMPUTATION,
  description: "Seven heuristic ADMET estimates from published rules of thumb on computed descriptors (not " +
    "measurements), for triage: bbb penetrant|non_penetrant (BOILED-Egg, Daina & Zoete 2016); caco2 high|low " +
    "(Egan et al. 2000); herg lower_risk|moderate_risk|higher_risk, cyp3a4 inhibition_less_likely|" +
    "inhibition_more_likely, ppb high_binding_likely|lower_binding_likely (Gleeson 2008); ames alert|no_alert " +
    "(Kazius et al. 2005); hepatic_clearance hepatic_metabolism|hepatic_uptake|hepatic_uptake_or_renal|renal " +
    "(ECCS, Varma et al. 2015). Salts: largest component. Errors: " +
    "INVALID_SMILES, MOLECULE_TOO_LARGE (> " +
    `${MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    ...componentFields("profiled"),
    inputs: v.pipe(
      v.object({
        molecular_weight: num("Average molecular weight, g/mol."),
        logp: num("Wildman–Crippen logP (the BOILED-Egg WLOGP)."),
        tpsa: num("TPSA with S and P contributions, Å²."),
      }),
      v.description("Descriptors the rules read."),
    ),
    ionisation: v.pipe(
      v.object({
        class: v.pipe(
          v.picklist(["acid", "base", "zwitterion", "neutral"]),
          v.description("Class at pH 7.4."),
        ),
        acidic_groups: v.pipe(v.array(v.string()), v.description("Acidic groups found.")),
        basic_groups: v.pipe(v.array(v.string()), v.description("Basic groups found.")),
      }),
      v.description("Approximate ionisation class used by the hERG, PPB and clearance rules."),
    ),
    endpoints: v.pipe(
      v.object({
        bbb: endpointSchema("Blood–brain barrier permeation."),
        caco2: endpointSchema("Passive intestinal (Caco-2-like) permeability."),
        herg: endpointSchema("hERG inhibition risk."),
        cyp3a4: endpointSchema("CYP3A4 inhibition likelihood."),
        ames: v.pipe(
          v.object({
            ...endpointFields,
            toxicophores: v.pipe(
              v.array(v.object({
                name: v.pipe(v.string(), v.description("Toxicophore name as in Kazius 2005.")),
                smarts: v.pipe(v.string(), v.description("The SMARTS that matched.")),
              })),
              v.description("Kazius 2005 toxicophores found."),
            ),
          }),
          v.description("Ames mutagenicity structural alerts."),
        ),
        ppb: endpointSchema("Plasma protein binding."),
        hepatic_clearance: endpointSchema("Predominant clearance route."),
      }),
      v.description("The seven estimates."),
    ),
    heuristic: v.pipe(v.literal(true), v.description("Always true.")),
    method: v.pipe(v.string(), v.description("What the estimates are; full references with DOIs.")),
  }),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: {
    cap: 1000,
    columns: [...ADMET_ENDPOINTS.map((endpoint) => `endpoints.${endpoint}.prediction`), "parent_smiles"],
  },
  run: ({ smiles }) => ({ smiles, ...admetProfile(smiles) }),
});
