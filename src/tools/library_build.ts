/**
 * A batch of a compound library's molecules made into index entries in a tool worker, while the server builds
 * the index at start (`--library`): every worker computes a batch at once, so the build runs on every core. Never
 * listed; served by the workers as a tool of `library_search`.
 *
 * @module
 */
import * as v from "valibot";
import { indexTexts } from "../chem/library/entries.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";

/** `library_search:build`: the entries of a batch of SMILES or MOL blocks (src/chem/library/entries.ts). */
export const libraryBuildTool = defineTool({
  name: "library_search:build",
  title: "Library index, one batch",
  annotations: LOCAL_COMPUTATION,
  description: "Makes a batch of library records into index entries.",
  input: v.strictObject({ texts: v.array(v.string()) }),
  output: v.object({
    failures: v.array(v.nullable(v.string())),
    smiles: v.array(v.string()),
    ecfp4: v.string(),
    patterns: v.string(),
    patternEnds: v.array(v.number()),
  }),
  // Part of a list for the pool: it may hold every worker, and a library molecule is light (entries.ts refuses
  // the others before RDKit reads them).
  placement: { where: "pool", chunkOf: "library_search" },
  run: ({ texts }) => indexTexts(texts),
});
