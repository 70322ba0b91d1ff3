import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { minimumNormLeastSquares, ridge } from "../../src/chem/free_wilson_solve.ts";
import { fitFreeWilson, predictFreeWilson } from "../../src/chem/free_wilson.ts";
import { decompose, MAX_CORE_MATCHES } from "../../src/chem/rgroup.ts";
import { rgroupDecomposeTool } from "../../src/tools/rgroup_decompose.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

const f = (...x: number[]) => Float64Array.from(x);
const close = (a: ArrayLike<number>, b: readonly number[], tol = 1e-12) =>
  assert.ok(b.every((e, i) => Math.abs(a[i]! - e) <= tol), `${Array.from(a)} vs ${b}`);
const code = (c: string) => (e: unknown) => e instanceof ChemError && e.code === c;
const call = (args: Record<string, unknown>) =>
  rgroupDecomposeTool.run(v.parse(rgroupDecomposeTool.input, args));

test("minimum-norm least squares: numpy lstsq's solution of a rank-deficient system", () => {
  // [1 | a | b | d] with a + b = 1: rank 3 of 4; numpy.linalg.lstsq gives these four numbers.
  const x = minimumNormLeastSquares(
    [f(1, 1, 1, 1), f(1, 0, 1, 0), f(0, 1, 0, 1), f(1, 1, 0, 0)],
    f(1, 2, 3, 5),
  );
  close(x, [8 / 3, 7 / 12, 25 / 12, -2.5]);
  // A full-rank, overdetermined system: the ordinary least-squares line y = 1 + 2x through noisy points.
  const line = minimumNormLeastSquares([f(1, 1, 1, 1), f(0, 1, 2, 3)], f(1.1, 2.9, 5.1, 6.9));
  close(line, [1.06, 1.96]);
});

test("ridge: scikit-learn's closed form with an unpenalised intercept", () => {
  // One centred column [-0.5, 0.5], y centred [-1, 1]: β = 1 / (0.5 + 1), intercept = 1 − 0.5 β.
  const { intercept, coefficients } = ridge([f(0, 1)], f(0, 2), 1);
  close(coefficients, [2 / 3]);
  assert.ok(Math.abs(intercept - 2 / 3) < 1e-12);
});

test("Free–Wilson: an additive series is fitted exactly, and a substituent outside the table has no prediction", () => {
  const columns = ["R1", "R2"];
  const rows = [["C", "F"], ["C", "Cl"], ["O", "F"], ["O", "Cl"], ["N", "F"]];
  const value = (r: string[]) => 5 + ({ C: 0, O: 1, N: 2 }[r[0]!] ?? 0) + (r[1] === "Cl" ? 0.5 : 0);
  const fit = fitFreeWilson(columns, rows, rows.map(value), "ols");
  assert.ok(Math.abs(fit.r2 - 1) < 1e-12);
  assert.ok(fit.residuals.every((e) => Math.abs(e) < 1e-12));
  const p = predictFreeWilson(fit, columns, ["N", "Cl"]);
  assert.ok("value" in p && Math.abs(p.value - 7.5) < 1e-12);
  assert.deepEqual(predictFreeWilson(fit, columns, ["S", "F"]), {
    reason: "R1 'S' is not in the training table",
  });
  // Ridge shrinks: the same table fits less than exactly.
  assert.ok(fitFreeWilson(columns, rows, rows.map(value), "ridge", 1).r2 < 0.99);
});

test("rgroup_decompose: RDKit's rows as a table, unmatched indices, the fit and predictions with reasons", async () => {
  const r = await call({
    smiles_list: ["c1ccccc1C", "c1ccccc1CC", "Oc1ccccc1C", "Oc1ccccc1CC", "Nc1ccccc1C", "CCC"],
    core: "c1ccccc1",
    values: [1, 2, 3, 4.5, 5, 9],
    predict: ["Nc1ccccc1CC", "Sc1ccccc1C", "CCCC", "C1CC"],
  });
  // The core, equal in every row, is said once.
  assert.deepEqual(r.same, { Core: "c1ccc([*:2])c([*:1])c1" });
  assert.deepEqual(r.columns, ["index", "R1", "R2", "residual"]);
  assert.deepEqual(r.rows[1]!.slice(0, 3), [1, "[H][*:1]", "CC[*:2]"]);
  assert.deepEqual(r.unmatched, [5]);
  assert.equal(r.core_from_mcs, false);
  assert.equal(r.fit!.molecules, 5);
  // Residuals are the table's last column, observed minus fitted.
  assert.ok(r.rows.every((row) => Math.abs(row.at(-1) as number) < 0.2));
  assert.ok(r.fit!.r2 > 0.99);
  assert.equal(r.predictions![0]!.value, 6.25);
  assert.match(r.predictions![1]!.reason!, /R1 'S\[\*:1\]' is not in the training table/);
  assert.equal(r.predictions![2]!.reason, "no core match");
  assert.match(r.predictions![3]!.reason!, /unclosed ring/);
});

test("rgroup_decompose without a core takes the series' MCS and says so", async () => {
  const r = await call({ smiles_list: ["c1ccncc1CC", "c1ccncc1CCO", "c1ccncc1C(C)C"] });
  assert.equal(r.core_from_mcs, true);
  assert.equal(r.rows.length, 3);
  assert.equal(r.unmatched.length, 0);
});

test("a fit with fewer than two matched molecules is refused with a typed error", async () => {
  await assert.rejects(
    async () => await call({ smiles_list: ["c1ccccc1C", "CCC"], core: "c1ccccc1", values: [1, 2] }),
    code("NO_COMMON_SUBSTRUCTURE"),
  );
});

test("arguments: values one per molecule, predict only with values", () => {
  assert.equal(
    v.safeParse(rgroupDecomposeTool.input, { smiles_list: ["CC", "CO"], values: [1] }).success,
    false,
  );
  assert.equal(
    v.safeParse(rgroupDecomposeTool.input, { smiles_list: ["CC"], predict: ["CO"] }).success,
    false,
  );
  assert.throws(() => decompose(["CC"], ["C1CC"], { deadline: Date.now() + 5_000 }), code("INVALID_SMARTS"));
});

test("hostile cores are refused or stopped with a typed error: 40 wildcards, thousands of symmetric matches, time", () => {
  let t = Date.now();
  assert.throws(
    () => decompose(["CCCC"], ["*".repeat(40)], { deadline: Date.now() + 5_000 }),
    code("MOLECULE_TOO_LARGE"),
  );
  // Neopentyl on a chain of 50 quaternary carbons: 24 automorphisms at each.
  const many = "C" + "C(C)(C)".repeat(50) + "C";
  assert.throws(
    () => decompose([many], ["CC(C)(C)C"], { deadline: Date.now() + 5_000 }),
    (e: unknown) => code("MOLECULE_TOO_LARGE")(e) && (e as ChemError).details?.limit === MAX_CORE_MATCHES,
  );
  assert.ok(Date.now() - t < 5_000, `refusals took ${Date.now() - t} ms`);
  // Six unlabelled wildcards on branched alkanes: each molecule takes RDKit a fraction of a second.
  t = Date.now();
  const branched = "C" + "C(C)(C)".repeat(15) + "C";
  assert.throws(
    () => decompose(Array(200).fill(branched), ["******"], { deadline: Date.now() + 1_000 }),
    code("COMPUTATION_TIMEOUT"),
  );
  // One molecule past the deadline at most (about a second on a quiet machine), wide margin for a busy one.
  assert.ok(Date.now() - t < 15_000, `stopped after ${Date.now() - t} ms`);
});
