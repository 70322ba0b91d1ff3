/**
 * standardize: each of RDKit's MolStandardize steps on the cases RDKit's own tests use (answers from RDKit
 * 2022.09's rdMolStandardize), the words of each change, the salt parent shared with the property tools, the
 * typed errors and hostile inputs, the tool's schemas and its listing budget.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { thrownCode } from "../helpers/errors.ts";
import { standardize, standardizeTrace, TAUTOMER_TIMEOUT_S } from "../../src/chem/standardize/pipeline.ts";
import { withParentMol } from "../../src/chem/properties.ts";
import { standardizeTool } from "../../src/tools/standardize.ts";
import { jsonSchemaOf, ToolRegistry } from "../../src/tools/registry.ts";

await loadTestRDKit();

test("a sodium salt: nothing to clean, the sodium removed, the carboxylate neutralised", () => {
  const result = standardize("CC(=O)[O-].[Na+]");
  assert.equal(result.smiles, "CC(=O)O");
  assert.equal(result.inchikey, "QTBSBXVTEAMEQO-UHFFFAOYSA-N");
  assert.deepEqual(result.trace, [
    { step: "cleanup", changes: [] },
    { step: "fragment_parent", changes: ["removed fragment [Na+]"] },
    { step: "uncharge", changes: ["[O-] → [OH]"] },
    { step: "tautomer", changes: [] },
  ]);
});

test("each step gives RDKit 2022.09's Cleanup, FragmentParent and ChargeParent on RDKit's own test molecules", () => {
  // [input, Cleanup, FragmentParent, ChargeParent] as Python RDKit 2022.09.3 answers them.
  const cases: [string, string, string, string][] = [
    ["CCC(=O)O[Na]", "CCC(=O)[O-].[Na+]", "CCC(=O)[O-]", "CCC(=O)O"],
    ["[Na]OC(=O)c1ccccc1", "O=C([O-])c1ccccc1.[Na+]", "O=C([O-])c1ccccc1", "O=C(O)c1ccccc1"],
    ["C[NH+](C)(C).[Cl-]", "C[NH+](C)C.[Cl-]", "C[NH+](C)C", "CN(C)C"],
    ["CS(C)=O", "C[S+](C)[O-]", "C[S+](C)[O-]", "C[S+](C)[O-]"],
    ["[O-]c1ccccc1.C(=O)O", "O=C[O-].Oc1ccccc1", "Oc1ccccc1", "Oc1ccccc1"],
    ["c1ccccc1C(=O)[O-].C[N+](C)(C)C", "C[N+](C)(C)C.O=C([O-])c1ccccc1", "C[N+](C)(C)C", "C[N+](C)(C)C"],
    ["[NH3+]CC(=O)[O-]", "[NH3+]CC(=O)[O-]", "[NH3+]CC(=O)[O-]", "NCC(=O)O"],
    ["C[N+](C)=C/C=C/[O-]", "CN(C)C=CC=O", "CN(C)C=CC=O", "CN(C)C=CC=O"],
  ];
  for (const [input, cleanup, fragment, charge] of cases) {
    const trace = standardizeTrace(input);
    assert.deepEqual(
      [trace.cleanup, trace.fragment_parent, trace.uncharge],
      [cleanup, fragment, charge],
      input,
    );
  }
});

test("the canonical tautomer is RDKit 2022.09's, with the number of tautomers RDKit enumerates", () => {
  // [input, TautomerEnumerator().Canonicalize, len(Enumerate)] as Python RDKit 2022.09.3 answers them.
  const cases: [string, string, number][] = [
    ["Oc1ccccn1", "O=c1cccc[nH]1", 3],
    ["CC(O)=CC", "CCC(C)=O", 3],
    ["Nc1nc(O)c2nc[nH]c2n1", "Nc1nc(=O)c2[nH]cnc2[nH]1", 15],
  ];
  for (const [input, canonical, count] of cases) {
    const result = standardize(input, ["tautomer"]);
    assert.equal(result.smiles, canonical, input);
    assert.ok(result.trace[0]?.changes[0]?.endsWith(` → ${canonical} (best of ${count})`), input);
  }
  // Already RDKit's choice (2 tautomers): nothing to say.
  assert.deepEqual(standardize("O=C1NC=CC=C1", ["tautomer"]).trace, [{ step: "tautomer", changes: [] }]);
  assert.deepEqual(standardize("Oc1ccccc1", ["tautomer"]).trace, [{ step: "tautomer", changes: [] }]);
  assert.equal(standardize("CC(=O)CC(C)=O", ["tautomer"]).smiles, "CC(=O)CC(C)=O");
});

test("changes are said in a chemist's words: metal cut, normalised group, ionic charge", () => {
  const sodium = standardize("CC(=O)O[Na]", ["cleanup"]);
  assert.equal(sodium.smiles, "CC(=O)[O-].[Na+]");
  assert.deepEqual(sodium.trace, [{ step: "cleanup", changes: ["metal disconnected: cut bond Na–O"] }]);
  const sulfoxide = standardize("CS(C)=O", ["cleanup"]);
  assert.deepEqual(sulfoxide.trace[0]?.changes, ["sulfoxide normalised to charge-separated form S+[O-]"]);
  const zwitterion = standardize("C[N+](C)=C/C=C/[O-]", ["cleanup"]);
  assert.equal(zwitterion.smiles, "CN(C)C=CC=O");
  assert.deepEqual(zwitterion.trace[0]?.changes, ["1,5-separated charges recombined"]);
  const chloride = standardize("[Na].[Cl]", ["cleanup"]);
  assert.equal(chloride.smiles, "[Cl-].[Na+]");
});

test("steps run in RDKit's order whatever order they are given in; fragment_parent alone keeps charges", () => {
  const result = standardize("CC(=O)[O-].[Na+]", ["fragment_parent", "cleanup"]);
  assert.deepEqual(result.trace.map((s) => s.step), ["cleanup", "fragment_parent"]);
  assert.equal(result.smiles, "CC(=O)[O-]");
});

test("the salt parent of the property tools is the fragment_parent of RDKit's LargestFragmentChooser", () => {
  const parent = (smiles: string) => withParentMol(smiles, (mol) => mol.get_smiles());
  // Hydrogens count: ammonia (4 atoms) outweighs PtCl2 (3), as in RDKit.
  assert.equal(parent("N.N.Cl[Pt]Cl"), "N");
  assert.equal(standardize("N.N.Cl[Pt]Cl", ["fragment_parent"]).smiles, "N");
  // Equal atom counts: the heavier by exact mass (Cl 34.97 over Na 22.99).
  assert.equal(parent("[Na+].[Cl-]"), "[Cl-]");
  // Methylamine (7 atoms with H) is kept over oxalic acid (8): no, oxalic acid has 8 and wins, as RDKit.
  assert.equal(parent("OC(=O)C(O)=O.CN"), "O=C(O)C(=O)O");
  assert.equal(standardize("OC(=O)C(O)=O.CN", ["fragment_parent"]).smiles, "O=C(O)C(=O)O");
});

test("invalid and oversized input give typed errors", () => {
  assert.equal(thrownCode(() => standardize("C1CC")), "INVALID_SMILES");
  assert.equal(thrownCode(() => standardize("")), "INVALID_SMILES");
  assert.equal(thrownCode(() => standardize("C".repeat(501))), "MOLECULE_TOO_LARGE");
});

test("hostile: a 10,000-fragment mixture is refused by size at once", () => {
  const start = performance.now();
  assert.equal(thrownCode(() => standardize(Array(10_000).fill("C").join("."))), "MOLECULE_TOO_LARGE");
  assert.ok(performance.now() - start < 2_000);
});

test("hostile: a metal with 40 bonds is refused by the cost model; with 28 it is disconnected as RDKit does", () => {
  const complex = (bonds: number) => "[Fe]" + "(N)".repeat(bonds - 1) + "N";
  assert.equal(thrownCode(() => standardize(complex(40))), "MOLECULE_TOO_LARGE");
  const start = performance.now();
  const result = standardize(complex(28));
  // RDKit 2022.09: Cleanup gives [Fe+28] and 28 [NH2-]; ChargeParent gives N.
  assert.equal(result.smiles, "N");
  assert.deepEqual(result.trace[0]?.changes, ["metal disconnected: cut bond Fe–N (×28)"]);
  assert.equal(standardizeTrace(complex(28)).cleanup, "[Fe+28]" + ".[NH2-]".repeat(28));
  assert.ok(performance.now() - start < 10_000);
});

test("hostile: 300 tautomerisable sites do not fit the size limit; 160 keto groups end within the time limit", () => {
  assert.equal(thrownCode(() => standardize("CC(=O)".repeat(300) + "C")), "MOLECULE_TOO_LARGE");
  const start = performance.now();
  let code: string | undefined;
  try {
    // RDKit's 1,000-transform bound ends the enumeration, or the time limit does.
    standardize("CC(=O)".repeat(160) + "C");
  } catch (error) {
    code = (error as { code?: string }).code;
  }
  assert.ok(code === undefined || code === "COMPUTATION_TIMEOUT", code);
  // The enumeration checks its clock between transforms; a busy machine may add a little.
  assert.ok(performance.now() - start < 2 * TAUTOMER_TIMEOUT_S * 1000 + 5_000);
});

test("the tool answers as its output schema says; a wrong step is refused by the input schema", () => {
  const result = standardizeTool.run({ smiles: "CC(=O)O[Na]", steps: undefined }) as unknown;
  assert.deepEqual(schemaErrors(jsonSchemaOf(standardizeTool.output, "output"), result), []);
  assert.notDeepEqual(
    schemaErrors(jsonSchemaOf(standardizeTool.input, "input"), { smiles: "C", steps: ["x"] }),
    [],
  );
  assert.deepEqual(
    schemaErrors(jsonSchemaOf(standardizeTool.input, "input"), { smiles: "C", steps: ["uncharge"] }),
    [],
  );
});

test("the tool's listing (name, title, description, input schema) stays within 1,000 characters", () => {
  const { name, title, description, inputSchema } = new ToolRegistry([standardizeTool as never])
    .descriptors[0]!;
  const listing = JSON.stringify({ name, title, description, inputSchema }).length;
  assert.ok(listing <= 1000, `standardize listing is ${listing} characters`);
});
