import * as v from "valibot";
import {
  convertOne,
  convertSdf,
  INPUT_FORMATS,
  MAX_INPUT_CHARS,
  MAX_MOLBLOCK_ATOMS,
  MAX_SD_RECORDS,
  OUTPUT_FORMATS,
} from "../chem/convert.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { molBlocksCost, textsCost } from "./placement.ts";

const structure = v.pipe(v.string(), v.description("The converted structure."));

/** `convert`: structure formats in and out. */
export const convertTool = defineTool({
  name: "convert",
  title: "Convert structure formats",
  annotations: LOCAL_COMPUTATION,
  description:
    "Convert a structure (RDKit): SMILES, MOL block or SD file (V2000/V3000) to canonical SMILES, MOL block " +
    "V2000 or V3000, InChI or InChIKey. Keeps stereo, charges, isotopes, radicals; drops a MOL block's " +
    "explicit H, as RDKit reads it. An SD file answers per record, in order. No InChI input: RDKit's " +
    "WebAssembly build has no InChI reader. " +
    `Limits: ${MAX_HEAVY_ATOMS} heavy atoms, ${MAX_MOLBLOCK_ATOMS} atoms per block, ${MAX_SD_RECORDS} records. ` +
    "Errors: INVALID_SMILES, INVALID_MOLBLOCK, MOLECULE_TOO_LARGE, UNSUPPORTED_MOLECULE.",
  input: v.strictObject({
    input: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_INPUT_CHARS),
      v.description("Structure text."),
      v.examples(["CCO"]),
    ),
    from: v.pipe(v.picklist(INPUT_FORMATS), v.description("Input format.")),
    to: v.pipe(v.picklist(OUTPUT_FORMATS), v.description("Output format (molblock: V2000).")),
  }),
  output: v.object({
    to: v.pipe(v.picklist(OUTPUT_FORMATS), v.description("The format written.")),
    output: v.optional(structure),
    records: v.optional(v.pipe(
      v.array(v.object({
        name: v.optional(v.pipe(v.string(), v.description("The record's title line."))),
        output: v.optional(structure),
        error: v.optional(v.pipe(
          v.object({
            code: v.pipe(v.string(), v.description("Error code, as for a whole call.")),
            message: v.pipe(v.string(), v.description("What is wrong with the record.")),
          }),
          v.description("Why the record could not be converted."),
        )),
      })),
      v.description("From sdf: one per record, in order, with output or error."),
    )),
  }),
  placement: {
    where: "pool",
    cost: ({ input, from }) => from === "smiles" ? textsCost(input) : molBlocksCost(input),
  },
  run: ({ input, from, to }) =>
    from === "sdf" ? { to, records: convertSdf(input, to) } : { to, output: convertOne(input, from, to) },
});
