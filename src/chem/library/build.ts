/**
 * Builds a library's index from its records with RDKit: each molecule parsed once, then its ECFP4 (as the
 * `ecfp4` tool), its pattern fingerprint and its canonical SMILES. Records RDKit cannot read, and molecules too
 * large for the protocol thread, are skipped and reported.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { isLight, LIGHT_MAX_ATOMS, molBlockCost, textCost } from "../cost.ts";
import { ecfp4Bytes } from "../fingerprint.ts";
import {
  checkSize,
  MAX_HEAVY_ATOMS,
  type Mol,
  parseSmiles,
  rdkit,
  type RDKitModule,
  rdkitReason,
} from "../rdkit.ts";
import { IndexBuilder, type LibraryIndex } from "./index.ts";
import type { LibraryRecord } from "./records.ts";

/**
 * Most molecules one library holds (about 0.6 KB of memory each): beyond it the rest of the file is left unread
 * and the startup line says so.
 */
export const MAX_LIBRARY_MOLECULES = 2_000_000;
/**
 * Unreadable records before the first molecule after which a file is taken for something other than a library
 * (binary data, the wrong file): reading stops rather than trying every line of a large file.
 */
export const MAX_LEADING_FAILURES = 10_000;
/** How many skipped records the report names; the rest are counted. */
export const NAMED_SKIPS = 5;

/** What reading a library left out. */
export interface SkipReport {
  /** Records skipped. */
  readonly count: number;
  /** The first {@link NAMED_SKIPS}, as `line N: reason`. */
  readonly first: readonly string[];
  /**
   * Where reading stopped early: the file held more than {@link MAX_LIBRARY_MOLECULES} molecules, or
   * {@link MAX_LEADING_FAILURES} records before the first were unreadable.
   */
  readonly stoppedAt?: string;
}

/** Options of {@link buildIndex}. */
export interface BuildOptions {
  /** Called about every `progressMs` with the molecules indexed and the records skipped so far. */
  readonly progress?: (indexed: number, skipped: number) => void;
  readonly progressMs?: number;
  /** Milliseconds from any origin (injected for tests). */
  readonly now?: () => number;
  readonly maxMolecules?: number;
}

/** Builds the index of `records`. */
export async function buildIndex(
  records: AsyncIterable<LibraryRecord>,
  options: BuildOptions = {},
): Promise<{ index: LibraryIndex; skipped: SkipReport }> {
  const now = options.now ?? (() => Date.now());
  const every = options.progressMs ?? 5_000;
  const max = options.maxMolecules ?? MAX_LIBRARY_MOLECULES;
  const builder = new IndexBuilder();
  const pickler = new PatternPickler();
  const first: string[] = [];
  let count = 0;
  let stoppedAt: string | undefined;
  let lastReport = now();
  for await (const record of records) {
    if (record.kind === "molecule" && builder.count >= max) {
      stoppedAt = `${record.where} (${max.toLocaleString("en")} molecules read)`;
      break;
    }
    const failure = record.kind === "unreadable"
      ? record.reason
      : addMolecule(builder, pickler, record.text, record.id);
    if (failure !== undefined) {
      count++;
      if (builder.count === 0 && count >= MAX_LEADING_FAILURES) {
        stoppedAt = `${record.where}, after ${count.toLocaleString("en")} unreadable records and no molecule`;
        break;
      }
      if (first.length < NAMED_SKIPS) first.push(`${record.where}: ${failure.replace(/\.$/, "")}`);
    }
    if (options.progress && (builder.count + count) % 1024 === 0 && now() - lastReport >= every) {
      lastReport = now();
      options.progress(builder.count, count);
    }
  }
  pickler.close();
  return {
    index: builder.finish(),
    skipped: { count, first, ...(stoppedAt ? { stoppedAt } : {}) },
  };
}

/** Adds one molecule; the reason when it cannot be added. */
function addMolecule(
  builder: IndexBuilder,
  pickler: PatternPickler,
  text: string,
  id: string,
): string | undefined {
  let mol: Mol;
  try {
    mol = text.includes("\n") ? parseMolBlock(text) : parseLightSmiles(text);
  } catch (error) {
    if (error instanceof ChemError) return error.message;
    throw error;
  }
  try {
    const smiles = mol.get_smiles();
    builder.add(ecfp4Bytes(mol), pickler.pickle(smiles), smiles, id);
    return undefined;
  } finally {
    mol.delete();
  }
}

/**
 * Pattern fingerprints as RDKit's `SubstructLibrary` pickles them, the form it takes them back in: computed by
 * a scratch library from the canonical SMILES (as trusted SMILES, as the library will hold them), renewed every
 * few thousand molecules so it never holds the whole library.
 */
class PatternPickler {
  #library: InstanceType<RDKitModule["SubstructLibrary"]> | undefined;
  #held = 0;

  pickle(smiles: string): Uint8Array {
    if (!this.#library || this.#held === 4_096) {
      this.close();
      this.#library = new (rdkit().SubstructLibrary)();
    }
    const at = this.#library.add_trusted_smiles(smiles);
    this.#held++;
    return (this.#library.get_pattern_fp_as_uint8array(at) as Uint8Array).slice();
  }

  close(): void {
    this.#library?.delete();
    this.#library = undefined;
    this.#held = 0;
  }
}

const TOO_LARGE =
  `larger than a library molecule may be (${LIGHT_MAX_ATOMS} atoms, few rings and stereocentres)`;

/** Chiral atoms or directional bonds: the marks RDKit's stereo perception reads. */
const STEREO_MARK = /[@/\\]/;

/**
 * A library SMILES parsed by RDKit, refused beforehand when its text is too costly. A SMILES with no stereo
 * mark is read for its graph (no stereo perception: nothing to perceive), a quarter of the build's time
 * saved with the same canonical SMILES and ECFP4.
 */
function parseLightSmiles(smiles: string): Mol {
  if (smiles.length > 2_000 || !isLight(textCost(smiles))) {
    throw new ChemError("MOLECULE_TOO_LARGE", TOO_LARGE);
  }
  return parseSmiles(smiles, MAX_HEAVY_ATOMS, STEREO_MARK.test(smiles) ? "full" : "graph");
}

/** A MOL block parsed by RDKit, refused beforehand when its text declares a molecule too costly to take. */
function parseMolBlock(block: string): Mol {
  const cost = molBlockCost(block);
  if (!isLight(cost) || cost.declaredAtoms > LIGHT_MAX_ATOMS || cost.queryAtoms > 0) {
    throw new ChemError("MOLECULE_TOO_LARGE", TOO_LARGE);
  }
  rdkitReason();
  const mol = rdkit().get_mol(block);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new ChemError(
      "INVALID_MOLBLOCK",
      `RDKit could not read the MOL block: ${rdkitReason() ?? "malformed"}`,
    );
  }
  try {
    checkSize(mol, LIGHT_MAX_ATOMS);
  } catch (error) {
    mol.delete();
    throw error;
  }
  return mol;
}
