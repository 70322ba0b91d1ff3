/**
 * One batch of a library's molecules made into index entries: each parsed once by RDKit, then its canonical
 * SMILES, its ECFP4 (as the `ecfp4` tool) and its pickled pattern fingerprint. A batch is what a tool worker
 * computes while the index is built (src/tools/library_build.ts), so its answer is JSON: the fingerprints of the
 * batch as base64 of their concatenated bytes.
 *
 * @module
 */
import { concatBytes, fromBase64, toBase64 } from "../../bytes.ts";
import { ChemError } from "../../errors.ts";
import { isLight, LIGHT_MAX_ATOMS, molBlockCost, textCost } from "../cost.ts";
import { ECFP4_BITS, ecfp4Bytes } from "../fingerprint.ts";
import {
  MAX_HEAVY_ATOMS,
  type Mol,
  parseSmiles,
  rdkit,
  type RDKitModule,
  rdkitReason,
  withinSize,
} from "../rdkit.ts";

/** Bytes of one ECFP4 in a batch. */
const ECFP4_BYTES = ECFP4_BITS / 8;

/** The entries of one batch of record texts, in the texts' order. */
export interface EntryBatch {
  /** Per text: `null` for a molecule made into an entry, else why it was skipped. */
  readonly failures: (string | null)[];
  /** Canonical SMILES of the entries. */
  readonly smiles: string[];
  /** The entries' ECFP4, {@link ECFP4_BYTES} each, concatenated, as base64. */
  readonly ecfp4: string;
  /** The entries' pickled pattern fingerprints, concatenated, as base64. */
  readonly patterns: string;
  /** Where each pickle ends in the bytes of `patterns`. */
  readonly patternEnds: number[];
}

/** One entry of a decoded batch. */
export interface Entry {
  readonly smiles: string;
  readonly ecfp4: Uint8Array;
  readonly pattern: Uint8Array;
}

/**
 * The entries of `texts` (SMILES, or MOL blocks: a text with a line break), each skipped with its reason when
 * RDKit cannot read it or it is too large for a library.
 *
 * @example
 * ```ts
 * indexTexts(["CCO", "C1CC"]).failures; // [null, "RDKit could not parse SMILES …"]
 * ```
 */
export function indexTexts(texts: readonly string[]): EntryBatch {
  const pickler = new PatternPickler();
  const failures: (string | null)[] = [];
  const entries: Entry[] = [];
  try {
    for (const text of texts) {
      const entry = entryOf(text, pickler);
      failures.push(typeof entry === "string" ? entry : null);
      if (typeof entry !== "string") entries.push(entry);
    }
  } finally {
    pickler.close();
  }
  return encodeBatch(failures, entries);
}

/** A batch from its failures (one per text) and its entries (one per `null` failure), in order. */
export function encodeBatch(failures: (string | null)[], entries: readonly Entry[]): EntryBatch {
  let end = 0;
  return {
    failures,
    smiles: entries.map((entry) => entry.smiles),
    ecfp4: toBase64(concatBytes(entries.map((entry) => entry.ecfp4))),
    patterns: toBase64(concatBytes(entries.map((entry) => entry.pattern))),
    patternEnds: entries.map((entry) => (end += entry.pattern.length)),
  };
}

/** The entries of a batch, in order (as many as its `null` failures). */
export function* entriesOf(batch: EntryBatch): Generator<Entry> {
  const ecfp4 = fromBase64(batch.ecfp4);
  const patterns = fromBase64(batch.patterns);
  let start = 0;
  for (let i = 0; i < batch.smiles.length; i++) {
    const end = batch.patternEnds[i]!;
    yield {
      smiles: batch.smiles[i]!,
      ecfp4: ecfp4.subarray(i * ECFP4_BYTES, (i + 1) * ECFP4_BYTES),
      pattern: patterns.subarray(start, end),
    };
    start = end;
  }
}

/** One text's entry, or why it has none. */
function entryOf(text: string, pickler: PatternPickler): Entry | string {
  let mol: Mol;
  try {
    mol = text.includes("\n") ? parseMolBlock(text) : parseLightSmiles(text);
  } catch (error) {
    if (error instanceof ChemError) return error.message;
    throw error;
  }
  try {
    const smiles = mol.get_smiles();
    return { smiles, ecfp4: ecfp4Bytes(mol), pattern: pickler.pickle(smiles) };
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
  return withinSize(mol, LIGHT_MAX_ATOMS);
}
