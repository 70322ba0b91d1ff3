/**
 * `batch`: one one-molecule tool over a list of molecules, the single entry point of the list machinery
 * (src/tools/list.ts). Its own tool rather than a `smiles_list` beside each tool's molecule, so that every tool's
 * input schema can require its molecule (docs/decisions/lists-as-tools.md).
 *
 * @module
 */
import * as v from "valibot";
import {
  LIST_ANSWER_WITHIN_MS,
  LIST_ARG,
  LIST_DEADLINE_FACTOR,
  LIST_START_ALLOWANCE_MS,
  listFormOf,
  runList,
  type RunTool,
} from "./list.ts";
import { SPEC_TOOLS } from "./spec_tools.ts";
import { standardizeTool } from "./standardize.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "./tool.ts";

/**
 * The tools `batch` runs, by name: every specification tool with a list form, and `standardize`, whose list is
 * the everyday clean-up of a compound set before it is compared or deduplicated.
 */
const LISTED: ReadonlyMap<string, Tool> = new Map(
  [...SPEC_TOOLS, standardizeTool as unknown as Tool].filter((tool) => tool.list).map((
    tool,
  ) => [tool.name, tool]),
);

const NAMES = [...LISTED.keys()] as [string, ...string[]];

/** The largest cap of any listed tool: the published bound on `smiles_list`. */
const MOST = Math.max(...[...LISTED.values()].map((tool) => tool.list!.cap));

/** "ecfp4 500, representation_router 100, …": the caps below {@link MOST}, largest first. */
function lowerCaps(): string {
  const byCap = new Map<number, string[]>();
  for (const tool of LISTED.values()) {
    if (tool.list!.cap < MOST) byCap.set(tool.list!.cap, [...(byCap.get(tool.list!.cap) ?? []), tool.name]);
  }
  return [...byCap].sort((a, b) => b[0] - a[0]).map(([cap, names]) => `${names.join(", ")} ${cap}`).join(
    "; ",
  );
}

/** A problem of `arguments` in words that name the tool and the argument. */
function restIssue(tool: string, issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue) ?? "";
  if (issue.type === "strict_object" && issue.expected === "never") {
    return `${tool} takes no argument '${path}' (in arguments)`;
  }
  if (issue.received === "undefined" && path) return `${tool} needs '${path}' in arguments`;
  return `'${path}' in arguments: ${issue.message}`;
}

/** `batch`'s arguments, checked whole: the tool's cap and its own arguments besides the molecule. */
const input = v.pipe(
  v.strictObject({
    tool: v.pipe(v.picklist(NAMES), v.description("Tool to run on each molecule.")),
    [LIST_ARG]: v.pipe(
      // An entry that is empty or too long is that item's typed error, not the call's.
      v.array(v.string()),
      v.minLength(1),
      v.maxLength(MOST),
      v.examples([["CCO", "c1ccccc1O"]]),
      v.description("Molecules as SMILES, each given as the tool's smiles (tanimoto: smiles_b)."),
    ),
    arguments: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description("The tool's other arguments, the same for every molecule (e.g. smarts, smiles_a)."),
      ),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { tool, [LIST_ARG]: list, arguments: rest } = dataset.value;
    const form = listFormOf(LISTED.get(tool)!)!;
    if (list.length > form.spec.cap) {
      addIssue({ message: `${tool} takes at most ${form.spec.cap} molecules in ${LIST_ARG}.` });
    }
    const parsed = v.safeParse(form.rest, rest ?? {});
    for (const issue of parsed.issues ?? []) addIssue({ message: restIssue(tool, issue) });
  }),
);

const output = v.looseObject({
  summary: v.pipe(v.string(), v.description("Molecules answered and failed.")),
  columns: v.optional(v.pipe(v.array(v.string()), v.description("Names of a row's values."))),
  results: v.pipe(
    v.array(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
    v.description(
      "One per molecule, in input order: a row of columns, or the tool's answer less what is said once " +
        "above; a failure as {index, error: {code, message}}.",
    ),
  ),
});

/** Runs a validated `batch` call through `run` (in place when not given). */
async function runBatch(
  args: v.InferOutput<typeof input>,
  run?: RunTool,
  workers?: number,
  signal?: AbortSignal,
): Promise<v.InferInput<typeof output>> {
  const tool = LISTED.get(args.tool)!;
  const form = listFormOf(tool)!;
  const rest = v.parse(form.rest, args.arguments ?? {});
  const answer = await runList(tool, { ...rest, [LIST_ARG]: args[LIST_ARG] }, run, workers, signal);
  // Checked against the tool's own list schema: rows of its columns, its shared fields.
  return v.parse(form.output, answer) as v.InferInput<typeof output>;
}

/** `batch`: one tool over up to 1,000 molecules. */
export const batchTool = defineTool({
  name: "batch",
  title: "One tool over a list of molecules",
  annotations: LOCAL_COMPUTATION,
  description:
    `Runs one of the one-molecule tools on each SMILES of ${LIST_ARG}, with arguments as its other ` +
    "arguments for all. Answers in input order: what every molecule shares said once (method, arguments), " +
    "then one entry per molecule, a failed one as {index, error} in its place (INVALID_SMILES…). At most " +
    `${MOST} molecules (${lowerCaps()}). A list ends by ${LIST_DEADLINE_FACTOR}× the tool's time limit for ` +
    `one molecule + ${LIST_START_ALLOWANCE_MS / 1000} s, at most ${LIST_ANSWER_WITHIN_MS / 1000} s; ` +
    "molecules not answered by then get COMPUTATION_TIMEOUT. " +
    "Ranked search: similarity_search.",
  input,
  output,
  placement: { where: "in_place" },
  run: (args) => runBatch(args),
  fanOut: (args, run, workers, signal) => runBatch(args, run, workers, signal),
});
