/**
 * Similarity search: the molecules of a library at least as similar to a query as a threshold, on ECFP4 Tanimoto
 * (src/chem/fingerprint.ts). One function for the `similarity_search` tool and the sample web application's
 * POST /similarity, so both give the same answer to the same request.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { ecfp4Of, tanimotoBytes } from "./fingerprint.ts";

/** One hit of a similarity search. */
export interface SimilarityHit {
  /** Position in the library (0-based). */
  index: number;
  /** The library entry as sent. */
  smiles: string;
  /** Tanimoto coefficient on ECFP4 (2048 bits), unrounded. */
  score: number;
}

/**
 * Library entries with Tanimoto (ECFP4) >= threshold to the query, by score descending then index ascending. The
 * query is fingerprinted once. Throws the ChemError of the first entry RDKit cannot take, its message beginning
 * with the field (`query` or `library[i]`, also in `details.field`).
 *
 * @example
 * ```ts
 * similaritySearch("CCO", ["CCO", "c1ccccc1"], 0.5); // [{ index: 0, smiles: "CCO", score: 1 }]
 * ```
 */
export function similaritySearch(
  query: string,
  library: readonly string[],
  threshold: number,
): SimilarityHit[] {
  const q = fingerprint("query", query);
  const hits: SimilarityHit[] = [];
  library.forEach((smiles, index) => {
    const score = tanimotoBytes(q, fingerprint(`library[${index}]`, smiles));
    if (score >= threshold) hits.push({ index, smiles, score });
  });
  return hits.sort((a, b) => b.score - a.score || a.index - b.index);
}

/** A library entry RDKit could not take, and why. */
export interface SkippedEntry {
  /** Position in the library (0-based). */
  index: number;
  /** The reason, as the error for that SMILES alone would say it. */
  error: string;
}

/** {@link searchLibrary}'s answer. */
export interface LibrarySearch {
  /** Hits by score descending then index ascending, unrounded. */
  hits: SimilarityHit[];
  /** The first entries skipped, at most the `maxSkipped` asked. */
  skipped: SkippedEntry[];
  /** Every entry skipped. */
  skippedCount: number;
}

/**
 * {@link similaritySearch} that skips the library entries RDKit cannot take and lists them (the first
 * `maxSkipped`, with the total), as RDKit's own scripts skip a molecule `MolFromSmiles` returns None for; the query
 * still fails with its ChemError, naming `query`.
 *
 * @example
 * ```ts
 * searchLibrary("CCO", ["CCO", "C1CC"], 0, 20); // hits [{ index: 0, … }], skipped [{ index: 1, error: "…" }]
 * ```
 */
export function searchLibrary(
  query: string,
  library: readonly string[],
  threshold: number,
  maxSkipped: number,
): LibrarySearch {
  const q = fingerprint("query", query);
  const hits: SimilarityHit[] = [];
  const skipped: SkippedEntry[] = [];
  let skippedCount = 0;
  library.forEach((smiles, index) => {
    let bytes: Uint8Array;
    try {
      bytes = ecfp4Of(smiles);
    } catch (error) {
      if (!(error instanceof ChemError)) throw error;
      if (skippedCount++ < maxSkipped) skipped.push({ index, error: `${error.code}: ${error.message}` });
      return;
    }
    const score = tanimotoBytes(q, bytes);
    if (score >= threshold) hits.push({ index, smiles, score });
  });
  hits.sort((a, b) => b.score - a.score || a.index - b.index);
  return { hits, skipped, skippedCount };
}

/** ECFP4 bytes of `smiles`; a ChemError names `field`. */
function fingerprint(field: string, smiles: string): Uint8Array {
  try {
    return ecfp4Of(smiles);
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    throw new ChemError(error.code, `${field}: ${error.message}`, { ...error.details, field });
  }
}
