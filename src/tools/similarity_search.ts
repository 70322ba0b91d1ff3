/**
 * `similarity_search`: the library molecules most similar to a query. The sample web application's POST
 * /similarity computes the same scores (src/chem/similarity.ts) but keeps its documented contract: a library
 * entry RDKit cannot read is an error naming it, where this tool skips and lists it.
 *
 * @module
 */
import * as v from "valibot";
import { ECFP4_METHOD } from "../chem/fingerprint.ts";
import { type LibrarySearch, searchLibrary } from "../chem/similarity.ts";
import { ANSWER_MAX_CHARS, fitItems } from "./answer_cap.ts";
import { count, smilesArg, smilesString } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** Most library entries one search takes (as POST /similarity); 10,000 drug-like SMILES fit the 1 MiB request. */
export const MAX_LIBRARY_SIZE = 10_000;

/** Default `top_k`: ten hits of drug-like SMILES are some 700 characters. */
export const DEFAULT_TOP_K = 10;
/** Most skipped entries listed; the rest are counted. */
export const MAX_SKIPPED_LISTED = 20;

/**
 * Fewest entries worth a part of their own: a part's round trip and query fingerprint cost about what RDKit
 * takes for a few dozen molecules, so a short library is one part.
 */
export const MIN_PART_ENTRIES = 500;

/** A score to 4 decimals (17 digits say nothing more to a reader); ties beyond them keep their order. */
function round4(score: number): number {
  return Math.round(score * 1e4) / 1e4;
}

/**
 * One part of a `similarity_search` library, searched in a worker: a search of 10,000 molecules is split over
 * every worker of the pool, each fingerprinting the query once and answering its best hits.
 */
export const similarityPartTool = defineTool({
  name: "similarity_search:part",
  title: "Similarity search, one part",
  annotations: LOCAL_COMPUTATION,
  description: "Searches one part of a similarity_search library.",
  input: v.strictObject({
    query: v.string(),
    library: v.array(v.string()),
    start: v.pipe(v.number(), v.integer(), v.minValue(0)),
    threshold: v.number(),
    top_k: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
  output: v.object({
    best: v.array(v.tuple([v.number(), v.number()])),
    total: v.number(),
    skipped: v.array(v.object({ index: v.number(), error: v.string() })),
    skippedCount: v.number(),
  }),
  placement: {
    where: "pool",
    chunkOf: "similarity_search",
    cost: ({ query, library }) => textsCost(query, library),
  },
  run: ({ query, library, start, threshold, top_k }) => searchPart(query, library, start, threshold, top_k),
});

/** `similarity_search`: ECFP4 Tanimoto of a query to every molecule of a library, hits best first. */
export const similaritySearchTool = defineTool({
  name: "similarity_search",
  title: "Similarity search",
  annotations: LOCAL_COMPUTATION,
  description:
    "Library molecules with ECFP4 Tanimoto similarity (RDKit Morgan radius 2, 2048 bits) to query " +
    "≥ threshold, best first (ties by index): each hit's index in library, SMILES and score (4 decimals); " +
    `total_hits counts all. Entries RDKit cannot read are skipped and listed. Up to ${MAX_LIBRARY_SIZE} ` +
    "molecules. Error: INVALID_SMILES for the query.",
  input: v.strictObject({
    query: smilesArg("Query molecule as SMILES."),
    library: v.pipe(
      v.array(smilesString),
      v.minLength(1),
      v.maxLength(MAX_LIBRARY_SIZE),
      v.examples([["CCO", "c1ccccc1O"]]),
      v.description("Molecules to search, as SMILES."),
    ),
    threshold: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description("Least score kept.")),
      0,
    ),
    top_k: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Keep the best k hits only.")),
      DEFAULT_TOP_K,
    ),
  }),
  output: v.object({
    hits: v.pipe(
      v.array(v.object({
        index: v.pipe(v.number(), v.description("Position in library, from 0.")),
        smiles: v.pipe(v.string(), v.description("The library entry as given.")),
        score: v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description("Tanimoto coefficient.")),
      })),
      v.description("Hits, best first."),
    ),
    total_hits: count("Hits at or above threshold, listed or not."),
    skipped: v.optional(v.pipe(
      v.array(v.object({
        index: v.pipe(v.number(), v.description("Position in library, from 0.")),
        error: v.pipe(v.string(), v.description("Error code and why RDKit could not take it.")),
      })),
      v.description(`Entries left out of the search, the first ${MAX_SKIPPED_LISTED}.`),
    )),
    skipped_count: v.optional(count("Entries left out of the search, listed or not.")),
    method: v.pipe(v.string(), v.description("Fingerprint definition and reference.")),
  }),
  // The split is planned on the protocol thread; every part runs in the pool (similarity_search:part).
  placement: { where: "in_place" },
  workerTools: [similarityPartTool as unknown as Tool],
  run: ({ query, library, threshold, top_k }) =>
    answer(library, top_k, [searchPart(query, library, 0, threshold, top_k)]),
  fanOut: async ({ query, library, threshold, top_k }, run, workers, signal) => {
    const parts = Math.max(1, Math.min(workers, Math.floor(library.length / MIN_PART_ENTRIES)));
    const size = Math.ceil(library.length / parts);
    const found = await Promise.all(
      Array.from({ length: parts }, (_, i) =>
        run(
          similarityPartTool as unknown as Tool,
          { query, library: library.slice(i * size, (i + 1) * size), start: i * size, threshold, top_k },
          signal,
        ) as Promise<Part>),
    );
    return answer(library, top_k, found);
  },
});

/** One part's answer: its best `top_k` hits as `[index, score]` (unrounded), its hits in all, its skips. */
interface Part {
  readonly best: [number, number][];
  readonly total: number;
  readonly skipped: LibrarySearch["skipped"];
  readonly skippedCount: number;
}

/** Searches `library`, a part of the whole starting at `start`: indices in the answer are the whole's. */
function searchPart(
  query: string,
  library: readonly string[],
  start: number,
  threshold: number,
  topK: number,
): Part {
  const found = searchLibrary(query, library, threshold, MAX_SKIPPED_LISTED);
  return {
    best: found.hits.slice(0, topK).map((hit): [number, number] => [hit.index + start, hit.score]),
    total: found.hits.length,
    skipped: found.skipped.map((entry) => ({ ...entry, index: entry.index + start })),
    skippedCount: found.skippedCount,
  };
}

/**
 * The answer from the parts, in library order: every part's best `top_k` hold the whole's, so the merge is
 * exact; ties keep index order as in one pass.
 */
function answer(library: readonly string[], topK: number, parts: readonly Part[]) {
  const best = parts.flatMap((part) => part.best).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const rounded = best.slice(0, topK).map(([index, score]) => ({
    index,
    smiles: library[index]!,
    score: round4(score),
  }));
  // A library entry may be a 20,000-character SMILES: the hits listed stop at the answer cap.
  const { kept } = fitItems(rounded, ANSWER_MAX_CHARS);
  const skippedCount = parts.reduce((sum, part) => sum + part.skippedCount, 0);
  return {
    hits: kept,
    total_hits: parts.reduce((sum, part) => sum + part.total, 0),
    ...(skippedCount > 0
      ? {
        skipped: parts.flatMap((part) => part.skipped).slice(0, MAX_SKIPPED_LISTED),
        skipped_count: skippedCount,
      }
      : {}),
    method: ECFP4_METHOD,
  };
}
