/**
 * MolJSON version 1, the document: its schema (the single source of its JSON Schema), types, defaults and value
 * ranges. An explicit, versioned atom/bond JSON form of a molecule that an LLM can read and edit atom by atom
 * (specification: docs/moljson.md). Written by ./writer.ts, read by ./reader.ts.
 *
 * @module
 */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { MAX_HEAVY_ATOMS } from "../rdkit.ts";

/** Format name written into every document. */
export const MOLJSON_FORMAT = "moljson";
/** Current (and only) format version. */
export const MOLJSON_VERSION = 1;
/** Most atoms (hydrogen atoms listed as atoms included) a MolJSON document may hold. */
export const MAX_MOLJSON_ATOMS = MAX_HEAVY_ATOMS;
/** Most bonds a MolJSON document may hold. */
export const MAX_MOLJSON_BONDS = 2 * MAX_HEAVY_ATOMS;

// deno-fmt-ignore
/** Element symbols by atomic number; index 0 is the dummy/attachment atom `*`. */
export const ELEMENTS: readonly string[] = [
  "*", "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar",
  "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr",
  "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe",
  "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf",
  "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th",
  "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs",
  "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og",
];

/** Atomic number of each element symbol of {@link ELEMENTS}. */
export const ATOMIC_NUMBER: ReadonlyMap<string, number> = new Map(ELEMENTS.map((symbol, z) => [symbol, z]));

/** An integer in [min, max]; array items and union branches go without a description (their parent has one). */
const bounded = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

const int = (min: number, max: number, description: string) =>
  v.pipe(bounded(min, max), v.description(description));

/** An atom index inside an array whose description says what the indices are. */
const atomIndex = bounded(0, MAX_MOLJSON_ATOMS - 1);

const chiralitySchema = v.strictObject({
  neighbors: v.pipe(
    v.array(v.union([atomIndex, v.literal("H")])),
    v.minLength(3),
    v.maxLength(4),
    v.description(
      'Neighbours in a chosen order: atom indices, "H" for an implicit H; three when a lone pair is the last.',
    ),
  ),
  winding: v.pipe(
    v.picklist(["CW", "CCW"]),
    v.description(
      "Seen from neighbors[0], the others turn clockwise (CW, SMILES @@) or counter-clockwise (CCW, @).",
    ),
  ),
  cip: v.optional(
    v.pipe(
      v.nullable(v.picklist(["R", "S", "r", "s"])),
      v.description("CIP label (RDKit's labeller; r/s pseudo-asymmetric); ignored on input."),
    ),
  ),
});

/**
 * Value ranges of the numeric atom fields of MolJSON v1 (inclusive). RDKit accepts wider values (a mass number
 * of 12345, a charge of +20): such atoms are refused when writing MolJSON rather than sent outside the schema.
 */
export const ATOM_RANGES = {
  charge: [-8, 8],
  isotope: [1, 300],
  hydrogens: [0, 8],
  radical_electrons: [0, 4],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * What a document says by leaving a field out (and a bond's index is its position). Written documents leave out
 * every field at its default, so a common atom reads `{"index":0,"element":"C","hydrogens":3}` and a single bond
 * `{"begin":0,"end":1}`; readers fill them in ({@link resolveMolJson}).
 */
export const MOLJSON_DEFAULTS = {
  atom: { charge: 0, isotope: null, hydrogens: 0, radical_electrons: 0, aromatic: false, chirality: null },
  bond: { order: 1, stereo: null },
} as const;

const atomSchema = v.strictObject({
  index: int(0, MAX_MOLJSON_ATOMS - 1, "Position in `atoms`; must equal it."),
  element: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(3),
    v.description("Element symbol ('C', 'Cl'); '*' for a dummy atom."),
  ),
  charge: v.optional(int(...ATOM_RANGES.charge, "Formal charge.")),
  isotope: v.optional(
    v.pipe(v.nullable(bounded(...ATOM_RANGES.isotope)), v.description("Mass number (13 for 13C).")),
  ),
  hydrogens: v.optional(int(...ATOM_RANGES.hydrogens, "Hydrogens that are not atoms of their own.")),
  radical_electrons: v.optional(int(...ATOM_RANGES.radical_electrons, "Unpaired electrons.")),
  aromatic: v.optional(v.pipe(v.boolean(), v.description("In an aromatic ring (RDKit aromaticity)."))),
  chirality: v.optional(
    v.pipe(
      v.nullable(chiralitySchema),
      v.description("Tetrahedral configuration of a specified stereocentre."),
    ),
  ),
});

const bondStereoSchema = v.strictObject({
  configuration: v.pipe(
    v.picklist(["cis", "trans"]),
    v.description("atoms[0] and atoms[1] on the same (cis) or opposite (trans) side."),
  ),
  atoms: v.pipe(
    v.tuple([atomIndex, atomIndex]),
    v.description("A neighbour of begin and one of end, other than the bond's atoms."),
  ),
});

const bondSchema = v.strictObject({
  index: v.optional(int(0, MAX_MOLJSON_BONDS - 1, "Position in `bonds`; must equal it.")),
  begin: int(0, MAX_MOLJSON_ATOMS - 1, "Index of the first atom."),
  end: int(0, MAX_MOLJSON_ATOMS - 1, "Index of the second atom."),
  order: v.optional(
    v.pipe(v.picklist([1, 2, 3, 1.5]), v.description("1, 2, 3, or 1.5 aromatic (both atoms aromatic).")),
  ),
  stereo: v.optional(
    v.pipe(v.nullable(bondStereoSchema), v.description("Configuration of a specified double bond.")),
  ),
});

/** Valibot schema of a MolJSON version 1 document (the single source of its JSON Schema). */
export const MolJsonSchema = v.pipe(
  v.strictObject({
    format: v.pipe(v.literal(MOLJSON_FORMAT), v.description("Always 'moljson'.")),
    version: v.pipe(v.literal(MOLJSON_VERSION), v.description("Format version, 1.")),
    atoms: v.pipe(
      v.array(atomSchema),
      // No molecule without atoms: the schema says so, so a client learns it from the schema.
      v.minLength(1, "MolJSON has no atoms; send at least one atom."),
      v.maxLength(MAX_MOLJSON_ATOMS),
      v.description("Atoms, at least one; hydrogens are normally counts, not atoms."),
    ),
    bonds: v.pipe(v.array(bondSchema), v.maxLength(MAX_MOLJSON_BONDS), v.description("Bonds.")),
  }),
  v.description(
    "MolJSON v1 (docs/moljson.md), 0-based indices. Defaults of fields left out: charge 0, isotope null, " +
      "hydrogens 0, radical_electrons 0, aromatic false, chirality null (its cip null); bond index its position, " +
      "order 1, stereo null.",
  ),
);

/** A MolJSON version 1 document as written or read, fields at their default possibly left out. */
export type MolJson = v.InferOutput<typeof MolJsonSchema>;
type Filled<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
/** One atom of a MolJSON document, every field given. */
export type MolJsonAtom = Filled<MolJson["atoms"][number]>;
/** One bond of a MolJSON document, every field given. */
export type MolJsonBond = Filled<MolJson["bonds"][number]>;
/** A MolJSON document with every field given ({@link resolveMolJson}). */
export interface ResolvedMolJson {
  readonly format: MolJson["format"];
  readonly version: MolJson["version"];
  readonly atoms: readonly MolJsonAtom[];
  readonly bonds: readonly MolJsonBond[];
}

/**
 * `doc` with the fields it leaves out filled with {@link MOLJSON_DEFAULTS}.
 *
 * @example
 * ```ts
 * resolveMolJson(toMolJson("C")).atoms[0].charge; // 0
 * ```
 */
export function resolveMolJson(doc: MolJson): ResolvedMolJson {
  return {
    format: doc.format,
    version: doc.version,
    atoms: doc.atoms.map((atom) => ({ ...MOLJSON_DEFAULTS.atom, ...atom }) as MolJsonAtom),
    bonds: doc.bonds.map((bond, index) => ({ ...MOLJSON_DEFAULTS.bond, index, ...bond }) as MolJsonBond),
  };
}

/**
 * The JSON Schema (draft 2020-12) of MolJSON v1, generated from {@link MolJsonSchema}.
 *
 * @example
 * ```ts
 * moljsonJsonSchema().properties; // { format, version, atoms, bonds }
 * ```
 */
export function moljsonJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://chem-mcp.invalid/schemas/moljson-1.json",
    title: "MolJSON version 1",
    ...toJsonSchema(MolJsonSchema, { target: "draft-2020-12", typeMode: "input", errorMode: "ignore" }),
  };
}

/** Neighbours of every atom in bond-index order (the order RDKit's chiral tags refer to). */
export function neighbourLists(
  atomCount: number,
  bonds: readonly { begin: number; end: number }[],
): number[][] {
  const lists: number[][] = Array.from({ length: atomCount }, () => []);
  for (const { begin, end } of bonds) {
    lists[begin]?.push(end);
    lists[end]?.push(begin);
  }
  return lists;
}
