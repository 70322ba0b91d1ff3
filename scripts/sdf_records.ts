/**
 * Writes generate_3d's SDF record (format 'sdf') of every molecule of tests/data/reference/geometry.json and of
 * every atom order of tests/data/reference/stereo_orders.json into one SD file, for the oracle
 * scripts/reference/sdf_roundtrip.py to read back with RDKit's Python. Each record's title is the SMILES it was
 * built from and its data item `id` names the molecule (`<id>` or `<id>#<order>`); a molecule generate_3d
 * refuses is written as an empty record with its error code in `error`.
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
import { readFixture } from "../tests/reference/comparison.ts";

const out = process.argv[2];
if (!out) throw new Error("usage: deno run -A scripts/sdf_records.ts <file.sdf>");
await loadTestRDKit();
const orders = readFixture<{ molecules: { id: string; orders: string[] }[] }>("stereo_orders.json").molecules;
const jobs: [string, string][] = [
  ...geometryFixture().molecules.map((m) => [m.id, m.smiles] as [string, string]),
  ...orders.flatMap((m) => m.orders.map((smiles, k) => [`${m.id}#${k + 1}`, smiles] as [string, string])),
];
const records = jobs.map(([id, smiles]) => {
  try {
    // The id item goes before the record's terminator (sliced off: "$$" in a replace() pattern means "$").
    return `${conformerSdf(generate3d(smiles)).slice(0, -"$$$$\n".length)}> <id>\n${id}\n\n$$$$\n`;
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    return `${smiles}\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n> <id>\n${id}\n\n> <error>\n${error.code}\n\n$$$$\n`;
  }
});
writeFileSync(out, records.join(""));
console.log(`${records.length} records written to ${out}`);
