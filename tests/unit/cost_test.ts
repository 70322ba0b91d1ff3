// The cost model (src/chem/cost.ts): what it reads from the text, which inputs it keeps on the protocol thread,
// sends to the pool or refuses, checked on the attacks of the cost issue and on the whole validation set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  costRefusal,
  graphCost,
  isLight,
  MAX_EXCESS_DEGREE,
  MAX_RING_DENSITY,
  textCost,
} from "../../src/chem/cost.ts";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { fromMolJson } from "../../src/chem/moljson/reader.ts";
import { molJsonCost, textsCost } from "../../src/tools/placement.ts";
import { parseSmiles, withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import { CIP_ATTACK, DENSE_DESCRIPTOR_ATTACK, DENSE_PARSE_ATTACK, denseGraph } from "../data/costly.ts";
import { RUNAWAY_MOLECULE } from "../data/runaway.ts";
import { DRUGS50 } from "../data/drugs50.ts";

await loadTestRDKit();

const VALIDATION = readFileSync(join(ROOT, "tests/data/reference/molecules.smi"), "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => line.split("\t")[0]!);

test("textCost counts atoms, ring closures, neighbours beyond four and stereocentres", () => {
  assert.deepEqual(textCost("CC(=O)Oc1ccccc1C(=O)O"), {
    atoms: 13,
    ringClosures: 1,
    excessDegree: 0,
    stereoAtoms: 0,
  });
  assert.deepEqual(textCost("C1CC2CCC1C2"), { atoms: 7, ringClosures: 2, excessDegree: 0, stereoAtoms: 0 });
  assert.equal(textCost("FS(F)(F)(F)(F)F").excessDegree, 2);
  assert.equal(textCost("C[C@H](N)[C@@](O)(F)Cl.[Na+]").stereoAtoms, 2);
  assert.equal(textCost("C%10CC%(123)CC%10C%(123)").ringClosures, 2);
  // Four neighbours written to one dummy atom by ring closures alone: *1234 closes to four atoms, plus a chain.
  assert.equal(textCost("*1234.*1.*2.*3.*4").excessDegree, 0);
  assert.equal(textCost("*12345*1*2*3*4*5").excessDegree, 2);
});

test("every validation-set and drug-set molecule is light: accepted and kept on the protocol thread", () => {
  const smiles = [...VALIDATION, ...DRUGS50.map((d) => d.smiles)];
  assert.ok(smiles.length > 1_300);
  const refused = smiles.filter((s) => costRefusal(textCost(s)) !== undefined);
  assert.deepEqual(refused, []);
  assert.deepEqual(smiles.filter((s) => !isLight(textCost(s))), []);
});

/** RDKit's independent rings (bonds − atoms + components) and heavy degrees of a molecule, from its JSON. */
function rdkitGraph(smiles: string): { rings: number; excess: number } {
  const doc = JSON.parse(withMol(smiles, (mol) => mol.get_json())) as {
    molecules: { atoms: unknown[]; bonds?: { atoms: [number, number] }[] }[];
  };
  const { atoms, bonds = [] } = doc.molecules[0]!;
  const parent = atoms.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const degree = atoms.map(() => 0);
  for (const { atoms: [a, b] } of bonds) {
    parent[root(a)] = root(b);
    degree[a]!++;
    degree[b]!++;
  }
  const components = atoms.filter((_, i) => root(i) === i).length;
  const excess = degree.reduce((sum, d) => sum + Math.max(0, d - 4), 0);
  return { rings: bonds.length - atoms.length + components, excess };
}

test("on the validation set the text's ring closures are RDKit's independent rings, and its excess degree RDKit's", () => {
  let compared = 0;
  for (const smiles of VALIDATION) {
    const cost = textCost(smiles);
    let graph: { rings: number; excess: number };
    try {
      graph = rdkitGraph(smiles);
    } catch (error) {
      // The set keeps a few molecules RDKit refuses (hypervalent fluorosilicates and the like).
      if (error instanceof ChemError && error.code === "INVALID_SMILES") continue;
      throw error;
    }
    compared++;
    assert.equal(cost.ringClosures, graph.rings, smiles);
    // Written hydrogens ([H]) are neighbours in the text but not heavy neighbours in RDKit: never fewer.
    assert.ok(cost.excessDegree >= graph.excess, smiles);
  }
  assert.ok(compared > 1_250, `${compared} compared`);
});

test("the attacks are refused with the limit they break, before RDKit sees them", () => {
  for (
    const [smiles, limit] of [
      [DENSE_PARSE_ATTACK, "excess_degree"],
      [DENSE_DESCRIPTOR_ATTACK, "excess_degree"],
      [denseGraph(300, 280, "*", 1, 4), "ring_density"],
    ] as const
  ) {
    const started = performance.now();
    assert.throws(() => parseSmiles(smiles), (error: unknown) => {
      assert.ok(error instanceof ChemError);
      assert.equal(error.code, "MOLECULE_TOO_LARGE");
      assert.equal(error.details?.limit_name, limit);
      return true;
    });
    // Text only: far below the seconds RDKit would take.
    assert.ok(performance.now() - started < 1_000);
  }
  assert.ok(textCost(DENSE_PARSE_ATTACK).excessDegree > MAX_EXCESS_DEGREE);
});

test("costly but honest inputs are accepted and sent to the pool", () => {
  for (const smiles of [CIP_ATTACK, RUNAWAY_MOLECULE, "C".repeat(151), denseGraph(150, 60, "C", 1, 4)]) {
    assert.equal(costRefusal(textCost(smiles)), undefined, smiles.slice(0, 40));
    assert.equal(textsCost(smiles), "costly", smiles.slice(0, 40));
  }
  assert.ok(
    textCost(RUNAWAY_MOLECULE).ringClosures ** 2 / textCost(RUNAWAY_MOLECULE).atoms < MAX_RING_DENSITY,
  );
  assert.equal(textsCost(["CCO", CIP_ATTACK]), "costly");
  assert.equal(textsCost("CCO", "[#6]"), "light");
  assert.equal(molJsonCost({ atoms: new Array(151).fill({}), bonds: [] }), "costly");
});

test("JSON documents RDKit would read as molecules are refused as INVALID_SMILES", () => {
  const documents = [
    '{"commonchem":{"version":10},"molecules":[{"atoms":[{"z":6}]}]}',
    '{"rdkitjson":{"version":11},"molecules":[{"atoms":[{"z":6}],"bonds":[]}]}',
    '[{"z":6}]',
    "C\n  RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\nM  END",
  ];
  for (const text of documents) {
    assert.throws(() => parseSmiles(text), (error: unknown) => {
      assert.ok(error instanceof ChemError);
      assert.equal(error.code, "INVALID_SMILES");
      return true;
    });
  }
});

/** A MolJSON of `atoms` dummy atoms: a chain plus every pair `extra` apart as well (a dense graph). */
function denseMolJson(atoms: number, spans: readonly number[]) {
  const bonds: { begin: number; end: number }[] = [];
  for (const span of [1, ...spans]) {
    for (let i = 0; i + span < atoms; i++) bonds.push({ begin: i, end: i + span });
  }
  return {
    format: "moljson",
    version: 1,
    atoms: Array.from({ length: atoms }, (_, index) => ({ index, element: "*" })),
    bonds,
  };
}

test("MolJSON is read by the same model: independent rings and excess degree of its graph", () => {
  assert.deepEqual(graphCost(3, [[0, 1], [1, 2], [2, 0]]), {
    atoms: 3,
    ringClosures: 1,
    excessDegree: 0,
    stereoAtoms: 0,
  });
  // Two components, one ring each.
  assert.equal(graphCost(6, [[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3]]).ringClosures, 2);
  const aspirin = toMolJson("CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(fromMolJson(aspirin).smiles, "CC(=O)Oc1ccccc1C(=O)O");
  // 150 dummy atoms, each bonded to neighbours 1, 2, 3, 5 and 7 along the chain: excess degree 5 or 6 apiece.
  assert.throws(() => fromMolJson(denseMolJson(150, [2, 3, 5, 7])), (error: unknown) => {
    assert.ok(error instanceof ChemError);
    assert.equal(error.code, "MOLECULE_TOO_LARGE");
    assert.equal(error.details?.limit_name, "excess_degree");
    return true;
  });
});
