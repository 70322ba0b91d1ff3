import * as v from "valibot";
import { MAX_MATCHES_LIMIT, smartsMatch } from "../chem/substructure.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

/** Default wall-clock bound of one search, s. */
export const DEFAULT_SMARTS_TIMEOUT_S = 10;
/** Largest accepted `timeout_seconds`. */
export const MAX_SMARTS_TIMEOUT_S = 30;

/** `smarts_match`: substructure search. */
export const smartsMatchTool = defineTool({
  name: "smarts_match",
  title: "SMARTS substructure search",
  annotations: LOCAL_COMPUTATION,
  description: "Search a molecule for a SMARTS pattern (RDKit): whether it matches, the unique " +
    "match count and each match's atom indices (0-based, SMILES order) in SMARTS atom order; time-limited. For " +
    "PAINS or Brenk alerts use pains_check or brenk_check. Errors: INVALID_SMILES, INVALID_SMARTS, " +
    "COMPUTATION_TIMEOUT.",
  input: v.strictObject({
    smiles: smilesArg(),
    smarts: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(5000),
      v.description("SMARTS pattern."),
      v.examples(["[OX2H]"]),
    ),
    max_matches: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_MATCHES_LIMIT),
        v.description("Stop after this many unique matches."),
      ),
      1000,
    ),
    timeout_seconds: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_SMARTS_TIMEOUT_S),
        v.description("Wall-clock limit, s."),
      ),
      DEFAULT_SMARTS_TIMEOUT_S,
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    smarts: v.pipe(v.string(), v.description("The SMARTS as given.")),
    matched: v.pipe(v.boolean(), v.description("True when the pattern occurs at least once.")),
    match_count: count("Unique matches found (a lower bound when truncated)."),
    matches: v.pipe(
      v.array(v.array(v.number())),
      v.description("Atom indices of each match, listed in the order of the SMARTS atoms."),
    ),
    truncated: v.pipe(v.boolean(), v.description("True when the search stopped at max_matches.")),
  }),
  list: { cap: 1000, columns: ["matched", "match_count", "truncated"] },
  placement: {
    where: "pool",
    deadlineMs: ({ timeout_seconds }) => timeout_seconds * 1000,
    cost: ({ smiles, smarts }) => textsCost(smiles, smarts),
    warmUp: [{ smiles: WARM_UP_SMILES.paracetamol, smarts: "[OX2H]" }],
  },
  run: ({ smiles, smarts, max_matches }) => ({ smiles, smarts, ...smartsMatch(smiles, smarts, max_matches) }),
});
