/**
 * MolJSON version 1: an explicit, versioned atom/bond JSON form of a molecule that an LLM can read and edit
 * atom by atom (specification: docs/moljson.md).
 *
 * SMILES → MolJSON goes through RDKit's own JSON (CommonChem/rdkitjson) export; MolJSON → molecule writes
 * rdkitjson back (aromatic bonds are handed over as aromatic and kekulised by RDKit's sanitisation) and lets
 * RDKit canonicalise (Schneider, Sayle & Landrum, J. Chem. Inf. Model. 2015, 55, 2111,
 * doi:10.1021/acs.jcim.5b00543). CIP labels come from RDKit's new CIP labeller (Hanson et al., J. Chem. Inf.
 * Model. 2018, 58, 1755, doi:10.1021/acs.jcim.8b00324) and are informational only.
 *
 * @module
 */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { ChemError } from "../errors.ts";
import { MAX_HEAVY_ATOMS, type Mol, rdkit, rdkitReason, withMol } from "./rdkit.ts";
import { costRefusal, graphCost } from "./cost.ts";

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

const ATOMIC_NUMBER: ReadonlyMap<string, number> = new Map(ELEMENTS.map((symbol, z) => [symbol, z]));

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

/** `record` without the fields equal to their default. */
function leaveOutDefaults<T extends object>(record: T, defaults: Readonly<Record<string, unknown>>): T {
  return Object.fromEntries(
    Object.entries(record).filter(([key, value]) => !(key in defaults) || defaults[key] !== value),
  ) as T;
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

// ---------------------------------------------------------------------------------------------------------
// SMILES → MolJSON

interface RdkitJsonAtom {
  z?: number;
  impHs?: number;
  chg?: number;
  nRad?: number;
  isotope?: number;
  stereo?: string;
}
interface RdkitJsonBond {
  bo?: number;
  atoms: [number, number];
  stereo?: string;
  stereoAtoms?: [number, number];
}
interface RdkitJsonMolecule {
  atoms: RdkitJsonAtom[];
  bonds?: RdkitJsonBond[];
  extensions?: {
    name: string;
    aromaticAtoms?: number[];
    aromaticBonds?: number[];
    cipCodes?: [number, string][];
  }[];
}

/** RDKit's own JSON of a molecule (first molecule of the document), with RDKit's defaults filled in. */
function rdkitJsonOf(mol: Mol): RdkitJsonMolecule {
  const doc = JSON.parse(mol.get_json()) as { molecules: RdkitJsonMolecule[] };
  const molecule = doc.molecules[0];
  if (!molecule) throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit returned no molecule JSON.");
  return molecule;
}

/** Refuses an atom whose charge, mass number, hydrogens or radicals lie outside {@link ATOM_RANGES}. */
function checkAtomRanges(atom: MolJsonAtom): void {
  for (const field of Object.keys(ATOM_RANGES) as (keyof typeof ATOM_RANGES)[]) {
    const value = atom[field];
    const [min, max] = ATOM_RANGES[field];
    if (value === null || (value >= min && value <= max)) continue;
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      `atom ${atom.index} (${atom.element}): ${field} ${value} is outside MolJSON v1's range ${min}..${max}; ` +
        "check the SMILES (a mistyped charge or mass number?) or use SMILES instead of MolJSON.",
      { atom: atom.index, field, value, range: [min, max] },
    );
  }
}

/** Neighbours of every atom in bond-index order (the order RDKit's chiral tags refer to). */
function neighbourLists(atomCount: number, bonds: readonly { begin: number; end: number }[]): number[][] {
  const lists: number[][] = Array.from({ length: atomCount }, () => []);
  for (const { begin, end } of bonds) {
    lists[begin]?.push(end);
    lists[end]?.push(begin);
  }
  return lists;
}

/**
 * Converts a parsed RDKit molecule (parsed with CIP labels assigned) into MolJSON.
 *
 * @example
 * ```ts
 * const mol = rdkit().get_mol("C[C@H](N)O", JSON.stringify({ assignCIPLabels: true }))!;
 * molToMolJson(mol).atoms[1].chirality; // { neighbors: [0, 2, 3, "H"], winding: "CCW", cip: "S" }
 * mol.delete();
 * ```
 */
export function molToMolJson(mol: Mol): MolJson {
  const { atoms, bonds } = fullMolJson(mol);
  return {
    format: MOLJSON_FORMAT,
    version: MOLJSON_VERSION,
    atoms: atoms.map((atom) => {
      const lean = leaveOutDefaults(atom, MOLJSON_DEFAULTS.atom);
      if (lean.chirality?.cip === null) delete lean.chirality.cip;
      return lean;
    }),
    // A bond's index is its position, so it is left out like the other defaults.
    bonds: bonds.map(({ index: _position, ...bond }) => leaveOutDefaults(bond, MOLJSON_DEFAULTS.bond)),
  };
}

/** Every atom and bond of a parsed molecule with all its fields. */
function fullMolJson(mol: Mol): ResolvedMolJson {
  const src = rdkitJsonOf(mol);
  const ext = src.extensions?.find((e) => e.name === "rdkitRepresentation");
  const aromaticAtoms = new Set(ext?.aromaticAtoms ?? []);
  const aromaticBonds = new Set(ext?.aromaticBonds ?? []);
  const cip = new Map((ext?.cipCodes ?? []).map(([i, code]) => [i, code]));
  const rawBonds = src.bonds ?? [];
  const neighbours = neighbourLists(
    src.atoms.length,
    rawBonds.map((b) => ({ begin: b.atoms[0], end: b.atoms[1] })),
  );

  const atoms = src.atoms.map((a, index): MolJsonAtom & { chirality: { cip?: string | null } | null } => {
    const z = a.z ?? 6;
    const hydrogens = a.impHs ?? 0;
    const tag = a.stereo ?? "unspecified";
    const chiral = tag === "cw" || tag === "ccw";
    const code = cip.get(index);
    return {
      index,
      element: ELEMENTS[z] ?? "*",
      charge: a.chg ?? 0,
      isotope: a.isotope ? a.isotope : null,
      hydrogens,
      radical_electrons: a.nRad ?? 0,
      aromatic: aromaticAtoms.has(index),
      chirality: chiral
        ? {
          // RDKit orders a centre's neighbours by bond index and puts an implicit H (or lone pair) last.
          neighbors: [...(neighbours[index] ?? []), ...(hydrogens === 1 ? ["H" as const] : [])],
          winding: tag === "cw" ? "CW" : "CCW",
          cip: code === "R" || code === "S" || code === "r" || code === "s" ? code : null,
        }
        : null,
    };
  });
  atoms.forEach(checkAtomRanges);

  const bonds = rawBonds.map((b, index): MolJsonBond => {
    const order = aromaticBonds.has(index) ? 1.5 : (b.bo ?? 1);
    if (order !== 1 && order !== 2 && order !== 3 && order !== 1.5) {
      throw new ChemError(
        "UNSUPPORTED_MOLECULE",
        `bond ${index}: RDKit bond type ${order} (dative, zero-order or quadruple) cannot be written in MolJSON v1; ` +
          "convert without the metal complex or use SMILES.",
        { bond: index },
      );
    }
    const stereo = (b.stereo === "cis" || b.stereo === "trans") && b.stereoAtoms
      ? {
        configuration: b.stereo === "cis" ? "cis" as const : "trans" as const,
        atoms: [b.stereoAtoms[0], b.stereoAtoms[1]] as [number, number],
      }
      : null;
    return { index, begin: b.atoms[0], end: b.atoms[1], order, stereo };
  });

  return { format: MOLJSON_FORMAT, version: MOLJSON_VERSION, atoms, bonds };
}

/**
 * SMILES → MolJSON v1 (atom indices follow the order of atoms in the SMILES).
 *
 * @example
 * ```ts
 * toMolJson("CC(=O)O").atoms.length; // 4
 * toMolJson("c1ccccc1").bonds[0].order; // 1.5
 * ```
 */
export function toMolJson(smiles: string): MolJson {
  return withMol(smiles, (mol) => {
    // Re-read the validated text with CIP labelling (same parser, so the same atom order).
    const labelled = rdkit().get_mol(smiles.trim(), JSON.stringify({ assignCIPLabels: true }));
    if (!labelled || !labelled.is_valid()) {
      labelled?.delete();
      // RDKit's CIP labeller gives up on some large stereo systems (a perhydro-polyacene of 20 rings, for one)
      // and the labelled parse then fails; the molecule itself is valid, so its centres get no CIP label.
      return withoutCip(molToMolJson(mol));
    }
    try {
      return molToMolJson(labelled);
    } finally {
      labelled.delete();
    }
  });
}

/** The same document with every CIP label cleared (labels not from the new labeller are not given). */
function withoutCip(doc: MolJson): MolJson {
  return {
    ...doc,
    atoms: doc.atoms.map((atom) =>
      atom.chirality ? { ...atom, chirality: { ...atom.chirality, cip: null } } : atom
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------
// MolJSON → molecule

/** Throws the one error kind of this module. */
function invalid(message: string, details: Record<string, unknown>): never {
  throw new ChemError("INVALID_MOLJSON", message, details);
}

/** Structural validation (types, ranges, required fields) with the failing path in the message. */
function parseStructure(input: unknown): ResolvedMolJson {
  const result = v.safeParse(MolJsonSchema, input);
  if (result.success) return resolveMolJson(result.output);
  const issue = result.issues[0];
  const path = v.getDotPath(issue) ?? "(document)";
  const match = /^(atoms|bonds)\.(\d+)/.exec(path);
  const where = match ? `${match[1] === "atoms" ? "atom" : "bond"} ${match[2]}: ` : "";
  invalid(`${where}${path}: ${issue.message}`, {
    path,
    ...(match ? { [match[1] === "atoms" ? "atom" : "bond"]: Number(match[2]) } : {}),
  });
}

/** Index, element, range, duplicate and aromaticity checks; returns the neighbour lists. */
function checkGraph(doc: ResolvedMolJson): number[][] {
  const n = doc.atoms.length;
  doc.atoms.forEach((atom, i) => {
    if (atom.index !== i) {
      invalid(`atom ${i}: index is ${atom.index} but must equal its position ${i}.`, { atom: i });
    }
    if (!ATOMIC_NUMBER.has(atom.element)) {
      invalid(`atom ${i}: unknown element '${atom.element}' (use a symbol such as C, N, Cl, or '*').`, {
        atom: i,
      });
    }
  });
  const seen = new Map<string, number>();
  doc.bonds.forEach((bond, j) => {
    if (bond.index !== j) {
      invalid(`bond ${j}: index is ${bond.index} but must equal its position ${j}.`, { bond: j });
    }
    for (const end of [bond.begin, bond.end]) {
      if (end >= n) {
        invalid(`bond ${j}: atom index ${end} is out of range (atoms are 0..${n - 1}); the bond dangles.`, {
          bond: j,
          atom: end,
        });
      }
    }
    if (bond.begin === bond.end) invalid(`bond ${j}: joins atom ${bond.begin} to itself.`, { bond: j });
    const key = bond.begin < bond.end ? `${bond.begin}-${bond.end}` : `${bond.end}-${bond.begin}`;
    const first = seen.get(key);
    if (first !== undefined) {
      invalid(`bond ${j}: duplicates bond ${first} (atoms ${key}).`, { bond: j, duplicate_of: first });
    }
    seen.set(key, j);
    const aromaticEnds = (doc.atoms[bond.begin]?.aromatic ?? false) &&
      (doc.atoms[bond.end]?.aromatic ?? false);
    if (bond.order === 1.5 && !aromaticEnds) {
      invalid(
        `bond ${j}: order 1.5 (aromatic) needs both atoms ${bond.begin} and ${bond.end} marked aromatic.`,
        {
          bond: j,
        },
      );
    }
  });
  const neighbours = neighbourLists(n, doc.bonds);
  doc.atoms.forEach((atom, i) => {
    if (atom.aromatic && !doc.bonds.some((b) => b.order === 1.5 && (b.begin === i || b.end === i))) {
      invalid(`atom ${i}: marked aromatic but has no aromatic (1.5) bond.`, { atom: i });
    }
  });
  return neighbours;
}

/** Sign of the permutation taking `from` to `to` (same elements): +1 even, -1 odd. */
function permutationSign<T>(from: readonly T[], to: readonly T[]): number {
  const perm = to.map((x) => from.indexOf(x));
  let sign = 1;
  const visited = perm.map(() => false);
  for (let i = 0; i < perm.length; i++) {
    if (visited[i]) continue;
    let length = 0;
    for (let j = i; !visited[j]; j = perm[j] ?? i) {
      visited[j] = true;
      length++;
    }
    if (length % 2 === 0) sign = -sign;
  }
  return sign;
}

/** RDKit chiral tag for a MolJSON chirality, checking that it names exactly the atom's neighbours. */
function chiralTag(atom: MolJsonAtom, neighbours: readonly number[]): "cw" | "ccw" | undefined {
  const c = atom.chirality;
  if (!c) return undefined;
  const i = atom.index;
  const hasH = c.neighbors.includes("H");
  if (hasH && atom.hydrogens !== 1) {
    const message = `atom ${i}: chirality lists "H" but the atom has ${atom.hydrogens} hydrogens (needs 1).`;
    invalid(message, { atom: i });
  }
  const expected: (number | "H")[] = [...neighbours, ...(atom.hydrogens === 1 ? ["H" as const] : [])];
  const given = c.neighbors;
  const sameSet = given.length === expected.length && new Set(given).size === given.length &&
    given.every((x) => expected.includes(x));
  if (!sameSet || expected.length < 3 || expected.length > 4) {
    invalid(
      `atom ${i}: chirality neighbors [${given.join(", ")}] must list each of the atom's neighbours ` +
        `[${expected.join(", ")}] exactly once (3 or 4 in all).`,
      { atom: i },
    );
  }
  const sign = permutationSign(expected, given);
  const ccw = c.winding === "CCW";
  return (sign > 0) === ccw ? "ccw" : "cw";
}

/** Checks a double bond's stereo reference atoms and returns them ordered (neighbour of begin first). */
function stereoAtoms(bond: MolJsonBond, neighbours: readonly number[][]): [number, number] | undefined {
  const s = bond.stereo;
  if (!s) return undefined;
  const j = bond.index;
  if (bond.order !== 2) invalid(`bond ${j}: cis/trans stereo is only allowed on a double bond.`, { bond: j });
  const [p, q] = s.atoms;
  const nb = neighbours[bond.begin] ?? [];
  const ne = neighbours[bond.end] ?? [];
  const ok = (a: number, b: number) => a !== bond.end && b !== bond.begin && nb.includes(a) && ne.includes(b);
  if (ok(p, q)) return [p, q];
  if (ok(q, p)) return [q, p];
  invalid(
    `bond ${j}: stereo atoms [${p}, ${q}] must be a neighbour of atom ${bond.begin} and a neighbour of atom ` +
      `${bond.end}, other than the bond's own atoms.`,
    { bond: j },
  );
}

/** Builds RDKit's JSON for a validated MolJSON document. */
function toRdkitJson(doc: ResolvedMolJson, neighbours: readonly number[][]): string {
  const atoms = doc.atoms.map((a) => {
    const tag = chiralTag(a, neighbours[a.index] ?? []);
    return {
      z: ATOMIC_NUMBER.get(a.element) ?? 0,
      impHs: a.hydrogens,
      chg: a.charge,
      nRad: a.radical_electrons,
      isotope: a.isotope ?? 0,
      stereo: tag ?? "unspecified",
    };
  });
  const bonds = doc.bonds.map((b) => {
    const ref = stereoAtoms(b, neighbours);
    return {
      bo: b.order === 1.5 ? 1 : b.order,
      atoms: [b.begin, b.end],
      ...(ref && b.stereo ? { stereo: b.stereo.configuration, stereoAtoms: ref } : {}),
    };
  });
  const aromaticBonds = doc.bonds.filter((b) => b.order === 1.5).map((b) => b.index);
  const aromaticAtoms = doc.atoms.filter((a) => a.aromatic).map((a) => a.index);
  return JSON.stringify({
    rdkitjson: { version: 11 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
      bond: { bo: 1, stereo: "unspecified" },
    },
    molecules: [{
      atoms,
      bonds,
      extensions: [{
        name: "rdkitRepresentation",
        formatVersion: 2,
        toolkitVersion: "moljson",
        aromaticAtoms,
        aromaticBonds,
      }],
    }],
  });
}

/** Turns RDKit's sanitisation log into an error naming the atom(s). */
function sanitizationError(log: string): never {
  const valence = /valence for atom # ?(\d+) ([A-Za-z*]+),? (\d+)/i.exec(log);
  if (valence) {
    const atom = Number(valence[1]);
    const [, , element = "?", total = "?"] = valence;
    invalid(
      `atom ${atom}: bad valence — ${element} with valence ${total} (bond orders plus hydrogens) is more than ` +
        "RDKit permits; check its bonds, hydrogens and charge.",
      { atom, element },
    );
  }
  const kekule = /Unkekulized atoms:\s*([\d ]+)/.exec(log);
  if (kekule) {
    const atoms = (kekule[1] ?? "").trim().split(/\s+/).map(Number);
    const list = atoms.join(", ");
    invalid(
      `atoms ${list}: the aromatic system cannot be kekulised; check aromatic flags and hydrogens (e.g. a ` +
        "pyrrole-type nitrogen needs hydrogens: 1).",
      { atoms, atom: atoms[0] },
    );
  }
  const line = log.trim().split("\n").pop() ?? "";
  invalid(`RDKit rejected the molecule: ${line.replace(/^\[[^\]]*\]\s*/, "") || "unknown reason"}.`, {});
}

/**
 * Parses and validates a MolJSON document into an RDKit molecule. The caller owns the molecule (delete it).
 * Throws `ChemError("INVALID_MOLJSON")` naming the offending atom or bond.
 *
 * @example
 * ```ts
 * const mol = molFromMolJson(toMolJson("CCO"));
 * mol.get_smiles(); // "CCO"
 * mol.delete();
 * ```
 */
export function molFromMolJson(input: unknown): Mol {
  const doc = parseStructure(input);
  const neighbours = checkGraph(doc);
  const heavy = doc.atoms.filter((a) => a.element !== "H").length;
  if (heavy > MAX_HEAVY_ATOMS) {
    const message = `MolJSON has ${heavy} heavy atoms; at most ${MAX_HEAVY_ATOMS} are accepted.`;
    throw new ChemError("MOLECULE_TOO_LARGE", message, { heavy_atoms: heavy, limit: MAX_HEAVY_ATOMS });
  }
  // The graph RDKit would perceive rings in, read by the cost model before RDKit sees it (docs/security.md).
  const refusal = costRefusal(graphCost(doc.atoms.length, doc.bonds.map((b) => [b.begin, b.end] as const)));
  if (refusal) throw refusal;
  const json = toRdkitJson(doc, neighbours);
  const R = rdkit();
  let smiles: string;
  rdkitReason(); // starts RDKit's error log empty
  // RDKit's legacy stereo perception would discard cis/trans set directly on bonds, so the JSON molecule is read
  // without it, written as SMILES (stereo kept) and re-read: the re-read applies RDKit's normal clean-up (a chiral
  // tag on an atom that is not a stereocentre is dropped, as for SMILES input).
  const mol = R.get_mol(json, JSON.stringify({ setAromaticBonds: true, assignStereo: false }));
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    sanitizationError(rdkitReason() ?? "");
  }
  try {
    smiles = mol.get_smiles();
  } finally {
    mol.delete();
  }
  const reread = R.get_mol(smiles);
  if (!reread || !reread.is_valid()) {
    reread?.delete();
    invalid(`RDKit could not re-read the molecule it built from the MolJSON (SMILES '${smiles}').`, {});
  }
  checkRadicalsKept(doc, reread);
  return reread;
}

/**
 * SMILES cannot write unpaired electrons on an atom whose bonds and hydrogens already fill its valence (a
 * saturated carbon with `radical_electrons: 4`), so RDKit would drop them without a word; such input is refused.
 */
function checkRadicalsKept(doc: ResolvedMolJson, mol: Mol): void {
  const given = doc.atoms.reduce((n, a) => n + (a.radical_electrons ?? 0), 0);
  if (given === 0) return;
  const kept = rdkitJsonOf(mol).atoms.reduce((n, a) => n + (a.nRad ?? 0), 0);
  if (kept === given) return;
  mol.delete();
  const atoms = doc.atoms.filter((a) => (a.radical_electrons ?? 0) > 0).map((a) => a.index);
  invalid(
    `radical_electrons on atom(s) ${atoms.join(", ")} (${given} in all) do not fit: the atoms' bonds and ` +
      `hydrogens already use the valence those electrons need (${kept} kept). Lower hydrogens or radical_electrons.`,
    { atoms, radical_electrons: given },
  );
}

/**
 * MolJSON → RDKit canonical isomeric SMILES.
 *
 * @example
 * ```ts
 * fromMolJson(toMolJson("OCC")).smiles; // "CCO"
 * ```
 */
export function fromMolJson(input: unknown): { smiles: string; atom_count: number; bond_count: number } {
  const mol = molFromMolJson(input);
  try {
    return { smiles: mol.get_smiles(), atom_count: mol.get_num_atoms(true), bond_count: mol.get_num_bonds() };
  } finally {
    mol.delete();
  }
}
