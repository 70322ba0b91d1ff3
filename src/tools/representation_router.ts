import * as v from "valibot";
import { chooseRepresentation, KEYWORD_RULES, TASK_KINDS } from "../chem/represent.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `representation_router`: pick the text representation that suits an LLM task. */
export const representationRouterTool = defineTool({
  name: "representation_router",
  title: "Choose a molecule representation",
  description:
    "Choose the text representation of a molecule best suited to a task, by fixed documented rules (a " +
    "heuristic, not a benchmark result), and return the molecule in it. task_kind, when given, decides: " +
    "atom_edit, reaction_mapping, stereo_review -> MolJSON (explicit indexed atoms/bonds); identity_dedup, " +
    "database_lookup -> standard InChI (IUPAC canonical identifier; Heller et al., J. Cheminform. 2015, 7, " +
    "23); xml_pipeline -> CML (Chemical Markup Language, Murray-Rust & Rzepa 1999, written in the " +
    "http://www.xml-cml.org/schema namespace); compact_prompt, generation -> RDKit canonical SMILES. " +
    "Otherwise keywords in the free-text task are tried in order " +
    `(${KEYWORD_RULES.map((r) => r.id.replace("keyword:", "")).join(", ")}); with no match the default is ` +
    "canonical SMILES. The result names the rule that fired and the reason. Limit: " +
    `${MAX_HEAVY_ATOMS} heavy atoms. Fails with INVALID_SMILES, MOLECULE_TOO_LARGE, or UNSUPPORTED_MOLECULE ` +
    "(InChI chosen for a molecule InChI cannot represent, e.g. with '*' atoms).",
  input: v.strictObject({
    smiles: smilesArg("Molecule as SMILES."),
    task: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(2000),
        v.description(
          "Free-text description of what the molecule will be used for (at most 2000 characters).",
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
  run: ({ smiles, task, task_kind }) => ({
    smiles,
    ...chooseRepresentation({ smiles, task, task_kind }),
    heuristic: true as const,
  }),
});
