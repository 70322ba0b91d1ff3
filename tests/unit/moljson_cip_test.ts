// smiles_to_moljson on molecules whose CIP labelling RDKit gives up on: MolJSON without the labels, not an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { perhydroPolyacene } from "../data/runaway.ts";

await loadTestRDKit();

test("a 20-ring stereo polyacene, where CIP labelling gives up, is MolJSON with its stereo and no CIP labels", () => {
  const doc = toMolJson(perhydroPolyacene(20, true));
  const centres = doc.atoms.filter((atom) => atom.chirality);
  assert.equal(centres.length, 38, "every fusion centre keeps its chirality");
  assert.ok(centres.every((atom) => atom.chirality?.cip === null));
});

test("a 5-ring stereo polyacene keeps its CIP labels", () => {
  const centres = toMolJson(perhydroPolyacene(5, true)).atoms.filter((atom) => atom.chirality);
  assert.equal(centres.length, 8);
  assert.ok(centres.every((atom) => atom.chirality?.cip === "R" || atom.chirality?.cip === "S"));
});
