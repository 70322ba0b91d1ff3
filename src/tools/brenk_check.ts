import * as v from "valibot";
import { ALERTS_MAX_HEAVY_ATOMS, type AlertScreen, BRENK_METHOD, brenkCheckSmiles } from "../chem/alerts.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

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
  annotations: LOCAL_COMPUTATION,
  description:
    "Screen for the 105 Brenk alerts (Brenk et al. 2008; RDKit FilterCatalog): reactive, unstable or toxic " +
    "groups unwanted in screening compounds (Michael acceptors, aldehydes, nitro, alkyl halides). Each hit " +
    "gives its name and matched atoms; passes = no hit. Broad by design (many drugs hit one): treat hits as " +
    "flags. For assay interference use pains_check. Errors: " +
    "INVALID_SMILES, MOLECULE_TOO_LARGE (> " +
    `${ALERTS_MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({
    smiles: smilesArg(),
  }),
  output: alertOutput("Brenk alert", "Brenk"),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["passes", "alerts.name"] },
  run: ({ smiles }) => alertResult(smiles, brenkCheckSmiles(smiles, ALERTS_MAX_HEAVY_ATOMS), BRENK_METHOD),
});
