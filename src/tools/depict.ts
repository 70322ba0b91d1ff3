import * as v from "valibot";
import {
  depict,
  DEPICT_MAX_SIDE,
  DEPICT_MIN_SIDE,
  type DepictedMolecule,
  depictGrid,
  type Depiction,
  GRID_MAX,
  GRID_MAX_SIDE,
  type HighlightSource,
} from "../chem/depict.ts";
import { HIGHLIGHT_MAX_QUERY_ATOMS } from "../chem/depict_bounds.ts";
import { svgToPng } from "../chem/raster.ts";
import { toBase64 } from "../bytes.ts";
import { count, smilesString } from "./common.ts";
import { FACTS_MAX_CHARS, fitFacts } from "./depict_facts.ts";
import { defineContentTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** Longest grid label, characters: a name or an identifier under a 100 px cell. */
export const LABEL_MAX_CHARS = 40;
/**
 * Longest SVG answered, characters; past it the picture is sent as PNG (and the facts say so). Sixteen drugs
 * make some 400,000 characters of SVG; a grid of label-dense molecules made 9.1 MiB.
 */
export const SVG_MAX_CHARS = 1_000_000;

const side = (fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(DEPICT_MIN_SIDE),
      v.maxValue(DEPICT_MAX_SIDE),
      v.description("px"),
    ),
    fallback,
  );

const indices = (what: string) => v.pipe(v.array(v.number()), v.description(what));

// One argument for one molecule or a grid, so the schema can require it: "exactly one of smiles and grid" has no
// JSON Schema a model API accepts at the top of a tool's input (docs/decisions/depict.md).
const input = v.pipe(
  v.strictObject({
    smiles: v.pipe(
      v.union([
        smilesString,
        v.pipe(v.array(smilesString), v.minLength(1), v.maxLength(GRID_MAX)),
      ]),
      v.description("SMILES, or a list for a grid."),
      v.examples(["CCO"]),
    ),
    labels: v.optional(
      v.pipe(
        // As long as the list of SMILES (checked below), so at most GRID_MAX.
        v.array(v.pipe(v.string(), v.maxLength(LABEL_MAX_CHARS))),
        v.description("Captions."),
      ),
    ),
    highlight: v.optional(
      v.pipe(
        v.picklist(["smarts", "alerts", "mcs"]),
        v.description("alerts: PAINS/Brenk"),
      ),
    ),
    smarts: v.optional(
      v.pipe(
        v.string(),
        // Bounded here, worded in the refusal: as minLength/maxLength the bound would cost the listing characters.
        v.check(
          (text: string) => text.length >= 1 && text.length <= 5000,
          "smarts has 1 to 5000 characters.",
        ),
        v.description(`≤${HIGHLIGHT_MAX_QUERY_ATOMS} atoms`),
      ),
    ),
    mcs_with: v.optional(v.pipe(smilesString, v.description("For mcs."))),
    // An SVG over SVG_MAX_CHARS is sent as PNG; the facts' note says so where it happens.
    format: v.optional(v.pipe(v.picklist(["png", "svg"]), v.description("png: image")), "png"),
    width: side(300),
    height: side(250),
  }),
  v.check(
    (a) => !Array.isArray(a.smiles) || Math.max(a.width, a.height) <= GRID_MAX_SIDE,
    `In a grid, width and height are at most ${GRID_MAX_SIDE} px each.`,
  ),
  v.check(
    (a) => a.labels === undefined || (Array.isArray(a.smiles) && a.labels.length === a.smiles.length),
    "labels go with a list of SMILES, one label per molecule.",
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
      highlight_atoms: v.optional(indices("Highlighted atoms (0-based, SMILES order), ascending.")),
      highlight_bonds: v.optional(indices("Highlighted bonds (0-based, SMILES order), ascending.")),
      highlights: v.optional(v.pipe(
        v.array(v.object({
          why: v.pipe(v.string(), v.description("SMARTS match, the alert (family and name), or the MCS.")),
          atoms: indices("Atoms, in the query's atom order."),
          bonds: indices("Bonds of the query's bonds."),
        })),
        v.description("One entry per SMARTS match, alert raised, or MCS."),
      )),
    })),
    v.description("Per molecule drawn, in input order; an empty list is left out."),
  ),
  left_out: v.optional(v.pipe(
    v.object({ highlights: count("Groups."), atoms: count("Atoms."), bonds: count("Bonds.") }),
    v.description(`Facts not listed, to keep this text within ${FACTS_MAX_CHARS} characters.`),
  )),
  note: v.optional(v.pipe(v.string(), v.description("Why the format differs from the one asked."))),
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

/** The picture in the format asked, or PNG when the SVG is over {@link SVG_MAX_CHARS}. */
async function picture(drawn: Depiction, format: "png" | "svg") {
  if (format === "svg" && drawn.svg.length <= SVG_MAX_CHARS) return { format, picture: drawn.svg };
  const png = toBase64(await svgToPng(drawn.svg));
  if (format === "png") return { format, picture: png };
  const note = `SVG of ${drawn.svg.length} characters is over the ${SVG_MAX_CHARS} cap; sent as PNG.`;
  return { format: "png" as const, picture: png, note };
}

/** A molecule's facts without its empty lists: sixteen empty entries would take most of the facts' budget. */
function compact(m: DepictedMolecule): Partial<DepictedMolecule> {
  return Object.fromEntries(Object.entries(m).filter(([, list]) => list.length > 0));
}

/**
 * `depict`: a 2D picture of one molecule or a grid, with highlights, as PNG (what MCP clients show) or SVG.
 * Layout: CoordGen for molecules of up to 100 heavy atoms whose rings have at most 24 atoms, since it draws
 * bridged polycycles (morphine, strychnine, paclitaxel) without the crossing bonds and the label over a bond of
 * RDKit's own layout; RDKit's own for macrocycles (a round ring, where CoordGen's time grows steeply with ring
 * size) and larger molecules (docs/decisions/depict-layout.md). Sizes in px.
 */
export const depictTool = defineContentTool({
  name: "depict",
  title: "Depiction",
  annotations: LOCAL_COMPUTATION,
  description: "A 2D picture (PNG/SVG), highlights listed. " +
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
    const options = { width: args.width, height: args.height, highlight: sourceOf(args) };
    const drawn: Depiction = Array.isArray(args.smiles)
      ? depictGrid(
        args.smiles.map((smiles, i) => ({ smiles, legend: args.labels?.[i] || String(i) })),
        options,
      )
      : depict(args.smiles, options);
    const shown = await picture(drawn, args.format);
    const head = { format: shown.format, width: drawn.width, height: drawn.height };
    const facts = fitFacts(drawn.molecules, (molecules, leftOut) => ({
      ...head,
      molecules: molecules.map(compact),
      ...(leftOut ? { left_out: leftOut } : {}),
      ...(shown.note ? { note: shown.note } : {}),
    }));
    return { ...facts, picture: shown.picture };
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
