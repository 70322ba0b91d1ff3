/**
 * 3D structure generation: rule-based placement, then minimisation with the DREIDING force field
 * (Mayo, Olafson & Goddard, J. Phys. Chem. 1990, 94, 8897, doi:10.1021/j100389a010).
 *
 * RDKit parses the SMILES, adds hydrogens and draws the 2D layout (./molecule.ts); atoms get DREIDING types
 * (./typing.ts) and terms (./forcefield.ts, ./parameters.ts, with MMFF94 bond lengths where DREIDING's radius
 * rule is known to be off, ./bond_lengths.ts); ./pipeline.ts places the atoms by rule, sets the stereochemistry
 * with restraints and minimises without restraints (L-BFGS, ./optimizer.ts). A structure is only
 * returned when every stereocentre and stereo double bond of the SMILES survives; otherwise EMBEDDING_FAILED.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { type EnergyBreakdown, energyBreakdown } from "./energy.ts";
import { buildForceField, type ForceField, naturalLengths } from "./forcefield.ts";
import type { MolGraph } from "./graph.ts";
import { prepareMolecule } from "./molecule.ts";
import type { MinimizeResult } from "./optimizer.ts";
import type { DreidingType } from "./parameters.ts";
import { MAX_ATTEMPTS, runAttempts } from "./pipeline.ts";
import { type StereoTargets, stereoTargets } from "./stereo.ts";
import { assignTypes } from "./typing.ts";
import { toSdf, toXyz } from "./xyz.ts";

export { ANGLE_FORCE_CONSTANT, DREIDING_REFERENCE } from "./parameters.ts";
export { BOND_LENGTH_ROWS, MMFF94_REFERENCE } from "./bond_lengths.ts";
export type { DreidingType } from "./parameters.ts";
export type { EnergyBreakdown } from "./energy.ts";

/**
 * The structure as one SDF record (molfile with bonds, charges and the XYZ's coordinates and atom order; title
 * line the SMILES, an `energy_kcal_mol` data item).
 *
 * @example
 * ```ts
 * conformerSdf(generate3d("CCO")).endsWith("$$$$\n"); // true
 * ```
 */
export function conformerSdf(c: Conformer3D): string {
  return toSdf(c.graph, c.coordinates, c.smiles, `E=${c.energy.toFixed(4)} kcal/mol (DREIDING)`, c.energy);
}

/** Largest molecule accepted, heavy (non-hydrogen) atoms. */
export const MAX_3D_HEAVY_ATOMS = 200;
/** Default cap on L-BFGS steps of the final minimisation. */
export const DEFAULT_MAX_ITERATIONS = 10_000;
/** Largest `maxIterations` accepted. */
export const MAX_ITERATIONS_LIMIT = 20_000;
/** Default wall-clock limit of one call, ms. */
export const DEFAULT_TIME_LIMIT_MS = 20_000;
/** Convergence: RMS of the Cartesian gradient components, kcal/mol/Å. */
export const RMS_GRADIENT_TOLERANCE = 0.01;

/** Options of {@link generate3d}. */
export interface Generate3dOptions {
  /** Cap on L-BFGS steps of the final DREIDING minimisation (default 10000, at most 20000; set-up stages use at
   * most 1000 each). */
  readonly maxIterations?: number;
  /** Wall-clock limit in ms (default 20000); exceeded → `COMPUTATION_TIMEOUT`. */
  readonly timeLimitMs?: number;
  /** Clock in ms (injected for tests; default `Date.now`). */
  readonly now?: () => number;
  /** RMS gradient convergence threshold, kcal/mol/Å (default 0.01). */
  readonly rmsGradientTolerance?: number;
  /** Heavy-atom limit (default and maximum {@link MAX_3D_HEAVY_ATOMS}). */
  readonly maxHeavyAtoms?: number;
}

/** A generated 3D structure. */
export interface Conformer3D {
  /** Input SMILES. */
  readonly smiles: string;
  /** XYZ text: atom count, comment (SMILES and energy), then element and x y z in Å. */
  readonly xyz: string;
  /** The molecular graph the coordinates belong to (atoms in XYZ order), for other output formats. */
  readonly graph: MolGraph;
  /** Element symbol per atom, hydrogens included, in RDKit atom order (heavy atoms first). */
  readonly elements: readonly string[];
  /** DREIDING atom type per atom. */
  readonly atomTypes: readonly DreidingType[];
  /** Flat coordinates [x0, y0, z0, …], Å. */
  readonly coordinates: Float64Array;
  /** Final DREIDING energy, kcal/mol. */
  readonly energy: number;
  /** Final energy by term, kcal/mol. */
  readonly energyTerms: EnergyBreakdown;
  /** L-BFGS steps of the final DREIDING minimisation. */
  readonly iterations: number;
  /** L-BFGS steps of all other stages and attempts. */
  readonly setupIterations: number;
  /** True when the final RMS gradient is below the tolerance. */
  readonly converged: boolean;
  /** Final RMS gradient, kcal/mol/Å. */
  readonly rmsGradient: number;
  /** Final largest gradient component, kcal/mol/Å. */
  readonly maxGradient: number;
  /** DREIDING energy after each accepted step of the final minimisation (non-increasing), kcal/mol. */
  readonly energyTrace: readonly number[];
  /** Atom count including hydrogens. */
  readonly atomCount: number;
  /** Heavy-atom count. */
  readonly heavyAtomCount: number;
  /** Stereo elements of the SMILES, all kept (a structure that loses one is never returned). */
  readonly stereo: { readonly tetrahedralCentres: number; readonly doubleBonds: number };
  /** Attempt that produced the structure (1 when the first succeeded). */
  readonly attempt: number;
}

/**
 * Generates one low-energy 3D structure for a SMILES. Throws `ChemError` with `INVALID_SMILES`,
 * `MOLECULE_TOO_LARGE`, `UNSUPPORTED_MOLECULE`, `COMPUTATION_TIMEOUT` or `EMBEDDING_FAILED`.
 *
 * @example
 * ```ts
 * await loadRDKit(wasmBytes);
 * const c = generate3d("CCO");
 * c.xyz.split("\n")[0]; // "9"
 * ```
 */
export function generate3d(smiles: string, options: Generate3dOptions = {}): Conformer3D {
  const now = options.now ?? Date.now;
  const timeLimit = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const deadline = now() + timeLimit;
  const maxHeavy = Math.min(options.maxHeavyAtoms ?? MAX_3D_HEAVY_ATOMS, MAX_3D_HEAVY_ATOMS);
  // Checked between the steps that cannot be interrupted (the 2D layout, building the terms) and every
  // minimisation step, so the call answers COMPUTATION_TIMEOUT itself rather than being cut off.
  const checkClock = () => {
    if (now() > deadline) throw timeout(timeLimit);
  };
  const { graph, layout } = prepareMolecule(smiles, maxHeavy);
  checkClock();
  const ff = buildForceField(graph, assignTypes(graph));
  const targets = stereoTargets(graph, naturalLengths(graph, ff));
  checkClock();
  const outcome = runAttempts({ graph, ff, layout, targets }, {
    maxIterations: Math.min(options.maxIterations ?? DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS_LIMIT),
    tolerance: options.rmsGradientTolerance ?? RMS_GRADIENT_TOLERANCE,
    onIteration: checkClock,
  });
  if (!outcome.best) {
    throw new ChemError(
      "EMBEDDING_FAILED",
      `Could not build a 3D structure that keeps every stereocentre and double-bond configuration of the SMILES ` +
        `in ${MAX_ATTEMPTS} attempts; check that the stereochemistry is geometrically possible.`,
      { wrong_centres: outcome.wrongCentres },
    );
  }
  return assemble(smiles, graph, ff, targets, outcome.best, outcome.totalIterations, outcome.attempt);
}

function timeout(limitMs: number): ChemError {
  return new ChemError(
    "COMPUTATION_TIMEOUT",
    `3D generation exceeded its ${limitMs} ms time limit; try a smaller molecule or a lower max_iterations.`,
    { limit_ms: limitMs },
  );
}

function assemble(
  smiles: string,
  graph: MolGraph,
  ff: ForceField,
  targets: StereoTargets,
  final: MinimizeResult,
  totalIterations: number,
  attempt: number,
): Conformer3D {
  const elements = graph.atoms.map((a) => a.symbol);
  const terms = energyBreakdown(ff, final.x);
  const comment = `${smiles} E=${terms.total.toFixed(4)} kcal/mol (DREIDING)`;
  return {
    smiles,
    xyz: toXyz(elements, final.x, comment),
    graph,
    elements,
    atomTypes: ff.types,
    coordinates: final.x,
    energy: terms.total,
    energyTerms: terms,
    iterations: final.iterations,
    setupIterations: totalIterations - final.iterations,
    converged: final.converged,
    rmsGradient: final.rmsGradient,
    maxGradient: final.maxGradient,
    energyTrace: final.trace,
    atomCount: graph.atoms.length,
    heavyAtomCount: graph.heavyAtomCount,
    stereo: { tetrahedralCentres: targets.tetrahedral.length, doubleBonds: targets.doubleBonds.length },
    attempt,
  };
}
