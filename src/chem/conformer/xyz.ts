/**
 * Text output of 3D coordinates: XYZ (atom count, comment, then element and x y z in Å) and a V2000 molfile,
 * which RDKit can read back to perceive stereochemistry from the 3D geometry.
 *
 * @module
 */
import type { MolGraph } from "./graph.ts";

/** Decimal places of Å coordinates in the text outputs (0.0001 Å). */
export const COORDINATE_DECIMALS = 4;

/**
 * Formats XYZ text. The comment line must not contain a line break (it is replaced by a space).
 *
 * @example
 * ```ts
 * toXyz(["O", "H", "H"], coords, "water");
 * // "3\nwater\nO      0.0000    0.0000    0.1173\n…"
 * ```
 */
export function toXyz(elements: readonly string[], x: Float64Array, comment: string): string {
  const lines = [String(elements.length), comment.replace(/[\r\n]+/g, " ")];
  elements.forEach((el, i) => {
    const c = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!].map((v) => fixed(v).padStart(10));
    lines.push(`${el.padEnd(2)} ${c.join("")}`);
  });
  return `${lines.join("\n")}\n`;
}

/** Largest atom or bond count a V2000 counts line holds; larger molecules are written as V3000. */
const V2000_LIMIT = 999;

/**
 * Formats a molfile with 3D coordinates, formal charges, isotopes, radicals and Kekulé bond orders (aromatic bonds
 * as RDKit's Kekulé form), in the atom order of the graph (the XYZ order). The header's dimension code is `3D` and
 * the chiral flag is set when the molecule has specified stereocentres, so readers perceive R/S and E/Z from the
 * coordinates as absolute (CTfile formats, BIOVIA 2020). V2000 up to 999 atoms and bonds, else V3000.
 *
 * Every hydrogen is an atom of the record, but a reader adds implicit hydrogens to an atom below its element's
 * usual valence: RDKit reads the iodine of `Cl[I]Cl` back as `[IH]` and TEMPO's N–O• as N–OH. So an atom with
 * unpaired electrons gets its valence written (the atom block's valence field; V3000 `VAL`), which tells RDKit
 * and other readers that the atom has no hydrogens beyond those in the record, and its spin in `M  RAD`
 * (V3000 `RAD`).
 *
 * @example
 * ```ts
 * const molblock = toMolBlock(graph, coords, "ethanol");
 * ```
 */
export function toMolBlock(g: MolGraph, x: Float64Array, title = "", comment = ""): string {
  // Header line 2: user (2), program (8), date (10), then the dimension code in columns 21–22.
  const lines = [oneLine(title), `  ${"chem-mcp".padEnd(8)}${" ".repeat(10)}3D`, oneLine(comment)];
  const chiral = g.atoms.some((a) => a.chiral !== null) ? 1 : 0;
  const body = g.atoms.length > V2000_LIMIT || g.bonds.length > V2000_LIMIT
    ? v3000(g, x, chiral)
    : v2000(g, x, chiral);
  return `${[...lines, ...body, "M  END"].join("\n")}\n`;
}

/**
 * One SDF record: the molfile, an `energy_kcal_mol` data item and the `$$$$` terminator.
 *
 * @example
 * ```ts
 * toSdf(graph, coords, "CCO", "E=1.2345 kcal/mol (DREIDING)", 1.2345);
 * ```
 */
export function toSdf(g: MolGraph, x: Float64Array, title: string, comment: string, energy: number): string {
  return `${toMolBlock(g, x, title, comment)}> <energy_kcal_mol>\n${energy.toFixed(4)}\n\n$$$$\n`;
}

/** CTfile charge codes of the V2000 atom block (0 for none or out of range). */
const CHARGE_CODE: Readonly<Record<number, number>> = { 3: 1, 2: 2, 1: 3, [-1]: 5, [-2]: 6, [-3]: 7 };

function v2000(g: MolGraph, x: Float64Array, chiral: number): string[] {
  const pad = (v: number | string, w: number) => String(v).padStart(w);
  const valences = writtenValences(g);
  const lines = [
    `${pad(g.atoms.length, 3)}${pad(g.bonds.length, 3)}  0  0${pad(chiral, 3)}  0  0  0  0  0999 V2000`,
  ];
  g.atoms.forEach((atom, i) => {
    const c = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!].map((v) => pad(fixed(v), 10)).join("");
    const charge = CHARGE_CODE[atom.charge] ?? 0;
    const v = valences[i]!;
    lines.push(`${c} ${atom.symbol.padEnd(3)} 0${pad(charge, 3)}  0  0  0${pad(v, 3)}  0  0  0  0  0  0`);
  });
  for (const bond of g.bonds) {
    lines.push(`${pad(bond.a + 1, 3)}${pad(bond.b + 1, 3)}${pad(bondType(bond.kekule), 3)}  0`);
  }
  propertyLines(lines, "CHG", g.atoms.map((a) => a.charge));
  propertyLines(lines, "ISO", g.atoms.map((a) => a.isotope));
  propertyLines(lines, "RAD", g.atoms.map((a) => spin(a.radicals)));
  return lines;
}

/**
 * The valence to write for each atom: the sum of its bond orders for an atom with unpaired electrons (15, the
 * CTfile code for zero, when it has no bonds), else 0 ("not given", so the reader's default applies).
 */
function writtenValences(g: MolGraph): number[] {
  const sum = g.atoms.map(() => 0);
  for (const bond of g.bonds) {
    sum[bond.a]! += bond.kekule;
    sum[bond.b]! += bond.kekule;
  }
  return g.atoms.map((a, i) => a.radicals === 0 ? 0 : sum[i]! === 0 ? 15 : sum[i]!);
}

/**
 * CTfile radical code for a number of unpaired electrons: 2 (doublet) for one, 3 (triplet) for two. Three or four
 * have no code; none is written, since RDKit takes a code over the valence (its own writer's doublet for three
 * reads back as one), and the written valence alone gives it the exact count.
 */
function spin(radicals: number): number {
  return radicals === 1 ? 2 : radicals === 2 ? 3 : 0;
}

function v3000(g: MolGraph, x: Float64Array, chiral: number): string[] {
  const lines = ["  0  0  0     0  0            999 V3000", "M  V30 BEGIN CTAB"];
  lines.push(`M  V30 COUNTS ${g.atoms.length} ${g.bonds.length} 0 0 ${chiral}`, "M  V30 BEGIN ATOM");
  const valences = writtenValences(g);
  g.atoms.forEach((atom, i) => {
    const v = valences[i]!;
    const rad = spin(atom.radicals);
    // V3000 writes a valence of zero as -1 (V2000's 15).
    const extra = (atom.charge !== 0 ? ` CHG=${atom.charge}` : "") +
      (atom.isotope !== 0 ? ` MASS=${atom.isotope}` : "") +
      (rad !== 0 ? ` RAD=${rad}` : "") +
      (v !== 0 ? ` VAL=${v === 15 ? -1 : v}` : "");
    const c = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!].map(fixed).join(" ");
    lines.push(`M  V30 ${i + 1} ${atom.symbol} ${c} 0${extra}`);
  });
  lines.push("M  V30 END ATOM", "M  V30 BEGIN BOND");
  g.bonds.forEach((bond, m) =>
    lines.push(`M  V30 ${m + 1} ${bondType(bond.kekule)} ${bond.a + 1} ${bond.b + 1}`)
  );
  lines.push("M  V30 END BOND", "M  V30 END CTAB");
  return lines;
}

/** CTfile bond type: the Kekulé order, or 8 ("any") for RDKit's zero-order bonds, which CTfiles cannot state. */
function bondType(kekule: number): number {
  return kekule >= 1 && kekule <= 3 ? kekule : 8;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}

/** Appends `M  CHG`/`M  ISO`/`M  RAD` lines (8 entries per line) for the non-zero values. */
function propertyLines(lines: string[], tag: string, values: readonly number[]): void {
  const pad = (v: number, w: number) => String(v).padStart(w);
  const set = values.map((v, i) => [i, v] as const).filter(([, v]) => v !== 0);
  for (let k = 0; k < set.length; k += 8) {
    const chunk = set.slice(k, k + 8);
    lines.push(
      `M  ${tag}${pad(chunk.length, 3)}${chunk.map(([i, v]) => `${pad(i + 1, 4)}${pad(v, 4)}`).join("")}`,
    );
  }
}

function fixed(v: number): string {
  const s = v.toFixed(COORDINATE_DECIMALS);
  // Avoid "-0.0000" so identical geometries give identical text.
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
}
