// smiles_to_moljson on molecules whose CIP labelling RDKit gives up on: MolJSON without the labels, not an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toMolJson } from "../../src/chem/moljson.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";

await loadTestRDKit();

/** A perhydro-polyacene of `rings` fused rings with every ring-fusion centre specified. */
function stereoPolyacene(rings: number): string {
  const label = (k: number) => (k < 10 ? String(k) : `%${k}`);
  let smiles = "C1CC[C@H]2";
  for (let k = 3; k <= rings; k++) smiles += "C[C@@H]" + label(k);
  smiles += "CCCC[C@H]" + label(rings);
  for (let k = rings - 1; k >= 2; k--) smiles += "C[C@H]" + label(k);
  return smiles + "C1";
}

test("a 20-ring stereo polyacene, where CIP labelling gives up, is MolJSON with its stereo and no CIP labels", () => {
  const doc = toMolJson(stereoPolyacene(20));
  const centres = doc.atoms.filter((atom) => atom.chirality);
  assert.equal(centres.length, 38, "every fusion centre keeps its chirality");
  assert.ok(centres.every((atom) => atom.chirality?.cip === null));
});

test("a 5-ring stereo polyacene keeps its CIP labels", () => {
  const centres = toMolJson(stereoPolyacene(5)).atoms.filter((atom) => atom.chirality);
  assert.equal(centres.length, 8);
  assert.ok(centres.every((atom) => atom.chirality?.cip === "R" || atom.chirality?.cip === "S"));
});
