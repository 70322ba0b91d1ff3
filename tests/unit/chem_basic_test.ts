import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { canonicalSmiles, summarize } from "../../src/chem/identity.ts";
import { countSmilesAtoms } from "../../src/chem/rdkit.ts";
import { ecfp4, tanimoto } from "../../src/chem/fingerprint.ts";
import { smartsMatch } from "../../src/chem/substructure.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

test("summarize aspirin: 13 heavy atoms, 13 bonds, MW 180.159 g/mol", () => {
  const s = summarize("CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(s.atom_count, 13);
  assert.equal(s.bond_count, 13);
  assert.equal(s.atom_count_with_hydrogens, 21);
  assert.ok(Math.abs(s.molecular_weight - 180.159) < 0.01);
  assert.equal(s.fragment_count, 1);
});

test("canonical SMILES is the same for different spellings", () => {
  assert.equal(canonicalSmiles("OCC"), "CCO");
  assert.equal(canonicalSmiles("C(O)C"), "CCO");
  assert.equal(canonicalSmiles("c1ccccc1"), canonicalSmiles("C1=CC=CC=C1"));
});

test("invalid SMILES throws a typed ChemError", () => {
  for (const bad of ["C1CC", "", "   ", "Xy", "C(C", "CC>>CC"]) {
    assert.throws(
      () => canonicalSmiles(bad),
      (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
    );
  }
});

test("ecfp4 of ethanol has 6 bits and 512 hex digits", () => {
  const fp = ecfp4("CCO");
  assert.equal(fp.hex.length, 512);
  assert.equal(fp.popcount, 6);
  assert.deepEqual(fp.on_bits, [80, 222, 294, 807, 1057, 1410]);
  const bit = (i: number) => (parseInt(fp.hex.slice((i >> 3) * 2, (i >> 3) * 2 + 2), 16) >> (i & 7)) & 1;
  for (const i of fp.on_bits) assert.equal(bit(i), 1);
});

test("tanimoto: identity 1, symmetric, unrelated small", () => {
  assert.equal(tanimoto("CCO", "OCC").similarity, 1);
  const ab = tanimoto("CC(=O)Oc1ccccc1C(=O)O", "OC(=O)c1ccccc1O").similarity;
  const ba = tanimoto("OC(=O)c1ccccc1O", "CC(=O)Oc1ccccc1C(=O)O").similarity;
  assert.equal(ab, ba);
  assert.ok(ab > 0.3 && ab < 0.8, `aspirin/salicylic acid ${ab}`);
  assert.ok(tanimoto("CCCCCCCC", "c1ccncc1").similarity < 0.1);
});

test("tanimoto over a list against one query: each answer as a lone call gives it, bad SMILES still refused", () => {
  const query = "CC(=O)Oc1ccccc1C(=O)O";
  const list = ["OC(=O)c1ccccc1O", "CCO", "c1ccncc1", "OC(=O)c1ccccc1O", query];
  // The fingerprints of recent molecules are kept by SMILES text (a batch's query): the bit counts each answer
  // reports must be those of its own molecules, in any order of calls.
  const lone = list.map((smiles) => ecfp4(smiles).popcount);
  const answers = list.map((smiles) => tanimoto(smiles, query));
  assert.deepEqual(answers.map((a) => a.bits_a), lone);
  assert.ok(answers.every((a) => a.bits_b === ecfp4(query).popcount));
  assert.equal(answers[4]!.similarity, 1);
  assert.equal(answers[0]!.similarity, answers[3]!.similarity);
  assert.equal(tanimoto("CCO", "OC(=O)c1ccccc1O").similarity, tanimoto("OC(=O)c1ccccc1O", "CCO").similarity);
  assert.throws(() => tanimoto("C1CC", query), (e) => e instanceof ChemError && e.code === "INVALID_SMILES");
  assert.throws(() => tanimoto("C1CC", query), (e) => e instanceof ChemError, "and again: not kept");
});

test("smarts match counts unique matches and reports atom maps", () => {
  const r = smartsMatch("OC(=O)c1ccccc1O", "[OX2H]");
  assert.equal(r.match_count, 2);
  assert.deepEqual(r.matches, [[0], [9]]);
  assert.equal(smartsMatch("CCCC", "c").matched, false);
  assert.equal(smartsMatch("CCCC", "c").match_count, 0);
  const t = smartsMatch("CCCCCC", "C", 3);
  assert.equal(t.match_count, 3);
  assert.equal(t.truncated, true);
  assert.throws(
    () => smartsMatch("CC", "[C"),
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMARTS",
  );
});

test("atom pre-count matches RDKit on drug SMILES and refuses oversized input before parsing", () => {
  for (
    const smiles of ["CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "[NH4+].[Cl-]", "ClC(Br)I"]
  ) {
    assert.equal(countSmilesAtoms(smiles), summarize(smiles).atom_count, smiles);
  }
  // A 600-atom chain traps RDKit's WebAssembly; it must be refused without ever reaching get_mol.
  for (const big of ["C".repeat(600), "C".repeat(5000), "c1ccccc1".repeat(100)]) {
    assert.throws(
      () => canonicalSmiles(big),
      (e: unknown) => e instanceof ChemError && e.code === "MOLECULE_TOO_LARGE",
    );
  }
  assert.equal(canonicalSmiles("C".repeat(500)), "C".repeat(500));
  assert.equal(canonicalSmiles("CCO"), "CCO", "RDKit still works afterwards");
});

test("a refused SMILES or SMARTS carries RDKit's own reason, naming the atom at fault", () => {
  const refusal = (call: () => unknown): ChemError => {
    try {
      call();
    } catch (error) {
      if (error instanceof ChemError) return error;
      throw error;
    }
    throw new Error("no error");
  };
  const valence = refusal(() => canonicalSmiles("CN(C)(C)(C)C"));
  assert.equal(valence.code, "INVALID_SMILES");
  assert.match(valence.message, /atom # 1 N, 5, is greater than permitted/);
  assert.equal(valence.details?.reason, "Explicit valence for atom # 1 N, 5, is greater than permitted");
  assert.match(refusal(() => canonicalSmiles("c1cccc1")).message, /kekulize.*Unkekulized atoms: 0 1 2 3 4/);
  assert.match(refusal(() => canonicalSmiles("C1CC")).message, /unclosed ring/);
  // The next failure says its own reason, not the last one's.
  assert.doesNotMatch(refusal(() => smartsMatch("CCO", "[C")).message, /unclosed ring/);
  // A parse that succeeds between two failures leaves nothing behind.
  assert.equal(canonicalSmiles("OCC"), "CCO");
});
