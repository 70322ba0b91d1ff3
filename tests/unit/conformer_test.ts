/**
 * The 3D engine piece by piece: DREIDING parameters against the paper (Mayo, Olafson & Goddard, J. Phys. Chem.
 * 1990, 94, 8897, doi:10.1021/j100389a010: Table I radii and angles, δ = 0.01 Å, force constants, the torsion
 * cases and the worked example "for a substituted ethane V_JK = 2.0 kcal/mol and … 2/9 for each of the nine"),
 * typing, analytic gradients against finite differences, the L-BFGS minimiser, XYZ text, geometry of small
 * reference molecules, stereochemistry read back by RDKit, determinism, bounds and error codes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";
import { DEFAULT_TIME_LIMIT_MS, generate3d, MAX_3D_HEAVY_ATOMS } from "../../src/chem/conformer/index.ts";
import { prepareMolecule } from "../../src/chem/conformer/molecule.ts";
import { assignTypes } from "../../src/chem/conformer/typing.ts";
import { buildForceField, type ForceField } from "../../src/chem/conformer/forcefield.ts";
import {
  angleEnergy,
  bondEnergy,
  dihedral,
  dreidingEnergy,
  inversionEnergy,
  nonbondedEnergy,
  torsionEnergy,
} from "../../src/chem/conformer/energy.ts";
import {
  bondLength,
  type DreidingType,
  pairVdw,
  torsionCase,
  VALENCE,
  vdwOf,
} from "../../src/chem/conformer/parameters.ts";
import { minimize } from "../../src/chem/conformer/optimizer.ts";
import { seededRandom } from "../../src/chem/conformer/placement.ts";
import { DEFAULT_WEIGHTS, restraintEnergy } from "../../src/chem/conformer/restraints.ts";
import { signedVolume, stereoTargets } from "../../src/chem/conformer/stereo.ts";
import { embed4dModel, objective4d } from "../../src/chem/conformer/embed4d.ts";
import { angleDegrees, distance } from "../../src/chem/conformer/quality.ts";
import { angleKeys, naturalAngle, nitrogenKey } from "../../src/chem/conformer/angles.ts";
import { toMolBlock, toXyz } from "../../src/chem/conformer/xyz.ts";

await loadTestRDKit();

const isCode = (code: string) => (e: unknown) => e instanceof ChemError && e.code === code;

function forceField(smiles: string): ForceField {
  const { graph } = prepareMolecule(smiles, MAX_3D_HEAVY_ATOMS);
  return buildForceField(graph, assignTypes(graph));
}

test("DREIDING natural bond lengths from Table I radii minus 0.01 Å", () => {
  const cases: [DreidingType, DreidingType, number][] = [
    ["C_3", "C_3", 1.53], // 0.770 + 0.770 − 0.01
    ["C_2", "C_2", 1.33], // 0.670 + 0.670 − 0.01
    ["C_R", "C_R", 1.39], // 0.700 + 0.700 − 0.01
    ["C_3", "H_", 1.09], // 0.770 + 0.330 − 0.01
    ["C_3", "O_3", 1.42], // 0.770 + 0.660 − 0.01
    ["C_2", "O_2", 1.22], // 0.670 + 0.560 − 0.01
    ["C_3", "N_3", 1.462], // 0.770 + 0.702 − 0.01
    ["C_1", "C_1", 1.194], // 0.602 + 0.602 − 0.01
    ["C_3", "Cl", 1.757], // 0.770 + 0.997 − 0.01
  ];
  for (const [a, b, r] of cases) {
    assert.ok(Math.abs(bondLength(a, b) - r) < 1e-9, `${a}-${b} ${bondLength(a, b)}`);
  }
  assert.equal(VALENCE.C_3.theta, 109.471);
  assert.equal(VALENCE.N_3.theta, 106.7);
  assert.equal(VALENCE.O_3.theta, 104.51);
  assert.equal(VALENCE.S_3.theta, 92.1);
  assert.equal(VALENCE.P_3.theta, 93.3);
});

test("Table II van der Waals: per element, arithmetic R0 and geometric D0 for pairs", () => {
  assert.deepEqual(vdwOf("C_R"), { r0: 3.8983, d0: 0.0951 });
  assert.deepEqual(vdwOf("O_2"), { r0: 3.4046, d0: 0.0957 });
  assert.deepEqual(vdwOf("N_3"), { r0: 3.6621, d0: 0.0774 });
  assert.deepEqual(vdwOf("H_"), { r0: 3.195, d0: 0.0152 });
  assert.deepEqual(vdwOf("Cl"), { r0: 3.9503, d0: 0.2833 });
  const ch = pairVdw("C_3", "H_");
  assert.ok(Math.abs(ch.r0 - (3.8983 + 3.195) / 2) < 1e-12);
  assert.ok(Math.abs(ch.d0 - Math.sqrt(0.0951 * 0.0152)) < 1e-12);
});

test("torsion cases (a)–(j) of the paper", () => {
  const c = (i: DreidingType, j: DreidingType, k: DreidingType, l: DreidingType, order = 1, ring = false) =>
    torsionCase(i, j, k, l, order, ring);
  assert.deepEqual(c("H_", "C_3", "C_3", "H_"), { rule: "a", v: 2, n: 3, phi0: 180 });
  assert.deepEqual(c("C_2", "C_2", "C_3", "H_"), { rule: "b", v: 1, n: 6, phi0: 0 });
  assert.deepEqual(c("H_", "C_2", "C_2", "H_", 2), { rule: "c", v: 45, n: 2, phi0: 180 });
  assert.deepEqual(c("C_R", "C_R", "C_R", "C_R", 1.5, true), { rule: "d", v: 25, n: 2, phi0: 180 });
  assert.deepEqual(c("C_2", "C_2", "C_2", "C_2"), { rule: "e", v: 5, n: 2, phi0: 180 });
  assert.deepEqual(c("C_R", "C_R", "C_R", "C_R", 1, false), { rule: "f", v: 10, n: 2, phi0: 180 });
  assert.equal(c("H_", "C_1", "C_3", "H_"), null);
  assert.deepEqual(c("H_HB", "O_3", "O_3", "H_HB"), { rule: "h", v: 2, n: 2, phi0: 90 });
  assert.deepEqual(c("H_HB", "O_3", "C_R", "C_R"), { rule: "i", v: 2, n: 2, phi0: 180 });
  assert.deepEqual(c("H_", "C_2", "C_3", "H_"), { rule: "j", v: 2, n: 3, phi0: 180 });
});

test("typing: hybridisation, resonance, H_HB and an unsupported element", () => {
  const types = (s: string) => assignTypes(prepareMolecule(s, 200).graph);
  assert.deepEqual(types("CCO"), ["C_3", "C_3", "O_3", "H_", "H_", "H_", "H_", "H_", "H_HB"]);
  assert.deepEqual(types("c1ccccc1").slice(0, 6), Array(6).fill("C_R"));
  assert.deepEqual(types("CC#N").slice(0, 3), ["C_3", "C_1", "N_1"]);
  assert.deepEqual(types("CC(N)=O").slice(0, 4), ["C_3", "C_2", "N_R", "O_2"]);
  assert.deepEqual(types("CN(C)C").slice(0, 4), ["C_3", "N_3", "C_3", "C_3"]);
  assert.deepEqual(types("CS(C)=O").slice(0, 4), ["C_3", "S_3", "C_3", "O_2"]);
  assert.deepEqual(types("c1ccncc1").slice(3, 4), ["N_R"]);
  assert.deepEqual(types("C=C=C").slice(0, 3), ["C_2", "C_1", "C_2"]);
  assert.throws(() => types("[Li+].[Cl-]"), isCode("UNSUPPORTED_MOLECULE"));
});

test("ethane: one C–C barrier of 2.0 kcal/mol shared as 2/9 over nine dihedrals (paper's example)", () => {
  const ff = forceField("CC");
  assert.equal(ff.torsions.v.length, 9);
  for (const v of ff.torsions.v) assert.ok(Math.abs(v - 2 / 9) < 1e-12);
  const c = generate3d("CC");
  const staggered = torsionEnergy(ff.torsions, c.coordinates);
  // Rotate one methyl's hydrogens by 60° about the C–C axis to eclipse them.
  const x = Float64Array.from(c.coordinates);
  const axis = [x[3]! - x[0]!, x[4]! - x[1]!, x[5]! - x[2]!];
  const len = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
  const [ux, uy, uz] = axis.map((a) => a / len) as [number, number, number];
  const cos = Math.cos(Math.PI / 3), sin = Math.sin(Math.PI / 3);
  for (const h of [5, 6, 7]) {
    const p = [x[3 * h]! - x[3]!, x[3 * h + 1]! - x[4]!, x[3 * h + 2]! - x[5]!];
    const d = ux * p[0]! + uy * p[1]! + uz * p[2]!;
    const cr = [uy * p[2]! - uz * p[1]!, uz * p[0]! - ux * p[2]!, ux * p[1]! - uy * p[0]!];
    for (let k = 0; k < 3; k++) {
      const u = [ux, uy, uz][k]!;
      x[3 * h + k] = x[3 + k]! + p[k]! * cos + cr[k]! * sin + u * d * (1 - cos);
    }
  }
  const neighbours = prepareMolecule("CC", 200).graph.neighbors;
  assert.deepEqual(neighbours[1], [0, 5, 6, 7]);
  assert.ok(Math.abs(torsionEnergy(ff.torsions, x) - staggered - 2.0) < 0.02);
});

test("analytic gradients match central finite differences for every term", () => {
  const smiles = "CC#CC(=O)Nc1ccc(O)cc1[C@H](F)/C=C/C";
  const { graph } = prepareMolecule(smiles, 200);
  const ff = buildForceField(graph, assignTypes(graph));
  const targets = stereoTargets(graph);
  const rand = seededRandom(11);
  const x = Float64Array.from(generate3d(smiles).coordinates, (v) => v + 0.3 * (rand() - 0.5));
  const model = embed4dModel(graph, ff, targets);
  const x4 = new Float64Array((x.length / 3) * 4).map((
    _,
    i,
  ) => (i % 4 === 3 ? rand() - 0.5 : x[(i >> 2) * 3 + (i % 4)]!));
  const terms: [string, Float64Array, (y: Float64Array, g?: Float64Array) => number][] = [
    ["bond", x, (y, g) => bondEnergy(ff.bonds, y, g)],
    ["angle", x, (y, g) => angleEnergy(ff.angles, y, g)],
    ["torsion", x, (y, g) => torsionEnergy(ff.torsions, y, g)],
    ["inversion", x, (y, g) => inversionEnergy(ff.inversions, y, g)],
    ["van der Waals and Coulomb", x, (y, g) => nonbondedEnergy(ff.pairs, y, g)],
    [
      "restraints",
      x,
      (y, g) => restraintEnergy(targets, ff.pairs, { ...DEFAULT_WEIGHTS, minVolumeFraction: 3 }, y, g),
    ],
    ["4D objective", x4, (y, g) => objective4d(model, y, g ?? new Float64Array(y.length), 5)],
  ];
  for (const [name, at, f] of terms) {
    const grad = new Float64Array(at.length);
    f(at, grad);
    let worst = 0;
    let scale = 1;
    for (let i = 0; i < at.length; i++) {
      const h = 1e-5;
      const up = Float64Array.from(at);
      const down = Float64Array.from(at);
      up[i] = up[i]! + h;
      down[i] = down[i]! - h;
      const numeric = (f(up) - f(down)) / (2 * h);
      worst = Math.max(worst, Math.abs(numeric - grad[i]!));
      scale = Math.max(scale, Math.abs(grad[i]!));
    }
    assert.ok(worst < 1e-5 * scale, `${name}: worst gradient error ${worst} (largest component ${scale})`);
  }
});

test("dihedral follows the IUPAC sign convention", () => {
  // Seen from atom 1 along 1→2, the far atom 3 lies 60° clockwise from the near atom 0: +60°; mirrored: −60°.
  const x = new Float64Array([
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    1.5,
    Math.cos(Math.PI / 3),
    Math.sin(Math.PI / 3),
    1.5,
  ]);
  assert.ok(Math.abs((dihedral(x, 0, 1, 2, 3) * 180) / Math.PI - 60) < 1e-9);
  x[10] = -x[10]!;
  assert.ok(Math.abs((dihedral(x, 0, 1, 2, 3) * 180) / Math.PI + 60) < 1e-9);
});

test("L-BFGS minimises the Rosenbrock function and never raises the value between accepted steps", () => {
  const f = (x: Float64Array, g: Float64Array) => {
    const [a, b] = [x[0]!, x[1]!];
    g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
    g[1] = 200 * (b - a * a);
    g[2] = 0;
    return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
  };
  const r = minimize(f, new Float64Array([-1.2, 1, 0]), { maxIterations: 1000, rmsGradientTolerance: 1e-8 });
  assert.ok(r.converged);
  assert.ok(Math.abs(r.x[0]! - 1) < 1e-6 && Math.abs(r.x[1]! - 1) < 1e-6, `${r.x[0]}, ${r.x[1]}`);
  for (let i = 1; i < r.trace.length; i++) assert.ok(r.trace[i]! <= r.trace[i - 1]!);
});

test("small molecules: every bond within 0.03 Å of the DREIDING reference", () => {
  const cases: [string, DreidingType, DreidingType, number][] = [
    ["CC", "C_3", "C_3", 1.53],
    ["CCC", "C_3", "C_3", 1.53],
    ["C1CCCCC1", "C_3", "C_3", 1.53],
    ["C=C", "C_2", "C_2", 1.33],
    ["c1ccccc1", "C_R", "C_R", 1.39],
    ["C", "C_3", "H_", 1.09],
    ["CO", "C_3", "O_3", 1.42],
    ["CC=O", "C_2", "O_2", 1.22],
    ["CN", "C_3", "N_3", 1.462],
  ];
  for (const [smiles, ta, tb, reference] of cases) {
    const c = generate3d(smiles);
    const { graph } = prepareMolecule(smiles, 200);
    let seen = 0;
    for (const b of graph.bonds) {
      const types = [c.atomTypes[b.a], c.atomTypes[b.b]];
      if (!(types.includes(ta) && types.includes(tb) && (ta !== tb || types[0] === types[1]))) continue;
      const r = distance(c.coordinates, b.a, b.b);
      assert.ok(Math.abs(r - reference) <= 0.03, `${smiles} ${ta}-${tb} ${r.toFixed(4)} vs ${reference}`);
      seen++;
    }
    assert.ok(seen > 0, smiles);
  }
});

test("sp3 carbon angles within 3° of 109.47° in methane, ethane, neopentane and cyclohexane, and of their θ0", () => {
  // MMFF94's structures, which the angle table follows, close cyclohexane's H–C–H to about 106.5°, so 109.47° is
  // held to 3.5° there; every angle sits within 1.5° of the force field's own θ0 (methane aside: its six
  // equivalent angles are 109.47° whatever θ0 says).
  for (const smiles of ["C", "CC", "CC(C)(C)C", "C1CCCCC1"]) {
    const c = generate3d(smiles);
    const { graph } = prepareMolecule(smiles, 200);
    graph.neighbors.forEach((nbrs, j) => {
      if (c.atomTypes[j] !== "C_3") return;
      for (let p = 0; p < nbrs.length; p++) {
        for (let q = p + 1; q < nbrs.length; q++) {
          const theta = angleDegrees(c.coordinates, nbrs[p]!, j, nbrs[q]!);
          const theta0 = naturalAngle(graph, c.atomTypes, nbrs[p]!, j, nbrs[q]!);
          assert.ok(Math.abs(theta - 109.471) <= 3.5, `${smiles} angle at ${j}: ${theta.toFixed(2)}°`);
          if (smiles === "C") continue;
          assert.ok(
            Math.abs(theta - theta0) <= 1.5,
            `${smiles} angle at ${j}: ${theta.toFixed(2)}° vs ${theta0}°`,
          );
        }
      }
    });
  }
});

test("three- and four-membered rings: their angles from the first stage, near 60° and 90°", () => {
  for (
    const [smiles, ring, size] of [["C1CC1", [0, 1, 2], 3], ["CC1CO1", [1, 2, 3], 3], [
      "C1CCC1",
      [0, 1, 2],
      4,
    ]] as const
  ) {
    const { graph } = prepareMolecule(smiles, 200);
    const types = assignTypes(graph);
    const theta0 = naturalAngle(graph, types, ring[0], ring[1], ring[2]);
    assert.ok(Math.abs(theta0 - (size === 3 ? 60 : 89)) < 3, `${smiles} θ0 ${theta0}`);
    const angle = angleDegrees(generate3d(smiles).coordinates, ring[0], ring[1], ring[2]);
    assert.ok(Math.abs(angle - theta0) < 3, `${smiles} ${angle}° vs θ0 ${theta0}°`);
  }
});

/** Sum of the three angles at a trivalent atom, degrees. */
function angleSum(x: Float64Array, nbrs: readonly number[], centre: number): number {
  const [a, b, c] = nbrs as [number, number, number];
  return angleDegrees(x, a, centre, b) + angleDegrees(x, b, centre, c) + angleDegrees(x, a, centre, c);
}

test("nitrogen planarity follows MMFF94's structures: amides planar, anilines not", () => {
  // [SMILES, nitrogen, its class, planar (angle sum ≥ 357°) or pyramidal (≤ 350°)]
  const cases = [
    ["CNC(C)=O", 1, "N_R(am) r0 [C_2 C_3 H_HB]", true], // secondary amide: MMFF94 356.5° over 51 N
    ["O=C1CCCN1", 5, "N_R(am) r5 [C_2 C_3 H_HB]", true], // γ-lactam
    ["Nc1ccccc1", 0, "N_R r0 [C_R* H_HB H_HB]", false], // aniline: MMFF94 338.7°
    // Antipyrine's N-methyl: pyramidal in MMFF94, which does not call the ring aromatic; its class is told apart,
    // but the aromatic ring's torsions still hold it flat here (docs/validation.md).
    ["CN1N(c2ccccc2)C(=O)C=C1C", 1, "N_R(ar=) r5 [C_3 C_R* N_R*]", null],
    ["CN1N(c2ccccc2)C(=O)C=C1C", 2, "N_R(ar=am) r5 [C_R* C_R* N_R*]", true], // its N-phenyl, next to C=O
    ["c1cc[nH]c1", 3, "N_R(ar) r5 [C_R* C_R* H_HB]", true], // pyrrole
  ] as const;
  for (const [smiles, n, key, planar] of cases) {
    const c = generate3d(smiles);
    const types = [...c.atomTypes];
    assert.equal(nitrogenKey(c.graph, types, n), key, smiles);
    if (planar === null) continue;
    const sum = angleSum(c.coordinates, c.graph.neighbors[n]!, n);
    assert.ok(planar ? sum >= 357 : sum <= 350, `${smiles} N${n}: angle sum ${sum.toFixed(1)}°`);
  }
});

test("open angles at a three- or four-membered ring atom have their own classes and open wide", () => {
  // Acryloyl azetidine: the amide N's exocyclic C–N–C angles, about 131° in MMFF94's structures.
  const c = generate3d("C=CC(=O)N1CCC1");
  const types = [...c.atomTypes];
  assert.equal(angleKeys(c.graph, types, 2, 4, 5)[1], "C_2 N_R(am) C_3 r0@4");
  assert.equal(angleKeys(c.graph, types, 5, 4, 7)[1], "C_3 N_R(am) C_3 r4");
  const exo = angleDegrees(c.coordinates, 2, 4, 5);
  assert.ok(exo > 125, `exocyclic C–N–C ${exo.toFixed(1)}°`);
  // Methylcyclopropane's exocyclic C–C–C: about 119°, not the tetrahedral 109.5°.
  const m = generate3d("CC1CC1");
  assert.ok(angleDegrees(m.coordinates, 0, 1, 2) > 115, "methylcyclopropane's exocyclic angle");
});

test("cyclohexane is a chair and benzene is planar", () => {
  const chair = generate3d("C1CCCCC1");
  const t = [0, 1, 2, 3, 4, 5].map((i) =>
    (dihedral(chair.coordinates, i, (i + 1) % 6, (i + 2) % 6, (i + 3) % 6) * 180) / Math.PI
  );
  for (let i = 0; i < 6; i++) {
    assert.ok(Math.abs(Math.abs(t[i]!) - 55) < 10, `ring torsion ${t[i]}`);
    assert.ok(Math.sign(t[i]!) !== Math.sign(t[(i + 1) % 6]!), "chair torsions alternate in sign");
  }
  const benzene = generate3d("c1ccccc1");
  for (let i = 0; i < 6; i++) {
    const phi = dihedral(benzene.coordinates, i, (i + 1) % 6, (i + 2) % 6, (i + 3) % 6);
    assert.ok(Math.abs(phi) < 0.02, `benzene ring torsion ${phi}`);
  }
});

test("stereochemistry read back from the 3D structure by RDKit matches the SMILES", () => {
  const cases: [string, string][] = [
    ["F[C@H](Cl)Br", '{"CIP_atoms":[[1,"(R)"]],"CIP_bonds":[]}'],
    ["F[C@@H](Cl)Br", '{"CIP_atoms":[[1,"(S)"]],"CIP_bonds":[]}'],
    ["[C@@H](F)(Cl)Br", '{"CIP_atoms":[[0,"(R)"]],"CIP_bonds":[]}'],
    ["C[C@H](N)C(=O)O", '{"CIP_atoms":[[1,"(S)"]],"CIP_bonds":[]}'],
    ["C[S@](=O)CC", '{"CIP_atoms":[[1,"(S)"]],"CIP_bonds":[]}'],
    ["C/C=C/C", '{"CIP_atoms":[],"CIP_bonds":[[1,2,"(E)"]]}'],
    ["C/C=C\\C", '{"CIP_atoms":[],"CIP_bonds":[[1,2,"(Z)"]]}'],
    ["C1CCC/C=C/CC1", '{"CIP_atoms":[],"CIP_bonds":[[4,5,"(E)"]]}'],
    ["[2H][C@@H](F)Cl", '{"CIP_atoms":[[1,"(S)"]],"CIP_bonds":[]}'],
  ];
  for (const [smiles, tags] of cases) {
    const c = generate3d(smiles);
    const { graph } = prepareMolecule(smiles, 200);
    const mol = rdkit().get_mol(toMolBlock(graph, c.coordinates), JSON.stringify({ removeHs: false }));
    assert.ok(mol);
    try {
      assert.equal(mol.get_stereo_tags(), tags, smiles);
    } finally {
      mol.delete();
    }
  }
});

test("ring cis/trans without CIP labels: cis- and trans-1,4-dimethylcyclohexane and decalins round-trip", () => {
  for (
    const smiles of [
      "C[C@H]1CC[C@@H](C)CC1",
      "C[C@H]1CC[C@H](C)CC1",
      "[C@@H]12CCCC[C@H]1CCCC2",
      "[C@@H]12CCCC[C@@H]1CCCC2",
    ]
  ) {
    const c = generate3d(smiles);
    const { graph } = prepareMolecule(smiles, 200);
    const mol = rdkit().get_mol(toMolBlock(graph, c.coordinates), JSON.stringify({ removeHs: false }))!;
    const expected = rdkit().get_mol(smiles)!;
    try {
      mol.remove_hs_in_place();
      assert.equal(mol.get_smiles(), expected.get_smiles(), smiles);
    } finally {
      mol.delete();
      expected.delete();
    }
    for (const t of stereoTargets(graph).tetrahedral) {
      assert.ok(
        t.sign * signedVolume(c.coordinates, t.apex, ...t.atoms) > 0.05,
        `${smiles} centre ${t.centre}`,
      );
    }
  }
});

test("XYZ text: count line, comment with SMILES and energy, element and x y z with 4 decimals", () => {
  const c = generate3d("O");
  const lines = c.xyz.trimEnd().split("\n");
  assert.equal(lines[0], "3");
  assert.match(lines[1]!, /^O E=-?\d+\.\d{4} kcal\/mol \(DREIDING\)$/);
  assert.equal(lines.length, 5);
  for (const line of lines.slice(2)) assert.match(line, /^[A-Z][a-z]?\s+(-?\d+\.\d{4}\s*){3}$/);
  assert.deepEqual(lines.slice(2).map((l) => l.split(/\s+/)[0]), ["O", "H", "H"]);
  assert.equal(
    toXyz(["H"], new Float64Array([-0.00001, 0, 1]), "a\nb"),
    "1\na b\nH      0.0000    0.0000    1.0000\n",
  );
  // Water: O–H 0.98 Å (0.660 + 0.330 − 0.01) and H–O–H near its θ0.
  assert.ok(Math.abs(distance(c.coordinates, 0, 1) - 0.98) < 0.01);
  const { graph } = prepareMolecule("O", 200);
  assert.ok(Math.abs(angleDegrees(c.coordinates, 1, 0, 2) - naturalAngle(graph, c.atomTypes, 1, 0, 2)) < 2);
});

test("energy: reported value equals the DREIDING energy of the returned coordinates and the trace is monotone", () => {
  const smiles = "CC(=O)Oc1ccccc1C(=O)O";
  const c = generate3d(smiles);
  const ff = forceField(smiles);
  assert.ok(Math.abs(dreidingEnergy(ff, c.coordinates) - c.energy) < 1e-9);
  assert.equal(c.energyTrace.at(-1), c.energy);
  for (let i = 1; i < c.energyTrace.length; i++) assert.ok(c.energyTrace[i]! <= c.energyTrace[i - 1]!);
  const t = c.energyTerms;
  const sum = t.bond + t.angle + t.torsion + t.inversion + t.van_der_waals + t.electrostatic;
  assert.ok(Math.abs(sum - t.total) < 1e-9);
  // Aspirin's carbonyl and hydroxyl charges attract more than like charges repel in this conformation.
  assert.ok(t.electrostatic < 0, `electrostatic ${t.electrostatic}`);
  assert.ok(c.converged && c.rmsGradient < 0.01);
});

test("deterministic: the same SMILES gives the same coordinates", () => {
  for (
    const smiles of [
      "CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O",
      "CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)O)O[C@H]3[C@H](C=C4)O",
    ]
  ) {
    assert.equal(generate3d(smiles).xyz, generate3d(smiles).xyz);
  }
});

test("bounds and failures are typed errors", () => {
  assert.throws(() => generate3d("C1CC"), isCode("INVALID_SMILES"));
  assert.throws(() => generate3d("C".repeat(MAX_3D_HEAVY_ATOMS + 1)), isCode("MOLECULE_TOO_LARGE"));
  assert.throws(() => generate3d("C[Pt]C"), isCode("UNSUPPORTED_MOLECULE"));
  // A clock that jumps 1 s per reading exceeds a 5 s limit within the first stage.
  let t = 0;
  assert.throws(
    () => generate3d("CCCCCCCC", { timeLimitMs: 5000, now: () => (t += 1000) }),
    (e: unknown) =>
      e instanceof ChemError && e.code === "COMPUTATION_TIMEOUT" && e.details?.limit_ms === 5000,
  );
  // The clock is read right after the 2D layout: a layout that outlasts the limit is answered there.
  let reads = 0;
  assert.throws(
    () => generate3d("CCO", { timeLimitMs: 1000, now: () => (reads++ === 0 ? 0 : 2000) }),
    (e: unknown) => e instanceof ChemError && e.code === "COMPUTATION_TIMEOUT" && reads === 2,
  );
  // (1R,4S)-"camphor": both bridgeheads of a bicyclo[2.2.1]heptane cannot point their bridge opposite ways.
  assert.throws(() => generate3d("CC1([C@@H]2CC[C@@]1(C(=O)C2)C)C"), isCode("EMBEDDING_FAILED"));
});

test("a 38-membered ring (34 s in CoordGen's layout) is answered well within the time limit", () => {
  const started = Date.now();
  const c = generate3d(`C1${"C".repeat(36)}C1`);
  assert.equal(c.heavyAtomCount, 38);
  assert.ok(c.converged);
  // Generous: the feature is the time limit (20 s); the structure takes well under a second on one core.
  assert.ok(Date.now() - started < DEFAULT_TIME_LIMIT_MS / 4, `${Date.now() - started} ms`);
});

test("an iteration cap stops the minimisation early and says it did not converge", () => {
  const c = generate3d("CCCCCCCCCC", { maxIterations: 3 });
  assert.equal(c.iterations, 3);
  assert.equal(c.converged, false);
  assert.ok(c.rmsGradient >= 0.01);
});

test("salts and ions: fragments stay apart; the 200-heavy-atom limit is accepted", () => {
  const salt = generate3d("[Na+].[O-]C(=O)C1=CC=CC=C1");
  assert.equal(salt.atomCount, 15);
  for (let i = 1; i < salt.atomCount; i++) assert.ok(distance(salt.coordinates, 0, i) > 2.2);
  const big = generate3d("C".repeat(MAX_3D_HEAVY_ATOMS));
  assert.equal(big.heavyAtomCount, MAX_3D_HEAVY_ATOMS);
  assert.ok(big.converged);
});
