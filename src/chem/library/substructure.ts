/**
 * Substructure search over a library: RDKit's `SubstructLibrary` (its pattern-fingerprint screen, then its
 * match) shard by shard in file order, within a time bound. The protocol thread is handed back between shards
 * and between the slices that fill a shard not yet filled, so other requests are answered while a long search
 * runs, and the search stops at its deadline with what it found.
 *
 * @module
 */
import { rdkit, withQuery } from "../rdkit.ts";
import { type QueryNeeds, queryNeeds } from "./screen.ts";
import { SHARD_ROWS } from "./index.ts";
import type { SubstructureShards } from "./shards.ts";

/** What a substructure search found. */
export interface SubstructureResult {
  /** File positions of the first `limit` matches, ascending. */
  readonly positions: readonly number[];
  /** Matches found. */
  readonly total: number;
  /** Molecules searched (all of them unless the time bound stopped the search). */
  readonly searched: number;
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

/** How long the search keeps the thread before handing it back, ms. */
const SLICE_MS = 50;

/**
 * Molecules of the library containing the SMARTS `smarts` (useChirality off, RDKit's default), in file order.
 * Throws `ChemError("INVALID_SMARTS")` for a pattern RDKit rejects.
 */
export async function substructureHits(
  shards: SubstructureShards,
  smarts: string,
  options: SubstructureOptions,
): Promise<SubstructureResult> {
  // withQuery checks the pattern and says what is wrong with it; the query kept is compiled again, as ours to free.
  withQuery(smarts, () => undefined);
  const query = rdkit().get_qmol(smarts.trim())!;
  try {
    return await search(shards, query, queryNeeds(smarts), options);
  } finally {
    query.delete();
  }
}

async function search(
  shards: SubstructureShards,
  query: Parameters<SubstructureShards["matches"]>[1],
  needs: QueryNeeds,
  options: SubstructureOptions,
): Promise<SubstructureResult> {
  const now = options.now ?? (() => Date.now());
  const yieldNow = options.yieldNow ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  const deadline = now() + options.budgetMs;
  let sliceEnd = now() + SLICE_MS;
  const pause = async () => {
    if (now() < sliceEnd) return;
    await yieldNow();
    sliceEnd = now() + SLICE_MS;
  };
  const positions: number[] = [];
  let total = 0;
  let searched = 0;
  for (let shard = 0; shard < shards.count; shard++) {
    while (!shards.ready(shard) && now() < deadline) {
      await shards.fillSlice();
      await pause();
    }
    if (now() >= deadline) break;
    const found = shards.matches(shard, query, needs);
    total += found.length;
    positions.push(...found.slice(0, options.limit - positions.length));
    searched = Math.min(shards.size, (shard + 1) * SHARD_ROWS);
    await pause();
  }
  return { positions, total, searched, stopped: searched < shards.size };
}
