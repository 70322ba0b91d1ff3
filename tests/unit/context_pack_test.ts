import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { moleculeContextPackTool } from "../../src/tools/molecule_context_pack.ts";
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { admetProfileTool } from "../../src/tools/admet_profile.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();
const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const pack = async (format: "json" | "markdown" | "prompt") =>
  await moleculeContextPackTool.run({ smiles: ASPIRIN, format });

test("context pack: sections are exactly the single-purpose tools' results and validate", async () => {
  const result = await pack("json");
  v.parse(moleculeContextPackTool.output, result);
  assert.deepEqual(result.properties, await calcPropertiesTool.run({ smiles: ASPIRIN }));
  assert.deepEqual(result.admet, await admetProfileTool.run({ smiles: ASPIRIN }));
  const ids = result.identifiers;
  assert.equal(ids.inchikey, "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
  assert.equal(ids.formula, "C9H8O4");
  assert.deepEqual(
    JSON.parse(result.rendered),
    Object.fromEntries(
      Object.entries(result).filter(([k]) => !["smiles", "format", "rendered"].includes(k)),
    ),
  );
});

test("context pack: markdown renders tidy tables with units", async () => {
  const md = (await pack("markdown")).rendered;
  assert.match(md, /^# Molecule context: `CC\(=O\)Oc1ccccc1C\(=O\)O`/);
  assert.match(md, /\| Molecular weight \| 180\.159 \| g\/mol \|/);
  assert.match(md, /\| TPSA \| 63\.6 \| Å² \|/);
  assert.match(md, /\| InChIKey \| BSYNRYMUTXBXSQ-UHFFFAOYSA-N \|/);
  const tables = md.split("\n\n").filter((block) => block.startsWith("|"));
  assert.equal(tables.length, 4);
  for (const block of tables) {
    const widths = block.split("\n").map((row) => row.split(/(?<!\\)\|/).length);
    assert.ok(widths.every((w) => w === widths[0]), `ragged table:\n${block}`);
  }
});

test("context pack: prompt is a compact text block", async () => {
  const text = (await pack("prompt")).rendered;
  const lines = text.split("\n");
  assert.equal(lines.length, 5);
  assert.match(lines[0]!, /^Molecule: CC\(=O\)Oc1ccccc1C\(=O\)O \(formula C9H8O4, InChIKey BSYNRYMUTXBXSQ/);
  assert.match(lines[1]!, /Molecular weight 180\.159 g\/mol/);
  assert.match(lines[3]!, /^ADMET \(heuristic estimates\): bbb /);
});

test("context pack: invalid SMILES is a typed error", async () => {
  await assert.rejects(
    moleculeContextPackTool.run({ smiles: "C1CC", format: "json" }) as Promise<unknown>,
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
  );
});
