/**
 * BOILED-Egg (Daina & Zoete, ChemMedChem 2016, 11, 1117, doi:10.1002/cmdc.201600182).
 *
 * Published data used:
 * - ellipse outline points of the paper's supporting information, as reproduced in pyBOILEDegg (B. F. Milne,
 *   doi:10.5281/zenodo.4725530, `gia_coords` / `bbb_coords`, "Data for GIA and BBB models from supporting
 *   information of Daina & Zoete"): every point must lie on our ellipse (normalised distance 1 ± 0.01);
 * - SwissADME (the authors' implementation; Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717) results widely
 *   reported for diazepam (WLOGP 3.15, TPSA 32.67 Å², GI high, BBB yes), caffeine (−1.03, 61.82, high, no) and
 *   ibuprofen (3.07, 37.30, high, yes).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  BOILED_EGG_METHOD,
  BOILED_EGG_WHITE,
  BOILED_EGG_YOLK,
  boiledEgg,
  boiledEggZones,
  ellipseDistance,
} from "../../src/chem/boiled_egg.ts";
import { calcProperties } from "../../src/chem/properties.ts";
import { ChemError } from "../../src/errors.ts";
import { boiledEggTool } from "../../src/tools/boiled_egg.ts";

await loadTestRDKit();

/** [TPSA, WLOGP] points of the SI outline of the white (HIA). */
const WHITE_OUTLINE: [number, number][] = [
  [97.80552243681136, -2.227039047489081],
  [120.13408428002757, -1.7446795544963347],
  [141.556498804638, 0.5086442989322527],
  [142.03006113412775, 1.0463700443367885],
  [130.60790765321815, 3.5816472104649564],
  [74.79833223793057, 6.576442848107324],
  [52.7026600654724, 6.836587588714733],
  [0.024663363538902687, 3.5427109655111297],
  [3.7125982686539536, 2.1315578482174877],
  [22.92470020991869, -0.03581660149508132],
  [58.39927000715034, -1.7630871370601089],
];

/** [TPSA, WLOGP] points of the SI outline of the yolk (BBB). */
const YOLK_OUTLINE: [number, number][] = [
  [40.97017925131679, 0.4062562899766126],
  [62.449318912770856, 0.8836631516506256],
  [79.09902147334422, 3.093995010872254],
  [67.75544039679461, 5.020634995352665],
  [37.74279433303931, 5.9634109635090855],
  [9.743888527775118, 5.272621729438726],
  [-2.961723287295181, 3.275900551916808],
  [0.039528784324221584, 2.246693012685768],
  [18.58766515194309, 0.7939787660204534],
];

test("our ellipses pass through the SI outline points", () => {
  for (const [tpsa, wlogp] of WHITE_OUTLINE) {
    const d = ellipseDistance(BOILED_EGG_WHITE, tpsa, wlogp);
    assert.ok(Math.abs(d - 1) < 0.01, `white outline (${tpsa}, ${wlogp}) at distance ${d}`);
  }
  for (const [tpsa, wlogp] of YOLK_OUTLINE) {
    const d = ellipseDistance(BOILED_EGG_YOLK, tpsa, wlogp);
    assert.ok(Math.abs(d - 1) < 0.01, `yolk outline (${tpsa}, ${wlogp}) at distance ${d}`);
  }
});

test("a wrong ellipse parameter moves the outline off the SI points", () => {
  const worst = (e: typeof BOILED_EGG_WHITE, pts: [number, number][]) =>
    Math.max(...pts.map(([x, y]) => Math.abs(ellipseDistance(e, x, y) - 1)));
  for (const key of ["tpsa", "wlogp", "width", "height", "angle"] as const) {
    const white = {
      ...BOILED_EGG_WHITE,
      [key]: key === "angle" ? -BOILED_EGG_WHITE.angle : BOILED_EGG_WHITE[key] * 1.05,
    };
    assert.ok(worst(white, WHITE_OUTLINE) > 0.02, `white ${key} change not detected`);
    const yolk = { ...BOILED_EGG_YOLK, [key]: key === "angle" ? 3 : BOILED_EGG_YOLK[key] * 1.05 };
    assert.ok(worst(yolk, YOLK_OUTLINE) > 0.02, `yolk ${key} change not detected`);
  }
});

test("SwissADME-reported drugs: WLOGP, TPSA and both classes", () => {
  const cases: [string, string, number, number, boolean, boolean][] = [
    ["diazepam", "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21", 3.15, 32.67, true, true],
    ["caffeine", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", -1.03, 61.82, true, false],
    ["ibuprofen", "CC(C)Cc1ccc(C(C)C(=O)O)cc1", 3.07, 37.3, true, true],
  ];
  for (const [name, smiles, wlogp, tpsa, gi, bbb] of cases) {
    const r = boiledEgg(smiles);
    assert.ok(Math.abs(r.logp - wlogp) < 0.005, `${name} WLOGP ${r.logp}`);
    assert.ok(Math.abs(r.tpsa - tpsa) < 0.005, `${name} TPSA ${r.tpsa}`);
    assert.equal(r.gi_absorbed, gi, `${name} GI`);
    assert.equal(r.bbb_penetrant, bbb, `${name} BBB`);
  }
});

test("very polar drugs fall outside both ellipses", () => {
  // Lactulose (TPSA ≈ 210 Å²) and methotrexate (TPSA ≈ 211 Å²) lie beyond the white's TPSA extent (≈ 142 Å²).
  for (
    const smiles of [
      "OC[C@H]1O[C@@H](O[C@H]2[C@H](O)[C@@H](O)[C@](O)(CO)O[C@@H]2CO)[C@H](O)[C@@H](O)[C@H]1O",
      "CN(Cc1cnc2nc(N)nc(N)c2n1)c1ccc(cc1)C(=O)N[C@@H](CCC(=O)O)C(=O)O",
    ]
  ) {
    const r = boiledEgg(smiles);
    assert.ok(r.tpsa > 142.1);
    assert.deepEqual([r.gi_absorbed, r.bbb_penetrant], [false, false]);
  }
});

test("TPSA here includes S and P (as in the paper); calc_properties' does not", () => {
  const famotidine = "NC(N)=Nc1nc(CSCCC(N)=NS(N)(=O)=O)cs1";
  // Thioether S 25.30 + thiazole S 28.24 + sulfonyl S 8.38 on top of the N/O value.
  const diff = boiledEgg(famotidine).tpsa - calcProperties(famotidine).tpsa;
  assert.ok(Math.abs(diff - (25.3 + 28.24 + 8.38)) < 0.01, `S contribution ${diff}`);
});

test("the verdicts are independent: apolar molecules can be BBB-penetrant without GI absorption", () => {
  // At TPSA 0 the white only reaches WLOGP ≈ 3.54 (its tip); the yolk spans roughly 2.3–4.2 there.
  assert.deepEqual(boiledEggZones(3.0, 0), { gi_absorbed: false, bbb_penetrant: true });
  // Limonene: TPSA 0, WLOGP 3.31.
  const limonene = boiledEgg("CC1=CCC(CC1)C(=C)C");
  assert.equal(limonene.tpsa, 0);
  assert.deepEqual([limonene.gi_absorbed, limonene.bbb_penetrant], [false, true]);
  // Centres are inside their own ellipse.
  assert.deepEqual(boiledEggZones(BOILED_EGG_YOLK.wlogp, BOILED_EGG_YOLK.tpsa), {
    gi_absorbed: true,
    bbb_penetrant: true,
  });
  assert.deepEqual(boiledEggZones(BOILED_EGG_WHITE.wlogp, BOILED_EGG_WHITE.tpsa).gi_absorbed, true);
});

test("tool output has exactly the spec's five fields and a fixed method naming BOILED-Egg 2016", async () => {
  const r = await boiledEggTool.run({ smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21.Cl" });
  assert.deepEqual(Object.keys(r).sort(), ["bbb_penetrant", "gi_absorbed", "logp", "method", "tpsa"]);
  assert.equal(r.method, BOILED_EGG_METHOD);
  assert.match(r.method, /BOILED-Egg/);
  assert.match(r.method, /2016/);
  // The hydrochloride is evaluated as the free base.
  assert.deepEqual(r, boiledEgg("CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"));
  assert.match(r.method, /doi:10\.1002\/cmdc\.201600182/);
  assert.match(boiledEggTool.description, /Daina & Zoete 2016/);
});

test("invalid SMILES gives INVALID_SMILES", () => {
  for (const bad of ["", "C1CC", "Xy"]) {
    assert.throws(
      () => boiledEgg(bad),
      (e: unknown) => e instanceof ChemError && e.code === "INVALID_SMILES",
    );
  }
});
