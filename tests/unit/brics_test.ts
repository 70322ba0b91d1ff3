import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  BRICS_ENVIRONMENTS,
  BRICS_PAIRS,
  bricsBonds,
  bricsDisconnections,
  bricsEnvironments,
} from "../../src/chem/brics.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import { retrosynthesisTool } from "../../src/tools/retrosynthesis.ts";

await loadTestRDKit();

/** Scorer for tests: fragment heavy atoms (dummy atoms excluded), so rankings are easy to verify by hand. */
const heavyAtoms = (smiles: string) =>
  (smiles.match(/\[[^\]]*\]|Br|Cl|[BCNOPSFIcnops]/g) ?? []).filter(
    (t) => !/^\[\d*\*\]$/.test(t),
  ).length;

/** Each disconnection as "La-Lb: fragA + fragB". */
const cuts = (smiles: string) =>
  bricsDisconnections(smiles, heavyAtoms).disconnections.map((d) =>
    `${d.labels.join("-")}: ${d.fragments[0].smiles} + ${d.fragments[1].smiles}`
  ).sort();

test("RDKit's tables: 16 environments (L7 as L7a/L7b), 45 single-bond pairs and the L7=L7 olefin", () => {
  assert.deepEqual(BRICS_ENVIRONMENTS.map((e) => e.name), [
    "L1",
    "L3",
    "L4",
    "L5",
    "L6",
    "L7a",
    "L7b",
    "L8",
    "L9",
    "L10",
    "L11",
    "L12",
    "L13",
    "L14",
    "L15",
    "L16",
  ]);
  for (const e of BRICS_ENVIRONMENTS) {
    const q = rdkit().get_qmol(e.smarts);
    assert.ok(q?.is_valid(), e.name);
    q?.delete();
  }
  assert.equal(BRICS_PAIRS.filter((p) => p.order === 1).length, 45);
  assert.deepEqual(BRICS_PAIRS.filter((p) => p.order === 2), [{ a: "L7a", b: "L7b", order: 2 }]);
  // RDKit's additions to the paper, and the paper's L2 pairs carried by L5.
  for (const [a, b] of [[9, 13], [9, 14], [14, 14], [16, 16], [5, 12], [5, 14], [5, 16]]) {
    assert.ok(BRICS_PAIRS.some((p) => p.a === `L${a}` && p.b === `L${b}`), `L${a}-L${b}`);
  }
  assert.ok(!BRICS_PAIRS.some((p) => p.a === "L2" || p.b === "L2"));
});

// Expected values below are RDKit 2022.09's BRICS.FindBRICSBonds and BreakBRICSBonds for the same SMILES.
test("the issue's example: N#CC(Nc1ccccc1)c1ccco1 has three BRICS bonds, the amine C-N among them", () => {
  assert.deepEqual(bricsBonds("N#CC(Nc1ccccc1)c1ccco1").map((b) => [...b.atoms, ...b.environments]), [
    [2, 3, 4, 5],
    [3, 4, 5, 16],
    [2, 10, 8, 14],
  ]);
  assert.deepEqual(cuts("N#CC(Nc1ccccc1)c1ccco1"), [
    "L4-L5: [4*]C(C#N)c1ccco1 + [5*]Nc1ccccc1",
    "L5-L16: [5*]NC(C#N)c1ccco1 + [16*]c1ccccc1",
    "L8-L14: [8*]C(C#N)Nc1ccccc1 + [14*]c1ccco1",
  ]);
});

test("amide C(=O)-N is L1-L5 (RDKit folds the paper's L2 into L5); ester L1-L3 and L3-L4", () => {
  assert.deepEqual(cuts("CC(=O)NC"), ["L1-L5: [1*]C(C)=O + [5*]NC"]);
  assert.deepEqual(cuts("CCOC(C)=O"), ["L1-L3: [1*]C(C)=O + [3*]OCC", "L3-L4: [3*]OC(C)=O + [4*]CC"]);
  assert.deepEqual(bricsEnvironments("CCOC(C)=O"), [
    [],
    ["L4", "L7a", "L7b", "L8"],
    ["L3"],
    ["L1", "L6", "L7a", "L7b"],
    [],
    [],
  ]);
  assert.deepEqual(bricsBonds("CCOC(C)=O"), [
    { bond_index: 1, atoms: [2, 1], environments: [3, 4], order: 1 },
    { bond_index: 2, atoms: [3, 2], environments: [1, 3], order: 1 },
  ]);
});

test("aryl ethers L3-L16 / L3-L14, amines L4-L5, N-aryl L5-L16 / L5-L14", () => {
  assert.deepEqual(cuts("COc1ccccc1"), ["L3-L16: [3*]OC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CCOc1ccccn1"), ["L3-L14: [3*]OCC + [14*]c1ccccn1", "L3-L4: [3*]Oc1ccccn1 + [4*]CC"]);
  assert.deepEqual(cuts("CNc1ccccc1"), ["L5-L16: [5*]NC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CNc1ccccn1"), ["L5-L14: [5*]NC + [14*]c1ccccn1"]);
  assert.deepEqual(cuts("CCNCC"), ["L4-L5: [4*]CC + [5*]NCC", "L4-L5: [4*]CC + [5*]NCC"]);
  assert.deepEqual(cuts("CC(=O)Nc1ccc(O)cc1"), [
    "L1-L5: [1*]C(C)=O + [5*]Nc1ccc(O)cc1",
    "L5-L16: [5*]NC(C)=O + [16*]c1ccc(O)cc1",
  ]);
});

test("sulfonamide S-N L5-L12 and its N-alkyl L4-L5; aryl ketone L6-L16; benzylic L8-L16, L8-L9, L8-L10", () => {
  assert.deepEqual(cuts("CS(=O)(=O)NCC"), [
    "L4-L5: [4*]CC + [5*]NS(C)(=O)=O",
    "L5-L12: [5*]NCC + [12*]S(C)(=O)=O",
  ]);
  assert.deepEqual(cuts("CCC(=O)c1ccccc1"), ["L6-L16: [6*]C(=O)CC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CCCc1ccccc1"), ["L8-L16: [8*]CCC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("c1ccccc1Cn1ccnc1"), [
    "L8-L16: [8*]Cn1ccnc1 + [16*]c1ccccc1",
    "L8-L9: [8*]Cc1ccccc1 + [9*]n1ccnc1",
  ]);
  assert.deepEqual(cuts("O=C1CCCN1Cc1ccccc1"), [
    "L8-L10: [8*]Cc1ccccc1 + [10*]N1CCCC1=O",
    "L8-L16: [8*]CN1CCCC1=O + [16*]c1ccccc1",
  ]);
});

test("RDKit's additions to the paper: L16-L16, L14-L14, L9-L14, L9-L13 and the L7=L7 olefin", () => {
  assert.deepEqual(cuts("c1ccccc1-c1ccccc1"), ["L16-L16: [16*]c1ccccc1 + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("c1ccnc(c1)-c1ccccn1"), ["L14-L14: [14*]c1ccccn1 + [14*]c1ccccn1"]);
  assert.deepEqual(cuts("c1ccc(-n2cccc2)nc1"), ["L9-L14: [9*]n1cccc1 + [14*]c1ccccn1"]);
  assert.deepEqual(cuts("C1CCOC1n1ccnc1"), ["L9-L13: [9*]n1ccnc1 + [13*]C1CCCO1"]);
  assert.deepEqual(cuts("c1ccccc1-c1ccccn1"), ["L14-L16: [14*]c1ccccn1 + [16*]c1ccccc1"]);
  // The double bond is cut as a double bond: both dummies keep it, and its E/Z has nothing left to refer to.
  assert.deepEqual(cuts("C/C=C/C"), ["L7-L7: [7*]=CC + [7*]=CC"]);
  assert.deepEqual(bricsBonds("CC=CC"), [{ bond_index: 1, atoms: [1, 2], environments: [7, 7], order: 2 }]);
});

test("a bond one pair fits both ways: the lower atom index takes the pair's first environment, as in RDKit", () => {
  // Two decahydroquinoline ring-junction carbons joined: each is L13 (next to ring N) and L15, so L13-L15 fits
  // either way round; RDKit's uniquified match keeps the orientation with the lower index first.
  for (
    const [smiles, expected] of [
      ["N1CCCC2CCCCC21C12CCCCC2CCCN1", [9, 10, 13, 15]],
      ["C12(CCCCC2CCCN1)C12CCCCC2CCCN1", [0, 10, 13, 15]],
      ["C1CCCC2CCNC12C12CCCCC2CCCN1", [8, 9, 13, 15]],
    ] as const
  ) {
    assert.deepEqual(bricsBonds(smiles).map((b) => [...b.atoms, ...b.environments]), [expected], smiles);
  }
});

test("bonds BRICS does not cut: ring bonds, a quaternary ring carbon's methyls, N-methyl azoles", () => {
  assert.deepEqual(cuts("O=C1NCCC1"), []);
  assert.deepEqual(cuts("CC1(C)CCCCC1"), []);
  assert.deepEqual(cuts("Cn1ccnc1"), []);
});

test("sorafenib, the paper's example: RDKit's nine disconnections", () => {
  const smiles = "CNC(=O)c1cc(Oc2ccc(NC(=O)Nc3ccc(Cl)c(C(F)(F)F)c3)cc2)ccn1";
  const result = bricsDisconnections(smiles, heavyAtoms);
  assert.deepEqual(result.disconnections.map((d) => d.labels.join("-")).sort(), [
    "L1-L5",
    "L1-L5",
    "L1-L5",
    "L3-L16",
    "L3-L16",
    "L5-L16",
    "L5-L16",
    "L6-L14",
    "L8-L16",
  ]);
  const fragments = new Set(result.disconnections.flatMap((d) => d.fragments.map((f) => f.smiles)));
  for (const f of ["[8*]C(F)(F)F", "[5*]NC", "[6*]C(=O)NC"]) assert.ok(fragments.has(f), f);
});

test("stereo is kept in the fragments, also at a stereocentre on the cut bond", () => {
  const r = bricsDisconnections("C/C=C/C(=O)N[C@@H](C)C(=O)OC", heavyAtoms);
  const all = r.disconnections.flatMap((d) => d.fragments.map((f) => f.smiles));
  assert.ok(all.includes(canonicalSmiles("[1*]C(=O)/C=C/C")), all.join(" "));
  assert.ok(all.includes(canonicalSmiles("[5*]N[C@@H](C)C(=O)OC")), all.join(" "));
  // Cut at a stereocentre: the dummy takes the place of the lost neighbour, so writing [4*] where the O was in
  // the SMILES gives the same configuration. (RDKit's BreakBRICSBonds(mol, bonds=[...]) inverts the first two
  // and the naproxen centre; its FragmentOnBonds agrees with these.)
  for (
    const [parent, expected] of [
      ["C[C@H](Oc1ccccc1)CC", "C[C@H]([4*])CC"],
      ["C[C@@H](Oc1ccccc1)CC", "C[C@@H]([4*])CC"],
      ["C[C@@H](c1ccc2cc(OC)ccc2c1)C(=O)O", "C[C@@H]([8*])C(=O)O"],
    ]
  ) {
    const frags = bricsDisconnections(parent ?? "", heavyAtoms).disconnections.flatMap((d) =>
      d.fragments.map((f) => f.smiles)
    );
    assert.ok(frags.includes(canonicalSmiles(expected ?? "")), `${parent}: ${frags.join(" ")}`);
  }
});

test("ranking: ascending max fragment score, ties by bond index, scorer injected", () => {
  const r = bricsDisconnections("CC(C)NCC(O)COc1cccc2ccccc12", heavyAtoms); // propranolol
  const keys = r.disconnections.map((d) => [d.max_sa_score, d.bond_index]);
  const sorted = [...keys].sort((p, q) => (p[0] ?? 0) - (q[0] ?? 0) || (p[1] ?? 0) - (q[1] ?? 0));
  assert.deepEqual(keys, sorted);
  for (const d of r.disconnections) {
    assert.equal(d.max_sa_score, Math.max(...d.fragments.map((f) => f.sa_score)));
    assert.equal(d.fragments[0].sa_score, heavyAtoms(d.fragments[0].smiles));
  }
  assert.deepEqual(r.disconnections.map((d) => d.labels.join("-")).sort(), [
    "L3-L16",
    "L3-L4",
    "L4-L5",
    "L4-L5",
  ]);
});

test("salts: only the cut component is in the fragments; size bound refuses > 150 heavy atoms", () => {
  const r = bricsDisconnections("[Na+].[O-]C(=O)CCOc1ccccc1", heavyAtoms);
  assert.equal(r.component_count, 2);
  assert.ok(r.disconnections.every((d) => d.fragments.every((f) => !f.smiles.includes("Na"))));
  assert.deepEqual(cuts("[Na+].[O-]C(=O)CCOc1ccccc1"), [
    "L3-L16: [3*]OCCC(=O)[O-] + [16*]c1ccccc1",
    "L3-L4: [3*]Oc1ccccc1 + [4*]CCC(=O)[O-]",
  ]);
  assert.throws(
    () => bricsDisconnections("C".repeat(151), heavyAtoms),
    (e: unknown) => e instanceof ChemError && e.code === "MOLECULE_TOO_LARGE",
  );
});

test("retrosynthesis tool: SA-ranked, validates against its output schema", async () => {
  const input = v.parse(retrosynthesisTool.input, { smiles: "CC(=O)Nc1ccc(O)cc1" });
  const out = await retrosynthesisTool.run(input);
  v.parse(retrosynthesisTool.output, out);
  assert.equal(out.disconnection_count, 2);
  assert.deepEqual(out.disconnections.map((d) => d.rank), [1, 2]);
  assert.ok(out.disconnections[0]!.max_sa_score <= out.disconnections[1]!.max_sa_score);
  assert.match(out.method, /Degen/);
  assert.match(out.method, /RDKit's BRICS rules/);
  const none = await retrosynthesisTool.run(v.parse(retrosynthesisTool.input, { smiles: "c1ccccc1" }));
  v.parse(retrosynthesisTool.output, none);
  assert.deepEqual(none.disconnections, []);
  const few = await retrosynthesisTool.run(
    v.parse(retrosynthesisTool.input, { smiles: "CC(C)NCC(O)COc1cccc2ccccc12", max_results: 2 }),
  );
  assert.equal(few.disconnections.length, 2);
  assert.equal(few.truncated, true);
  const issue = await retrosynthesisTool.run(
    v.parse(retrosynthesisTool.input, { smiles: "N#CC(Nc1ccccc1)c1ccco1" }),
  );
  assert.equal(issue.disconnection_count, 3);
});
