/**
 * The staged construction of one structure and the retry policy around it:
 *
 * 1. rule-based placement (./placement.ts);
 * 2. four-dimensional relaxation with distance springs and stereo restraints (./embed4d.ts);
 * 3. restrained set-up minimisation in 3D: DREIDING bonded terms plus stereo restraints and a soft repulsion
 *    (./restraints.ts);
 * 4. unrestrained DREIDING minimisation, whose result is reported;
 * 5. checks: every stereo element as the SMILES says (./stereo.ts) and no tangle (./quality.ts).
 *
 * An attempt failing step 5 is repeated from a start that really differs: another deterministic seed, every atom
 * of the placement moved by up to {@link RETRY_SHAKE} Å per earlier attempt and a wider spread in the fourth
 * dimension, so a retry does not slide back into the basin that failed; among attempts with correct
 * stereochemistry the lowest DREIDING energy wins. When the time limit strikes during a retry, the best finished
 * attempt is returned instead of the timeout error.
 *
 * @module
 */
import { angleEnergy, bondEnergy, dreidingEnergy, inversionEnergy, torsionEnergy } from "./energy.ts";
import { ChemError } from "../../errors.ts";
import { type Embed4dModel, embed4dModel, relax4d } from "./embed4d.ts";
import type { ForceField } from "./forcefield.ts";
import type { MolGraph } from "./graph.ts";
import { minimize, type MinimizeResult } from "./optimizer.ts";
import { initialCoordinates, seededRandom } from "./placement.ts";
import { geometryIssues } from "./quality.ts";
import { DEFAULT_WEIGHTS, restraintEnergy } from "./restraints.ts";
import { checkStereo, type StereoTargets } from "./stereo.ts";

/** Attempts (different jitter seeds) before giving up. */
export const MAX_ATTEMPTS = 4;
/** Spread of the initial fourth coordinate on the first attempt, Å (grows by this much per retry). */
const W_AMPLITUDE = 1.0;
/** Largest random displacement of each placed atom per earlier attempt, Å (about half a bond). */
export const RETRY_SHAKE = 0.6;
/** Set-up stages stop at this RMS gradient, kcal/mol/Å (they only need to reach the right basin). */
const SETUP_TOLERANCE = 0.5;
/** Step cap of each set-up stage. */
const SETUP_MAX_ITERATIONS = 1000;

/** Limits shared by all stages. */
export interface StageSettings {
  /** Step cap of the final DREIDING minimisation (and upper bound of the set-up caps). */
  readonly maxIterations: number;
  /** RMS gradient convergence of the final minimisation, kcal/mol/Å. */
  readonly tolerance: number;
  /** Called every iteration; throws to abort (time limit). */
  readonly onIteration: () => void;
}

/** Everything about the molecule the stages use. */
export interface PipelineInput {
  readonly graph: MolGraph;
  readonly ff: ForceField;
  readonly layout: readonly (readonly [number, number] | null)[];
  readonly targets: StereoTargets;
}

/** Outcome of the attempts. */
export interface PipelineOutcome {
  /** Best final minimisation with correct stereochemistry, if any attempt achieved it. */
  readonly best: MinimizeResult | undefined;
  /** Attempt number (1-based) of `best`. */
  readonly attempt: number;
  /** L-BFGS steps over all stages and attempts. */
  readonly totalIterations: number;
  /** Stereocentres still wrong in the last attempt (atom indices), for the error report. */
  readonly wrongCentres: readonly number[];
}

/**
 * Runs attempts until one passes every check or {@link MAX_ATTEMPTS} are spent.
 *
 * @example
 * ```ts
 * const outcome = runAttempts({ graph, ff, layout, targets }, { maxIterations: 5000, tolerance: 0.01, onIteration });
 * ```
 */
export function runAttempts(input: PipelineInput, settings: StageSettings): PipelineOutcome {
  const { graph, ff, targets } = input;
  const model = embed4dModel(graph, ff, targets);
  let best: MinimizeResult | undefined;
  let bestAttempt = 0;
  let totalIterations = 0;
  let wrongCentres: number[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let run: AttemptResult;
    try {
      run = runAttempt(input, model, attempt, settings);
    } catch (error) {
      // Out of time after a usable structure: return that one rather than nothing.
      if (best && error instanceof ChemError && error.code === "COMPUTATION_TIMEOUT") break;
      throw error;
    }
    totalIterations += run.iterations;
    const check = checkStereo(run.final.x, targets);
    wrongCentres = check.wrongCentres.map((i) => targets.tetrahedral[i]!.centre);
    if (check.wrongCentres.length > 0 || check.wrongDoubleBonds.length > 0) continue;
    if (!best || run.final.value < best.value) {
      best = run.final;
      bestAttempt = attempt;
    }
    if (geometryIssues(graph, ff, run.final.x).ok) break;
  }
  return { best, attempt: bestAttempt, totalIterations, wrongCentres };
}

interface AttemptResult {
  readonly final: MinimizeResult;
  readonly iterations: number;
}

/** One placement → 4D relaxation → restrained set-up → DREIDING minimisation. */
function runAttempt(
  input: PipelineInput,
  model: Embed4dModel,
  attempt: number,
  s: StageSettings,
): AttemptResult {
  const { graph, ff, layout, targets } = input;
  const placed = initialCoordinates(graph, ff.types, layout, targets, attempt);
  const rand = seededRandom(1000 + attempt);
  const shake = RETRY_SHAKE * (attempt - 1);
  for (let i = 0; i < placed.length; i++) placed[i] = placed[i]! + shake * (2 * rand() - 1);
  const cap = Math.min(s.maxIterations, SETUP_MAX_ITERATIONS);
  const relaxed = relax4d(model, placed, rand, W_AMPLITUDE * attempt, cap, s.onIteration);
  const setup = setupStage(ff, targets, relaxed.x, cap, s.onIteration);
  const final = dreidingStage(ff, setup.x, s);
  return { final, iterations: relaxed.iterations + setup.iterations + final.iterations };
}

/** DREIDING bonded terms plus the set-up restraints (soft repulsion in place of the Lennard-Jones wall). */
function setupStage(
  ff: ForceField,
  targets: StereoTargets,
  x0: Float64Array,
  maxIterations: number,
  onIteration: () => void,
): MinimizeResult {
  const objective = (x: Float64Array, grad: Float64Array) => {
    grad.fill(0);
    const bonded = bondEnergy(ff.bonds, x, grad) + angleEnergy(ff.angles, x, grad) +
      torsionEnergy(ff.torsions, x, grad) + inversionEnergy(ff.inversions, x, grad);
    return bonded + restraintEnergy(targets, ff.pairs, DEFAULT_WEIGHTS, x, grad);
  };
  return minimize(objective, x0, { maxIterations, rmsGradientTolerance: SETUP_TOLERANCE, onIteration });
}

/** Unrestrained DREIDING minimisation. */
function dreidingStage(ff: ForceField, x0: Float64Array, s: StageSettings): MinimizeResult {
  return minimize((x, grad) => dreidingEnergy(ff, x, grad), x0, {
    maxIterations: s.maxIterations,
    rmsGradientTolerance: s.tolerance,
    onIteration: s.onIteration,
  });
}
