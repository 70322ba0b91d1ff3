import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { DRUGS50 } from "../data/drugs50.ts";
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

test("the 16 link environments and the paper's 41 single-bond pairings (+ L7=L7) compile", () => {
  assert.deepEqual(BRICS_ENVIRONMENTS.map((e) => e.id), Array.from({ length: 16 }, (_, i) => i + 1));
  for (const e of BRICS_ENVIRONMENTS) {
    const q = rdkit().get_qmol(e.smarts);
    assert.ok(q?.is_valid(), e.label);
    q?.delete();
  }
  assert.equal(BRICS_PAIRS.filter((p) => p.order === 1).length, 41);
  assert.deepEqual(BRICS_PAIRS.filter((p) => p.order === 2), [{ a: 7, b: 7, order: 2 }]);
  // Pairings RDKit added later and the paper does not have.
  for (const [a, b] of [[9, 13], [9, 14], [14, 14], [16, 16], [5, 14], [5, 16], [5, 12]]) {
    assert.ok(!BRICS_PAIRS.some((p) => p.a === a && p.b === b), `L${a}-L${b}`);
  }
});

// Hand checks against the paper's definitions (Degen et al. 2008, Figure 1).
test("amide: N-methylacetamide is cut once, acyl carbon L1 to amide N L2", () => {
  // C(=O)-N: L1 (acyclic C=O carbon with C substituent) + L2 (conjugated N). N-CH3 and CH3-C(=O) are not
  // BRICS bonds (a methyl has no further heavy substituent; L1 has no carbon partner).
  assert.deepEqual(cuts("CC(=O)NC"), ["L1-L2: [1*]C(C)=O + [2*]NC"]);
});

test("ester: ethyl acetate is cut at the acyl C-O (L1-L3) and at the alkyl O-C (L3-L4)", () => {
  assert.deepEqual(cuts("CCOC(C)=O"), ["L1-L3: [1*]C(C)=O + [3*]OCC", "L3-L4: [3*]OC(C)=O + [4*]CC"]);
  assert.deepEqual(bricsEnvironments("CCOC(C)=O"), [[], [4, 8], [3], [1, 6], [], []]);
  assert.deepEqual(bricsBonds("CCOC(C)=O"), [
    { bond_index: 1, atoms: [2, 1], environments: [3, 4] },
    { bond_index: 2, atoms: [3, 2], environments: [1, 3] },
  ]);
});

test("aryl ether: anisole O-aryl is L3-L16; phenetole adds O-ethyl L3-L4", () => {
  assert.deepEqual(cuts("COc1ccccc1"), ["L3-L16: [3*]OC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CCOc1ccccc1"), [
    "L3-L16: [3*]OCC + [16*]c1ccccc1",
    "L3-L4: [3*]Oc1ccccc1 + [4*]CC",
  ]);
  // Next to a ring nitrogen the aryl carbon is L14.
  assert.deepEqual(cuts("CCOc1ccccn1"), ["L3-L14: [3*]OCC + [14*]c1ccccn1", "L3-L4: [3*]Oc1ccccn1 + [4*]CC"]);
});

test("N-aryl amine: N-methylaniline L2-L16, 2-(methylamino)pyridine L2-L14; alkyl amines L4-L5", () => {
  assert.deepEqual(cuts("CNc1ccccc1"), ["L2-L16: [2*]NC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CNc1ccccn1"), ["L2-L14: [2*]NC + [14*]c1ccccn1"]);
  assert.deepEqual(cuts("CCNCC"), ["L4-L5: [4*]CC + [5*]NCC", "L4-L5: [4*]CC + [5*]NCC"]);
  // Paracetamol: amide C(=O)-N and N-aryl; the phenol O-H is not a link (O needs two heavy neighbours).
  assert.deepEqual(cuts("CC(=O)Nc1ccc(O)cc1"), [
    "L1-L2: [1*]C(C)=O + [2*]Nc1ccc(O)cc1",
    "L2-L16: [2*]NC(C)=O + [16*]c1ccc(O)cc1",
  ]);
});

test("sulfonamide S-N is L2-L12; aryl ketone C(=O)-aryl is L6-L16; benzylic C-aryl is L8-L16", () => {
  assert.deepEqual(cuts("CS(=O)(=O)NCC"), ["L2-L12: [2*]NCC + [12*]S(C)(=O)=O"]);
  assert.deepEqual(cuts("CCC(=O)c1ccccc1"), ["L6-L16: [6*]C(=O)CC + [16*]c1ccccc1"]);
  assert.deepEqual(cuts("CCCc1ccccc1"), ["L8-L16: [8*]CCC + [16*]c1ccccc1"]);
  // N-benzyl imidazole: CH2-n is L8-L9, CH2-phenyl L8-L16.
  assert.deepEqual(cuts("c1ccccc1Cn1ccnc1"), [
    "L8-L16: [8*]Cn1ccnc1 + [16*]c1ccccc1",
    "L8-L9: [8*]Cc1ccccc1 + [9*]n1ccnc1",
  ]);
  // Lactam N-substituent is L10: N-benzylpyrrolidinone.
  assert.deepEqual(cuts("O=C1CCCN1Cc1ccccc1"), [
    "L8-L10: [8*]Cc1ccccc1 + [10*]N1CCCC1=O",
    "L8-L16: [8*]CN1CCCC1=O + [16*]c1ccccc1",
  ]);
});

test("bonds BRICS does not cut: ring bonds, methyls, biphenyl (no L16-L16 in the paper)", () => {
  assert.deepEqual(cuts("O=C1NCCC1"), []);
  assert.deepEqual(cuts("CC1(C)CCCCC1"), []);
  assert.deepEqual(cuts("c1ccccc1-c1ccccc1"), []);
  assert.deepEqual(cuts("Cn1ccnc1"), []);
  assert.deepEqual(cuts("C/C=C/C"), [], "the L7 olefin link is not applied (single bonds only)");
  // ... but a heteroaryl-aryl bond is L14-L16.
  assert.deepEqual(cuts("c1ccccc1-c1ccccn1"), ["L14-L16: [14*]c1ccccn1 + [16*]c1ccccc1"]);
});

test("sorafenib, the paper's example: nine disconnections (RDKit's doctest fragments, with L2 for amide N)", () => {
  const smiles = "CNC(=O)c1cc(Oc2ccc(NC(=O)Nc3ccc(Cl)c(C(F)(F)F)c3)cc2)ccn1";
  const result = bricsDisconnections(smiles, heavyAtoms);
  const labels = result.disconnections.map((d) => d.labels.join("-")).sort();
  assert.deepEqual(labels, [
    "L1-L2",
    "L1-L2",
    "L1-L2",
    "L2-L16",
    "L2-L16",
    "L3-L16",
    "L3-L16",
    "L6-L14",
    "L8-L16",
  ]);
  const fragments = new Set(result.disconnections.flatMap((d) => d.fragments.map((f) => f.smiles)));
  for (const f of ["[8*]C(F)(F)F", "[2*]NC", "[6*]C(=O)NC"]) assert.ok(fragments.has(f), f);
});

test("stereo is kept in the fragments, also at a stereocentre on the cut bond", () => {
  const r = bricsDisconnections("C/C=C/C(=O)N[C@@H](C)C(=O)OC", heavyAtoms);
  const all = r.disconnections.flatMap((d) => d.fragments.map((f) => f.smiles));
  assert.ok(all.includes(canonicalSmiles("[1*]C(=O)/C=C/C")), all.join(" "));
  assert.ok(all.includes(canonicalSmiles("[2*]N[C@@H](C)C(=O)OC")), all.join(" "));
  // Cut at a stereocentre: the dummy takes the place of the lost neighbour, so writing [4*] where the O was in
  // the SMILES gives the same configuration.
  for (
    const [parent, expected] of [["C[C@H](Oc1ccccc1)CC", "C[C@H]([4*])CC"], [
      "C[C@@H](Oc1ccccc1)CC",
      "C[C@@H]([4*])CC",
    ]]
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

test("ring-type environments are exclusive (L13/L15, L14/L16, L2/L5) over the drug set", () => {
  for (const { name, smiles } of DRUGS50) {
    bricsEnvironments(smiles).forEach((envs, atom) => {
      for (const [a, b] of [[13, 15], [14, 16], [2, 5]]) {
        assert.ok(!(envs.includes(a ?? 0) && envs.includes(b ?? 0)), `${name} atom ${atom}: L${a} and L${b}`);
      }
    });
  }
});

test("salts: only the cut component is in the fragments; size bound refuses > 150 heavy atoms", () => {
  const r = bricsDisconnections("[Na+].[O-]C(=O)CCOc1ccccc1", heavyAtoms);
  assert.equal(r.component_count, 2);
  assert.ok(r.disconnections.every((d) => d.fragments.every((f) => !f.smiles.includes("Na"))));
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
  const none = await retrosynthesisTool.run(v.parse(retrosynthesisTool.input, { smiles: "c1ccccc1" }));
  v.parse(retrosynthesisTool.output, none);
  assert.deepEqual(none.disconnections, []);
  const few = await retrosynthesisTool.run(
    v.parse(retrosynthesisTool.input, { smiles: "CC(C)NCC(O)COc1cccc2ccccc12", max_results: 2 }),
  );
  assert.equal(few.disconnections.length, 2);
  assert.equal(few.truncated, true);
});
