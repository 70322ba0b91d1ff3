/**
 * Maximum common substructure of 2–20 molecules with RDKit's FMCS (Dalke & Hastings, "FMCS: a novel algorithm
 * for the multiple MCS problem", J. Cheminform. 2013, 5(Suppl 1), O6, doi:10.1186/1758-2946-5-S1-O6), run
 * through RDKit MinimalLib's `get_mcs_as_json` with a wall-clock timeout.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { type Mol, parseSmiles, rdkit, withQuery } from "./rdkit.ts";

/** Fewest molecules accepted. */
export const MCS_MIN_MOLECULES = 2;
/** Most molecules accepted. */
export const MCS_MAX_MOLECULES = 20;
/** Largest molecule accepted (heavy atoms); FMCS is exponential in the worst case. */
export const MCS_MAX_HEAVY_ATOMS = 150;
/** Default time budget (s). */
export const MCS_DEFAULT_TIMEOUT_S = 2;
/** Largest time budget a caller may ask for (s). */
export const MCS_MAX_TIMEOUT_S = 10;

/** How atoms are compared (RDKit AtomCompare). */
export type AtomCompare = "elements" | "any" | "any_heavy" | "isotopes";
/** How bonds are compared (RDKit BondCompare). */
export type BondCompare = "order" | "order_exact" | "any";

/** FMCS options (names follow RDKit's MCSParameters). */
export interface McsOptions {
  /** Wall-clock limit in whole seconds (1–10). */
  timeoutSeconds?: number;
  /** Atom comparison; default elements. */
  atomCompare?: AtomCompare;
  /** Bond comparison; default order (RDKit's default: aromatic also matches single). */
  bondCompare?: BondCompare;
  /** Ring atoms/bonds only match ring atoms/bonds; default true. */
  ringMatchesRingOnly?: boolean;
  /** Partial rings are not allowed in the MCS; default false. */
  completeRingsOnly?: boolean;
  /** Chiral tags must match; default false. */
  matchChiralTag?: boolean;
  /** Fraction of the molecules that must contain the MCS (0–1]; default 1 (all). */
  threshold?: number;
}

/** FMCS result. */
export interface McsResult {
  /** SMARTS of the common substructure ("" when none). */
  smarts: string;
  /** Atoms in the MCS. */
  atom_count: number;
  /** Bonds in the MCS. */
  bond_count: number;
  /** True when FMCS stopped at the timeout: the SMARTS is the best found so far, maybe not maximal. */
  timed_out: boolean;
  /** For each input molecule, atom indices (SMILES order) of the first MCS match, or null if it has none. */
  matches: (number[] | null)[];
}

const ATOM_COMPARE: Readonly<Record<AtomCompare, string>> = {
  elements: "Elements",
  any: "Any",
  any_heavy: "AnyHeavy",
  isotopes: "Isotopes",
};
const BOND_COMPARE: Readonly<Record<BondCompare, string>> = {
  order: "Order",
  order_exact: "OrderExact",
  any: "Any",
};

/**
 * The details JSON MinimalLib's parser reads (RDKit parseMCSParametersJSON keys).
 *
 * @example
 * ```ts
 * mcsParameters({ timeoutSeconds: 5 }).Timeout; // 5
 * ```
 */
export function mcsParameters(options: McsOptions = {}): Record<string, unknown> {
  const timeout = Math.round(options.timeoutSeconds ?? MCS_DEFAULT_TIMEOUT_S);
  if (!(timeout >= 1 && timeout <= MCS_MAX_TIMEOUT_S)) {
    throw new RangeError(`timeoutSeconds must be 1..${MCS_MAX_TIMEOUT_S}`);
  }
  return {
    Timeout: timeout,
    AtomCompare: ATOM_COMPARE[options.atomCompare ?? "elements"],
    BondCompare: BOND_COMPARE[options.bondCompare ?? "order"],
    RingMatchesRingOnly: options.ringMatchesRingOnly ?? true,
    CompleteRingsOnly: options.completeRingsOnly ?? false,
    MatchChiralTag: options.matchChiralTag ?? false,
    Threshold: options.threshold ?? 1,
  };
}

/** First match of the MCS query in each molecule (the SMARTS is a query RDKit itself wrote). */
function matchesOf(smarts: string, mols: readonly Mol[]): (number[] | null)[] {
  if (!smarts) return mols.map(() => null);
  return withQuery(smarts, (query) =>
    mols.map((mol) => {
      const parsed = JSON.parse(mol.get_substruct_match(query)) as { atoms?: number[] };
      return parsed.atoms && parsed.atoms.length > 0 ? parsed.atoms : null;
    }));
}

/**
 * Maximum common substructure of 2–20 molecules (each at most 150 heavy atoms) within a time budget.
 * Throws `NO_COMMON_SUBSTRUCTURE` when nothing is shared, `COMPUTATION_TIMEOUT` when the budget ran out before
 * any common substructure was found, and the parser's errors for bad SMILES (naming the list position).
 *
 * @example
 * ```ts
 * findMcs(["c1ccccc1CCO", "c1ccccc1CCN"]).atom_count; // 8
 * ```
 */
export function findMcs(smilesList: readonly string[], options: McsOptions = {}): McsResult {
  if (smilesList.length < MCS_MIN_MOLECULES) {
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      `A common substructure needs at least ${MCS_MIN_MOLECULES} molecules; got ${smilesList.length}.`,
      { count: smilesList.length },
    );
  }
  if (smilesList.length > MCS_MAX_MOLECULES) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `find_mcs compares at most ${MCS_MAX_MOLECULES} molecules; got ${smilesList.length}.`,
      { count: smilesList.length, limit: MCS_MAX_MOLECULES },
    );
  }
  const params = JSON.stringify(mcsParameters(options));
  const mols: Mol[] = [];
  const list = new (rdkit().MolList)();
  try {
    smilesList.forEach((smiles, i) => {
      try {
        mols.push(parseSmiles(smiles, MCS_MAX_HEAVY_ATOMS));
      } catch (error) {
        if (error instanceof ChemError) {
          throw new ChemError(error.code, `Molecule ${i} (0-based): ${error.message}`, {
            ...error.details,
            index: i,
          });
        }
        throw error;
      }
    });
    for (const mol of mols) list.append(mol);
    const raw = JSON.parse(rdkit().get_mcs_as_json(list, params)) as {
      smarts: string | string[];
      canceled: boolean;
      numAtoms: number;
      numBonds: number;
    };
    const smarts = Array.isArray(raw.smarts) ? raw.smarts[0] ?? "" : raw.smarts;
    if (raw.numAtoms === 0) {
      if (raw.canceled) {
        throw new ChemError(
          "COMPUTATION_TIMEOUT",
          "FMCS reached its time limit before finding any common substructure; raise timeout_seconds (max " +
            `${MCS_MAX_TIMEOUT_S}) or compare fewer or smaller molecules.`,
        );
      }
      throw new ChemError(
        "NO_COMMON_SUBSTRUCTURE",
        "The molecules share no common substructure under the chosen comparison rules (try atom_compare 'any' " +
          "or ring_matches_ring_only false).",
      );
    }
    return {
      smarts,
      atom_count: raw.numAtoms,
      bond_count: raw.numBonds,
      timed_out: raw.canceled,
      matches: matchesOf(smarts, mols),
    };
  } finally {
    list.delete();
    for (const mol of mols) mol.delete();
  }
}
