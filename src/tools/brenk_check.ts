import * as v from "valibot";
import { ALERTS_MAX_HEAVY_ATOMS, type AlertScreen, BRENK_METHOD, brenkCheckSmiles } from "../chem/alerts.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** Output schema shared by the alert tools. */
export const alertOutput = (what: string, families: string) =>
  v.object({
    smiles: givenSmiles,
    passes: v.pipe(v.boolean(), v.description("True when no alert matched.")),
    alert_count: count(`Number of distinct ${what}s that matched.`),
    alerts: v.pipe(
      v.array(v.object({
        name: v.pipe(v.string(), v.description(`${what} name as in RDKit's FilterCatalog.`)),
        family: v.pipe(v.string(), v.description(`Catalog family: ${families}.`)),
        atoms: v.pipe(
          v.array(v.number()),
          v.description(
            "Atom indices (0-based, SMILES order) of the first match, in the order of the pattern atoms.",
          ),
        ),
      })),
      v.description("Matched alerts in catalog order."),
    ),
    alerts_checked: count("Number of alerts screened."),
    method: v.pipe(v.string(), v.description("Catalog, reference and matching rules.")),
  });

/** Tool result of an alert screen. */
export function alertResult(smiles: string, screen: AlertScreen, method: string) {
  return {
    smiles,
    passes: !screen.flagged,
    alert_count: screen.hits.length,
    alerts: screen.hits,
    alerts_checked: screen.alerts_checked,
    method,
  };
}

/** `brenk_check`: Brenk unwanted-group filters. */
export const brenkCheckTool = defineTool({
  name: "brenk_check",
  title: "Brenk structural alerts",
  description: "Screen a molecule against the 105 Brenk alerts (Brenk et al., ChemMedChem 2008, 3, 435, " +
    "doi:10.1002/cmdc.200700139): substructures that are reactive, unstable, toxic or otherwise unwanted in " +
    "screening and lead compounds (e.g. Michael acceptors, aldehydes, nitro groups, alkyl halides, thiols, " +
    "epoxides, azides, peroxides), as the SMARTS of RDKit's FilterCatalog. Each alert reports its name, family " +
    "(Brenk) and the matched atom indices (0-based, SMILES order). passes = no alert. The list was built for " +
    "neglected-disease screening libraries and is deliberately broad: many marketed drugs hit one or more " +
    "alerts, so treat hits as flags for review, not rejections. Limit: " +
    `${ALERTS_MAX_HEAVY_ATOMS} heavy atoms. Fails with INVALID_SMILES or MOLECULE_TOO_LARGE.`,
  input: v.strictObject({
    smiles: smilesArg(
      `Molecule as SMILES (at most ${ALERTS_MAX_HEAVY_ATOMS} heavy atoms), e.g. 'C=CC(=O)N'.`,
    ),
  }),
  output: alertOutput("Brenk alert", "Brenk"),
  run: ({ smiles }) => alertResult(smiles, brenkCheckSmiles(smiles, ALERTS_MAX_HEAVY_ATOMS), BRENK_METHOD),
});
