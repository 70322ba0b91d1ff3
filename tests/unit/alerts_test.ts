import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { type Mol, rdkit, withMol } from "../../src/chem/rdkit.ts";
import {
  type AlertDefinition,
  BRENK_DEFINITIONS,
  brenkCheck,
  brenkCheckSmiles,
  PAINS_DEFINITIONS,
  painsCheck,
  painsCheckSmiles,
} from "../../src/chem/alerts.ts";
import { painsCheckTool } from "../../src/tools/pains_check.ts";
import { brenkCheckTool } from "../../src/tools/brenk_check.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

const names = (smiles: string, check: typeof painsCheckSmiles) => check(smiles).hits.map((h) => h.name);

test("catalog sizes: PAINS 480 = A 16 + B 55 + C 409 (Baell & Holloway 2010); Brenk 105", () => {
  const family = (f: string) => PAINS_DEFINITIONS.filter((d) => d.family === f).length;
  assert.equal(PAINS_DEFINITIONS.length, 480);
  assert.equal(family("PAINS_A"), 16);
  assert.equal(family("PAINS_B"), 55);
  assert.equal(family("PAINS_C"), 409);
  assert.equal(BRENK_DEFINITIONS.length, 105);
  assert.equal(new Set(PAINS_DEFINITIONS.map((d) => d.name)).size, 480);
  assert.equal(new Set(BRENK_DEFINITIONS.map((d) => d.name)).size, 105);
  assert.equal(painsCheckSmiles("CCO").alerts_checked, 480);
  assert.equal(brenkCheckSmiles("CCO").alerts_checked, 105);
});

// Expectations of RDKit's own FilterCatalog tests (Code/GraphMol/FilterCatalog/Wrap/rough_test.py,
// test2FilterCatalogTest), including the query-atom -> molecule-atom pairs of the hzone_phenol_A match.
test("RDKit FilterCatalog test cases: hzone_phenol_A(479) with its atom map, cyano_imine_B(17), keto_keto_gamma(5)", () => {
  const hzone = painsCheckSmiles("O=C(Cn1cnc2c1c(=O)n(C)c(=O)n2C)N/N=C/c1c(O)ccc2c1cccc2");
  // rough_test.py: the full PAINS catalog gives exactly one matching entry for this molecule.
  assert.deepEqual(hzone.hits, [{
    name: "hzone_phenol_A(479)",
    family: "PAINS_A",
    atoms: [23, 22, 20, 19, 25, 24, 18, 17, 16, 21],
  }]);
  assert.equal(
    painsCheckSmiles("FC(F)(F)Oc1ccc(NN=C(C#N)C#N)cc1").hits.find((h) => h.family === "PAINS_B")?.name,
    "cyano_imine_B(17)",
  );
  assert.equal(
    painsCheckSmiles("O=C1C2OC2C(=O)c3cc4CCCCc4cc13").hits.find((h) => h.family === "PAINS_C")?.name,
    "keto_keto_gamma(5)",
  );
});

// Chemotypes named in Baell & Holloway 2010 (classes ene_rhod, catechol, quinone, azo, anil_di_alk, hzone_phenol,
// mannich, ene_cyano); the class names are the RDKit entry names.
test("PAINS hits for the paper's example chemotypes", () => {
  const cases: [string, string, string][] = [
    ["S=C1SC(=Cc2ccccc2)C(=O)N1", "ene_rhod_A(235)", "5-benzylidene rhodanine"],
    ["O=C1NC(=S)SC1=Cc1ccc(O)cc1", "ene_rhod_A(235)", "5-(4-hydroxybenzylidene) rhodanine"],
    ["NCCc1ccc(O)c(O)c1", "catechol_A(92)", "dopamine"],
    ["O=C1C=CC(=O)C=C1", "quinone_A(370)", "1,4-benzoquinone"],
    ["O=C1C=CC(=O)c2ccccc21", "quinone_A(370)", "1,4-naphthoquinone"],
    ["c1ccc(cc1)N=Nc1ccccc1", "azo_A(324)", "azobenzene"],
    ["CN(C)c1ccc(N)cc1", "anil_di_alk_A(478)", "N,N-dimethyl-p-phenylenediamine"],
    ["CN(C)c1ccc(cc1)C=Cc1ccccc1", "anil_di_alk_B(251)", "4-dimethylaminostilbene"],
    ["Oc1ccccc1C=NNc1ccccc1", "hzone_phenol_A(479)", "salicylaldehyde phenylhydrazone"],
    ["Oc1ccc(Cl)cc1CN1CCCCC1", "mannich_A(296)", "phenolic Mannich base"],
    ["N#CC(C#N)=Cc1ccccc1", "ene_cyano_A(19)", "benzylidenemalononitrile"],
  ];
  for (const [smiles, alert, label] of cases) {
    assert.ok(
      names(smiles, painsCheckSmiles).includes(alert),
      `${label}: ${names(smiles, painsCheckSmiles)}`,
    );
  }
  const azo = painsCheckSmiles("c1ccc(cc1)N=Nc1ccccc1").hits.find((h) => h.name === "azo_A(324)");
  assert.deepEqual(azo?.atoms, [6, 7]);
  assert.equal(azo?.family, "PAINS_A");
});

// Marketed drugs free of PAINS substructures (RDKit PAINS catalog A+B+C). Catechols (levodopa) and azo dyes
// (sulfasalazine) are deliberately absent: they are PAINS and checked below.
const PAINS_FREE_DRUGS: Record<string, string> = {
  aspirin: "CC(=O)Oc1ccccc1C(=O)O",
  ibuprofen: "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
  paracetamol: "CC(=O)Nc1ccc(O)cc1",
  caffeine: "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
  metformin: "CN(C)C(=N)NC(=N)N",
  atenolol: "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1",
  propranolol: "CC(C)NCC(O)COc1cccc2ccccc12",
  diazepam: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
  fluoxetine: "CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1",
  sertraline: "CN[C@H]1CC[C@@H](c2ccc(Cl)c(Cl)c2)c2ccccc21",
  omeprazole: "COc1ccc2[nH]c(nc2c1)S(=O)Cc1ncc(C)c(OC)c1C",
  losartan: "CCCCc1nc(Cl)c(CO)n1Cc1ccc(cc1)-c1ccccc1-c1nn[nH]n1",
  naproxen: "COc1ccc2cc(ccc2c1)[C@H](C)C(=O)O",
  diclofenac: "OC(=O)Cc1ccccc1Nc1c(Cl)cccc1Cl",
  metoprolol: "COCCc1ccc(OCC(O)CNC(C)C)cc1",
  ciprofloxacin: "OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O",
  cetirizine: "OC(=O)COCCN1CCN(CC1)C(c1ccccc1)c1ccc(Cl)cc1",
  loratadine: "CCOC(=O)N1CCC(=C2c3ccc(Cl)cc3CCc3cccnc23)CC1",
  celecoxib: "Cc1ccc(cc1)-c1cc(nn1-c1ccc(cc1)S(N)(=O)=O)C(F)(F)F",
  hydrochlorothiazide: "NS(=O)(=O)c1cc2c(NCNS2(=O)=O)cc1Cl",
  lidocaine: "CCN(CC)CC(=O)Nc1c(C)cccc1C",
  haloperidol: "OC1(CCN(CCCC(=O)c2ccc(F)cc2)CC1)c1ccc(Cl)cc1",
  carbamazepine: "NC(=O)N1c2ccccc2C=Cc2ccccc21",
  gabapentin: "NCC1(CC(=O)O)CCCCC1",
  sildenafil: "CCCc1nn(C)c2c1nc([nH]c2=O)-c1cc(ccc1OCC)S(=O)(=O)N1CCN(C)CC1",
  amoxicillin: "CC1(C)S[C@@H]2[C@H](NC(=O)[C@H](N)c3ccc(O)cc3)C(=O)N2[C@H]1C(=O)O",
  atorvastatin: "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O",
};

test(`no PAINS hits for ${Object.keys(PAINS_FREE_DRUGS).length} marketed drugs`, () => {
  assert.ok(Object.keys(PAINS_FREE_DRUGS).length >= 20);
  for (const [drug, smiles] of Object.entries(PAINS_FREE_DRUGS)) {
    const r = painsCheckSmiles(smiles);
    assert.equal(r.flagged, false, `${drug}: ${r.hits.map((h) => h.name)}`);
  }
  // Drugs that do contain PAINS chemotypes.
  assert.deepEqual(names("N[C@@H](Cc1ccc(O)c(O)c1)C(=O)O", painsCheckSmiles), ["catechol_A(92)"]);
  assert.deepEqual(names("OC(=O)c1cc(ccc1O)N=Nc1ccc(cc1)S(=O)(=O)Nc1ccccn1", painsCheckSmiles), [
    "azo_A(324)",
  ]);
});

test("Brenk hits for textbook unwanted groups", () => {
  const cases: [string, string][] = [
    ["C=CC(C)=O", "Michael_acceptor_1"],
    ["C=CC(N)=O", "Michael_acceptor_1"],
    ["O=Cc1ccccc1", "aldehyde"],
    ["CC=O", "aldehyde"],
    ["O=[N+]([O-])c1ccccc1", "nitro_group"],
    ["CCBr", "alkyl_halide"],
    ["CC(=O)Cl", "acid_halide"],
    ["CCS", "thiol_2"],
    ["CC1CO1", "Three-membered_heterocycle"],
    ["CCN=[N+]=[N-]", "Azido_group"],
    ["CN=C=O", "isocyanate"],
    ["CC(C)(C)OOC(C)(C)C", "peroxide"],
    ["CSSC", "disulphide"],
    ["NNc1ccccc1", "hydrazine"],
    ["OC(=O)CCCCCCCCC=CC(=O)C", "Michael_acceptor_1"],
  ];
  for (const [smiles, alert] of cases) {
    assert.ok(
      names(smiles, brenkCheckSmiles).includes(alert),
      `${smiles}: ${names(smiles, brenkCheckSmiles)}`,
    );
  }
  const nitro = brenkCheckSmiles("O=[N+]([O-])c1ccccc1").hits.find((h) => h.name === "nitro_group");
  assert.deepEqual(nitro, { name: "nitro_group", family: "Brenk", atoms: [1, 0, 2] });
  for (
    const smiles of [
      "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
      "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
      "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
    ]
  ) {
    assert.equal(brenkCheckSmiles(smiles).flagged, false, smiles);
  }
});

/** RDKit's own H-merged query (SmartsToMol(…, mergeHs=true) equivalent), built through RDKit JSON. */
function rdkitMergedQuery(smarts: string): Mol {
  const q = rdkit().get_qmol(smarts);
  assert.ok(q);
  const json = q.get_json();
  q.delete();
  const opts = { sanitize: false, removeHs: false, assignStereo: false, mergeQueryHs: true };
  const merged = rdkit().get_mol(json, JSON.stringify(opts));
  assert.ok(merged);
  return merged;
}

test("shipped queries are RDKit's H-merged queries: same SMARTS and same matches on a test set", () => {
  const molecules = [
    ...Object.values(PAINS_FREE_DRUGS),
    "O=C(Cn1cnc2c1c(=O)n(C)c(=O)n2C)N/N=C/c1c(O)ccc2c1cccc2",
    "FC(F)(F)Oc1ccc(NN=C(C#N)C#N)cc1",
    "O=C1C2OC2C(=O)c3cc4CCCCc4cc13",
    "S=C1SC(=Cc2ccccc2)C(=O)N1",
    "CN(C)c1ccc(N)cc1",
    "Oc1ccc(Cl)cc1CN1CCCCC1",
    "O=C1C=CC(=O)C=C1",
    "NCCc1ccc(O)c(O)c1",
    "C=CC(C)=O",
    "CCN=[N+]=[N-]",
  ].map((s) => rdkit().get_mol(s)!);
  const all: AlertDefinition[] = [...PAINS_DEFINITIONS, ...BRENK_DEFINITIONS];
  try {
    for (const def of all) {
      const reference = rdkitMergedQuery(def.smarts);
      const shipped = rdkit().get_qmol(def.query)!;
      try {
        assert.equal(reference.get_smarts(), def.query, def.name);
        for (const mol of molecules) {
          assert.equal(mol.get_substruct_match(shipped), mol.get_substruct_match(reference), def.name);
        }
      } finally {
        reference.delete();
        shipped.delete();
      }
    }
  } finally {
    for (const mol of molecules) mol.delete();
  }
});

test("painsCheck / brenkCheck reuse a parsed molecule", () => {
  const smiles = "O=Cc1ccc(O)c(O)c1";
  const [p, b] = withMol(smiles, (mol) => [painsCheck(mol), brenkCheck(mol)]);
  assert.deepEqual(p, painsCheckSmiles(smiles));
  assert.deepEqual(b, brenkCheckSmiles(smiles));
  assert.ok(p?.hits.some((h) => h.name === "catechol_A(92)"));
  assert.ok(b?.hits.some((h) => h.name === "aldehyde"));
});

test("tools: result shape, catalog family and typed errors", async () => {
  const p = await painsCheckTool.run({ smiles: "c1ccc(cc1)N=Nc1ccccc1" });
  assert.equal(p.passes, false);
  assert.equal(p.alert_count, 1);
  assert.deepEqual(p.alerts[0], { name: "azo_A(324)", family: "PAINS_A", atoms: [6, 7] });
  assert.equal(p.alerts_checked, 480);
  const b = await brenkCheckTool.run({ smiles: "CC(C)Cc1ccc(cc1)C(C)C(=O)O" });
  assert.equal(b.passes, true);
  assert.deepEqual(b.alerts, []);
  assert.equal(b.alerts_checked, 105);
  assert.throws(
    () => painsCheckTool.run({ smiles: "C1CC" }),
    (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
  );
  assert.throws(
    () => brenkCheckTool.run({ smiles: "C(C)".repeat(160) }),
    (e: unknown) => e instanceof ChemError && e.code === "MOLECULE_TOO_LARGE",
  );
});
