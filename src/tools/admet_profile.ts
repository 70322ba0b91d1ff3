import * as v from "valibot";
import { admetProfile } from "../chem/admet.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

const endpointFields = {
  prediction: v.pipe(
    v.string(),
    v.description("Categorical heuristic estimate (values listed in the tool description)."),
  ),
  heuristic: v.pipe(
    v.literal(true),
    v.description("Always true: a published rule of thumb, not a measurement."),
  ),
  method: v.pipe(v.string(), v.description("Rule applied.")),
  reference: v.pipe(v.string(), v.description("Paper: authors, journal, year, volume, pages.")),
  doi: v.pipe(v.string(), v.description("DOI of the paper.")),
  inputs: v.pipe(
    v.record(v.string(), v.union([v.number(), v.string(), v.boolean()])),
    v.description("Values the rule read (logP = Wildman–Crippen, TPSA in Å² with S and P, MW in g/mol)."),
  ),
  rationale: v.pipe(v.string(), v.description("What the rule says and why this estimate.")),
};

const endpointSchema = (what: string) => v.pipe(v.object(endpointFields), v.description(what));

/** `admet_profile`: seven heuristic ADMET estimates from published rules of thumb. */
export const admetProfileTool = defineTool({
  name: "admet_profile",
  title: "ADMET profile (published rules of thumb)",
  description: "Heuristic ADMET estimates from transparent published rules applied to computed descriptors " +
    "(Wildman–Crippen logP, Ertl TPSA with S and P, MW, SMARTS ionisation class). Each endpoint names its rule, " +
    "reference, DOI and inputs and is marked heuristic: true; none is a measurement or a trained model. " +
    "bbb: BOILED-Egg yolk, penetrant | non_penetrant (Daina & Zoete, ChemMedChem 2016, doi:10.1002/cmdc.201600182). " +
    "caco2: Egan egg bounds TPSA ≤ 131.6 Å² and logP ≤ 5.88 as a passive-permeability proxy, high | low (Egan, Merz " +
    "& Baldwin, J. Med. Chem. 2000, doi:10.1021/jm000292e). herg: Gleeson 4/400 rule with ionisation class, " +
    "lower_risk | moderate_risk | higher_risk (Gleeson, J. Med. Chem. 2008, doi:10.1021/jm701122q). cyp3a4: " +
    "Gleeson 4/400 rule, inhibition_less_likely | inhibition_more_likely. ames: Kazius 2005 mutagenicity " +
    "toxicophores, alert | no_alert with the toxicophores named (J. Med. Chem. 2005, doi:10.1021/jm040835a). ppb: " +
    "Gleeson, high_binding_likely (clogP ≥ 4 or acid) | lower_binding_likely. hepatic_clearance: ECCS class → " +
    "predominant route hepatic_metabolism | hepatic_uptake | hepatic_uptake_or_renal | renal (Varma et al., " +
    "Pharm. Res. 2015, doi:10.1007/s11095-015-1749-4; permeability from the Egan bounds instead of a measurement). " +
    "The ionisation class (acid, base, zwitterion, neutral at pH 7.4) is an approximate SMARTS classification " +
    "without pKa prediction. Use for triage and for explaining liabilities, not for decisions. Salts and " +
    "mixtures: the largest component is profiled. Fails with INVALID_SMILES, or MOLECULE_TOO_LARGE above " +
    `${MAX_HEAVY_ATOMS} heavy atoms.`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    parent_smiles: v.pipe(v.string(), v.description("Canonical SMILES of the component profiled.")),
    fragment_count: count("Disconnected components in the input."),
    ionisation: v.pipe(
      v.object({
        class: v.pipe(
          v.picklist(["acid", "base", "zwitterion", "neutral"]),
          v.description("Class at pH 7.4."),
        ),
        acidic_groups: v.pipe(v.array(v.string()), v.description("Acidic groups found.")),
        basic_groups: v.pipe(v.array(v.string()), v.description("Basic groups found.")),
        method: v.pipe(v.string(), v.description("How the class was assigned (approximate).")),
      }),
      v.description("Approximate ionisation class used by the hERG, PPB and clearance rules."),
    ),
    endpoints: v.pipe(
      v.object({
        bbb: endpointSchema("Blood–brain barrier permeation (BOILED-Egg yolk)."),
        caco2: endpointSchema("Passive intestinal (Caco-2-like) permeability (Egan bounds)."),
        herg: endpointSchema("hERG inhibition risk (Gleeson 4/400 + ionisation)."),
        cyp3a4: endpointSchema("CYP3A4 inhibition likelihood (Gleeson 4/400)."),
        ames: v.pipe(
          v.object({
            ...endpointFields,
            toxicophores: v.pipe(
              v.array(v.object({
                name: v.pipe(v.string(), v.description("Toxicophore name as in Kazius 2005.")),
                smarts: v.pipe(v.string(), v.description("The SMARTS that matched.")),
              })),
              v.description("Kazius 2005 toxicophores found, with the SMARTS that matched."),
            ),
          }),
          v.description("Ames mutagenicity structural alerts (Kazius 2005)."),
        ),
        ppb: endpointSchema("Plasma protein binding (Gleeson rule of thumb)."),
        hepatic_clearance: endpointSchema("Predominant clearance route (ECCS)."),
      }),
      v.description(
        "The seven estimates, each with its value, class, method, reference and the inputs it read.",
      ),
    ),
    heuristic: v.pipe(v.literal(true), v.description("Always true.")),
    disclaimer: v.pipe(v.string(), v.description("What these estimates are and are not.")),
  }),
  run: ({ smiles }) => ({ smiles, ...admetProfile(smiles) }),
});
