/**
 * The two least-squares solves behind the Free–Wilson fit, for dense matrices of up to a few thousand columns:
 * the minimum-norm least-squares solution by a complete orthogonal decomposition (Householder QR with column
 * pivoting, then an unpivoted QR of the leading rows' transpose; Golub & Van Loan, Matrix Computations, 4th ed.
 * 2013, §5.4.2 and §5.5), and ridge regression in closed form by a Cholesky factorisation.
 *
 * @module
 */

/**
 * Relative size below which a pivot of the QR factorisation counts as zero: the rank cut-off. A pivoted QR's
 * diagonal tracks the singular values within a modest factor, and a Free–Wilson indicator matrix is either
 * exactly rank deficient (pivots near 1e-15 of the first) or well conditioned, so the cut-off sits between.
 */
const RANK_TOLERANCE = 1e-10;

/** One Householder reflector I − β v vᵀ acting on entries `k` onward. */
interface Reflector {
  readonly k: number;
  readonly v: Float64Array;
  readonly beta: number;
}

function tailNorm2(col: Float64Array, k: number): number {
  let s = 0;
  for (let i = k; i < col.length; i++) s += col[i]! * col[i]!;
  return s;
}

function reflect(r: Reflector, x: Float64Array): void {
  let dot = 0;
  for (let i = 0; i < r.v.length; i++) dot += r.v[i]! * x[r.k + i]!;
  const s = r.beta * dot;
  for (let i = 0; i < r.v.length; i++) x[r.k + i] = x[r.k + i]! - s * r.v[i]!;
}

/**
 * Householder QR of `cols` (each a column of length m), in place: afterwards column j holds R's column j on and
 * above the diagonal. With `pivot`, the column of largest remaining norm is taken at each step (the column order
 * is returned) and the factorisation stops at the numerical rank.
 */
function factor(
  cols: Float64Array[],
  pivot: boolean,
): { rank: number; order: number[]; reflectors: Reflector[] } {
  const m = cols[0]?.length ?? 0;
  const n = cols.length;
  const order = Array.from({ length: n }, (_, j) => j);
  const reflectors: Reflector[] = [];
  let first = 0;
  for (let k = 0; k < Math.min(m, n); k++) {
    if (pivot) {
      let best = k;
      let bestNorm = -1;
      for (let j = k; j < n; j++) {
        const norm = tailNorm2(cols[j]!, k);
        if (norm > bestNorm) [best, bestNorm] = [j, norm];
      }
      [cols[k], cols[best]] = [cols[best]!, cols[k]!];
      [order[k], order[best]] = [order[best]!, order[k]!];
      if (k === 0) first = Math.sqrt(bestNorm);
      if (Math.sqrt(bestNorm) <= RANK_TOLERANCE * first) return { rank: k, order, reflectors };
    }
    const x = cols[k]!;
    const norm = Math.sqrt(tailNorm2(x, k));
    const alpha = x[k]! >= 0 ? -norm : norm;
    const v = x.slice(k);
    v[0] = v[0]! - alpha;
    let vv = 0;
    for (const e of v) vv += e * e;
    const r = { k, v, beta: vv === 0 ? 0 : 2 / vv };
    for (let j = k + 1; j < n; j++) reflect(r, cols[j]!);
    x[k] = alpha;
    x.fill(0, k + 1);
    reflectors.push(r);
  }
  return { rank: Math.min(m, n), order, reflectors };
}

/**
 * The x of least Euclidean norm among those minimising ‖A x − y‖, with A given by its columns (each of y's
 * length): what numpy's `lstsq` returns, by way of a complete orthogonal decomposition instead of the SVD.
 *
 * @example
 * ```ts
 * // Two equal columns share the weight: x = [0.5, 0.5].
 * minimumNormLeastSquares([new Float64Array([1, 1]), new Float64Array([1, 1])], new Float64Array([1, 1]));
 * ```
 */
export function minimumNormLeastSquares(columns: readonly Float64Array[], y: Float64Array): Float64Array {
  const n = columns.length;
  const cols = columns.map((c) => c.slice());
  const { rank, order, reflectors } = factor(cols, true);
  const c = y.slice();
  for (const r of reflectors) reflect(r, c);
  // The leading rank rows of R, transposed (n × rank), factored again: Rᵀ = Q₂R₂, so R = R₂ᵀQ₂ᵀ.
  const transposed = Array.from({ length: rank }, (_, i) => Float64Array.from(cols, (col) => col[i]!));
  const second = factor(transposed, false);
  // R₂ᵀ u = c (forward substitution); then w = Q₂ [u; 0] is the least-norm solution of R w = c.
  const w = new Float64Array(n);
  for (let i = 0; i < rank; i++) {
    let s = c[i]!;
    for (let j = 0; j < i; j++) s -= transposed[i]![j]! * w[j]!;
    w[i] = s / transposed[i]![i]!;
  }
  for (const r of [...second.reflectors].reverse()) reflect(r, w);
  const x = new Float64Array(n);
  order.forEach((column, j) => (x[column] = w[j]!));
  return x;
}

/**
 * Ridge regression with an unpenalised intercept, as scikit-learn's `Ridge(alpha)`: the columns and y centred,
 * then (XᵀX + αI) β = Xᵀy solved by Cholesky; the intercept is ȳ − x̄·β.
 *
 * @example
 * ```ts
 * ridge([new Float64Array([0, 1])], new Float64Array([0, 2]), 1).coefficients[0]; // 2 × 0.5 / (0.5 + 1) ≈ 0.667
 * ```
 */
export function ridge(
  columns: readonly Float64Array[],
  y: Float64Array,
  alpha: number,
): { intercept: number; coefficients: Float64Array } {
  const p = columns.length;
  const m = y.length;
  const mean = (v: Float64Array) => v.reduce((s, e) => s + e, 0) / m;
  const yMean = mean(y);
  const means = columns.map(mean);
  const centred = columns.map((col, j) => col.map((e) => e - means[j]!));
  const yc = y.map((e) => e - yMean);
  const g = new Float64Array(p * p);
  const b = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    const ci = centred[i]!;
    for (let j = 0; j <= i; j++) {
      const cj = centred[j]!;
      let s = 0;
      for (let r = 0; r < m; r++) s += ci[r]! * cj[r]!;
      g[i * p + j] = s + (i === j ? alpha : 0);
    }
    let s = 0;
    for (let r = 0; r < m; r++) s += ci[r]! * yc[r]!;
    b[i] = s;
  }
  const beta = choleskySolve(g, b, p);
  const intercept = yMean - means.reduce((s, mu, j) => s + mu * beta[j]!, 0);
  return { intercept, coefficients: beta };
}

/** Solves G x = b for a symmetric positive definite G given by its lower triangle (row-major, p × p). */
function choleskySolve(g: Float64Array, b: Float64Array, p: number): Float64Array {
  const l = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let s = g[i * p + j]!;
      for (let k = 0; k < j; k++) s -= l[i * p + k]! * l[j * p + k]!;
      l[i * p + j] = i === j ? Math.sqrt(s) : s / l[j * p + j]!;
    }
  }
  const z = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * p + k]! * z[k]!;
    z[i] = s / l[i * p + i]!;
  }
  const x = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < p; k++) s -= l[k * p + i]! * x[k]!;
    x[i] = s / l[i * p + i]!;
  }
  return x;
}
