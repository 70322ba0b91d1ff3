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

/**
 * Formats a V2000 molfile with 3D coordinates, charges, isotopes and Kekulé bond orders (aromatic bonds as RDKit's
 * Kekulé form). Limited to 999 atoms and bonds, the V2000 field width.
 *
 * @example
 * ```ts
 * const molblock = toMolBlock(graph, coords, "ethanol");
 * ```
 */
export function toMolBlock(g: MolGraph, x: Float64Array, title = ""): string {
  const pad = (v: number | string, w: number) => String(v).padStart(w);
  const lines = [title.replace(/[\r\n]+/g, " "), "  chem-mcp      3D", ""];
  lines.push(`${pad(g.atoms.length, 3)}${pad(g.bonds.length, 3)}  0  0  0  0  0  0  0  0999 V2000`);
  g.atoms.forEach((atom, i) => {
    const c = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!].map((v) => pad(fixed(v), 10)).join("");
    lines.push(`${c} ${atom.symbol.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  });
  for (const bond of g.bonds) {
    const order = bond.kekule >= 1 && bond.kekule <= 3 ? bond.kekule : 8;
    lines.push(`${pad(bond.a + 1, 3)}${pad(bond.b + 1, 3)}${pad(order, 3)}  0`);
  }
  propertyLines(lines, "CHG", g.atoms.map((a) => a.charge));
  propertyLines(lines, "ISO", g.atoms.map((a) => a.isotope));
  lines.push("M  END");
  return `${lines.join("\n")}\n`;
}

/** Appends `M  CHG`/`M  ISO` lines (8 entries per line) for the non-zero values. */
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
