/**
 * Renders a molecule context pack as JSON, Markdown tables or a compact prompt block.
 *
 * @module
 */
import type * as v from "valibot";
import type { Identifiers } from "../chem/represent.ts";
import type { MolJson } from "../chem/moljson.ts";
import type { admetProfileTool } from "./admet_profile.ts";
import type { boiledEggTool } from "./boiled_egg.ts";
import type { brenkCheckTool } from "./brenk_check.ts";
import type { calcPropertiesTool } from "./calc_properties.ts";
import type { lipinskiCheckTool } from "./lipinski_check.ts";
import type { painsCheckTool } from "./pains_check.ts";
import type { saScoreTool } from "./sa_score.ts";

/** The sections of a context pack, each the result of the tool of the same name. */
export interface ContextPack {
  identifiers: Identifiers;
  properties: v.InferInput<typeof calcPropertiesTool.output>;
  lipinski: v.InferInput<typeof lipinskiCheckTool.output>;
  sa_score: v.InferInput<typeof saScoreTool.output>;
  pains: v.InferInput<typeof painsCheckTool.output>;
  brenk: v.InferInput<typeof brenkCheckTool.output>;
  boiled_egg: v.InferInput<typeof boiledEggTool.output>;
  admet: v.InferInput<typeof admetProfileTool.output>;
  moljson: MolJson;
}

/**
 * Renders `pack` in `format`.
 *
 * @example
 * ```ts
 * renderContext(pack, "markdown").startsWith("# Molecule context"); // true
 * ```
 */
export function renderContext(pack: ContextPack, format: "json" | "markdown" | "prompt"): string {
  if (format === "markdown") return markdown(pack);
  if (format === "prompt") return prompt(pack);
  return JSON.stringify(pack, null, 2);
}

function cell(value: unknown): string {
  return String(value).replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function table(header: [string, string, string?], rows: (string | number)[][]): string {
  const cols = header.filter((h) => h !== undefined);
  return [
    `| ${cols.join(" | ")} |`,
    `| ${cols.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

function alertNames(result: { alerts: { name: string }[] }): string {
  return result.alerts.length === 0 ? "none" : result.alerts.map((a) => a.name).join(", ");
}

function yesNo(flag: boolean): string {
  return flag ? "yes" : "no";
}

function keyNumbers(pack: ContextPack): [string, string | number, string][] {
  const p = pack.properties;
  return [
    ["Molecular weight", p.molecular_weight, "g/mol"],
    ["Exact mass", p.exact_mass, "Da"],
    ["logP (Wildman–Crippen)", p.logp, "–"],
    ["TPSA", p.tpsa, "Å²"],
    ["H-bond donors / acceptors", `${p.hbd} / ${p.hba}`, "count"],
    ["Rotatable bonds", p.rotatable_bonds, "count"],
    ["QED", p.qed, "0–1"],
    [
      "SA score",
      `${pack.sa_score.sa_score}${pack.sa_score.synthesizable ? " (synthesizable)" : ""}`,
      "1 easy – 10 hard",
    ],
  ];
}

function admetRows(pack: ContextPack): string[][] {
  return Object.entries(pack.admet.endpoints).map(([name, e]) => {
    const endpoint = e as { prediction: string; method: string };
    return [name, endpoint.prediction, endpoint.method];
  });
}

function markdown(pack: ContextPack): string {
  const id = pack.identifiers;
  return [
    `# Molecule context: \`${id.canonical_smiles}\``,
    "",
    "## Identifiers",
    "",
    table(["Identifier", "Value"], [
      ["Canonical SMILES", id.canonical_smiles],
      ["InChI", id.inchi || "–"],
      ["InChIKey", id.inchikey || "–"],
      ["Formula", id.formula],
    ]),
    "",
    "## Properties",
    "",
    table(["Property", "Value", "Unit"], keyNumbers(pack)),
    "",
    "## Drug-likeness",
    "",
    table(["Check", "Result"], [
      [
        "Lipinski rule of five",
        `${pack.lipinski.passes ? "passes" : "fails"} (${pack.lipinski.violations} violations)`,
      ],
      ["PAINS alerts", alertNames(pack.pains)],
      ["Brenk alerts", alertNames(pack.brenk)],
      ["BOILED-Egg GI absorption", yesNo(pack.boiled_egg.gi_absorbed)],
      ["BOILED-Egg BBB penetration", yesNo(pack.boiled_egg.bbb_penetrant)],
    ]),
    "",
    "## ADMET (heuristic estimates)",
    "",
    table(["Endpoint", "Prediction", "Method"], admetRows(pack)),
    "",
    "## MolJSON",
    "",
    "```json",
    JSON.stringify(pack.moljson),
    "```",
    "",
  ].join("\n");
}

function prompt(pack: ContextPack): string {
  const id = pack.identifiers;
  const numbers = keyNumbers(pack).map(([name, value, unit]) =>
    `${name} ${value}${/^[a-zÅ]/i.test(unit) && unit !== "count" ? ` ${unit}` : ""}`
  );
  return [
    `Molecule: ${id.canonical_smiles} (formula ${id.formula}${
      id.inchikey ? `, InChIKey ${id.inchikey}` : ""
    })`,
    `Properties: ${numbers.join("; ")}.`,
    `Drug-likeness: Lipinski ${
      pack.lipinski.passes ? "passes" : "fails"
    } (${pack.lipinski.violations} violations); ` +
    `PAINS: ${alertNames(pack.pains)}; Brenk: ${alertNames(pack.brenk)}; BOILED-Egg GI absorbed ` +
    `${yesNo(pack.boiled_egg.gi_absorbed)}, BBB penetrant ${yesNo(pack.boiled_egg.bbb_penetrant)}.`,
    `ADMET (heuristic estimates): ${admetRows(pack).map(([n, p]) => `${n} ${p}`).join("; ")}.`,
    `MolJSON: ${JSON.stringify(pack.moljson)}`,
  ].join("\n");
}
