import * as v from "valibot";
import { chooseRepresentation, TASK_KINDS } from "../chem/represent.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `representation_router`: pick the text representation that suits an LLM task. */
export const representationRouterTool = defineTool({
  name: "representation_router",
  title: "Choose a molecule representation",
  annotations: LOCAL_COMPUTATION,
  description:
    "Pick the text representation that suits a task, by fixed documented rules (a heuristic), and return " +
    "the molecule in it. task_kind decides first: atom_edit, reaction_mapping, stereo_review → MolJSON; " +
    "identity_dedup, database_lookup → InChI; xml_pipeline → CML; compact_prompt, generation → canonical " +
    "SMILES. Otherwise keywords in task decide (default SMILES). " +
    "Errors: INVALID_SMILES, MOLECULE_TOO_LARGE " +
    `(> ${MAX_HEAVY_ATOMS} heavy atoms), UNSUPPORTED_MOLECULE (no InChI possible).`,
  input: v.strictObject({
    smiles: smilesArg("Molecule as SMILES."),
    task: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(2000),
        v.description(
          "What the molecule will be used for, in free text.",
        ),
      ),
    ),
    task_kind: v.optional(
      v.pipe(v.picklist(TASK_KINDS), v.description("Task category; takes precedence over the free text.")),
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    representation: v.pipe(
      v.picklist(["moljson", "cml", "inchi", "canonical_smiles"]),
      v.description("Chosen representation."),
    ),
    text: v.pipe(
      v.string(),
      v.description("The molecule in the chosen representation (MolJSON as compact JSON)."),
    ),
    reason: v.pipe(v.string(), v.description("Why this representation suits the task.")),
    rule: v.pipe(v.string(), v.description("Rule that fired: kind:<task_kind>, keyword:<name> or default.")),
    task_kind: v.pipe(v.nullable(v.picklist(TASK_KINDS)), v.description("Task kind the choice rests on.")),
    matched: v.pipe(v.nullable(v.string()), v.description("Text of the task that triggered a keyword rule.")),
    heuristic: v.pipe(v.literal(true), v.description("Always true: documented rules, not a benchmark.")),
  }),
  // The rule, and so the representation and its reason, rest on the task alone: the same for every molecule.
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 100, columns: ["text"], shared: ["representation", "reason", "rule", "matched"] },
  run: ({ smiles, task, task_kind }) => ({
    smiles,
    ...chooseRepresentation({ smiles, task, task_kind }),
    heuristic: true as const,
  }),
});
