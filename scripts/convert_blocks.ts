/**
 * Writes the MOL blocks `convert` makes (V2000 and V3000) for the molecules of tests/data/reference/convert.json
 * that carry RDKit's own blocks, for scripts/reference/convert_oracle.py to read with RDKit's Python: the check
 * that what `convert` writes, another RDKit reads as the same molecule.
 *
 * Usage: deno run -A scripts/convert_blocks.ts /tmp/convert_blocks.json
 *
 * @module
 */
import { writeFileSync } from "node:fs";
import process from "node:process";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { convertOne } from "../src/chem/convert.ts";
import { readFixture } from "../tests/reference/comparison.ts";
import type { ConvertFixture } from "../tests/reference/convert_suite.ts";

const out = process.argv[2];
if (!out) throw new Error("usage: deno run -A scripts/convert_blocks.ts <file.json>");
await loadTestRDKit();
const blocks = readFixture<ConvertFixture>("convert.json").molecules
  .filter((m) => m.v2000 !== undefined)
  .map((m) => ({
    id: m.id,
    v2000: convertOne(m.smiles, "smiles", "molblock"),
    v3000: convertOne(m.smiles, "smiles", "molblock_v3000"),
  }));
writeFileSync(out, JSON.stringify(blocks));
console.error(`${blocks.length} molecules' V2000 and V3000 blocks -> ${out}`);
