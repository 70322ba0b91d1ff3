/**
 * Substructure search over a library index: RDKit's pattern-fingerprint screen (a molecule can contain the
 * query only if its pattern fingerprint has every bit of the query's), then RDKit's match on the molecules that
 * pass, in file order, within a time bound. The protocol thread is yielded to between slices, so other requests
 * are answered while a long search runs.
 *
 * @module
 */
import { BLOCK_ROWS, copyWords, FP_WORDS, type LibraryIndex } from "./index.ts";
import { type Mol, rdkit, withQuery } from "../rdkit.ts";

/** What a substructure search found. */
export interface SubstructureResult {
  /** File positions of the first `limit` matches, ascending. */
  readonly positions: readonly number[];
  /** Matches found. */
  readonly total: number;
  /** Molecules whose screen and match were completed (all of them unless the time bound stopped the search). */
  readonly searched: number;
  /** Molecules RDKit matched (those the screen passed). */
  readonly matched: number;
  /** True when the time bound stopped the search before the end of the library. */
  readonly stopped: boolean;
}

/** Options of {@link substructureHits}. */
export interface SubstructureOptions {
  /** Matches listed in `positions`; the rest are counted. */
  readonly limit: number;
  /** Milliseconds the search may take. */
  readonly budgetMs: number;
  /** Milliseconds from any origin (injected for tests). */
  readonly now?: () => number;
  /** Hands the thread back between slices (default: a macrotask). */
  readonly yieldNow?: () => Promise<void>;
}

/** How long one slice runs before the thread is handed back, ms. */
const SLICE_MS = 50;

/**
 * Molecules of `index` containing the SMARTS `smarts` (useChirality off, RDKit's default), in file order.
 * Throws `ChemError("INVALID_SMARTS")` for a pattern RDKit rejects.
 */
export function substructureHits(
  index: LibraryIndex,
  smarts: string,
  options: SubstructureOptions,
): Promise<SubstructureResult> {
  return withQueryAsync(smarts, (query) => search(index, query, options));
}

/** {@link withQuery} for an asynchronous use of the query: it is freed when `use` settles. */
function withQueryAsync<T>(smarts: string, use: (query: Mol) => Promise<T>): Promise<T> {
  // withQuery checks the pattern and says what is wrong with it; the query kept is compiled again, as ours to free.
  withQuery(smarts, () => undefined);
  const query = rdkit().get_qmol(smarts.trim())!;
  return use(query).finally(() => query.delete());
}

async function search(
  index: LibraryIndex,
  query: Mol,
  options: SubstructureOptions,
): Promise<SubstructureResult> {
  const now = options.now ?? (() => Date.now());
  const yieldNow = options.yieldNow ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  const screen = copyWords(query.get_pattern_fp_as_uint8array() as Uint8Array);
  const deadline = now() + options.budgetMs;
  const positions: number[] = [];
  let total = 0;
  let matched = 0;
  let row = 0;
  let sliceEnd = now() + SLICE_MS;
  while (row < index.count) {
    if (now() >= deadline) break;
    if (now() >= sliceEnd) {
      await yieldNow();
      sliceEnd = now() + SLICE_MS;
    }
    // One slice of up to 256 rows between clock reads.
    const end = Math.min(index.count, row + 256);
    for (; row < end; row++) {
      if (!passes(index, row, screen)) continue;
      matched++;
      if (!matches(index.smiles[row]!, query)) continue;
      total++;
      if (positions.length < options.limit) positions.push(row);
    }
  }
  return { positions, total, searched: row, matched, stopped: row < index.count };
}

/** True when row's pattern fingerprint has every bit of the query's. */
function passes(index: LibraryIndex, row: number, screen: Uint32Array): boolean {
  const block = index.pattern[Math.floor(row / BLOCK_ROWS)]!;
  const at = (row % BLOCK_ROWS) * FP_WORDS;
  for (let w = 0; w < FP_WORDS; w++) {
    // A query bit the row lacks; `&` answers signed words, so the test is for zero, not equality.
    if ((screen[w]! & ~block[at + w]!) !== 0) return false;
  }
  return true;
}

function matches(smiles: string, query: Mol): boolean {
  const mol = rdkit().get_mol(smiles);
  if (!mol) return false;
  try {
    return mol.get_substruct_match(query) !== "{}";
  } finally {
    mol.delete();
  }
}
