import * as v from "valibot";
import {
  depict,
  DEPICT_MAX_SIDE,
  DEPICT_MIN_SIDE,
  depictGrid,
  type Depiction,
  GRID_MAX,
  GRID_MAX_SIDE,
  type HighlightSource,
} from "../chem/depict.ts";
import { svgToPng, toBase64 } from "../chem/raster.ts";
import { count, smilesString } from "./common.ts";
import { defineContentTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

const side = (fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(DEPICT_MIN_SIDE),
      v.maxValue(DEPICT_MAX_SIDE),
      v.description("px."),
    ),
    fallback,
  );

const indices = (what: string) => v.pipe(v.array(v.number()), v.description(what));

// One argument for one molecule or a grid, so the schema can require it: "exactly one of smiles and grid" has no
// JSON Schema a model API accepts at the top of a tool's input (docs/decisions.md).
const input = v.pipe(
  v.strictObject({
    smiles: v.pipe(
      v.union([
        smilesString,
        v.pipe(v.array(smilesString), v.minLength(1), v.maxLength(GRID_MAX)),
      ]),
      v.description("SMILES, or a list (grid)."),
      v.examples(["CCO"]),
    ),
    highlight: v.optional(
      v.pipe(
        v.picklist(["smarts", "alerts", "mcs"]),
        v.description("alerts: PAINS/Brenk."),
      ),
    ),
    smarts: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(5000), v.description("To highlight.")),
    ),
    mcs_with: v.optional(v.pipe(smilesString, v.description("For mcs."))),
    format: v.optional(v.pipe(v.picklist(["svg", "png"]), v.description("png: image.")), "svg"),
    width: side(300),
    height: side(250),
  }),
  v.check(
    (a) => !Array.isArray(a.smiles) || Math.max(a.width, a.height) <= GRID_MAX_SIDE,
    `In a grid, width and height are at most ${GRID_MAX_SIDE} px each.`,
  ),
  v.check(
    (a) => (a.smarts !== undefined) === ((a.highlight ?? (a.smarts ? "smarts" : undefined)) === "smarts"),
    "smarts goes with highlight smarts (the default when smarts is given), and highlight smarts needs smarts.",
  ),
  v.check(
    (a) => (a.mcs_with !== undefined) === (a.highlight === "mcs"),
    "highlight mcs needs mcs_with, and mcs_with needs highlight mcs.",
  ),
);

const output = v.object({
  format: v.pipe(v.picklist(["svg", "png"]), v.description("Picture format.")),
  width: count("Picture width, px."),
  height: count("Picture height, px."),
  molecules: v.pipe(
    v.array(v.object({
      highlight_atoms: indices("Highlighted atoms (0-based, SMILES order), ascending."),
      highlight_bonds: indices("Highlighted bonds (0-based, SMILES order), ascending."),
      highlights: v.pipe(
        v.array(v.object({
          why: v.pipe(v.string(), v.description("SMARTS match, the alert (family and name), or the MCS.")),
          atoms: indices("Atoms, in the query's atom order."),
          bonds: indices("Bonds of the query's bonds."),
        })),
        v.description("One entry per SMARTS match, alert raised, or MCS."),
      ),
    })),
    v.description("Per molecule drawn, in input order."),
  ),
});

/** What `run` hands to the content hook: the structured facts and the picture. */
type Drawn = v.InferInput<typeof output> & { readonly picture: string };

/** The highlight the arguments ask for. */
function sourceOf(
  args: { highlight?: "smarts" | "alerts" | "mcs"; smarts?: string; mcs_with?: string },
): HighlightSource | undefined {
  if (args.smarts !== undefined) return { kind: "smarts", smarts: args.smarts };
  if (args.highlight === "alerts") return { kind: "alerts" };
  if (args.mcs_with !== undefined) return { kind: "mcs", with: args.mcs_with };
  return undefined;
}

/** `depict`: a 2D picture of one molecule or a grid, with highlights, as SVG or PNG. */
export const depictTool = defineContentTool({
  name: "depict",
  title: "Depiction",
  annotations: LOCAL_COMPUTATION,
  description:
    "A 2D picture (SVG or PNG) of a molecule or a grid, with highlights; lists highlighted atoms, bonds, why. " +
    "Errors: INVALID_SMILES, INVALID_SMARTS, MOLECULE_TOO_LARGE.",
  input,
  output,
  placement: {
    where: "pool",
    // A highlight search (SMARTS, MCS) has no time limit of its own: possibly long, whatever its text.
    cost: ({ smiles, highlight, smarts, mcs_with }) =>
      smarts !== undefined || highlight === "mcs" ? "costly" : textsCost(smiles, mcs_with),
  },
  run: async (args): Promise<Drawn> => {
    const options = {
      width: args.width,
      height: args.height,
      highlight: sourceOf(args),
    };
    const drawn: Depiction = Array.isArray(args.smiles)
      ? depictGrid(
        args.smiles.map((smiles, i) => ({ smiles, legend: String(i) })),
        options,
      )
      : depict(args.smiles, options);
    const picture = args.format === "png" ? toBase64(await svgToPng(drawn.svg)) : drawn.svg;
    return {
      format: args.format,
      width: drawn.width,
      height: drawn.height,
      molecules: drawn.molecules,
      picture,
    };
  },
  content: ({ picture, ...structured }) => ({
    blocks: [
      structured.format === "png"
        ? { type: "image", data: picture, mimeType: "image/png" }
        : { type: "text", text: picture },
    ],
    structured,
  }),
});
