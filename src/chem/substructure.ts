/**
 * SMARTS substructure search (Daylight SMARTS as implemented by RDKit).
 *
 * @module
 */
import { withMol, withQuery } from "./rdkit.ts";

/** Upper bound on reported matches so a permissive pattern on a large molecule stays cheap. */
export const MAX_MATCHES_LIMIT = 10_000;

/** Result of a SMARTS search. */
export interface SubstructureMatches {
  /** True when at least one match exists. */
  matched: boolean;
  /** Number of unique matches found (a lower bound when `truncated`). */
  match_count: number;
  /** Each match as the molecule's atom indices (0-based, SMILES order), in SMARTS atom order. */
  matches: number[][];
  /** True when the search stopped at `max_matches`. */
  truncated: boolean;
}

/**
 * Finds unique matches of a SMARTS pattern in a molecule.
 *
 * @example
 * ```ts
 * smartsMatch("c1ccccc1O", "[OX2H]").match_count; // 1
 * ```
 */
export function smartsMatch(smiles: string, smarts: string, maxMatches = 1000): SubstructureMatches {
  return withMol(smiles, (mol) =>
    withQuery(smarts, (query) => {
      // Ask for one more than the cap so we can tell "exactly max" from "more than max".
      const raw = mol.get_substruct_matches(
        query,
        JSON.stringify({ maxMatches: maxMatches + 1, uniquify: true }),
      );
      // RDKit answers "{}" rather than "[]" when nothing matches.
      const parsed = JSON.parse(raw) as { atoms: number[] }[] | Record<string, never>;
      const all = Array.isArray(parsed) ? parsed.map((m) => m.atoms) : [];
      const matches = all.slice(0, maxMatches);
      return {
        matched: matches.length > 0,
        match_count: matches.length,
        matches,
        truncated: all.length > maxMatches,
      };
    }));
}
