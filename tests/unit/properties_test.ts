/**
 * Properties and the rule of five against published values:
 * - aspirin's widely reported RDKit values (MW 180.16, exact mass 180.042, Crippen logP 1.31, TPSA 63.6);
 * - Wildman–Crippen logP as the sum of the paper's Table 1 atom contributions (J. Chem. Inf. Comput. Sci. 1999,
 *   39, 868; the table as distributed in RDKit Data/Crippen.txt): C1 0.1441, C18 0.1581, H1 0.1230;
 * - Ertl 2000 S and P contributions (J. Med. Chem. 2000, 43, 3714, Table 1; as in RDKit MolSurf.cpp);
 * - Lipinski 1997 thresholds and definitions.
 * TPSA of 200 NCI molecules against Ertl's own program is in qed_test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import {
  calcProperties,
  lipinskiCheck,
  lipinskiRules,
  TPSA_SULFUR_PHOSPHORUS,
  tpsaSulfurPhosphorus,
  withParentMol,
} from "../../src/chem/properties.ts";
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { lipinskiCheckTool } from "../../src/tools/lipinski_check.ts";

await loadTestRDKit();

const near = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual}, expected ${expected} ± ${tol}`);

test("aspirin: MW 180.16, exact mass 180.042, logP 1.31, TPSA 63.6, QED 0.55", () => {
  const p = calcProperties("CC(=O)Oc1ccccc1C(=O)O");
  near(p.molecular_weight, 180.16, 0.005, "MW");
  near(p.exact_mass, 180.042, 0.0005, "exact mass");
  near(p.logp, 1.31, 0.005, "logP");
  near(p.tpsa, 63.6, 0.005, "TPSA");
  near(p.qed, 0.55, 0.005, "QED");
  assert.deepEqual([p.hbd, p.hba, p.lipinski_hbd, p.lipinski_hba], [1, 3, 1, 4]);
  assert.equal(p.heavy_atoms, 13);
  assert.equal(p.aromatic_rings, 1);
});

test("Crippen logP equals the sum of Wildman–Crippen 1999 atom contributions", () => {
  const C1 = 0.1441; // CH4, CH3R, CH2R2
  const C18 = 0.1581; // aromatic CH
  const H1 = 0.123; // H on carbon
  const logp = (smiles: string) => calcProperties(smiles).logp;
  near(logp("C"), C1 + 4 * H1, 1e-4, "methane");
  near(logp("CC"), 2 * C1 + 6 * H1, 1e-4, "ethane");
  near(logp("C1CCCCC1"), 6 * C1 + 12 * H1, 1e-4, "cyclohexane");
  near(logp("c1ccccc1"), 6 * C18 + 6 * H1, 1e-4, "benzene");
});

test("TPSA excludes S and P by default; the S/P terms are Ertl's Table 1 values", () => {
  // One molecule per S/P environment, in TPSA_SULFUR_PHOSPHORUS order. The aromatic S with an exocyclic double
  // bond (21.70) does not occur under RDKit aromaticity (thiophene S-oxides are not aromatic), so it is skipped.
  const cases: [string, number][] = [
    ["CC=PC", 34.14], // P, 1 single + 1 double
    ["CP(C)C", 13.59], // P, 3 single
    ["C[PH](C)=O", 23.47], // PH, 2 single + 1 double
    ["COP(=O)(OC)OC", 9.81], // P, 3 single + 1 double
    ["CC(C)=S", 32.09], // S=, terminal
    ["CS", 38.8], // SH
    ["CSC", 25.3], // S, 2 single
    ["c1ccsc1", 28.24], // aromatic S
    ["CS(C)=O", 19.21], // sulfoxide S
    ["CS(C)(=O)=O", 8.38], // sulfone S
  ];
  assert.equal(cases.length, TPSA_SULFUR_PHOSPHORUS.length - 1);
  for (const [smiles, expected] of cases) {
    near(withMol(smiles, tpsaSulfurPhosphorus), expected, 1e-9, smiles);
    assert.equal(calcProperties(smiles).tpsa, calcProperties(smiles).tpsa); // deterministic
  }
  // calc_properties' TPSA is the RDKit default: dimethyl sulfoxide counts only its O (17.07).
  near(calcProperties("CS(C)=O").tpsa, 17.07, 1e-9, "DMSO TPSA (N,O only)");
  near(calcProperties("c1ccsc1").tpsa, 0, 1e-9, "thiophene TPSA (N,O only)");
  assert.equal(withMol("CCCCCC", tpsaSulfurPhosphorus), 0);
  // Charged S (sulfonium, thiolate) has no Ertl S/P entry.
  assert.equal(withMol("C[S+](C)C", tpsaSulfurPhosphorus), 0);
});

test("rotatable bonds use RDKit's strict definition (amide C–N and CF3 not rotatable)", () => {
  assert.equal(calcProperties("CCC(=O)NCC").rotatable_bonds, 2); // non-strict would give 3
  assert.equal(calcProperties("FC(F)(F)c1ccccc1").rotatable_bonds, 0); // non-strict would give 1
  assert.equal(calcProperties("CCCC").rotatable_bonds, 1);
});

test("salts and mixtures: properties of the largest component, removed parts listed", () => {
  const salt = calcProperties("CCN(CC)CC.Cl");
  assert.equal(salt.parent_smiles, "CCN(CC)CC");
  assert.equal(salt.fragment_count, 2);
  assert.deepEqual(salt.removed_fragments, ["Cl"]);
  assert.equal(salt.molecular_weight, calcProperties("CCN(CC)CC").molecular_weight);
  // Charges are kept as written: the carboxylate of sodium aspirin, not the acid.
  const sodium = calcProperties("CC(=O)Oc1ccccc1C(=O)[O-].[Na+]");
  assert.equal(sodium.parent_smiles, "CC(=O)Oc1ccccc1C(=O)[O-]");
  assert.deepEqual(sodium.removed_fragments, ["[Na+]"]);
  // RDKit's LargestFragmentChooser counts hydrogens: cisplatin written with separate NH3 keeps NH3 (4 atoms, PtCl2 3).
  assert.equal(calcProperties("N.N.Cl[Pt]Cl").parent_smiles, "N");
  // Ties of equal size break on exact mass.
  assert.equal(withParentMol("[Na+].[Cl-]", (mol) => mol.get_smiles()), "[Cl-]");
  // A ring bond across '.' joins the parts into one molecule.
  assert.equal(calcProperties("C1CC.C1").fragment_count, 1);
});

test("invalid and oversized input give typed errors", () => {
  for (const bad of ["", "   ", "C1CC", "Xy", "CC>>CC"]) {
    assert.throws(
      () => calcProperties(bad),
      (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
    );
    assert.throws(
      () => lipinskiCheck(bad),
      (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
    );
  }
  assert.throws(
    () => calcProperties("C".repeat(1001)),
    (e: unknown) => e instanceof ChemError && e.code === "MOLECULE_TOO_LARGE",
  );
});

test("Lipinski: thresholds are inclusive, Lipinski's donor/acceptor counts", () => {
  const at = lipinskiRules({ molecular_weight: 500, logp: 5, lipinski_hbd: 5, lipinski_hba: 10 });
  assert.ok(at.every((r) => r.passed));
  const over = lipinskiRules({ molecular_weight: 500.01, logp: 5.01, lipinski_hbd: 6, lipinski_hba: 11 });
  assert.ok(over.every((r) => !r.passed));
  assert.deepEqual(at.map((r) => [r.rule, r.threshold]), [
    ["molecular_weight", 500],
    ["logp", 5],
    ["hbd", 5],
    ["hba", 10],
  ]);
  // Urea: HBD counts H on N (4), HBA counts N and O atoms (3).
  const urea = lipinskiCheck("NC(N)=O");
  assert.deepEqual(urea.rules.map((r) => r.value).slice(2), [4, 3]);
});

test("Lipinski: passes with at most one violation", () => {
  const aspirin = lipinskiCheck("CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(aspirin.violations, 0);
  assert.equal(aspirin.passes, true);
  // Triacontane C30H62: MW 422.8, logP > 5 → one violation, still passes.
  const c30 = lipinskiCheck("C".repeat(30));
  assert.equal(c30.violations, 1);
  assert.equal(c30.passes, true);
  // Tetracontane C40H82: MW 563.1 and logP > 5 → two violations, fails.
  const c40 = lipinskiCheck("C".repeat(40));
  assert.equal(c40.violations, 2);
  assert.equal(c40.passes, false);
});

test("tools: results satisfy the output schemas; descriptions name method, year and errors", async () => {
  for (const tool of [calcPropertiesTool, lipinskiCheckTool]) {
    assert.match(tool.description, /(19|20)\d\d/);
    assert.match(tool.description, /INVALID_SMILES/);
  }
  const props = v.safeParse(calcPropertiesTool.output, await calcPropertiesTool.run({ smiles: "CCO.Cl" }));
  assert.ok(props.success, JSON.stringify(props.issues));
  assert.equal(props.output.parent_smiles, "CCO");
  assert.equal(props.output.qed_details.alerts.length, 0);
  const lip = v.safeParse(lipinskiCheckTool.output, await lipinskiCheckTool.run({ smiles: "CCO" }));
  assert.ok(lip.success, JSON.stringify(lip.issues));
  assert.equal(lip.output.rules.length, 4);
  assert.match(lip.output.method, /Lipinski/);
});
