/**
 * `similarity_search`: the library molecules most similar to a query. The sample web application's POST
 * /similarity computes the same scores (src/chem/similarity.ts) but keeps its documented contract: a library
 * entry RDKit cannot read is an error naming it, where this tool skips and lists it.
 *
 * @module
 */
import * as v from "valibot";
import { ECFP4_METHOD } from "../chem/fingerprint.ts";
import { searchLibrary } from "../chem/similarity.ts";
import { ANSWER_MAX_CHARS, fitItems } from "./answer_cap.ts";
import { count, smilesArg, smilesString } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** Most library entries one search takes (as POST /similarity); 10,000 drug-like SMILES fit the 1 MiB request. */
export const MAX_LIBRARY_SIZE = 10_000;

/** Default `top_k`: ten hits of drug-like SMILES are some 700 characters. */
export const DEFAULT_TOP_K = 10;
/** Most skipped entries listed; the rest are counted. */
export const MAX_SKIPPED_LISTED = 20;

/** A score to 4 decimals (17 digits say nothing more to a reader); ties beyond them keep their order. */
function round4(score: number): number {
  return Math.round(score * 1e4) / 1e4;
}

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
  placement: { where: "pool", cost: ({ query, library }) => textsCost(query, library) },
  run: ({ query, library, threshold, top_k }) => {
    const found = searchLibrary(query, library, threshold, MAX_SKIPPED_LISTED);
    const rounded = found.hits.slice(0, top_k).map((hit) => ({ ...hit, score: round4(hit.score) }));
    // A library entry may be a 20,000-character SMILES: the hits listed stop at the answer cap.
    const { kept } = fitItems(rounded, ANSWER_MAX_CHARS);
    return {
      hits: kept,
      total_hits: found.hits.length,
      ...(found.skippedCount > 0 ? { skipped: found.skipped, skipped_count: found.skippedCount } : {}),
      method: ECFP4_METHOD,
    };
  },
});
