/**
 * Structure format conversion: SMILES, MOL blocks (V2000 and V3000) and SD files in; SMILES, MOL blocks, InChI and
 * InChIKey out, through RDKit's readers and writers (MinimalLib `get_mol`, `get_molblock`, `get_v3Kmolblock`) and
 * the IUPAC InChI library bundled with it (Heller et al., J. Cheminform. 2015, 7, 23).
 *
 * MOL blocks are read as RDKit's `MolFromMolBlock` reads them by default: sanitised, explicit hydrogens removed,
 * stereo from the coordinates and wedges, charges, isotopes and radicals from the atom lines and `M  CHG`/`ISO`/
 * `RAD`. InChI cannot be read: MinimalLib carries the InChI library's writer but not its reader, so a structure
 * cannot be rebuilt from an InChI here.
 *
 * @module
 */
import type { Mol } from "@rdkit/rdkit";
import { ChemError, preview } from "../errors.ts";
import { MAX_HEAVY_ATOMS, rdkit, withinSize, withMol } from "./rdkit.ts";
import { costRefusal, molBlockCost } from "./cost.ts";
import { molInchi } from "./represent.ts";

/** Formats a structure can be read from. */
export const INPUT_FORMATS = ["smiles", "molblock", "sdf"] as const;
/** Formats a structure can be written to. */
export const OUTPUT_FORMATS = ["smiles", "molblock", "molblock_v3000", "inchi", "inchikey"] as const;

export type InputFormat = typeof INPUT_FORMATS[number];
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/**
 * Most atoms (hydrogens included) a MOL block may declare. Read from its counts line before RDKit sees the text,
 * so a 5,000-atom block costs nothing; the heavy-atom limit of every tool then applies to what RDKit builds.
 */
export const MAX_MOLBLOCK_ATOMS = 1_000;
/** Longest accepted input, characters (an SD file of many records). */
export const MAX_INPUT_CHARS = 1_000_000;
/** Most SD records one call converts. */
export const MAX_SD_RECORDS = 200;

/** One SD record's answer: the converted structure, or why it could not be converted. */
export type RecordResult =
  | { readonly name?: string; readonly output: string }
  | { readonly name?: string; readonly error: { readonly code: string; readonly message: string } };

/**
 * Converts one structure given as SMILES or as a MOL block.
 *
 * @example
 * ```ts
 * convertOne("C[C@H](N)C(=O)O", "smiles", "inchikey"); // "QNAYBMKLOCPYGJ-REOHCLBHSA-N"
 * ```
 */
export function convertOne(input: string, from: "smiles" | "molblock", to: OutputFormat): string {
  return convertTo(input, from, [to])[to]!;
}

/**
 * Converts one structure to several formats, read once.
 *
 * @example
 * ```ts
 * convertTo("CCO", "smiles", ["smiles", "inchikey"]); // { smiles: "CCO", inchikey: "LFQSCWFLJHTTHZ-UHFFFAOYSA-N" }
 * ```
 */
export function convertTo(
  input: string,
  from: "smiles" | "molblock",
  formats: readonly OutputFormat[],
): Partial<Record<OutputFormat, string>> {
  const writeAll = (mol: Mol) => Object.fromEntries(formats.map((to) => [to, write(mol, to)]));
  return from === "smiles" ? withMol(input, writeAll) : withMolBlock(input, writeAll);
}

/**
 * Converts every record of an SD file, in order; a record that cannot be converted answers with its error and
 * the others go on.
 *
 * @example
 * ```ts
 * convertSdf("...M  END\n$$$$\n...M  END\n$$$$\n", "smiles"); // [{ output: "CCO" }, { output: "c1ccccc1" }]
 * ```
 */
export function convertSdf(sdf: string, to: OutputFormat): RecordResult[] {
  return eachSdRecord(sdf, (record) => ({ output: convertOne(record, "molblock", to) }));
}

/**
 * Runs `convert` on every record of an SD file, in order, each answer with the record's title; a record whose
 * conversion throws a `ChemError` answers with that error and the others go on.
 */
export function eachSdRecord<T extends object>(
  sdf: string,
  convert: (record: string) => T,
): ({ readonly name?: string } & (T | { readonly error: { code: string; message: string } }))[] {
  const records = sdRecords(sdf);
  if (!records.some((record) => /^M {2}END/m.test(record))) {
    throw new ChemError("INVALID_MOLBLOCK", "The SD file has no record ending in 'M  END'.");
  }
  if (records.length > MAX_SD_RECORDS) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The SD file has ${records.length} records; at most ${MAX_SD_RECORDS} are converted in one call. Split it.`,
      { records: records.length, limit: MAX_SD_RECORDS },
    );
  }
  return records.map((record, i) => {
    const name = record.split("\n", 1)[0]!.trim();
    const named = name ? { name: preview(name) } : {};
    try {
      return { ...named, ...convert(record) };
    } catch (error) {
      if (!(error instanceof ChemError)) throw error;
      return { ...named, error: { code: error.code, message: `Record ${i + 1}: ${error.message}` } };
    }
  });
}

/** The records of an SD file: the text between `$$$$` lines, blank records left out. */
export function sdRecords(sdf: string): string[] {
  return sdf.replace(/\r\n?/g, "\n").split(/^\$\$\$\$[^\n]*(?:\n|$)/m).filter((record) =>
    record.trim() !== ""
  );
}

function write(mol: Mol, to: OutputFormat): string {
  switch (to) {
    case "smiles":
      return mol.get_smiles();
    case "molblock":
      return mol.get_molblock();
    case "molblock_v3000":
      return mol.get_v3Kmolblock();
    case "inchi":
      return molInchi(mol);
    case "inchikey":
      return rdkit().get_inchikey_for_inchi(molInchi(mol));
  }
}

/**
 * Reads a MOL block (V2000 or V3000; an SD record's data items after `M  END` are ignored), passes the molecule to
 * `fn`, and frees it whatever happens. Throws `INVALID_MOLBLOCK` for text RDKit cannot read and
 * `MOLECULE_TOO_LARGE` over the atom limits.
 */
export function withMolBlock<T>(block: string, fn: (mol: Mol) => T): T {
  const mol = parseMolBlock(block);
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

function parseMolBlock(block: string): Mol {
  const text = block.replace(/\r\n?/g, "\n");
  const end = /^M {2}END[^\n]*$/m.exec(text);
  if (!end) {
    throw new ChemError(
      "INVALID_MOLBLOCK",
      "The MOL block has no 'M  END' line; pass a whole MOL block (header, counts line, atoms, bonds, M  END).",
    );
  }
  if (/^M {2}END/m.test(text.slice(end.index + end[0].length))) {
    throw new ChemError(
      "INVALID_MOLBLOCK",
      "The text holds more than one MOL block; pass an SD file with from 'sdf' to convert each record.",
    );
  }
  const ctab = text.slice(0, end.index + end[0].length) + "\n";
  const declared = declaredAtoms(ctab);
  if (declared > MAX_MOLBLOCK_ATOMS) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The MOL block declares ${declared} atoms; at most ${MAX_MOLBLOCK_ATOMS} (hydrogens included) are read.`,
      { atoms: declared, limit: MAX_MOLBLOCK_ATOMS },
    );
  }
  // The cost model's refusal holds for every tool: a graph RDKit's sanitiser would take seconds on is refused here.
  const refusal = costRefusal(molBlockCost(ctab));
  if (refusal) throw refusal;
  const mol = rdkit().get_mol(ctab, JSON.stringify({ removeHs: true }));
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new ChemError(
      "INVALID_MOLBLOCK",
      "RDKit could not read the MOL block: check the counts line, the atom and bond lines (element symbols, " +
        "bond atom numbers) and valences.",
    );
  }
  if (mol.get_num_atoms() === 0) {
    mol.delete();
    throw new ChemError("INVALID_MOLBLOCK", "The MOL block has no atoms.");
  }
  return withinSize(mol, MAX_HEAVY_ATOMS);
}

/**
 * The atom count a MOL block's counts line declares (V2000: the first field of the fourth line; V3000: the
 * `COUNTS` line, read as RDKit reads it: any case, continued with `-`), or 0 when there is none to read (RDKit
 * then rejects the block).
 *
 * @example
 * ```ts
 * declaredAtoms("name\n\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n"); // 3
 * ```
 */
export function declaredAtoms(block: string): number {
  return molBlockCost(block).declaredAtoms;
}
