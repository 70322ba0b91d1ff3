/**
 * `similarity_search`: the library molecules most similar to a query, the contract of the sample web
 * application's POST /similarity (one function, src/chem/similarity.ts, answers both).
 *
 * @module
 */
import * as v from "valibot";
import { ECFP4_METHOD } from "../chem/fingerprint.ts";
import { similaritySearch } from "../chem/similarity.ts";
import { smilesArg, smilesString } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** Most library entries one search takes (as POST /similarity); 10,000 drug-like SMILES fit the 1 MiB request. */
export const MAX_LIBRARY_SIZE = 10_000;

/** `similarity_search`: ECFP4 Tanimoto of a query to every molecule of a library, hits best first. */
export const similaritySearchTool = defineTool({
  name: "similarity_search",
  title: "Similarity search",
  annotations: LOCAL_COMPUTATION,
  description:
    "Library molecules with ECFP4 Tanimoto similarity (RDKit Morgan radius 2, 2048 bits) to query " +
    "≥ threshold, best first (ties by index): each hit's index in library, SMILES and score (0–1, unrounded). " +
    `Up to ${MAX_LIBRARY_SIZE} molecules. Error: INVALID_SMILES naming query or library[i].`,
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
    method: v.pipe(v.string(), v.description("Fingerprint definition and reference.")),
  }),
  placement: { where: "pool", cost: ({ query, library }) => textsCost(query, library) },
  run: ({ query, library, threshold, top_k }) => ({
    hits: similaritySearch(query, library, threshold).slice(0, top_k),
    method: ECFP4_METHOD,
  }),
});
