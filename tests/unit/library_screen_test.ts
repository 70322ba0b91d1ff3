/**
 * The text screen before RDKit's pattern fingerprints (src/chem/library/screen.ts): every molecule RDKit's
 * SubstructLibrary matches passes it, on the test libraries and queries of every kind the reader meets
 * (brackets, recursive SMARTS, wildcards, fused and bridged rings, dots), and it refuses what it should.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { buildIndex } from "../../src/chem/library/build.ts";
import { sdRecords, smilesRecords } from "../../src/chem/library/records.ts";
import {
  CLASS_COUNT,
  mayContain,
  moleculeClass,
  NO_NEEDS,
  queryNeeds,
} from "../../src/chem/library/screen.ts";
import { libraryIo } from "../../src/runtime/library_io.ts";

await loadTestRDKit();

const path = (name: string) => join(ROOT, "tests/data/library", name);
const molecules = [
  ...(await buildIndex(smilesRecords(libraryIo.open(path("nci400.smi"))))).index.smiles,
  ...(await buildIndex(sdRecords(libraryIo.open(path("bzr40.sdf"))))).index.smiles,
  "c1ccc2ccccc2c1",
  "c1ccc2ncccc2c1",
  "c1ccc2[nH]ccc2c1",
  "c1ccc2sccc2c1",
  "c1cc2cccc3ccc(c1)c23",
  "C1CC2CCC1C2",
  "C1CCC2CCCCC2C1",
  "c1ccc(-c2ccccc2)cc1",
  "c1ccc2c(c1)-c1cccc-21",
  "C1=CC2=CC=CC2=C1",
  "[O-][n+]1ccccc1",
  "c1cc[se]c1",
  "[2H]c1ccccc1",
  "CC.c1ccncc1",
];

const QUERIES = [
  "c1ccccc1",
  "c1ccc2ccccc2c1",
  "c1ccc2ncccc2c1",
  "c1ccc2[nH]ccc2c1",
  "c1ccc2occc2c1",
  "c1ccsc1",
  "c1ccoc1",
  "n1ccccc1",
  "c1ncncn1",
  "C1CC1",
  "C1CCC2CCCCC2C1",
  "C1CC2CCC1C2",
  "[#6]1~[#6]~[#6]2~[#6]~[#6]~[#6]~[#6]~[#6]~2~[#6]~[#6]~1",
  "[$(c1ccccc1)]",
  "[$([CX3]=O)]c1ccncc1",
  "a1aaa2aaaaa2a1",
  "*1**2****2**1",
  "c1cc2ccccc2[n,o,s]1",
  "[nH]",
  "c:c",
  "c-c",
  "c1ccc2c(c1)-c1ccccc-21",
  "C=C",
  "C1=CC=CC=C1",
  "c1ccccc1.c1ccncc1",
  "O=C-N",
  "S",
  "s",
  "Cl",
  "[Se]",
  "[se]",
  "c!@c",
  "c1cc2cccc3ccc(c1)c23",
  "c1ccc2cc3ccccc3cc2c1",
  "c1ccc2c(c1)ccc1ccccc12",
  "c1cc2ccc3cccc4ccc(c1)c2c34",
];

test("every molecule RDKit's SubstructLibrary matches passes the screen", () => {
  const library = new (rdkit().SubstructLibrary)();
  try {
    for (const smiles of molecules) library.add_trusted_smiles(smiles);
    const classes = molecules.map(moleculeClass);
    let refused = 0;
    for (const smarts of QUERIES) {
      const query = rdkit().get_qmol(smarts);
      assert.ok(query && query.is_valid(), smarts);
      try {
        const found = new Set(library.get_matches_as_uint32array(query, false, 1, -1) as Uint32Array);
        const needs = queryNeeds(smarts);
        classes.forEach((cls, i) => {
          if (found.has(i)) assert.ok(mayContain(cls, needs), `${smarts} in ${molecules[i]}`);
          else if (!mayContain(cls, needs)) refused++;
        });
      } finally {
        query.delete();
      }
    }
    assert.ok(refused > 1000, `${refused} non-matches refused`);
  } finally {
    library.delete();
  }
});

test("what queries need: aromatic n, o, s written outside brackets, ring fusions, fused aromatic rings", () => {
  assert.deepEqual(queryNeeds("c1ccc2ccccc2c1"), { aromatic: 0, fusion: 2, fused: 5 });
  assert.deepEqual(queryNeeds("c1ccc2ncccc2c1"), { aromatic: 1, fusion: 2, fused: 1 });
  assert.deepEqual(queryNeeds("c1ccc2sccc2c1"), { aromatic: 4, fusion: 2, fused: 2 });
  assert.deepEqual(queryNeeds("c1ccoc1"), { aromatic: 2, fusion: 0, fused: 0 });
  assert.deepEqual(queryNeeds("C1CC2CCC1C2"), { aromatic: 0, fusion: 2, fused: 0 });
  // A bracket holds any expression: it needs nothing, and a recursive SMARTS adds no atom to the graph.
  assert.deepEqual(queryNeeds("[n]1ccccc1"), NO_NEEDS);
  assert.deepEqual(queryNeeds("[$([CX3]=O)]c1ccncc1"), { aromatic: 1, fusion: 0, fused: 0 });
  // Text this reader does not know needs nothing.
  for (const odd of ["(C.C)", "C%(100)CC%(100)", "CH", "C1CC", "C)"]) {
    assert.deepEqual(queryNeeds(odd), NO_NEEDS);
  }
});

test("a molecule the reader cannot read is in every class's reach", () => {
  const cls = moleculeClass("C1CC");
  assert.equal(cls, CLASS_COUNT - 1);
  assert.ok(mayContain(cls, queryNeeds("c1ccc2ncccc2c1")));
  assert.ok(!mayContain(moleculeClass("c1ccccc1-c1ccccc1"), queryNeeds("c1ccc2ccccc2c1")));
  assert.ok(!mayContain(moleculeClass("c1ccc2ncccc2c1"), queryNeeds("c1ccc2ccccc2c1")));
  assert.ok(mayContain(moleculeClass("c1ccc2cc3ccncc3cc2c1"), queryNeeds("c1ccc2ccccc2c1")));
});
