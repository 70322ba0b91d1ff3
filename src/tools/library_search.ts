/**
 * `library_search`: similarity and substructure search of the operator's compound library (`--library`),
 * listed only when one is loaded.
 *
 * @module
 */
import * as v from "valibot";
import { ecfp4Of } from "../chem/fingerprint.ts";
import { currentLibrary, describeSkips, type LoadedLibrary } from "../chem/library/load.ts";
import { copyWords } from "../chem/library/index.ts";
import { similarityHits } from "../chem/library/similarity.ts";
import { substructureHits } from "../chem/library/substructure.ts";
import { count } from "./common.ts";
import { libraryBuildTool } from "./library_build.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "./tool.ts";

/** Time a substructure search may take before it answers with what it found, ms (smarts_match's default). */
export const SUBSTRUCTURE_BUDGET_MS = 10_000;
/** Most hits one answer lists. */
export const MAX_TOP_K = 100;

const hit = v.object({
  id: v.pipe(v.string(), v.description("Id from the file (else its line).")),
  smiles: v.pipe(v.string(), v.description("RDKit canonical SMILES.")),
  score: v.optional(
    v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description("Tanimoto (similarity).")),
  ),
});

/** `library_search`: the loaded library's molecules most similar to a query, or containing a substructure. */
export const librarySearchTool = defineTool({
  name: "library_search",
  title: "Library search",
  annotations: LOCAL_COMPUTATION,
  description:
    "Search the server's compound library. similarity: ECFP4 Tanimoto (RDKit Morgan r2, 2048 bits) " +
    "to query SMILES ≥ threshold, best first. substructure: query SMARTS (a SMILES is one), RDKit " +
    `SubstructLibrary (pattern screen, match), file order, stops after ${
      SUBSTRUCTURE_BUDGET_MS / 1000
    } s with what it found. ` +
    "total counts every hit. Errors: INVALID_SMILES, INVALID_SMARTS.",
  input: v.strictObject({
    query: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(5000),
      v.description("SMILES, or SMARTS for substructure."),
    ),
    mode: v.optional(
      v.pipe(v.picklist(["similarity", "substructure"]), v.description("Search kind.")),
      "similarity",
    ),
    threshold: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description("Least similarity kept.")),
      0,
    ),
    top_k: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_TOP_K), v.description("Hits listed.")),
      10,
    ),
  }),
  output: v.object({
    searched: count("Molecules searched."),
    total: count("Hits in all, listed or not."),
    hits: v.pipe(v.array(hit), v.description("Best first (similarity) or in file order (substructure).")),
    stopped: v.optional(
      v.pipe(v.literal(true), v.description("Time bound reached: searched < library size.")),
    ),
    skipped: v.optional(v.pipe(v.string(), v.description("Records of the file not in the library."))),
  }),
  workerTools: [libraryBuildTool as unknown as Tool],
  run: async ({ query, mode, threshold, top_k }) => {
    const library = loaded();
    const { index } = library;
    const hits = (positions: readonly number[], scores?: readonly number[]) =>
      positions.map((position, i) => ({
        id: index.ids[position]!,
        smiles: library.shards.smiles(position),
        ...(scores ? { score: scores[i]! } : {}),
      }));
    // The answer names fewer skipped records, more briefly, than the startup line: it is read by the model.
    const skipped = library.skipped.count > 0
      ? { skipped: describeSkips(library.skipped, 2, 80).slice(2) }
      : {};
    if (mode === "similarity") {
      const fp = copyWords(ecfp4Of(query));
      const found = similarityHits(index, fp, threshold, top_k);
      return {
        searched: index.count,
        total: found.total,
        hits: hits(found.hits.map((h) => h.position), found.hits.map((h) => h.score)),
        ...skipped,
      };
    }
    const found = await substructureHits(library.shards, query, {
      limit: top_k,
      budgetMs: SUBSTRUCTURE_BUDGET_MS,
    });
    return {
      searched: found.searched,
      total: found.total,
      hits: hits(found.positions),
      ...(found.stopped ? { stopped: true as const } : {}),
      ...skipped,
    };
  },
});

function loaded(): LoadedLibrary {
  const library = currentLibrary();
  if (!library) throw new Error("library_search needs a library: start the server with --library PATH");
  return library;
}
