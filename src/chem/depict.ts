/**
 * 2D depictions as SVG with RDKit MinimalLib's drawer (`get_svg_with_highlights`: CoordGen's 2D coordinates for
 * drug-sized molecules, RDKit's own beyond them (src/chem/depict_bounds.ts), atom labels drawn as outline paths by
 * its built-in font, so the SVG needs no font to render),
 * one molecule or a grid of them, with atoms and bonds highlighted: the matches of a SMARTS pattern, the PAINS
 * and Brenk alerts a molecule raises, or the maximum common substructure shared with a second molecule.
 *
 * Every highlighted atom and bond comes from RDKit's substructure matcher and is reported beside the picture
 * (which atoms, which bonds, and why), so a reader that cannot see the picture gets the same facts.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { BRENK_DEFINITIONS, brenkCheck, PAINS_DEFINITIONS, painsCheck } from "./alerts.ts";
import { checkHighlightQuery, withLayout } from "./depict_bounds.ts";
import { findMcs } from "./mcs.ts";
import { countSmilesAtoms, type Mol, withMol, withQuery } from "./rdkit.ts";

/** Most molecules in one grid. */
export const GRID_MAX = 16;
/** Molecules per grid row. */
export const GRID_COLUMNS = 4;
/** Smallest and largest side of one molecule's picture, px. */
export const DEPICT_MIN_SIDE = 100;
export const DEPICT_MAX_SIDE = 800;
/**
 * Largest side of one molecule's picture in a grid, px, so a grid is at most 2000 × 2000 px. resvg's WebAssembly
 * memory only grows: a 3200 × 3200 px PNG left a worker 110 MB larger for good, 2000 × 2000 px about 50 MB
 * (measured), and a pod runs two workers in 512 MiB (deploy/manifests.ts).
 */
export const GRID_MAX_SIDE = 500;
/** Largest molecule drawn (heavy atoms): laying out a 450-atom chain takes RDKit some 1.6 s (measured). */
export const DEPICT_MAX_HEAVY_ATOMS = 500;
/**
 * Most heavy atoms over all the molecules of one grid, so a grid of the largest molecules (16 × 500 atoms, some
 * 25 s of layout) cannot hold a worker near its deadline; a grid of 16 drug-like molecules is far below.
 */
export const GRID_MAX_HEAVY_ATOMS = 2000;
/** FMCS time budget of one molecule's MCS highlight, s (find_mcs's default). */
export const DEPICT_MCS_TIMEOUT_S = 2;
/** FMCS time budget per molecule of a grid, s: a grid's MCS work stays within 16 s. */
export const GRID_MCS_TIMEOUT_S = 1;

/** What to highlight. */
export type HighlightSource =
  | { readonly kind: "smarts"; readonly smarts: string }
  | { readonly kind: "alerts" }
  | { readonly kind: "mcs"; readonly with: string };

/** One highlighted group: the atoms and bonds of one match, and why they are highlighted. */
export interface HighlightGroup {
  /** Why: "SMARTS match", "PAINS_A alert ene_rhod_A(235)", "Brenk alert aldehyde", "MCS with <SMILES>". */
  readonly why: string;
  /** Atom indices (0-based, SMILES order) in the order of the query's atoms. */
  readonly atoms: number[];
  /** Bond indices (0-based, SMILES order) of the query's bonds. */
  readonly bonds: number[];
}

/** The facts one drawn molecule shows. */
export interface DepictedMolecule {
  /** Every highlighted atom, ascending. */
  readonly highlight_atoms: number[];
  /** Every highlighted bond, ascending. */
  readonly highlight_bonds: number[];
  /** The highlighted groups (one per SMARTS match, alert or MCS), each with its reason. */
  readonly highlights: HighlightGroup[];
}

/** Drawing options shared by every molecule of a call. */
export interface DepictOptions {
  /** One molecule's picture, px. */
  readonly width: number;
  readonly height: number;
  readonly highlight?: HighlightSource;
  /** Draw each atom's index beside it. */
  readonly atomIndices?: boolean;
}

/** A picture and what it shows. */
export interface Depiction {
  /** The SVG document (UTF-8, no external references). */
  readonly svg: string;
  /** Size of the whole picture, px. */
  readonly width: number;
  readonly height: number;
  /** One entry per molecule, in input order. */
  readonly molecules: DepictedMolecule[];
}

/** Highlight colours (RGB 0–1), one per alert in turn; a SMARTS or MCS highlight uses the first. */
const PALETTE: readonly (readonly [number, number, number])[] = [
  [1, 0.55, 0.55],
  [0.55, 0.75, 1],
  [0.6, 0.9, 0.55],
  [1, 0.8, 0.4],
  [0.85, 0.6, 1],
  [0.5, 0.9, 0.9],
];

/**
 * Draws one molecule. Throws `ChemError` for bad SMILES or SMARTS and for a molecule over the size limits.
 *
 * @example
 * ```ts
 * const d = depict("CC(=O)Nc1ccc(O)cc1", { width: 300, height: 250, highlight: { kind: "smarts", smarts: "[OX2H]" } });
 * d.molecules[0].highlight_atoms; // [8]
 * ```
 */
export function depict(smiles: string, options: DepictOptions): Depiction {
  const { svg, facts } = drawOne(smiles, options);
  return { svg: toUtf8Document(svg), width: options.width, height: options.height, molecules: [facts] };
}

/**
 * Draws a grid of molecules, {@link GRID_COLUMNS} per row, each with its legend below it. A bad molecule fails the
 * whole call, naming its position (a picture with a hole would hide the failure from whoever only sees it).
 */
export function depictGrid(
  cells: readonly { readonly smiles: string; readonly legend: string }[],
  options: DepictOptions,
): Depiction {
  checkGridSize(cells.map((c) => c.smiles));
  const columns = Math.min(cells.length, GRID_COLUMNS);
  const rows = Math.ceil(cells.length / columns);
  const width = columns * options.width;
  const height = rows * options.height;
  const parts: string[] = [];
  const molecules: DepictedMolecule[] = [];
  cells.forEach((cell, i) => {
    const { svg, facts } = atPosition(i, () => drawOne(cell.smiles, options, { legend: cell.legend }));
    const x = (i % columns) * options.width;
    const y = Math.floor(i / columns) * options.height;
    parts.push(`<g class='molecule-${i}' transform='translate(${x},${y})'>\n${bodyOf(svg)}</g>\n`);
    molecules.push(facts);
  });
  const svg = `<?xml version='1.0' encoding='UTF-8'?>\n` +
    `<svg version='1.1' xmlns='http://www.w3.org/2000/svg' xmlns:rdkit='http://www.rdkit.org/xml' ` +
    `xmlns:xlink='http://www.w3.org/1999/xlink' xml:space='preserve' width='${width}px' height='${height}px' ` +
    `viewBox='0 0 ${width} ${height}'>\n<rect style='fill:#FFFFFF;stroke:none' width='${width}' ` +
    `height='${height}' x='0' y='0'/>\n${parts.join("")}</svg>\n`;
  return { svg, width, height, molecules };
}

/** Refuses a grid whose molecules together exceed {@link GRID_MAX_HEAVY_ATOMS}, read from the SMILES text. */
function checkGridSize(smilesList: readonly string[]): void {
  const total = smilesList.reduce((n, s) => n + countSmilesAtoms(s), 0);
  if (total > GRID_MAX_HEAVY_ATOMS) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The grid's molecules have about ${total} heavy atoms together; a grid draws at most ` +
        `${GRID_MAX_HEAVY_ATOMS} (draw large molecules one per call).`,
      { heavy_atoms: total, limit: GRID_MAX_HEAVY_ATOMS },
    );
  }
}

/** Runs `fn` for the grid's molecule `index`, naming the position in a chemistry error. */
function atPosition<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ChemError) {
      throw new ChemError(error.code, `Molecule ${index} (0-based): ${error.message}`, {
        ...error.details,
        index,
      });
    }
    throw error;
  }
}

/** One molecule's SVG as RDKit writes it, and its highlight facts; `cell` when it is drawn in a grid. */
function drawOne(
  smiles: string,
  options: DepictOptions,
  cell?: { readonly legend: string },
): { svg: string; facts: DepictedMolecule } {
  const legend = cell?.legend;
  if (options.highlight?.kind === "smarts") checkHighlightQuery(smiles, options.highlight.smarts);
  // The MCS highlight parses the molecule again within FMCS's own (smaller) atom limit, before drawing.
  const mcs = options.highlight?.kind === "mcs"
    ? mcsSmarts(smiles, options.highlight.with, cell ? GRID_MCS_TIMEOUT_S : DEPICT_MCS_TIMEOUT_S)
    : undefined;
  return withMol(smiles, (mol) => {
    const groups = highlightGroups(mol, options.highlight, mcs);
    const facts = factsOf(groups);
    const details = {
      width: options.width,
      height: options.height,
      atoms: facts.highlight_atoms,
      bonds: facts.highlight_bonds,
      ...colours(groups),
      ...(legend ? { legend } : {}),
      ...(options.atomIndices ? { addAtomIndices: true } : {}),
    };
    return { svg: withLayout(mol, () => mol.get_svg_with_highlights(JSON.stringify(details))), facts };
  }, DEPICT_MAX_HEAVY_ATOMS);
}

/** The highlight groups of a parsed molecule. */
function highlightGroups(
  mol: Mol,
  source: HighlightSource | undefined,
  mcs: McsHighlight | undefined,
): HighlightGroup[] {
  if (!source) return [];
  if (source.kind === "smarts") return smartsGroups(mol, source.smarts);
  if (source.kind === "alerts") return alertGroups(mol);
  return mcs?.smarts ? queryGroups(mol, mcs.smarts, mcs.why, 1) : [];
}

/** Most SMARTS matches highlighted (RDKit Python's `GetSubstructMatches` default `maxMatches`). */
export const DEPICT_MAX_MATCHES = 1000;

/**
 * The unique matches of `smarts` (RDKit's `GetSubstructMatches` with its defaults: uniquify, chirality ignored,
 * at most 1,000), one group each.
 */
function smartsGroups(mol: Mol, smarts: string): HighlightGroup[] {
  return queryGroups(mol, smarts, "SMARTS match", DEPICT_MAX_MATCHES);
}

/** Up to `max` unique matches of a SMARTS query, each as atoms and bonds, with one reason for all. */
function queryGroups(mol: Mol, smarts: string, why: string, max: number): HighlightGroup[] {
  return withQuery(smarts, (query) => {
    const raw = mol.get_substruct_matches(query, JSON.stringify({ maxMatches: max, uniquify: true }));
    // RDKit answers "{}" rather than "[]" when nothing matches.
    const parsed = JSON.parse(raw) as { atoms: number[]; bonds?: number[] }[] | Record<string, never>;
    return Array.isArray(parsed) ? parsed.map((m) => ({ why, atoms: m.atoms, bonds: m.bonds ?? [] })) : [];
  });
}

const ALERT_QUERIES = new Map(
  [...PAINS_DEFINITIONS, ...BRENK_DEFINITIONS].map((d) => [`${d.family}\u0000${d.name}`, d.query]),
);

/**
 * The PAINS and Brenk alerts the molecule raises, one group each: the atoms of the first match as pains_check and
 * brenk_check report them, and the bonds of that same match (the alert's query matched again on its own).
 */
function alertGroups(mol: Mol): HighlightGroup[] {
  const hits = [...painsCheck(mol).hits, ...brenkCheck(mol).hits];
  return hits.map((hit) => {
    const query = ALERT_QUERIES.get(`${hit.family}\u0000${hit.name}`)!;
    const bonds = withQuery(query, (q) => {
      const match = JSON.parse(mol.get_substruct_match(q)) as { bonds?: number[] };
      return match.bonds ?? [];
    });
    return { why: `${hit.family} alert ${hit.name}`, atoms: hit.atoms, bonds };
  });
}

interface McsHighlight {
  readonly smarts: string;
  readonly why: string;
}

/**
 * The maximum common substructure of `smiles` and `other` (RDKit FMCS, find_mcs's defaults), as the SMARTS to
 * highlight; none when they share nothing (the picture is still drawn, with no highlight).
 */
function mcsSmarts(smiles: string, other: string, timeoutSeconds: number): McsHighlight {
  try {
    const result = findMcs([smiles, other], { timeoutSeconds });
    const why = `MCS with ${other} (${result.atom_count} atoms${result.timed_out ? ", FMCS timed out" : ""})`;
    return { smarts: result.smarts, why };
  } catch (error) {
    if (error instanceof ChemError && error.code === "NO_COMMON_SUBSTRUCTURE") return { smarts: "", why: "" };
    if (error instanceof ChemError && typeof error.details?.index === "number") {
      // FMCS names its input by list position; here the two are the molecule and mcs_with.
      const { index, ...details } = error.details;
      const argument = index === 0 ? "smiles" : "mcs_with";
      throw new ChemError(
        error.code,
        `${argument}: ${error.message.replace(/^Molecule \d+ \(0-based\): /, "")}`,
        {
          ...details,
          argument,
        },
      );
    }
    throw error;
  }
}

/** The union of the groups' atoms and bonds, each ascending. */
function factsOf(highlights: HighlightGroup[]): DepictedMolecule {
  const sorted = (sets: number[][]) => [...new Set(sets.flat())].sort((a, b) => a - b);
  return {
    highlight_atoms: sorted(highlights.map((g) => g.atoms)),
    highlight_bonds: sorted(highlights.map((g) => g.bonds)),
    highlights,
  };
}

/** Per-atom and per-bond colours: one colour per alert, in turn; later groups paint over earlier ones. */
function colours(groups: readonly HighlightGroup[]): Record<string, unknown> {
  if (groups.length === 0) return {};
  const atoms: Record<string, readonly number[]> = {};
  const bonds: Record<string, readonly number[]> = {};
  const perGroup = groups.some((g) => g.why.includes(" alert "));
  groups.forEach((group, i) => {
    const colour = PALETTE[perGroup ? i % PALETTE.length : 0]!;
    for (const a of group.atoms) atoms[a] = colour;
    for (const b of group.bonds) bonds[b] = colour;
  });
  return { highlightAtomColors: atoms, highlightBondColors: bonds };
}

/** RDKit's SVG with an honest UTF-8 declaration (its text is ASCII; the answer travels as UTF-8 JSON). */
function toUtf8Document(svg: string): string {
  return svg.replace(/^<\?xml[^>]*\?>/, "<?xml version='1.0' encoding='UTF-8'?>");
}

/** RDKit's header comment, which ends the `<svg>` start tag and its background. */
const HEADER_END = "<!-- END OF HEADER -->\n";

/** The drawing inside RDKit's SVG: what follows its header comment, without the closing tag. */
function bodyOf(svg: string): string {
  const start = svg.indexOf(HEADER_END);
  if (start < 0) throw new Error("RDKit's SVG has no header comment to cut the drawing at");
  return svg.slice(start + HEADER_END.length, svg.lastIndexOf("</svg>"));
}
