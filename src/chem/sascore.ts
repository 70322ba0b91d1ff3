/**
 * Synthetic accessibility (SA) score of Ertl & Schuffenhauer, "Estimation of synthetic accessibility score of
 * drug-like molecules based on molecular complexity and fragment contributions", J. Cheminform. 2009, 1, 8,
 * doi:10.1186/1758-2946-1-8, computed as RDKit's reference implementation (Contrib/SA_Score/sascorer.py,
 * BSD-3-Clause) defines it, including its two documented changes to the paper: the macrocycle penalty is
 * log10(2) whenever any ring has more than 8 atoms, and a fingerprint-density (symmetry) correction is added.
 *
 * score = fragment score − complexity penalty + symmetry correction, rescaled from [−4, 2.5] to 1 (easy) … 10
 * (hard). The fragment score averages the contributions (from ~1 M PubChem molecules, shipped by RDKit and
 * converted by scripts/convert_sascore.ts) of the molecule's unfolded Morgan radius-2 environments, weighting
 * each id by its count; unknown environments count −4.
 *
 * @module
 */
import { fromBase64 } from "../bytes.ts";
import { morganGraph, verifiedMorganEnvironments } from "./morgan.ts";
import { descriptors, type Mol, withMol } from "./rdkit.ts";
import { ChemError } from "../errors.ts";

/** Scores below this are reported as synthesizable (project convention for the 1–10 scale). */
export const SA_SYNTHESIZABLE_BELOW = 6;
/** Contribution of a Morgan environment absent from the fragment table (sascorer.py default). */
export const SA_UNKNOWN_FRAGMENT_SCORE = -4;
/** Method text echoed in results. */
export const SA_METHOD =
  "SA score (Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8, doi:10.1186/1758-2946-1-8), " +
  "as implemented in RDKit Contrib/SA_Score (fragment table from RDKit, Morgan radius 2)";

/** SA score with its components. Penalties are positive numbers that are subtracted. */
export interface SaScore {
  /** Synthetic accessibility, 1 (easy) to 10 (hard). */
  score: number;
  /** True when `score` < 6. */
  synthesizable: boolean;
  /** Count-weighted mean fragment contribution of the Morgan radius-2 environments (log-frequency units). */
  fragment_score: number;
  /** Sum of the five penalties below. */
  complexity_penalty: number;
  /** nAtoms^1.005 − nAtoms. */
  size_penalty: number;
  /** log10(stereo centres + 1). */
  stereo_penalty: number;
  /** log10(spiro atoms + 1). */
  spiro_penalty: number;
  /** log10(bridgehead atoms + 1). */
  bridgehead_penalty: number;
  /** log10(2) if any ring has more than 8 atoms, else 0. */
  macrocycle_penalty: number;
  /** 0.5·ln(nAtoms / distinct environment ids) when positive (highly symmetric molecules are easier). */
  symmetry_correction: number;
  /** fragment_score − complexity_penalty + symmetry_correction, before rescaling to 1–10. */
  raw_score: number;
  /** Atoms in the molecule graph (heavy atoms plus any explicit H atoms). */
  atom_count: number;
  /** Tetrahedral stereo centres, assigned or not (RDKit legacy perception). */
  stereo_centers: number;
  /** Spiro atoms (RDKit CalcNumSpiroAtoms). */
  spiro_atoms: number;
  /** Bridgehead atoms (RDKit CalcNumBridgeheadAtoms). */
  bridgehead_atoms: number;
  /** Rings of more than 8 atoms among those RDKit's ring info lists (`AtomRings()`, as the reference counts). */
  macrocycles: number;
  /** Morgan radius-2 environments (with multiplicity). */
  environments: number;
  /** Distinct environment ids. */
  distinct_environments: number;
  /** Environments (with multiplicity) not found in the fragment table. */
  unknown_environments: number;
}

interface FragmentTable {
  readonly ids: Uint32Array;
  readonly rank: Uint16Array;
  readonly values: Float64Array;
}

let table: FragmentTable | undefined;
let decodeMs: number | undefined;

/**
 * Reads `count` LEB128 varints from `bytes` at `start` into `target`, adding the running total when `delta`.
 * Returns the position after the last byte read.
 */
function readVarints(
  bytes: Uint8Array,
  start: number,
  target: Uint32Array | Uint16Array,
  delta: boolean,
): number {
  let pos = start;
  let total = 0;
  for (let i = 0; i < target.length; i++) {
    let b = bytes[pos++]!;
    let value = b & 127;
    let scale = 128;
    while (b >= 128) {
      b = bytes[pos++]!;
      value += (b & 127) * scale;
      scale *= 128;
    }
    total = delta ? total + value : value;
    target[i] = total;
  }
  return pos;
}

let tableModule: typeof import("./data/sa_fragment_scores.ts") | undefined;

/**
 * Loads the fragment table's module (2.8 MB of text) when first needed rather than with this one: the protocol
 * thread, which never scores (sa_score runs in the tool pool), then does not parse it as the server starts
 * (docs/decisions/cold-start.md). The scoring functions below need it loaded.
 *
 * @example
 * ```ts
 * await loadSaFragmentTable();
 * saScore("CCO");
 * ```
 */
export async function loadSaFragmentTable(): Promise<void> {
  tableModule ??= await import("./data/sa_fragment_scores.ts");
}

/** Decodes the fragment table once per process, see scripts/convert_sascore.ts for the layout. */
function fragmentTable(): FragmentTable {
  if (table) return table;
  if (!tableModule) {
    throw new Error("the SA fragment table is not loaded: await loadSaFragmentTable() before scoring");
  }
  const { SA_FRAGMENT_COUNT, SA_FRAGMENT_DATA, SA_SCORE_SCALE, SA_SCORE_VALUES } = tableModule;
  const start = performance.now();
  const bytes = fromBase64(SA_FRAGMENT_DATA);
  const ids = new Uint32Array(SA_FRAGMENT_COUNT);
  const rank = new Uint16Array(SA_FRAGMENT_COUNT);
  const end = readVarints(bytes, readVarints(bytes, 0, ids, true), rank, false);
  if (end !== bytes.length) throw new Error("SA fragment table is corrupt (length mismatch)");
  const values = Float64Array.from(SA_SCORE_VALUES.split(","), (s) => Number(s) / SA_SCORE_SCALE);
  table = { ids, rank, values };
  decodeMs = performance.now() - start;
  return table;
}

/**
 * Time the one-time decode of the fragment table took (ms), or undefined before first use. For benchmarks.
 *
 * @example
 * ```ts
 * saScore("CCO");
 * saFragmentTableDecodeMs(); // e.g. 25
 * ```
 */
export function saFragmentTableDecodeMs(): number | undefined {
  return decodeMs;
}

/**
 * Fragment contribution of one unfolded Morgan environment id, or undefined if the table lacks it.
 *
 * @example
 * ```ts
 * fragmentContribution(3217380708); // 2.8416, the highest contribution in the table
 * ```
 */
export function fragmentContribution(id: number): number | undefined {
  const { ids, rank, values } = fragmentTable();
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return values[rank[mid]!];
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * SA score of a parsed molecule (the molecule is not freed: the caller owns it).
 *
 * @example
 * ```ts
 * withMol("CC(=O)Oc1ccccc1C(=O)O", saScoreOfMol).score; // ≈ 1.58 (aspirin)
 * ```
 */
export function saScoreOfMol(mol: Mol): SaScore {
  const graph = morganGraph(mol);
  const atomCount = graph.atoms.length;
  if (atomCount === 0) {
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      "The molecule has no atoms; the SA score needs at least one atom.",
    );
  }
  const counts = new Map<number, number>();
  for (const { id } of verifiedMorganEnvironments(mol, 2, graph)) counts.set(id, (counts.get(id) ?? 0) + 1);
  let sum = 0;
  let environments = 0;
  let unknown = 0;
  for (const [id, count] of counts) {
    const contribution = fragmentContribution(id);
    if (contribution === undefined) unknown += count;
    sum += (contribution ?? SA_UNKNOWN_FRAGMENT_SCORE) * count;
    environments += count;
  }
  const fragmentScore = sum / environments;

  const d = descriptors(mol);
  const stereo = d.NumAtomStereoCenters ?? 0;
  const spiro = d.NumSpiroAtoms ?? 0;
  const bridgeheads = d.NumBridgeheadAtoms ?? 0;
  const macrocycles = graph.rings.filter((ring) => ring.length > 8).length;
  const penalties = {
    size_penalty: atomCount ** 1.005 - atomCount,
    stereo_penalty: Math.log10(stereo + 1),
    spiro_penalty: Math.log10(spiro + 1),
    bridgehead_penalty: Math.log10(bridgeheads + 1),
    macrocycle_penalty: macrocycles > 0 ? Math.log10(2) : 0,
  };
  const complexity = penalties.size_penalty + penalties.stereo_penalty + penalties.spiro_penalty +
    penalties.bridgehead_penalty + penalties.macrocycle_penalty;
  const symmetry = atomCount > counts.size ? 0.5 * Math.log(atomCount / counts.size) : 0;
  const raw = fragmentScore - complexity + symmetry;
  const score = rescale(raw);
  return {
    score,
    synthesizable: score < SA_SYNTHESIZABLE_BELOW,
    fragment_score: fragmentScore,
    complexity_penalty: complexity,
    ...penalties,
    symmetry_correction: symmetry,
    raw_score: raw,
    atom_count: atomCount,
    stereo_centers: stereo,
    spiro_atoms: spiro,
    bridgehead_atoms: bridgeheads,
    macrocycles,
    environments,
    distinct_environments: counts.size,
    unknown_environments: unknown,
  };
}

/** sascorer.py's mapping of the raw score onto 1–10, with its logarithmic smoothing above 8. */
function rescale(raw: number): number {
  const min = -4.0;
  const max = 2.5;
  let s = 11 - ((raw - min + 1) / (max - min)) * 9;
  if (s > 8) s = 8 + Math.log(s + 1 - 9);
  return Math.min(10, Math.max(1, s));
}

/**
 * SA score of a SMILES string (parsed, scored, freed). Throws `ChemError` (INVALID_SMILES, MOLECULE_TOO_LARGE).
 *
 * @example
 * ```ts
 * saScore("CCO").score; // ≈ 1.98
 * ```
 */
export function saScore(smiles: string): SaScore {
  return withMol(smiles, saScoreOfMol);
}
