import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { ROOT } from "../helpers/process.ts";
import { MOLJSON_SET } from "../data/moljson_set.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import {
  type MolJson,
  moljsonJsonSchema,
  MolJsonSchema,
  resolveMolJson,
} from "../../src/chem/moljson/schema.ts";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { fromMolJson } from "../../src/chem/moljson/reader.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import { ChemError } from "../../src/errors.ts";
import { smilesToMoljsonTool } from "../../src/tools/smiles_to_moljson.ts";
import { moljsonToSmilesTool } from "../../src/tools/moljson_to_smiles.ts";

await loadTestRDKit();

/** A deep copy, as a client would send it back. */
const clone = (doc: MolJson): MolJson => JSON.parse(JSON.stringify(doc)) as MolJson;

test("round trip SMILES → MolJSON → canonical SMILES is the identity on the ≥100-molecule set", () => {
  assert.ok(MOLJSON_SET.length >= 100, `set has ${MOLJSON_SET.length} molecules`);
  for (const { smiles, tag } of MOLJSON_SET) {
    const back = fromMolJson(clone(toMolJson(smiles))).smiles;
    assert.equal(back, canonicalSmiles(smiles), `${tag}: ${smiles}`);
  }
});

test("round trip also holds for the 50+ drug set (macrocycles, many stereocentres, E/Z)", () => {
  for (const { name, smiles } of DRUGS50) {
    assert.equal(fromMolJson(clone(toMolJson(smiles))).smiles, canonicalSmiles(smiles), name);
  }
});

test("MolJSON of L-alanine: atoms, H counts, chirality around named neighbours, CIP S", () => {
  const doc = toMolJson("N[C@@H](C)C(=O)O");
  assert.equal(doc.format, "moljson");
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.atoms.map((a) => a.element), ["N", "C", "C", "C", "O", "O"]);
  // Fields at their default are left out: the carbonyl C and O carry no hydrogens field.
  assert.deepEqual(doc.atoms.map((a) => a.hydrogens), [2, 1, 3, undefined, undefined, 1]);
  const centre = doc.atoms[1]?.chirality;
  assert.ok(centre);
  // SMILES N[C@@H](C)C: seen from N, (H, CH3, COOH) clockwise. Any listing of the neighbours must encode that.
  const order = centre.neighbors;
  const smilesOrder: (number | "H")[] = [0, "H", 2, 3];
  const even = isEvenPermutation(smilesOrder, order);
  assert.equal(centre.winding, even ? "CW" : "CCW");
  assert.equal(centre.cip, "S");
  assert.deepEqual(doc.bonds, [
    { begin: 0, end: 1 },
    { begin: 1, end: 2 },
    { begin: 1, end: 3 },
    { begin: 3, end: 4, order: 2 },
    { begin: 3, end: 5 },
  ]);
  assert.deepEqual(doc.atoms[0], { index: 0, element: "N", hydrogens: 2 });
  const full = resolveMolJson(doc);
  assert.deepEqual(full.atoms[0], {
    index: 0,
    element: "N",
    charge: 0,
    isotope: null,
    hydrogens: 2,
    radical_electrons: 0,
    aromatic: false,
    chirality: null,
  });
  assert.deepEqual(full.bonds[3], { index: 3, begin: 3, end: 4, order: 2, stereo: null });
});

test("moljson_to_smiles reads the lean and the fully written form alike", () => {
  for (const smiles of ["N[C@@H](C)C(=O)O", "[O-][N+](=O)c1ccccc1", "[13CH3]/C=C/C", "[CH3]"]) {
    const lean = toMolJson(smiles);
    const full = resolveMolJson(lean);
    assert.equal(fromMolJson(structuredClone(full)).smiles, fromMolJson(clone(lean)).smiles, smiles);
    assert.ok(JSON.stringify(lean).length < JSON.stringify(full).length, smiles);
  }
});

test("aromatic bonds are 1.5 with aromatic atoms; charges, isotopes and E/Z are explicit", () => {
  const benzene = toMolJson("c1ccccc1");
  assert.ok(benzene.bonds.every((b) => b.order === 1.5));
  assert.ok(benzene.atoms.every((a) => a.aromatic && a.hydrogens === 1));
  const nitro = toMolJson("[O-][N+](=O)C");
  assert.deepEqual(nitro.atoms.map((a) => a.charge), [-1, 1, undefined, undefined]);
  assert.equal(toMolJson("[13CH4]").atoms[0]?.isotope, 13);
  assert.equal("isotope" in toMolJson("C").atoms[0]!, false);
  const butene = toMolJson("C/C=C/C");
  assert.deepEqual(butene.bonds[1]?.stereo, { configuration: "trans", atoms: [0, 3] });
  assert.deepEqual(toMolJson("C/C=C\\C").bonds[1]?.stereo, { configuration: "cis", atoms: [0, 3] });
  assert.equal(toMolJson("[CH3]").atoms[0]?.radical_electrons, 1);
});

test("hand-written MolJSON: winding follows the documented SMILES @/@@ meaning, H included", () => {
  const atom = (index: number, element: string, hydrogens: number) => ({
    index,
    element,
    charge: 0,
    isotope: null,
    hydrogens,
    aromatic: false,
    chirality: null,
  });
  const bond = (index: number, begin: number, end: number, order: 1 | 2 = 1) => ({
    index,
    begin,
    end,
    order,
    stereo: null,
  });
  // L-alanine written as N, C(alpha), CH3, C(=O)OH; seen from N: H, CH3, COOH clockwise (SMILES N[C@@H](C)C(=O)O).
  const alanine = (neighbors: (number | "H")[], winding: "CW" | "CCW") => ({
    format: "moljson",
    version: 1,
    atoms: [
      atom(0, "N", 2),
      { ...atom(1, "C", 1), chirality: { neighbors, winding } },
      atom(2, "C", 3),
      atom(3, "C", 0),
      atom(4, "O", 0),
      atom(5, "O", 1),
    ],
    bonds: [bond(0, 0, 1), bond(1, 1, 2), bond(2, 1, 3), bond(3, 3, 4, 2), bond(4, 3, 5)],
  });
  const lAla = canonicalSmiles("N[C@@H](C)C(=O)O");
  const dAla = canonicalSmiles("N[C@H](C)C(=O)O");
  assert.equal(fromMolJson(alanine([0, "H", 2, 3], "CW")).smiles, lAla);
  assert.equal(fromMolJson(alanine([0, "H", 2, 3], "CCW")).smiles, dAla);
  // One swap of two neighbours is the mirror image; a cyclic shift of the last three is the same molecule.
  assert.equal(fromMolJson(alanine(["H", 0, 2, 3], "CW")).smiles, dAla);
  assert.equal(fromMolJson(alanine([0, 2, 3, "H"], "CW")).smiles, lAla);
  // CIP given on input is ignored.
  const withCip = alanine([0, "H", 2, 3], "CW");
  (withCip.atoms[1] as { chirality: unknown }).chirality = {
    neighbors: [0, "H", 2, 3],
    winding: "CW",
    cip: "R",
  };
  assert.equal(fromMolJson(withCip).smiles, lAla);
});

test("an edited MolJSON converts: ethanol with O → N (hydrogens 2) is ethylamine", () => {
  const doc = toMolJson("CCO");
  const o = doc.atoms[2];
  assert.ok(o);
  o.element = "N";
  o.hydrogens = 2;
  assert.equal(fromMolJson(doc).smiles, "CCN");
});

/** Expects INVALID_MOLJSON whose message names `where` (e.g. "atom 2"). */
function assertInvalid(doc: unknown, where: string | RegExp) {
  assert.throws(() => fromMolJson(doc), (e: unknown) => {
    assert.ok(e instanceof ChemError, String(e));
    assert.equal(e.code, "INVALID_MOLJSON");
    if (typeof where === "string") {
      assert.ok(e.message.includes(where), `'${e.message}' should name ${where}`);
    } else assert.match(e.message, where);
    return true;
  });
}

test("malformed MolJSON gives INVALID_MOLJSON naming the atom or bond", () => {
  const base = () => clone(toMolJson("CCO"));
  // dangling bond / out-of-range index
  const dangling = base();
  dangling.bonds.push({ index: 2, begin: 2, end: 9, order: 1, stereo: null });
  assertInvalid(dangling, "bond 2");
  assertInvalid(dangling, /out of range/);
  // unknown element
  const unknown = base();
  (unknown.atoms[2] as { element: string }).element = "Xx";
  assertInvalid(unknown, "atom 2");
  // duplicate bond (reversed direction)
  const duplicate = base();
  duplicate.bonds.push({ index: 2, begin: 1, end: 0, order: 1, stereo: null });
  assertInvalid(duplicate, /bond 2: duplicates bond 0/);
  // bad valence: pentavalent carbon
  const valence = base();
  (valence.atoms[0] as { hydrogens: number }).hydrogens = 4;
  assertInvalid(valence, "atom 0");
  assertInvalid(valence, /valence/);
  // index not equal to position
  const shifted = base();
  (shifted.atoms[1] as { index: number }).index = 5;
  assertInvalid(shifted, "atom 1");
  const shiftedBond = base();
  (shiftedBond.bonds[1] as { index: number }).index = 0;
  assertInvalid(shiftedBond, "bond 1");
  // self bond
  const self = base();
  self.bonds.push({ index: 2, begin: 1, end: 1, order: 1, stereo: null });
  assertInvalid(self, "bond 2");
  // chirality neighbour out of range / not a neighbour
  const chiral = clone(toMolJson("N[C@@H](C)C(=O)O"));
  const centre = chiral.atoms[1];
  assert.ok(centre?.chirality);
  centre.chirality.neighbors = [0, 2, 7, "H"];
  assertInvalid(chiral, "atom 1");
  // cis/trans on a single bond, or with atoms that are not neighbours
  const stereo = clone(toMolJson("C/C=C/C"));
  const single = stereo.bonds[0];
  assert.ok(single);
  single.stereo = { configuration: "cis", atoms: [1, 2] };
  assertInvalid(stereo, "bond 0");
  const wrongRef = clone(toMolJson("C/C=C/CC"));
  const db = wrongRef.bonds[1];
  assert.ok(db?.stereo);
  db.stereo.atoms = [0, 4];
  assertInvalid(wrongRef, "bond 1");
  // aromatic flags inconsistent
  const arom = clone(toMolJson("c1ccccc1C"));
  (arom.atoms[6] as { aromatic: boolean }).aromatic = true;
  assertInvalid(arom, "atom 6");
  const aromBond = clone(toMolJson("c1ccccc1C"));
  (aromBond.bonds[5] as { order: number }).order = 1.5;
  assertInvalid(aromBond, /bond 5|atom 6/);
  // pyrrole without its N-H cannot be kekulised
  const pyrrole = clone(toMolJson("c1cc[nH]c1"));
  (pyrrole.atoms[3] as { hydrogens: number }).hydrogens = 0;
  assertInvalid(pyrrole, /kekul/);
  // structural: wrong type names the path
  const typed = base() as unknown as { atoms: { charge: unknown }[] };
  (typed.atoms[1] as { charge: unknown }).charge = "plus";
  assertInvalid(typed, "atom 1");
  assertInvalid({ format: "moljson", version: 2, atoms: [], bonds: [] }, /version/);
  // The schema requires an atom, as the reader does: a client that follows it never sends an empty molecule.
  assertInvalid({ format: "moljson", version: 1, atoms: [], bonds: [] }, /^atoms: MolJSON has no atoms/);
  assert.equal(
    v.safeParse(MolJsonSchema, { format: "moljson", version: 1, atoms: [], bonds: [] }).success,
    false,
  );
});

test("the published JSON Schema is draft 2020-12 and docs/moljson.md carries the current one", () => {
  const schema = moljsonJsonSchema();
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  const doc = readFileSync(join(ROOT, "docs/moljson.md"), "utf8");
  const block = /## JSON Schema[\s\S]*?```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  assert.ok(block, "docs/moljson.md needs a ```json block under '## JSON Schema'");
  assert.deepEqual(JSON.parse(block), schema, "stale: run deno run -A scripts/moljson_schema_doc.ts");
});

test("tool results validate against their output schemas", async () => {
  const out = await smilesToMoljsonTool.run({ smiles: "C/C=C/[C@@H](C)O" });
  v.parse(smilesToMoljsonTool.output, out);
  assert.equal(out.canonical_smiles, canonicalSmiles("C/C=C/[C@@H](C)O"));
  const input = v.parse(moljsonToSmilesTool.input, { moljson: out.moljson });
  const back = await moljsonToSmilesTool.run(input);
  v.parse(moljsonToSmilesTool.output, back);
  assert.equal(back.smiles, out.canonical_smiles);
  assert.ok(v.safeParse(MolJsonSchema, out.moljson).success);
  // Input schema rejects a bond order MolJSON does not define.
  const bad = clone(out.moljson as MolJson);
  (bad.bonds[0] as { order: number }).order = 4;
  assert.equal(v.safeParse(moljsonToSmilesTool.input, { moljson: bad }).success, false);
});

test("dative bonds (RDKit metal complexes) are refused with UNSUPPORTED_MOLECULE", () => {
  assert.throws(
    () => toMolJson("Cl[Pt](Cl)([NH3])[NH3]"),
    (e: unknown) => e instanceof ChemError && e.code === "UNSUPPORTED_MOLECULE" && /bond 2/.test(e.message),
  );
});

/** True when `to` is an even permutation of `from`. */
function isEvenPermutation<T>(from: readonly T[], to: readonly T[]): boolean {
  const perm = to.map((x) => from.indexOf(x));
  let swaps = 0;
  for (let i = 0; i < perm.length; i++) {
    while (perm[i] !== i) {
      const j = perm[i] ?? i;
      [perm[i], perm[j]] = [perm[j] ?? j, perm[i] ?? i];
      swaps++;
    }
  }
  return swaps % 2 === 0;
}
