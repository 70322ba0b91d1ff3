/**
 * admet_profile rules against their published definitions:
 * - Kazius, McGuire & Bursi 2005 toxicophores on standard Ames positive controls (OECD Test Guideline 471:
 *   sodium azide, 2-nitrofluorene, 4-nitroquinoline N-oxide, methyl methanesulfonate, 2-aminoanthracene,
 *   benzo[a]pyrene) and on the classic mutagens N-nitrosodimethylamine and ethyl methanesulfonate;
 * - Egan 2000 bounds (TPSA ≤ 131.6 Å², logP ≤ 5.88), Gleeson 2008 4/400 bounds, ECCS class table (Varma 2015);
 * - BOILED-Egg yolk shared with the boiled_egg tool.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import {
  admetProfile,
  eccsClass,
  EGAN_MAX_LOGP,
  EGAN_MAX_TPSA,
  GLEESON_LOGP,
  GLEESON_MW,
  ionisationClass,
  KAZIUS_TOXICOPHORES,
  kaziusToxicophores,
} from "../../src/chem/admet.ts";
import { boiledEgg } from "../../src/chem/boiled_egg.ts";
import { admetProfileTool } from "../../src/tools/admet_profile.ts";

await loadTestRDKit();

const toxNames = (smiles: string) => withMol(smiles, kaziusToxicophores).map((h) => h.name);

test("Kazius toxicophores flag Ames positive controls with the right toxicophore", () => {
  const cases: [string, string, string][] = [
    ["sodium azide", "[N-]=[N+]=[N-].[Na+]", "azide"],
    ["2-nitrofluorene", "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2", "specific aromatic nitro"],
    ["4-nitroquinoline N-oxide", "[O-][n+]1ccc([N+](=O)[O-])c2ccccc21", "specific aromatic nitro"],
    [
      "methyl methanesulfonate",
      "COS(C)(=O)=O",
      "sulphonate-bonded carbon (alkyl alkane sulphonate or dialkyl sulphate)",
    ],
    [
      "ethyl methanesulfonate",
      "CCOS(C)(=O)=O",
      "sulphonate-bonded carbon (alkyl alkane sulphonate or dialkyl sulphate)",
    ],
    ["2-aminoanthracene", "Nc1ccc2cc3ccccc3cc2c1", "specific aromatic amine"],
    ["2-aminoanthracene", "Nc1ccc2cc3ccccc3cc2c1", "polycyclic planar system"],
    ["benzo[a]pyrene", "c1ccc2c(c1)cc1ccc3cccc4ccc2c1c34", "bay-region in polycyclic aromatic hydrocarbons"],
    ["benzo[a]pyrene", "c1ccc2c(c1)cc1ccc3cccc4ccc2c1c34", "polycyclic planar system"],
    ["N-nitrosodimethylamine", "CN(C)N=O", "nitrosamine"],
  ];
  for (const [name, smiles, toxicophore] of cases) {
    const found = toxNames(smiles);
    assert.ok(
      found.includes(toxicophore),
      `${name}: expected '${toxicophore}', got ${JSON.stringify(found)}`,
    );
    assert.equal(admetProfile(smiles).endpoints.ames.prediction, "alert", name);
  }
});

test("Kazius toxicophores stay silent on drugs without them", () => {
  for (
    const smiles of ["CC(=O)Oc1ccccc1C(=O)O", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "CC(C)Cc1ccc(C(C)C(=O)O)cc1"]
  ) {
    assert.deepEqual(toxNames(smiles), []);
    assert.equal(admetProfile(smiles).endpoints.ames.prediction, "no_alert");
  }
  // 28 named toxicophores, all patterns compile (kaziusToxicophores compiled them above).
  assert.equal(KAZIUS_TOXICOPHORES.length, 28);
  assert.equal(KAZIUS_TOXICOPHORES.flatMap((t) => t.smarts).length, 36);
});

test("ionisation class: acids, bases, zwitterions, neutrals", () => {
  const cls = (smiles: string) => withMol(smiles, ionisationClass).class;
  assert.equal(cls("CC(C)Cc1ccc(C(C)C(=O)O)cc1"), "acid"); // ibuprofen
  assert.equal(cls("CCCCc1nc(Cl)c(CO)n1Cc1ccc(cc1)-c1ccccc1-c1nn[nH]n1"), "acid"); // losartan (tetrazole)
  assert.equal(cls("CC(C)NCC(O)COc1cccc2ccccc12"), "base"); // propranolol
  assert.equal(cls("CN(C)C(=N)NC(=N)N"), "base"); // metformin (biguanide)
  assert.equal(cls("C[N+](C)(C)CCO"), "base"); // choline (quaternary)
  assert.equal(cls("OC(=O)COCCN1CCN(CC1)C(c1ccccc1)c1ccc(Cl)cc1"), "zwitterion"); // cetirizine
  assert.equal(cls("Cn1cnc2c1c(=O)n(C)c(=O)n2C"), "neutral"); // caffeine
  assert.equal(cls("CC(=O)Nc1ccc(O)cc1"), "neutral"); // paracetamol: amide N, phenol
  assert.equal(cls("CNC(=NCCSCc1nc[nH]c1C)NC#N"), "neutral"); // cimetidine: cyanoguanidine is not basic
  assert.equal(cls("Nc1ccccc1"), "neutral"); // aniline
});

test("every endpoint cites its rule by author and year, whose full reference and DOI the method gives", async () => {
  const parsed = v.safeParse(
    admetProfileTool.output,
    await admetProfileTool.run({ smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21" }),
  );
  assert.ok(parsed.success, JSON.stringify(parsed.issues));
  const r = parsed.output;
  assert.equal(r.heuristic, true);
  assert.deepEqual(Object.keys(r.endpoints).sort(), [
    "ames",
    "bbb",
    "caco2",
    "cyp3a4",
    "hepatic_clearance",
    "herg",
    "ppb",
  ]);
  for (const [name, e] of Object.entries(r.endpoints)) {
    const [, author, year] = /^(\S+) .*((?:19|20)\d\d)$/.exec(e.reference) ?? [];
    assert.ok(author && year, `${name}: ${e.reference}`);
    assert.match(r.method, new RegExp(`${author}[^;]*${year}, doi:10\\.\\d{4,5}/`), name);
    assert.ok(e.rationale.length > 20, name);
  }
  // Diazepam (values agree with RDKit 2022.09 in Python): MW 284.746, logP 3.1538, TPSA 32.67 Å².
  assert.deepEqual(r.inputs, { molecular_weight: 284.746, logp: 3.1538, tpsa: 32.67 });
  assert.match(admetProfileTool.description, /heuristic/);
});

test("bbb is the BOILED-Egg yolk (same verdict as boiled_egg)", () => {
  for (
    const smiles of [
      "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
      "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
      "CC1=CCC(CC1)C(=C)C",
    ]
  ) {
    const bbb = admetProfile(smiles).endpoints.bbb;
    assert.equal(bbb.prediction === "penetrant", boiledEgg(smiles).bbb_penetrant, smiles);
    assert.equal(admetProfile(smiles).inputs.tpsa, boiledEgg(smiles).tpsa);
  }
});

test("caco2 follows the Egan bounds TPSA ≤ 131.6 Å² and logP ≤ 5.88", () => {
  assert.equal(EGAN_MAX_TPSA, 131.6);
  assert.equal(EGAN_MAX_LOGP, 5.88);
  assert.equal(admetProfile("Cn1cnc2c1c(=O)n(C)c(=O)n2C").endpoints.caco2.prediction, "high");
  // Lactulose: TPSA ≈ 210 Å².
  const lactulose = "OC[C@H]1O[C@@H](O[C@H]2[C@H](O)[C@@H](O)[C@](O)(CO)O[C@@H]2CO)[C@H](O)[C@@H](O)[C@H]1O";
  assert.equal(admetProfile(lactulose).endpoints.caco2.prediction, "low");
  // Dotriacontane: TPSA 0 but logP far above 5.88.
  assert.equal(admetProfile("C".repeat(32)).endpoints.caco2.prediction, "low");
});

test("hERG, CYP3A4 and PPB follow Gleeson's MW < 400 / clogP < 4 space and ionisation trends", () => {
  assert.deepEqual([GLEESON_MW, GLEESON_LOGP], [400, 4]);
  // Terfenadine: basic, MW 471.7, clogP > 4 — the textbook hERG blocker.
  const terfenadine = admetProfile("CC(C)(C)c1ccc(cc1)C(O)CCCN1CCC(CC1)C(O)(c1ccccc1)c1ccccc1").endpoints;
  assert.equal(terfenadine.herg.prediction, "higher_risk");
  assert.equal(terfenadine.cyp3a4.prediction, "inhibition_more_likely");
  // Aspirin: acid, small, clogP 1.3.
  const aspirin = admetProfile("CC(=O)Oc1ccccc1C(=O)O").endpoints;
  assert.equal(aspirin.herg.prediction, "lower_risk");
  assert.equal(aspirin.cyp3a4.prediction, "inhibition_less_likely");
  // Propranolol: basic but inside 4/400.
  assert.equal(admetProfile("CC(C)NCC(O)COc1cccc2ccccc12").endpoints.herg.prediction, "moderate_risk");
  // PPB: ibuprofen (acid, ~99 % bound) high; caffeine (neutral, clogP −1) lower.
  assert.equal(admetProfile("CC(C)Cc1ccc(C(C)C(=O)O)cc1").endpoints.ppb.prediction, "high_binding_likely");
  assert.equal(admetProfile("Cn1cnc2c1c(=O)n(C)c(=O)n2C").endpoints.ppb.prediction, "lower_binding_likely");
});

test("hepatic clearance: ECCS class table of Varma et al. 2015", () => {
  assert.deepEqual(eccsClass("acid", 300, true), { eccs_class: "1A", route: "hepatic_metabolism" });
  assert.deepEqual(eccsClass("zwitterion", 450, true), { eccs_class: "1B", route: "hepatic_uptake" });
  assert.deepEqual(eccsClass("base", 600, true), { eccs_class: "2", route: "hepatic_metabolism" });
  assert.deepEqual(eccsClass("neutral", 250, true), { eccs_class: "2", route: "hepatic_metabolism" });
  assert.deepEqual(eccsClass("acid", 300, false), { eccs_class: "3A", route: "renal" });
  assert.deepEqual(eccsClass("acid", 450, false), { eccs_class: "3B", route: "hepatic_uptake_or_renal" });
  assert.deepEqual(eccsClass("base", 300, false), { eccs_class: "4", route: "renal" });
  // Rosuvastatin: acid, MW 481.5, TPSA above the Egan bound → class 3B (an OATP substrate).
  const rosuvastatin = "CC(C)c1nc(N(C)S(C)(=O)=O)nc(-c2ccc(F)cc2)c1/C=C/[C@@H](O)C[C@@H](O)CC(=O)O";
  const clearance = admetProfile(rosuvastatin).endpoints.hepatic_clearance;
  assert.match(clearance.rationale, /^ECCS class 3B: acid, MW > 400, low permeability/);
  // Ibuprofen: acid, MW 206, permeable → 1A, metabolism.
  assert.equal(
    admetProfile("CC(C)Cc1ccc(C(C)C(=O)O)cc1").endpoints.hepatic_clearance.prediction,
    "hepatic_metabolism",
  );
});

test("salts are profiled as the parent; invalid SMILES gives INVALID_SMILES", () => {
  const salt = admetProfile("CC(C)NCC(O)COc1cccc2ccccc12.Cl");
  assert.equal(salt.parent_smiles, "CC(C)NCC(O)COc1cccc2ccccc12");
  assert.equal(salt.fragment_count, 2);
  for (const bad of ["", "C1CC", "Xy"]) {
    assert.throws(
      () => admetProfile(bad),
      (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
    );
  }
});
