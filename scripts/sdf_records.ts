/**
 * Writes generate_3d's SDF record (format 'sdf') into one SD file, for the oracle scripts/reference/sdf_roundtrip.py
 * to read back with RDKit's Python: every molecule of tests/data/reference/geometry.json (`set` validation or
 * drugs), every other molecule of the validation set (no-mmff94: RDKit's MMFF94 has no parameters for them, so
 * geometry.json lacks them, but generate_3d builds most), the stereo-dense list of scripts/reference/
 * stereo_orders.py as written (extra), the radicals below (radical), and every atom order of
 * tests/data/reference/stereo_orders.json (orders). Each record's title is the SMILES it was built from, its data
 * items `id` name the molecule (`<id>` or `<id>#<order>`) and `set` its group; a molecule generate_3d refuses is
 * written as an empty record with its error code in `error`.
 *
 * Usage: deno run -A scripts/sdf_records.ts /tmp/generate_3d.sdf
 *
 * @module
 */
import { writeFileSync } from "node:fs";
import process from "node:process";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { conformerSdf, generate3d } from "../src/chem/conformer/index.ts";
import { ChemError } from "../src/errors.ts";
import { geometryFixture } from "../tests/reference/generate_3d_suite.ts";
import { readFixture, validationSet } from "../tests/reference/comparison.ts";

/**
 * Radicals outside the validation set, which a molfile reader would otherwise fill up with hydrogens: a nitroxide,
 * carbon radicals with one, two and three unpaired electrons, and a nitrogen radical.
 */
const RADICALS: readonly (readonly [id: string, smiles: string])[] = [
  ["TEMPO", "CC1(C)CCCC(C)(C)N1[O]"],
  ["ethyl radical", "C[CH2]"],
  ["diphenylmethyl radical", "[CH](c1ccccc1)c1ccccc1"],
  ["triplet methylene", "[CH2]"],
  ["ethylidyne", "C[C]"],
  ["dimethylaminyl", "C[N]C"],
];

const out = process.argv[2];
if (!out) throw new Error("usage: deno run -A scripts/sdf_records.ts <file.sdf>");
await loadTestRDKit();
type Job = readonly [id: string, smiles: string, set: string];
const stereo = readFixture<{ molecules: { id: string; set: string; smiles: string; orders: string[] }[] }>(
  "stereo_orders.json",
).molecules;
const geometry = geometryFixture().molecules;
const inGeometry = new Set(geometry.map((m) => m.id));
const jobs: Job[] = [
  ...geometry.map((m): Job => [m.id, m.smiles, m.set]),
  ...validationSet().filter((m) => !inGeometry.has(m.id)).map((m): Job => [m.id, m.smiles, "no-mmff94"]),
  // Some names of the extra list are also drugs of geometry.json, written in another order: both are kept.
  ...stereo.filter((m) => m.set === "extra").map((m): Job => [m.id, m.smiles, "extra"]),
  ...RADICALS.map(([id, smiles]): Job => [id, smiles, "radical"]),
  ...stereo.flatMap((m) => m.orders.map((smiles, k): Job => [`${m.id}#${k + 1}`, smiles, "orders"])),
];
const records = jobs.map(([id, smiles, set]) => {
  const items = `> <id>\n${id}\n\n> <set>\n${set}\n\n`;
  try {
    // The items go before the record's terminator (sliced off: "$$" in a replace() pattern means "$").
    return `${conformerSdf(generate3d(smiles)).slice(0, -"$$$$\n".length)}${items}$$$$\n`;
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    return `${smiles}\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n${items}> <error>\n${error.code}\n\n$$$$\n`;
  }
});
writeFileSync(out, records.join(""));
console.log(`${records.length} records written to ${out}`);
