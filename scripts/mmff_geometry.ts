/**
 * Writes src/chem/data/mmff_geometry.ts, the equilibrium angles generate_3d takes from MMFF94 structures
 * (src/chem/conformer/angles.ts): for every angle class (environments of the three atoms and the ring through
 * them) and its two coarser fallbacks, the mean angle of that class in RDKit's ETKDG + MMFF94 structures
 * (Halgren, J. Comput. Chem. 1996, 17, 490–519) of tests/data/reference/geometry.json, written by
 * scripts/reference/geometry.py.
 *
 * Only the molecules outside the subset that tests/reference/generate_3d_test.ts compares (ciSubset: all drugs
 * and every third validation molecule) enter the table, so that test measures the angles on structures the table
 * never saw. A class seen fewer than MIN_ANGLES times gets MMFF94's own θ0 instead (MMFFANG.PAR, the fixture's
 * last angle column, averaged over the class's angles in all molecules: a force-field parameter, not the geometry
 * the test compares) when those θ0 lie within THETA0_SPREAD; other classes fall back to coarser keys.
 *
 * The rest of the force field (DREIDING's Lennard-Jones 1-4 contacts above all) opens some angles beyond their
 * θ0, so the mean angle alone leaves a bias of a few degrees in some classes. REFINE_ROUNDS rounds therefore build
 * the same training molecules with generate_3d and move each θ0 the table used by the mean difference between
 * generate_3d's angle and MMFF94's over the angles that took it (a fixed-point correction towards MMFF94's mean
 * geometry; still only the training molecules). The same rounds shift the natural length of every bond class
 * (environments and order) with MIN_BONDS training bonds by its mean difference from MMFF94's lengths; shifts
 * under 0.005 Å are dropped.
 *
 * Usage: deno run -A scripts/mmff_geometry.ts [--rounds 3]
 *
 * @module
 */
import { writeFileSync } from "node:fs";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { prepareMolecule } from "../src/chem/conformer/molecule.ts";
import { assignTypes } from "../src/chem/conformer/typing.ts";
import type { DreidingType } from "../src/chem/conformer/parameters.ts";
import type { MolGraph } from "../src/chem/conformer/graph.ts";
import { inversionCentre, PLANAR_CLASS_SUM, PYRAMIDAL_CLASS_SUM } from "../src/chem/conformer/forcefield.ts";
import process from "node:process";
import { angleKeys, nitrogenKey, THETA0_PREFIX } from "../src/chem/conformer/angles.ts";
import { generate3d } from "../src/chem/conformer/index.ts";
import { angleDegrees } from "../src/chem/conformer/quality.ts";
import { BOND_LENGTH_SHIFTS, MMFF_ANGLES, NITROGEN_ANGLE_SUMS } from "../src/chem/data/mmff_geometry.ts";
import { bondShiftKey } from "../src/chem/conformer/bond_lengths.ts";
import { distance } from "../src/chem/conformer/quality.ts";
import { ciSubset, geometryFixture } from "../tests/reference/generate_3d_suite.ts";

const FIXTURE = "tests/data/reference/geometry.json";
const OUT = "src/chem/data/mmff_geometry.ts";
/** Fewest angles a class needs to enter the table. */
const MIN_ANGLES = 3;
/** Largest spread of MMFF94's θ0 within a class for the class to take it, degrees. */
const THETA0_SPREAD = 5;
/** Fewest training nitrogens a planarity class needs. */
const MIN_NITROGENS = 3;
/** Fewest bonds a bond class needs for a length shift. */
const MIN_BONDS = 5;
/** Rounds of the θ0 correction against generate_3d's own structures. */
const REFINE_ROUNDS = process.argv.includes("--rounds")
  ? Number(process.argv[process.argv.indexOf("--rounds") + 1])
  : 3;

await loadTestRDKit();
const all = geometryFixture().molecules;
const heldOut = new Set(ciSubset(all).map((m) => m.id));
const seen = new Map<string, number[]>();
let skipped = 0;
const training = all.filter((m) => !heldOut.has(m.id));
/** MMFF94's θ0 per class (ends by environment), over every molecule of the fixture: parameters, not geometry. */
const theta0 = new Map<string, number[]>();
/** Angle sum of every trivalent nitrogen of the training molecules, by planarity class. */
const nitrogenSums = new Map<string, number[]>();
for (const m of all) {
  const { graph } = prepareMolecule(m.smiles, 200);
  if (graph.atoms.length !== m.atoms) {
    skipped++;
    continue;
  }
  const types = assignTypes(graph);
  const inTraining = !heldOut.has(m.id);
  if (inTraining) collectNitrogenSums(graph, types, m.angles);
  for (const [i, j, k, theta, mmffTheta0] of m.angles) {
    const keys = angleKeys(graph, types, i, j, k);
    let list = theta0.get(keys[2]);
    if (!list) theta0.set(keys[2], list = []);
    list.push(mmffTheta0);
    if (!inTraining) continue;
    for (const key of [keys[0], keys[1], keys[3], keys[4]]) {
      let list = seen.get(key);
      if (!list) seen.set(key, list = []);
      list.push(theta);
    }
  }
}
/** Adds the MMFF94 angle sum of each trivalent nitrogen of one molecule to {@link nitrogenSums}. */
function collectNitrogenSums(
  graph: MolGraph,
  types: readonly DreidingType[],
  angles: readonly (readonly number[])[],
): void {
  const sums = new Map<number, number>();
  for (const [, j, , theta] of angles) {
    if (graph.atoms[j!]!.symbol === "N" && inversionCentre(graph, types, j!)) {
      sums.set(j!, (sums.get(j!) ?? 0) + theta!);
    }
  }
  for (const [j, sum] of sums) {
    const key = nitrogenKey(graph, types, j);
    let list = nitrogenSums.get(key);
    if (!list) nitrogenSums.set(key, list = []);
    list.push(sum);
  }
}
const counts = new Map<string, number>();
const table = MMFF_ANGLES as Record<string, number>;
for (const key of Object.keys(table)) delete table[key];
const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
for (const [key, list] of seen) {
  if (list.length < MIN_ANGLES) continue;
  table[key] = mean(list);
  counts.set(key, list.length);
}
// A class with too few training angles for a mean of its own starts from MMFF94's θ0 for it, when MMFF94 gives
// the class one θ0 (all within THETA0_SPREAD; e.g. N–P–C at a phosphinamide takes 86° or 112° by the carbon's
// MMFF94 type, which the class does not see, and falls back to the coarser keys instead).
for (const [key, list] of theta0) {
  if (table[key.slice(THETA0_PREFIX.length)] !== undefined) continue;
  if (Math.max(...list) - Math.min(...list) > THETA0_SPREAD) continue;
  table[key] = mean(list);
  counts.set(key, list.length);
}
const planar = NITROGEN_ANGLE_SUMS as Record<string, number>;
for (const key of Object.keys(planar)) delete planar[key];
const nitrogenCounts = new Map<string, number>();
for (const [key, list] of nitrogenSums) {
  if (list.length < MIN_NITROGENS) continue;
  planar[key] = mean(list);
  nitrogenCounts.set(key, list.length);
}
const shifts = BOND_LENGTH_SHIFTS as Record<string, number>;
for (const key of Object.keys(shifts)) delete shifts[key];
const bondCounts = new Map<string, number>();
for (let round = 1; round <= REFINE_ROUNDS; round++) {
  const bias = new Map<string, [number, number]>();
  const bondBias = new Map<string, [number, number]>();
  for (const m of training) {
    const c = generate3d(m.smiles);
    const types = [...c.atomTypes];
    m.bonds.forEach(([a, b, length], n) => {
      const key = bondShiftKey(c.graph, types, c.graph.bonds[n]!);
      const acc = bondBias.get(key) ?? [0, 0];
      acc[0] += distance(c.coordinates, a, b) - length;
      acc[1]++;
      bondBias.set(key, acc);
    });
    for (const [i, j, k, theta] of m.angles) {
      const key = angleKeys(c.graph, types, i, j, k).find((key) => table[key] !== undefined);
      if (key === undefined) continue;
      const b = bias.get(key) ?? [0, 0];
      b[0] += angleDegrees(c.coordinates, i, j, k) - theta;
      b[1]++;
      bias.set(key, b);
    }
  }
  for (const [key, [sum, n]] of bondBias) {
    if (n < MIN_BONDS) continue;
    shifts[key] = (shifts[key] ?? 0) + sum / n;
    bondCounts.set(key, n);
  }
  let moved = 0;
  for (const [key, [sum, n]] of bias) {
    table[key] = table[key]! - sum / n;
    moved += Math.abs(sum / n) * n;
  }
  console.log(
    `round ${round}: mean |θ0 shift| ${
      (moved / [...bias.values()].reduce((a, b) => a + b[1], 0)).toFixed(3)
    }°`,
  );
}
const rows = [...counts.entries()]
  .map(([key, n]) => [key, Math.round(10 * table[key]!) / 10, n] as const)
  .sort((a, b) => a[0].localeCompare(b[0]));
const lines = [
  "// Generated by scripts/mmff_geometry.ts — do not edit. Provenance: src/chem/conformer/angles.ts.",
  "// Mean angle per class in RDKit 2022.09's ETKDG + MMFF94 structures (Halgren, J. Comput. Chem. 1996, 17,",
  `// 490-519) of ${FIXTURE}, ${
    all.length - heldOut.size
  } molecules outside the tested subset; ${rows.length} classes.`,
  "",
  `// Keys "${THETA0_PREFIX}…": classes with fewer than ${MIN_ANGLES} training angles, from MMFF94's own θ0 (MMFFANG.PAR,`,
  "// mean over the class's angles in all molecules of the fixture), corrected like the others.",
  "",
  "/**",
  " * θ0 in degrees by class key (`end centre end rN [others]`, `end centre end rN`, `θ0 end centre end rN`,",
  " * `element centre element rN`, `centre rN`); the comment is the number of angles the value was taken from.",
  " */",
  "export const MMFF_ANGLES: Readonly<Record<string, number>> = {",
  ...rows.map(([key, theta, n]) => `  ${JSON.stringify(key)}: ${theta.toFixed(1)}, // ${n}`),
  "};",
  "",
  "/**",
  " * Å subtracted from a bond class's natural length (key `environment environment order`, ./bond_lengths.ts),",
  " * where generate_3d's bonds of the class came out longer or shorter than MMFF94's by 0.005 Å or more.",
  " */",
  "export const BOND_LENGTH_SHIFTS: Readonly<Record<string, number>> = {",
  ...[...bondCounts.entries()]
    .map(([key, n]) => [key, Math.round(1000 * shifts[key]!) / 1000, n] as const)
    .filter(([, shift]) => Math.abs(shift) >= 0.005)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([key, shift, n]) => `  ${JSON.stringify(key)}: ${shift.toFixed(3)}, // ${n}`),
  "};",
  "",
  "/**",
  " * Mean sum of a trivalent nitrogen's three angles in the same MMFF94 structures, degrees, by planarity class",
  ` * (src/chem/conformer/angles.ts \`nitrogenKey\`; classes with ${MIN_NITROGENS} or more training nitrogens): at`,
  ` * ${PLANAR_CLASS_SUM}° or more the class is planar, below ${PYRAMIDAL_CLASS_SUM}° pyramidal (src/chem/conformer/forcefield.ts`,
  " * `planarNitrogen`); the comment is the number of nitrogens.",
  " */",
  "export const NITROGEN_ANGLE_SUMS: Readonly<Record<string, number>> = {",
  ...[...nitrogenCounts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([key, n]) =>
      `  ${JSON.stringify(key)}: ${(Math.round(10 * planar[key]!) / 10).toFixed(1)}, // ${n}`
    ),
  "};",
  "",
];
writeFileSync(OUT, lines.join("\n"));
console.log(`${rows.length} classes of ${seen.size} written to ${OUT}; ${skipped} molecules skipped`);
