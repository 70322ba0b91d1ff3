/**
 * Limited-memory BFGS minimiser (Liu & Nocedal, Math. Program. 1989, 45, 503, doi:10.1007/BF01589116) with a
 * backtracking line search that accepts a step only under the Armijo sufficient-decrease condition, so the energy
 * never rises from one accepted step to the next. Steps are capped per atom so a steep start (overlapping atoms)
 * cannot throw atoms across the molecule.
 *
 * @module
 */

/** Objective: returns the value at `x` and writes the gradient into `grad`. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

/** Minimiser settings. */
export interface MinimizeOptions {
  /** Upper bound on accepted steps. */
  readonly maxIterations: number;
  /** Converged when the RMS of the gradient components drops below this (kcal/mol/Å). */
  readonly rmsGradientTolerance: number;
  /** Largest displacement of any atom in one step, Å. */
  readonly maxAtomStep?: number;
  /** Coordinates per atom (3, or 4 for a four-dimensional relaxation); used by the step cap. */
  readonly dimension?: number;
  /** Number of correction pairs kept. */
  readonly memory?: number;
  /** Called once per iteration; may throw to abort (e.g. a time limit). */
  readonly onIteration?: (iteration: number) => void;
}

/** Outcome of a minimisation. */
export interface MinimizeResult {
  /** Final coordinates (a new array). */
  readonly x: Float64Array;
  /** Objective at `x`. */
  readonly value: number;
  /** Accepted steps taken. */
  readonly iterations: number;
  /** True when the RMS gradient criterion was met. */
  readonly converged: boolean;
  /** RMS of the gradient components at `x`. */
  readonly rmsGradient: number;
  /** Largest gradient component magnitude at `x`. */
  readonly maxGradient: number;
  /** Objective after each accepted step, starting with the initial value (non-increasing). */
  readonly trace: readonly number[];
}

const ARMIJO_C1 = 1e-4;
const MAX_BACKTRACKS = 30;

/**
 * Minimises `f` from `x0` by L-BFGS.
 *
 * @example
 * ```ts
 * const r = minimize((x, g) => { g[0] = 2 * x[0]; return x[0] * x[0]; }, new Float64Array([3]),
 *   { maxIterations: 100, rmsGradientTolerance: 1e-8 });
 * r.x[0]; // ≈ 0
 * ```
 */
export function minimize(f: Objective, x0: Float64Array, options: MinimizeOptions): MinimizeResult {
  const n = x0.length;
  const m = options.memory ?? 10;
  const maxAtomStep = options.maxAtomStep ?? 0.3;
  const dimension = options.dimension ?? 3;
  let x = Float64Array.from(x0);
  let g = new Float64Array(n);
  let value = f(x, g);
  const trace = [value];
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const d = new Float64Array(n);
  let xNew = new Float64Array(n);
  let gNew = new Float64Array(n);
  let iterations = 0;
  let rms = rmsOf(g);
  while (iterations < options.maxIterations && rms >= options.rmsGradientTolerance) {
    options.onIteration?.(iterations);
    direction(g, s, y, rho, d);
    let slope = dot(g, d);
    if (!(slope < 0)) {
      s.length = y.length = rho.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      slope = dot(g, d);
    }
    slope *= capStep(d, maxAtomStep, dimension);
    let step = 1;
    let accepted = false;
    let next = value;
    for (let k = 0; k < MAX_BACKTRACKS; k++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * d[i]!;
      next = f(xNew, gNew);
      if (Number.isFinite(next) && next <= value + ARMIJO_C1 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) {
      if (s.length === 0) break; // not even a steepest-descent step lowers f: numerical floor reached
      s.length = y.length = rho.length = 0;
      continue;
    }
    remember(s, y, rho, m, xNew, x, gNew, g);
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    value = next;
    trace.push(value);
    iterations++;
    rms = rmsOf(g);
  }
  return {
    x,
    value,
    iterations,
    converged: rms < options.rmsGradientTolerance,
    rmsGradient: rms,
    maxGradient: g.reduce((a, b) => Math.max(a, Math.abs(b)), 0),
    trace,
  };
}

/** Two-loop recursion: d = −H·g with the stored pairs, newest last. */
function direction(
  g: Float64Array,
  s: Float64Array[],
  y: Float64Array[],
  rho: number[],
  d: Float64Array,
): void {
  const k = s.length;
  for (let i = 0; i < d.length; i++) d[i] = -g[i]!;
  const alpha = new Array<number>(k);
  for (let j = k - 1; j >= 0; j--) {
    const a = rho[j]! * dot(s[j]!, d);
    alpha[j] = a;
    axpy(-a, y[j]!, d);
  }
  if (k > 0) {
    const yy = dot(y[k - 1]!, y[k - 1]!);
    const gamma = yy > 0 ? 1 / (rho[k - 1]! * yy) : 1;
    for (let i = 0; i < d.length; i++) d[i] = d[i]! * gamma;
  }
  for (let j = 0; j < k; j++) {
    const b = rho[j]! * dot(y[j]!, d);
    axpy(alpha[j]! - b, s[j]!, d);
  }
}

/** Stores a correction pair when it keeps the inverse-Hessian estimate positive definite. */
function remember(
  s: Float64Array[],
  y: Float64Array[],
  rho: number[],
  m: number,
  xNew: Float64Array,
  x: Float64Array,
  gNew: Float64Array,
  g: Float64Array,
): void {
  const reuse = s.length >= m;
  const sv = reuse ? s.shift()! : new Float64Array(x.length);
  const yv = reuse ? y.shift()! : new Float64Array(x.length);
  if (reuse) rho.shift();
  for (let i = 0; i < x.length; i++) {
    sv[i] = xNew[i]! - x[i]!;
    yv[i] = gNew[i]! - g[i]!;
  }
  const sy = dot(sv, yv);
  if (sy > 1e-10) {
    s.push(sv);
    y.push(yv);
    rho.push(1 / sy);
  }
}

/** Scales `d` so no atom moves more than `max` Å; returns the factor applied. */
function capStep(d: Float64Array, max: number, dimension: number): number {
  let largest = 0;
  for (let i = 0; i < d.length; i += dimension) {
    let sq = 0;
    for (let k = 0; k < dimension; k++) sq += (d[i + k] ?? 0) ** 2;
    if (sq > largest) largest = sq;
  }
  largest = Math.sqrt(largest);
  if (largest <= max) return 1;
  const factor = max / largest;
  for (let i = 0; i < d.length; i++) d[i] = d[i]! * factor;
  return factor;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + a * x[i]!;
}

/**
 * Root mean square of the components.
 *
 * @example
 * ```ts
 * rmsOf(new Float64Array([3, 4])); // 3.5355…
 * ```
 */
export function rmsOf(g: Float64Array): number {
  if (g.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < g.length; i++) sum += g[i]! * g[i]!;
  return Math.sqrt(sum / g.length);
}
