import * as v from "valibot";
import {
  depict,
  DEPICT_MAX_HEAVY_ATOMS,
  DEPICT_MAX_SIDE,
  DEPICT_MIN_SIDE,
  depictGrid,
  type Depiction,
  GRID_MAX,
  GRID_MAX_HEAVY_ATOMS,
  GRID_MAX_SIDE,
  type HighlightSource,
} from "../chem/depict.ts";
import { MCS_MAX_HEAVY_ATOMS } from "../chem/mcs.ts";
import { svgToPng, toBase64 } from "../chem/raster.ts";
import { count, smilesArg, smilesString } from "./common.ts";
import { defineContentTool, LOCAL_COMPUTATION } from "./tool.ts";

/** Longest legend of a grid cell, characters. */
export const LEGEND_MAX = 60;

const side = (what: string, fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(DEPICT_MIN_SIDE),
      v.maxValue(DEPICT_MAX_SIDE),
      v.description(`${what} of one molecule, px (in a grid ≤ ${GRID_MAX_SIDE}).`),
    ),
    fallback,
  );

const indices = (what: string) => v.pipe(v.array(v.number()), v.description(what));

const input = v.pipe(
  v.strictObject({
    smiles: v.optional(smilesArg("Molecule as SMILES (or grid).")),
    grid: v.optional(
      v.pipe(
        v.array(smilesString),
        v.minLength(1),
        v.maxLength(GRID_MAX),
        v.description(`Up to ${GRID_MAX} SMILES drawn as one grid picture, 4 per row.`),
      ),
    ),
    legends: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.maxLength(LEGEND_MAX))),
        v.maxLength(GRID_MAX),
        v.description("Caption per grid molecule (default: its 0-based position)."),
      ),
    ),
    highlight: v.optional(
      v.pipe(
        v.picklist(["smarts", "alerts", "mcs"]),
        v.description("What to highlight (smarts: given smarts)."),
      ),
    ),
    smarts: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(5000), v.description("SMARTS pattern.")),
    ),
    mcs_with: v.optional(smilesArg("Second molecule for highlight mcs.")),
    format: v.optional(v.picklist(["svg", "png"]), "svg"),
    width: side("Width", 300),
    height: side("Height", 250),
    atom_indices: v.optional(v.pipe(v.boolean(), v.description("Label atoms with their indices.")), false),
  }),
  v.check((a) => (a.smiles === undefined) !== (a.grid === undefined), "Give exactly one of smiles and grid."),
  v.check(
    (a) => a.grid === undefined || Math.max(a.width, a.height) <= GRID_MAX_SIDE,
    `In a grid, width and height are at most ${GRID_MAX_SIDE} px each.`,
  ),
  v.check(
    (a) => a.legends === undefined || a.legends.length === a.grid?.length,
    "legends needs grid, with one legend per molecule.",
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
  format: v.picklist(["svg", "png"]),
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
  title: "Molecule picture",
  annotations: LOCAL_COMPUTATION,
  description:
    `Draw a molecule, or a grid of up to ${GRID_MAX} (grid, legends), in 2D with RDKit as SVG text (default) or ` +
    "a PNG image, highlighting atoms and bonds: smarts (every match), highlight alerts (the PAINS and Brenk " +
    "alerts it raises) or highlight mcs (maximum common substructure with mcs_with). The result lists each " +
    "molecule's highlighted atom and bond indices and why, for readers who cannot see the picture. Errors: " +
    `INVALID_SMILES, INVALID_SMARTS, MOLECULE_TOO_LARGE (> ${DEPICT_MAX_HEAVY_ATOMS} heavy atoms, ` +
    `${MCS_MAX_HEAVY_ATOMS} with mcs, ${GRID_MAX_HEAVY_ATOMS} in a grid).`,
  input,
  output,
  run: async (args): Promise<Drawn> => {
    const options = {
      width: args.width,
      height: args.height,
      highlight: sourceOf(args),
      atomIndices: args.atom_indices,
    };
    const drawn: Depiction = args.grid
      ? depictGrid(
        args.grid.map((smiles, i) => ({ smiles, legend: args.legends?.[i] ?? String(i) })),
        options,
      )
      : depict(args.smiles!, options);
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
