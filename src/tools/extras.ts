/**
 * Tools beyond the specification's twenty. They are served only when `--tools` names them (or their group
 * `extra`, or `all`); the default listing is the specification's tools alone.
 *
 * @module
 */
import type { Tool } from "./tool.ts";
import { batchTool } from "./batch.ts";
import { similaritySearchTool } from "./similarity_search.ts";
import { depictTool } from "./depict.ts";
import { runReactionTool } from "./run_reaction.ts";
import { convertTool } from "./convert.ts";
import { librarySearchTool } from "./library_search.ts";
import { standardizeTool } from "./standardize.ts";
import { rgroupDecomposeTool } from "./rgroup_decompose.ts";

/** The extra tools, in the order `tools/list` shows them after the specification's twenty. */
export const EXTRA_TOOLS: readonly Tool[] = [
  batchTool,
  similaritySearchTool,
  depictTool,
  runReactionTool,
  convertTool,
  librarySearchTool,
  standardizeTool,
  rgroupDecomposeTool,
] as unknown as readonly Tool[];
