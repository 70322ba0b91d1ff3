/**
 * The Free–Wilson model (Free & Wilson, J. Med. Chem. 1964, 7, 395, doi:10.1021/jm00334a001): a molecule's
 * activity is a constant plus one additive contribution per substituent at each position of a common core. The
 * table is an R-group decomposition (src/chem/rgroup.ts); each distinct SMILES of each column, the core column
 * included as RDKit Contrib's FWDecompose includes it, is one 0/1 indicator. Two fits:
 *
 * - `ols`: least squares on [1 | indicators], the minimum-norm solution where the table leaves the split between
 *   the constant and the contributions open (each position's indicators sum to one): the classic model;
 * - `ridge`: scikit-learn's Ridge(alpha) on the indicators with an unpenalised intercept, as FWDecompose fits it
 *   (alpha 1).
 *
 * @module
 */
import { minimumNormLeastSquares, ridge } from "./free_wilson_solve.ts";

/** The fitted model. */
export interface FreeWilsonFit {
  readonly method: "ols" | "ridge";
  readonly intercept: number;
  /** Per column, per substituent SMILES, its contribution. */
  readonly contributions: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Coefficient of determination on the training rows (scikit-learn's r2_score). */
  readonly r2: number;
  /** Observed minus fitted, per training row. */
  readonly residuals: readonly number[];
}

/** One training row: its substituent per column (null where the molecule has none there). */
export type TableRow = readonly (string | null)[];

/** Indicator columns in table order: column, then substituents in order of first appearance. */
function features(
  columns: readonly string[],
  rows: readonly TableRow[],
): { column: number; smiles: string }[] {
  const out: { column: number; smiles: string }[] = [];
  const seen = new Set<string>();
  columns.forEach((_, c) => {
    for (const row of rows) {
      const smiles = row[c];
      if (smiles != null && !seen.has(`${c}\u0000${smiles}`)) {
        seen.add(`${c}\u0000${smiles}`);
        out.push({ column: c, smiles });
      }
    }
  });
  return out;
}

/**
 * Fits the Free–Wilson model to `rows` (one per molecule, substituents in `columns`' order) and their `values`.
 *
 * @example
 * ```ts
 * const fit = fitFreeWilson(["R1"], [["C[*:1]"], ["O[*:1]"]], [1, 3], "ols");
 * fit.intercept + fit.contributions.R1!["O[*:1]"]!; // 3
 * ```
 */
export function fitFreeWilson(
  columns: readonly string[],
  rows: readonly TableRow[],
  values: readonly number[],
  method: "ols" | "ridge",
  alpha = 1,
): FreeWilsonFit {
  const y = Float64Array.from(values);
  const list = features(columns, rows);
  const indicators = list.map(({ column, smiles }) =>
    Float64Array.from(rows, (row) => row[column] === smiles ? 1 : 0)
  );
  let intercept: number;
  let coefficients: Float64Array;
  if (method === "ridge") {
    ({ intercept, coefficients } = ridge(indicators, y, alpha));
  } else {
    const x = minimumNormLeastSquares([new Float64Array(rows.length).fill(1), ...indicators], y);
    intercept = x[0]!;
    coefficients = x.subarray(1);
  }
  const contributions: Record<string, Record<string, number>> = {};
  list.forEach(({ column, smiles }, j) => {
    (contributions[columns[column]!] ??= {})[smiles] = coefficients[j]!;
  });
  const fitted = rows.map((_, r) =>
    indicators.reduce((s, col, j) => s + col[r]! * coefficients[j]!, intercept)
  );
  const residuals = values.map((v, r) => v - fitted[r]!);
  return { method, intercept, contributions, r2: rSquared(values, residuals), residuals };
}

/** 1 − SS_res / SS_tot; for constant values 1 when fitted exactly, else 0 (as scikit-learn's r2_score). */
function rSquared(values: readonly number[], residuals: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const total = values.reduce((s, v) => s + (v - mean) ** 2, 0);
  const residual = residuals.reduce((s, e) => s + e * e, 0);
  if (total === 0) return residual === 0 ? 1 : 0;
  return 1 - residual / total;
}

/**
 * The model's value for a decomposed molecule, or why there is none: a substituent the training table does not
 * hold has no contribution to add.
 *
 * @example
 * ```ts
 * predictFreeWilson(fit, ["R1"], ["N[*:1]"]); // { reason: "R1 'N[*:1]' is not in the training table" }
 * ```
 */
export function predictFreeWilson(
  fit: FreeWilsonFit,
  columns: readonly string[],
  row: TableRow,
): { value: number } | { reason: string } {
  let value = fit.intercept;
  for (const [c, smiles] of row.entries()) {
    if (smiles == null) continue;
    const column = columns[c]!;
    const contribution = fit.contributions[column]?.[smiles];
    if (contribution === undefined) return { reason: `${column} '${smiles}' is not in the training table` };
    value += contribution;
  }
  return { value };
}
