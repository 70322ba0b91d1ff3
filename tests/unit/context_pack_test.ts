import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { repeatedContent } from "../helpers/budget.ts";
import { moleculeContextPackTool } from "../../src/tools/molecule_context_pack.ts";
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { admetProfileTool } from "../../src/tools/admet_profile.ts";
import { lipinskiCheckTool } from "../../src/tools/lipinski_check.ts";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { ChemError } from "../../src/errors.ts";
import { readFileSync } from "node:fs";
import { contextPackExamples } from "../../scripts/context_pack_doc.ts";

await loadTestRDKit();
const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const pack = async (format: "json" | "markdown" | "prompt", smiles = ASPIRIN) =>
  await moleculeContextPackTool.run({ smiles, format });

/** A tool's result without the fields the pack gives once. */
const less = (result: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(result).filter(([k]) => !keys.includes(k)));

test("context pack json: each section is the tool's result less what would repeat, and validates", async () => {
  const result = await pack("json");
  v.parse(moleculeContextPackTool.output, result);
  const { qed_details, ...properties } = less(await calcPropertiesTool.run({ smiles: ASPIRIN }), "smiles");
  const { desirability: _, ...qed } = qed_details as Record<string, unknown>;
  assert.deepEqual(result.properties, { ...properties, qed_details: qed });
  assert.deepEqual(
    result.admet,
    less(await admetProfileTool.run({ smiles: ASPIRIN }), "smiles", "parent_smiles", "fragment_count"),
  );
  assert.deepEqual(result.moljson, toMolJson(ASPIRIN));
  assert.equal(result.rendered, undefined);
  const ids = result.identifiers!;
  assert.equal(ids.inchikey, "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
  assert.equal(ids.formula, "C9H8O4");
  assert.deepEqual(repeatedContent(result), []);
});

test("context pack json: a salt's parent SMILES is given once, in properties", async () => {
  const salt = "CC(C)NCC(O)COc1cccc2ccccc12.Cl";
  const result = await pack("json", salt);
  assert.equal(
    (result.properties as { parent_smiles?: string }).parent_smiles,
    "CC(C)NCC(O)COc1cccc2ccccc12",
  );
  const lipinski = await lipinskiCheckTool.run({ smiles: salt });
  assert.equal(lipinski.parent_smiles, "CC(C)NCC(O)COc1cccc2ccccc12");
  assert.equal("parent_smiles" in (result.lipinski as object), false);
  assert.deepEqual(repeatedContent(result), []);
});

test("context pack markdown: only the rendering, with tidy tables, units and the MolJSON graph", async () => {
  const result = await pack("markdown");
  assert.deepEqual(Object.keys(result).sort(), ["format", "rendered", "smiles"]);
  const md = result.rendered!;
  assert.match(md, /^# Molecule context: C9H8O4/);
  assert.match(md, /\| Molecular weight \| 180\.159 \| g\/mol \|/);
  assert.match(md, /\| TPSA \| 63\.6 \| Å² \|/);
  assert.match(md, /\| InChIKey \| BSYNRYMUTXBXSQ-UHFFFAOYSA-N \|/);
  assert.match(md, /\| bbb \| penetrant \| Daina & Zoete 2016 \| Inside the BOILED-Egg yolk/);
  // Aspirin's 13 atoms and 13 bonds: atom 4 is aromatic with one H, bond 4 joins atoms 4 and 5 (aromatic).
  for (const row of ["| 4 | C | 0 | 0 | yes |  |", "| 12 | O | 0 | 1 |  |  |", "| 4 | 4–5 | 1.5 |  |"]) {
    assert.ok(md.includes(row), row);
  }
  const tables = md.trim().split("\n\n").filter((block) => block.startsWith("|"));
  assert.equal(tables.length, 6);
  for (const block of tables) {
    const widths = block.split("\n").map((row) => row.split(/(?<!\\)\|/).length);
    assert.ok(widths.every((w) => w === widths[0]), `ragged table:\n${block}`);
  }
  assert.equal(tables.at(-2)!.split("\n").length, 2 + 13);
  assert.equal(tables.at(-1)!.split("\n").length, 2 + 13);
});

test("context pack markdown: SMILES and InChI are code spans, so brackets and backslashes stay literal", async () => {
  const md = (await pack("markdown", "C/C=C\\C[C@H](N)O")).rendered!;
  assert.ok(md.includes("| Canonical SMILES | `C/C=C\\C[C@H](N)O` |"), md.split("\n").slice(4, 8).join("\n"));
  assert.match(md, /\| InChI \| `InChI=1S\/C5H11NO\/[^`|]+` \|/);
});

test("context pack prompt: one compact block, the MolJSON graph as atom and bond rows", async () => {
  const result = await pack("prompt");
  assert.deepEqual(Object.keys(result).sort(), ["format", "rendered", "smiles"]);
  const lines = result.rendered!.split("\n");
  assert.equal(lines.length, 7);
  assert.match(lines[0]!, /^Molecule: CC\(=O\)Oc1ccccc1C\(=O\)O \(formula C9H8O4, InChIKey BSYNRYMUTXBXSQ/);
  assert.match(lines[1]!, /Molecular weight 180\.159 g\/mol/);
  assert.match(lines[3]!, /^ADMET \(heuristic estimates, acid\): bbb /);
  assert.match(lines[5]!, /^Atoms: 0 C H3; 1 C; 2 O; 3 O; 4 C ar; 5 C H1 ar;/);
  assert.match(lines[6]!, /^Bonds: 0-1 1; 1-2 2; 1-3 1; 3-4 1; 4-5 1\.5;/);
});

test("context pack prompt: chirality, charges and E/Z survive in the atom and bond rows", async () => {
  const text = (await pack("prompt", "N[C@@H](C)C(=O)[O-].C/C=C/C")).rendered!;
  assert.match(text, /Atoms: 0 N H2; 1 C H1 CW\(0,2,3,H\)\/S;/);
  assert.match(text, /5 O -1;/);
  assert.match(text, /7-8 2 trans\(6,9\)/);
});

test("context pack: invalid SMILES is a typed error", async () => {
  await assert.rejects(
    moleculeContextPackTool.run({ smiles: "C1CC", format: "json" }) as Promise<unknown>,
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
  );
});

test("docs/examples hold the current atorvastatin renderings (run scripts/context_pack_doc.ts)", async () => {
  for (const [path, text] of Object.entries(await contextPackExamples())) {
    assert.equal(
      readFileSync(path, "utf8"),
      text,
      `${path} is stale: run npx deno run -A scripts/context_pack_doc.ts`,
    );
  }
});
