import * as v from "valibot";
import {
  convertTo,
  eachSdRecord,
  INPUT_FORMATS,
  MAX_INPUT_CHARS,
  MAX_MOLBLOCK_ATOMS,
  MAX_SD_RECORDS,
  OUTPUT_FORMATS,
} from "../chem/convert.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { count } from "./common.ts";
import { ANSWER_MAX_CHARS, fitItems } from "./answer_cap.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { molBlocksCost, textsCost } from "./placement.ts";

const structure = v.pipe(v.string(), v.description("The converted structure."));
const format = v.picklist(OUTPUT_FORMATS);
/** Each output named by its format. */
const outputs = v.pipe(
  v.object(
    Object.fromEntries(
      OUTPUT_FORMATS.map((f) => [f, v.optional(v.pipe(v.string(), v.description(f)))]),
    ) as unknown as {
      [K in typeof OUTPUT_FORMATS[number]]: v.OptionalSchema<v.GenericSchema<string>, undefined>;
    },
  ),
  v.description("With a list in to: each format's output."),
);

/** Why no InChI is read, in the words of a refused `from` (the schema lists only what is read). */
const NO_INCHI_READER =
  "InChI cannot be read: RDKit's WebAssembly build has no InChI reader. Pass SMILES, a " +
  "MOL block or an SD file (from: smiles, molblock or sdf).";

/** `convert`: structure formats in and out. */
export const convertTool = defineTool({
  name: "convert",
  title: "Convert structure formats",
  annotations: LOCAL_COMPUTATION,
  description:
    "Convert a structure (RDKit): SMILES, MOL block or SD file (V2000/V3000, per record) to canonical SMILES," +
    " MOL block V2000/V3000, InChI, InChIKey; to a list: outputs named. No explicit H. " +
    `No InChI input. Limits: ${MAX_HEAVY_ATOMS} heavy atoms, ${MAX_MOLBLOCK_ATOMS} atoms/block, ` +
    `${MAX_SD_RECORDS} SD records. Errors: INVALID_SMILES, INVALID_MOLBLOCK, MOLECULE_TOO_LARGE, ` +
    "UNSUPPORTED_MOLECULE.",
  input: v.strictObject({
    input: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_INPUT_CHARS),
      v.description("Structure text."),
      v.examples(["CCO"]),
    ),
    from: v.pipe(
      v.picklist(
        INPUT_FORMATS,
        (issue) => issue.input === "inchi" ? NO_INCHI_READER : `from is one of ${INPUT_FORMATS.join(", ")}.`,
      ),
      v.description("Input format."),
    ),
    to: v.pipe(
      v.union([
        format,
        v.pipe(
          v.array(format),
          v.minLength(1),
          v.check((list) => new Set(list).size === list.length, "to lists each format once."),
        ),
      ]),
      v.description("Format or list (molblock: V2000)."),
    ),
  }),
  output: v.object({
    to: v.pipe(v.union([format, v.array(format)]), v.description("The format(s) written.")),
    output: v.optional(structure),
    outputs: v.optional(outputs),
    records: v.optional(v.pipe(
      v.array(v.object({
        name: v.optional(v.pipe(v.string(), v.description("The record's title line."))),
        output: v.optional(structure),
        outputs: v.optional(outputs),
        error: v.optional(v.pipe(
          v.object({
            code: v.pipe(v.string(), v.description("Error code, as for a whole call.")),
            message: v.pipe(v.string(), v.description("What is wrong with the record.")),
          }),
          v.description("Why the record could not be converted."),
        )),
      })),
      v.description("From sdf: one per record, in order, with output(s) or error."),
    )),
    left_out: v.optional(
      count(`Records converted but not listed: the answer reached ${ANSWER_MAX_CHARS} chars.`),
    ),
  }),
  placement: {
    where: "pool",
    cost: ({ input, from }) => from === "smiles" ? textsCost(input) : molBlocksCost(input),
  },
  run: ({ input, from, to }) => {
    const formats = typeof to === "string" ? [to] : to;
    // One format answers `output`, a list `outputs` named by format.
    const shape = (written: Partial<Record<typeof formats[number], string>>) =>
      typeof to === "string" ? { output: written[to]! } : { outputs: written };
    if (from !== "sdf") return { to, ...shape(convertTo(input, from, formats)) };
    const records = eachSdRecord(input, (record) => shape(convertTo(record, "molblock", formats)));
    // 200 records of 1,000-atom blocks would be some 14 MB: the records listed stop at the answer cap.
    const { kept, leftOut } = fitItems(records, ANSWER_MAX_CHARS);
    return { to, records: kept, ...(leftOut > 0 ? { left_out: leftOut } : {}) };
  },
});
