import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { type Mol, rdkit } from "../../src/chem/rdkit.ts";
import {
  foldIds,
  morganCounts,
  morganEnvironments,
  morganGraph,
  verifiedMorganEnvironments,
} from "../../src/chem/morgan.ts";

await loadTestRDKit();

// Drugs, natural products, reagents and awkward cases: charges, isotopes, explicit H atoms, radicals, metals,
// dative and quadruple bonds, disconnected salts, 3- and 4-membered rings, cages, spiro/bridged systems,
// macrocycles, hypervalent S/P, B/Si/Se, dummy atoms and single atoms.
const MOLECULES = [
  "CC(=O)Oc1ccccc1C(=O)O",
  "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
  "CC(=O)Nc1ccc(O)cc1",
  "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
  "CN(C)C(=N)NC(=N)N",
  "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1",
  "CC(C)NCC(O)COc1cccc2ccccc12",
  "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
  "CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1",
  "CN[C@H]1CC[C@@H](c2ccc(Cl)c(Cl)c2)c2ccccc21",
  "COc1ccc2[nH]c(nc2c1)S(=O)Cc1ncc(C)c(OC)c1C",
  "CCCCc1nc(Cl)c(CO)n1Cc1ccc(cc1)-c1ccccc1-c1nn[nH]n1",
  "COc1ccc2cc(ccc2c1)[C@H](C)C(=O)O",
  "OC(=O)Cc1ccccc1Nc1c(Cl)cccc1Cl",
  "CCC(C)(C)C(=O)O[C@H]1C[C@@H](C)C=C2C=C[C@H](C)[C@H](CC[C@@H]3C[C@@H](O)CC(=O)O3)[C@@H]21",
  "COCCc1ccc(OCC(O)CNC(C)C)cc1",
  "OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O",
  "OC(=O)COCCN1CCN(CC1)C(c1ccccc1)c1ccc(Cl)cc1",
  "CCOC(=O)N1CCC(=C2c3ccc(Cl)cc3CCc3cccnc23)CC1",
  "Cc1ccc(cc1)-c1cc(nn1-c1ccc(cc1)S(N)(=O)=O)C(F)(F)F",
  "NS(=O)(=O)c1cc2c(NCNS2(=O)=O)cc1Cl",
  "CCN(CC)CC(=O)Nc1c(C)cccc1C",
  "OC1(CCN(CCCC(=O)c2ccc(F)cc2)CC1)c1ccc(Cl)cc1",
  "NC(=O)N1c2ccccc2C=Cc2ccccc21",
  "CCCC(CCC)C(=O)O",
  "NCC1(CC(=O)O)CCCCC1",
  "CC[C@H](C(N)=O)N1CCCC1=O",
  "CCCc1nn(C)c2c1nc([nH]c2=O)-c1cc(ccc1OCC)S(=O)(=O)N1CCN(C)CC1",
  "CCOC(=O)C1=C(COCCN)NC(C)=C(C1c1ccccc1Cl)C(=O)OC",
  "COC(=O)C1=C(C)NC(C)=C(C1c1ccccc1[N+]([O-])=O)C(=O)OC",
  "CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O",
  "NS(=O)(=O)c1cc(C(=O)O)c(NCc2ccco2)cc1Cl",
  "CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5",
  "CNC(=C[N+](=O)[O-])NCCSCc1ccc(CN(C)C)o1",
  "CC1(C)S[C@@H]2[C@H](NC(=O)[C@H](N)c3ccc(O)cc3)C(=O)N2[C@H]1C(=O)O",
  "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O",
  "Cc1ncc([N+](=O)[O-])n1CCO",
  "N[C@@H](Cc1ccc(O)c(O)c1)C(=O)O",
  "OC(=O)c1cc(ccc1O)N=Nc1ccc(cc1)S(=O)(=O)Nc1ccccn1",
  "CC12CCC3C(CCC4=CC(=O)CCC34C)C1CCC2O",
  "OC[C@H]1O[C@@H](O[C@]2(CO)O[C@H](CO)[C@@H](O)[C@@H]2O)[C@H](O)[C@@H](O)[C@@H]1O",
  "CC[C@H]1OC(=O)[C@H](C)[C@@H](O[C@H]2C[C@@](C)(OC)[C@@H](O)[C@H](C)O2)[C@H](C)" +
  "[C@@H](O[C@@H]2O[C@H](C)C[C@H](N(C)C)[C@H]2O)[C@](C)(O)C[C@@H](C)C(=O)[C@H](C)[C@@H](O)[C@]1(C)O",
  "CC1=C2[C@@]([C@]([C@H]([C@@H]3[C@]4([C@H](OC4)C[C@@H]([C@]3(C(=O)[C@@H]2OC(=O)C)C)O)OC(=O)C)" +
  "OC(=O)c5ccccc5)(C[C@@H]1OC(=O)[C@H](O)[C@@H](NC(=O)c6ccccc6)c7ccccc7)O)(C)C",
  "C1CCCCCCCCCCC1",
  "C1CCC2(CC1)CCCC2",
  "C1CC2CCC1C2",
  "C12C3C4C1C5C2C3C45",
  "C1CC1",
  "C1CCC1",
  "C1=CC=CC=CC=C1",
  "c1ccc2ccccc2c1",
  "c1ccc2cc3ccccc3cc2c1",
  "c1ccncc1",
  "c1cc[nH]c1",
  "c1ccoc1",
  "c1ccsc1",
  "c1ncncn1",
  "O=c1cc[nH]c(=O)[nH]1",
  "C#N",
  "CC#CC",
  "C=C=C",
  "C=CC=O",
  "CC(=O)Cl",
  "FC(F)(F)F",
  "ClC(Cl)(Cl)Cl",
  "C",
  "O",
  "[H][H]",
  "[He]",
  "[Na+].[Cl-]",
  "CC(=O)[O-].[NH4+]",
  "[O-][N+](=O)c1ccc(cc1)[N+]([O-])=O",
  "C[N+](C)(C)C",
  "[CH3]",
  "[CH2]C",
  "[2H]C([2H])([2H])O",
  "[13CH3]C(=O)O",
  "[14CH4]",
  "[18F]c1ccccc1",
  "[125I]c1ccc(O)cc1",
  "[235U]",
  "CC->[Fe]",
  "C$C",
  "[Fe+2].[O-]C(=O)C",
  "[Cu]",
  "B(O)(O)c1ccccc1",
  "C[Si](C)(C)Cl",
  "[Se]=C=[Se]",
  "CS(=O)(=O)C",
  "COP(=O)(OC)OC",
  "F[P-](F)(F)(F)(F)F",
  "OS(=O)(=O)O",
  "*c1ccccc1",
  "[*:1]CC[*:2]",
  "C/C=C/C",
  "C/C=C\\C",
  "F[C@H](Cl)Br",
  "N[C@@H](C)C(=O)O",
  "CC(C)(C)c1ccc(O)cc1",
  "OCC(O)CO",
  "NCCCC[C@H](N)C(=O)O",
  "CCCCCCCCCCCCCCCC(=O)O",
  "O=C1NC(=O)C(N1)(c1ccccc1)c1ccccc1",
  "CN1C2CCC1C(C(=O)OC)C(OC(=O)c1ccccc1)C2",
  "O=C(O)c1ccccc1O",
  "c1ccc(cc1)-c1ccccc1",
  "C1CN2CCN1CC2",
  "C1C2CC3CC1CC(C2)C3",
  "O1CCOCCOCCOCCOCCOCC1",
  "[O-][n+]1ccccc1",
  "Cc1c(C(=O)NCCO)[n+](=O)c2ccccc2n1[O-]",
  "S=C1SC(=Cc2ccccc2)C(=O)N1",
  "CN(C)c1ccc(cc1)N=Nc1ccccc1",
  "O=C1C=CC(=O)C=C1",
  "c1ccc(cc1)P(c1ccccc1)c1ccccc1",
  "CCOC(=O)C(C)(C)Oc1ccc(Cl)cc1",
];

/** Parses with RDKit or fails the test. */
function parse(input: string, details = ""): Mol {
  const mol = rdkit().get_mol(input, details);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new Error(`RDKit cannot parse ${input}`);
  }
  return mol;
}

/** The same molecule read back with every hydrogen as an explicit graph atom (tests H-atom handling). */
function withExplicitHs(smiles: string): Mol {
  const plain = parse(smiles);
  const molblock = plain.add_hs();
  plain.delete();
  return parse(molblock, JSON.stringify({ removeHs: false }));
}

let ambiguous: string[] = [];

function assertSameBits(mol: Mol, label: string): void {
  const graph = morganGraph(mol);
  // Only bonds RDKit's JSON writes as order 0 need RDKit as an oracle; everything else is computed independently.
  if (graph.ambiguousBonds.length) ambiguous.push(label);
  const envs = graph.ambiguousBonds.length
    ? verifiedMorganEnvironments(mol, 2, graph)
    : morganEnvironments(graph, 2);
  const ids = envs.map((e) => e.id);
  // 2048 is the ECFP4 size; 4194301 (prime, 2^22-ish) makes folding collisions rare, so together they pin down
  // the full 32-bit ids (2048 × 4194301 > 2^32).
  for (const nBits of [2048, 4_194_301]) {
    const reference = mol.get_morgan_fp_as_uint8array(JSON.stringify({ radius: 2, nBits })) as Uint8Array;
    assert.deepEqual(foldIds(ids, nBits), reference, `${label} (nBits ${nBits})`);
  }
}

test(`folded unfolded ids reproduce RDKit's Morgan bits exactly (${MOLECULES.length * 2} molecules)`, () => {
  assert.ok(MOLECULES.length * 2 >= 200);
  ambiguous = [];
  for (const smiles of MOLECULES) {
    const mol = parse(smiles);
    try {
      assertSameBits(mol, smiles);
    } finally {
      mol.delete();
    }
    const explicit = withExplicitHs(smiles);
    try {
      assertSameBits(explicit, `${smiles} with explicit H`);
    } finally {
      explicit.delete();
    }
  }
  // A quadruple bond written to a V2000 molblock comes back as an unspecified bond (JSON order 0).
  assert.deepEqual(ambiguous, ["C$C with explicit H"]);
});

test("duplicate environments are dropped: ethanol has 3 radius-0, 3 radius-1 and no radius-2 environments", () => {
  const mol = parse("CCO");
  try {
    const envs = morganEnvironments(morganGraph(mol), 2);
    assert.equal(envs.filter((e) => e.radius === 0).length, 3);
    // C-C-O: the radius-1 bond sets {CC}, {CC, CO}, {CO} are distinct; every radius-2 set is {CC, CO} again, a
    // duplicate of the middle atom's radius-1 environment, so RDKit (and we) drop all three.
    assert.equal(envs.filter((e) => e.radius === 1).length, 3);
    assert.equal(envs.filter((e) => e.radius === 2).length, 0);
    const counts = morganCounts(mol);
    assert.equal([...counts.values()].reduce((a, b) => a + b, 0), 6);
  } finally {
    mol.delete();
  }
});

test("symmetric molecules: count fingerprint keeps multiplicity (benzene: 6 atoms share one id)", () => {
  const mol = parse("c1ccccc1");
  try {
    const counts = morganCounts(mol);
    // radius 0: one id ×6; radius 1: one id ×6; radius 2: one id ×6 (each radius-2 neighbourhood is distinct).
    assert.deepEqual([...counts.values()].sort(), [6, 6, 6]);
  } finally {
    mol.delete();
  }
});

// Unfolded ids asserted by RDKit's own C++ tests of its Morgan generator (default settings, radius 1):
// Code/GraphMol/Fingerprints/catch_tests.cpp ("MorganGenerator bit info", atomToBits of CCC(CC)CO) and
// Code/GraphMol/Fingerprints/testFingerprintGenerators.cpp (sparse counts of CC=CC).
test("unfolded ids equal the values in RDKit's Morgan generator tests", () => {
  const mol = parse("CCC(CC)CO");
  try {
    const perAtom = Array.from({ length: 7 }, () => [] as number[]);
    for (const e of morganEnvironments(morganGraph(mol), 1)) perAtom[e.atom]!.push(e.id);
    assert.deepEqual(perAtom, [
      [2246728737, 3542456614],
      [2245384272, 1506563592],
      [2245273601, 3098934668],
      [2245384272, 1506563592],
      [2246728737, 3542456614],
      [2245384272, 4022716898],
      [864662311, 1535166686],
    ]);
  } finally {
    mol.delete();
  }
  const butene = parse("CC=CC");
  try {
    const counts = new Map<number, number>();
    for (const { id } of morganEnvironments(morganGraph(butene), 1)) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    assert.deepEqual([...counts].sort((a, b) => a[0] - b[0]), [
      [736731344, 2],
      [2246703798, 2],
      [2246728737, 2],
      [3545353036, 2],
    ]);
  } finally {
    butene.delete();
  }
});
