/**
 * Renders a molecule context pack as Markdown tables for a chemist or as a compact text block for an LLM prompt.
 * Each rendering carries every section once, the MolJSON graph included (as atom and bond rows).
 *
 * @module
 */
import type * as v from "valibot";
import type { Identifiers } from "../chem/represent.ts";
import { type MolJson, type MolJsonAtom, type MolJsonBond, resolveMolJson } from "../chem/moljson/schema.ts";
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
 * Renders `pack` as Markdown or as a prompt block.
 *
 * @example
 * ```ts
 * renderContext(pack, "markdown").startsWith("# Molecule context"); // true
 * ```
 */
export function renderContext(pack: ContextPack, format: "markdown" | "prompt"): string {
  return format === "markdown" ? markdown(pack) : prompt(pack);
}

function cell(value: unknown): string {
  const text = String(value).replace(/\n/g, " ");
  // Inside a code span a backslash is literal; a pipe still ends the cell unless escaped (GFM tables).
  const escaped = /^`.*`$/.test(text) ? text : text.replace(/\\/g, "\\\\");
  return escaped.replace(/\|/g, "\\|");
}

function table(header: string[], rows: (string | number)[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

function alertNames(result: { alerts: { name: string }[] }): string {
  return result.alerts.length === 0 ? "none" : result.alerts.map((a) => a.name).join(", ");
}

function yesNo(flag: boolean): string {
  return flag ? "yes" : "no";
}

/** Whole-molecule values described by the largest component when the input has several. */
function parentNote(pack: ContextPack, quote: (text: string) => string = (text) => text): string {
  const p = pack.properties;
  return p.fragment_count > 1 ? ` (largest component ${quote(p.parent_smiles ?? "")})` : "";
}

/** Markdown code span: SMILES and InChI hold brackets and parentheses that Markdown would read as links. */
function code(text: string): string {
  return `\`${text}\``;
}

function keyNumbers(pack: ContextPack): [string, string | number, string][] {
  const p = pack.properties;
  return [
    ["Molecular weight", p.molecular_weight, "g/mol"],
    ["Exact mass", p.exact_mass, "Da"],
    ["logP (Wildman–Crippen)", p.logp, ""],
    ["TPSA", p.tpsa, "Å²"],
    ["H-bond donors / acceptors", `${p.hbd} / ${p.hba}`, ""],
    ["Rotatable bonds", p.rotatable_bonds, ""],
    ["QED", p.qed, "0–1"],
    ["SA score", pack.sa_score.sa_score, "1 easy – 10 hard"],
  ];
}

/** Short names of the rule-of-five criteria. */
const LIPINSKI_LABELS: Readonly<Record<string, string>> = {
  molecular_weight: "MW",
  logp: "logP",
  hbd: "HBD",
  hba: "HBA",
};

function lipinskiText(pack: ContextPack): string {
  const failed = pack.lipinski.rules.filter((r) => !r.passed).map((r) =>
    `${LIPINSKI_LABELS[r.rule] ?? r.rule} > ${r.threshold}`
  );
  return `${pack.lipinski.passes ? "passes" : "fails"} (${pack.lipinski.violations} violations` +
    `${failed.length ? `: ${failed.join(", ")}` : ""})`;
}

function admetRows(pack: ContextPack): [string, string, string, string][] {
  return Object.entries(pack.admet.endpoints).map(([name, e]) => {
    const endpoint = e as { prediction: string; reference: string; rationale: string };
    return [name, endpoint.prediction, endpoint.reference, endpoint.rationale];
  });
}

function chiralityText(atom: MolJsonAtom): string {
  const c = atom.chirality;
  if (!c) return "";
  return `${c.winding}(${c.neighbors.join(",")})${c.cip ? ` ${c.cip}` : ""}`;
}

function stereoText(bond: MolJsonBond): string {
  return bond.stereo ? `${bond.stereo.configuration}(${bond.stereo.atoms.join(",")})` : "";
}

/** Isotope and radical columns are shown only when some atom has one, so common molecules stay short. */
function atomColumns(atoms: readonly MolJsonAtom[]) {
  return {
    isotope: atoms.some((a) => a.isotope !== null),
    radical: atoms.some((a) => (a.radical_electrons ?? 0) > 0),
  };
}

function moljsonTables(doc: MolJson): string {
  const m = resolveMolJson(doc);
  const show = atomColumns(m.atoms);
  const atomHeader = [
    "atom",
    "element",
    "charge",
    ...(show.isotope ? ["isotope"] : []),
    "H",
    ...(show.radical ? ["radical e⁻"] : []),
    "aromatic",
    "chirality",
  ];
  const atomRows = m.atoms.map((a) => [
    a.index,
    a.element,
    a.charge,
    ...(show.isotope ? [a.isotope ?? ""] : []),
    a.hydrogens,
    ...(show.radical ? [a.radical_electrons ?? 0] : []),
    a.aromatic ? "yes" : "",
    chiralityText(a),
  ]);
  const bondRows = m.bonds.map((b) => [b.index, `${b.begin}–${b.end}`, b.order, stereoText(b)]);
  return [
    table(atomHeader, atomRows),
    "",
    table(["bond", "atoms", "order", "cis/trans"], bondRows),
  ].join("\n");
}

function markdown(pack: ContextPack): string {
  const id = pack.identifiers;
  const egg = pack.boiled_egg;
  return [
    `# Molecule context: ${id.formula}`,
    "",
    "## Identifiers",
    "",
    table(["Identifier", "Value"], [
      ["Canonical SMILES", code(id.canonical_smiles)],
      ["InChI", id.inchi ? code(id.inchi) : "–"],
      ["InChIKey", id.inchikey || "–"],
    ]),
    "",
    `## Properties${parentNote(pack, code)}`,
    "",
    table(["Property", "Value", "Unit"], keyNumbers(pack)),
    "",
    "## Drug-likeness",
    "",
    table(["Check", "Result"], [
      ["Lipinski rule of five", lipinskiText(pack)],
      ["Synthesizable (SA < 6)", yesNo(pack.sa_score.synthesizable)],
      ["PAINS alerts", alertNames(pack.pains)],
      ["Brenk alerts", alertNames(pack.brenk)],
      ["BOILED-Egg GI absorption / BBB", `${yesNo(egg.gi_absorbed)} / ${yesNo(egg.bbb_penetrant)}`],
    ]),
    "",
    `## ADMET (heuristic estimates; ionisation class ${pack.admet.ionisation.class})`,
    "",
    table(["Endpoint", "Estimate", "Rule", "Why"], admetRows(pack)),
    "",
    "## MolJSON v1 graph",
    "",
    "Atom indices follow the SMILES; H = implicit hydrogens; bond order 1.5 = aromatic; chirality is the " +
    "winding seen from the first listed neighbour, then the CIP label.",
    "",
    moljsonTables(pack.moljson),
    "",
  ].join("\n");
}

function moljsonLines(doc: MolJson): string[] {
  const m = resolveMolJson(doc);
  const atoms = m.atoms.map((a) => {
    const parts = [`${a.index} ${a.isotope ?? ""}${a.element}`];
    if (a.charge) parts.push(a.charge > 0 ? `+${a.charge}` : `${a.charge}`);
    if (a.hydrogens) parts.push(`H${a.hydrogens}`);
    if (a.radical_electrons) parts.push(`rad${a.radical_electrons}`);
    if (a.aromatic) parts.push("ar");
    if (a.chirality) parts.push(chiralityText(a).replace(" ", "/"));
    return parts.join(" ");
  });
  const bonds = m.bonds.map((b) => `${b.begin}-${b.end} ${b.order}${b.stereo ? ` ${stereoText(b)}` : ""}`);
  return [
    "MolJSON v1 graph (atoms: index [isotope]element, charge, implicit H, ar = aromatic, chirality " +
    "winding(neighbours)/CIP; bonds: atoms, order, 1.5 = aromatic):",
    `Atoms: ${atoms.join("; ")}`,
    `Bonds: ${bonds.join("; ")}`,
  ];
}

function prompt(pack: ContextPack): string {
  const id = pack.identifiers;
  const egg = pack.boiled_egg;
  const numbers = keyNumbers(pack).map(([name, value, unit]) =>
    `${name} ${value}${unit && !unit.includes("–") ? ` ${unit}` : ""}`
  );
  return [
    `Molecule: ${id.canonical_smiles} (formula ${id.formula}${
      id.inchikey ? `, InChIKey ${id.inchikey}` : ""
    })`,
    `Properties${parentNote(pack)}: ${numbers.join("; ")}.`,
    `Drug-likeness: Lipinski ${lipinskiText(pack)}; synthesizable ${yesNo(pack.sa_score.synthesizable)}; ` +
    `PAINS: ${alertNames(pack.pains)}; Brenk: ${alertNames(pack.brenk)}; BOILED-Egg GI absorbed ` +
    `${yesNo(egg.gi_absorbed)}, BBB penetrant ${yesNo(egg.bbb_penetrant)}.`,
    `ADMET (heuristic estimates, ${pack.admet.ionisation.class}): ` +
    `${admetRows(pack).map(([n, p]) => `${n} ${p}`).join("; ")}.`,
    ...moljsonLines(pack.moljson),
  ].join("\n");
}
