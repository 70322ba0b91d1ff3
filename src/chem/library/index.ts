/**
 * The in-memory index of a compound library: ECFP4 (2048 bits) rows ordered by popcount, so a similarity search
 * reads only the popcounts its threshold allows, and in file order canonical SMILES, ids and RDKit's pattern
 * fingerprints as its `SubstructLibrary` pickles them (what the substructure search loads RDKit's library from).
 * ECFP4 rows are packed 32-bit words: bit i of a fingerprint is bit (i & 31) of word i >> 5, the byte order
 * RDKit's `get_morgan_fp_as_uint8array` gives on a little-endian machine.
 *
 * @module
 */

/** Bits of each fingerprint (ECFP4 as the `ecfp4` tool, and RDKit's pattern fingerprint default). */
export const FP_BITS = 2048;
/** 32-bit words per fingerprint. */
export const FP_WORDS = FP_BITS / 32;
/** Rows per block while building (16 MiB of ECFP4 each), so no growing allocation is copied over and over. */
export const BLOCK_ROWS = 65_536;
/**
 * Molecules per substructure shard, and per piece of pickled pattern fingerprints: a shard's piece is let go as
 * soon as RDKit holds its molecules, so the pickles (about 0.5 GB at a million) are not all kept until the last
 * shard is filled and a collection that may come late.
 */
export const SHARD_ROWS = 16_384;

/** A built or loaded library. */
export interface LibraryIndex {
  /** Molecules indexed. */
  readonly count: number;
  /** Each molecule's id, in file order. */
  readonly ids: readonly string[];
  /** Each molecule's canonical SMILES (RDKit), in file order. */
  readonly smiles: readonly string[];
  /**
   * Pattern fingerprints as RDKit pickles them, in file order, one piece per {@link SHARD_ROWS} molecules;
   * `patternEnds[i]` is where molecule i's ends counted over all pieces ({@link patternAt} reads one).
   */
  readonly patterns: readonly Uint8Array[];
  readonly patternEnds: Uint32Array;
  /** ECFP4 rows sorted by popcount, then by file position. */
  readonly ecfp: Uint32Array;
  /** The file position of each ECFP4 row. */
  readonly positions: Uint32Array;
  /** Rows of popcount p are `[bucketStart[p], bucketStart[p + 1])`; FP_BITS + 2 entries. */
  readonly bucketStart: Uint32Array;
}

/** Where piece `piece` of the pattern pickles starts, counted over all pieces. */
export function pieceStart(patternEnds: Uint32Array, piece: number): number {
  return piece === 0 ? 0 : patternEnds[piece * SHARD_ROWS - 1]!;
}

/** Piece lengths in bytes of the pattern pickles of `count` molecules. */
export function pieceLengths(patternEnds: Uint32Array, count: number): number[] {
  return Array.from(
    { length: Math.ceil(count / SHARD_ROWS) },
    (_, piece) =>
      patternEnds[Math.min(count, (piece + 1) * SHARD_ROWS) - 1]! - pieceStart(patternEnds, piece),
  );
}

/** Molecule `row`'s pickled pattern fingerprint: a view into its piece. */
export function patternAt(
  patterns: readonly (Uint8Array | undefined)[],
  patternEnds: Uint32Array,
  row: number,
): Uint8Array {
  const piece = Math.floor(row / SHARD_ROWS);
  const base = pieceStart(patternEnds, piece);
  return patterns[piece]!.subarray((row === 0 ? 0 : patternEnds[row - 1]!) - base, patternEnds[row]! - base);
}

/** Number of set bits of a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * `bytes` (a multiple of 4 long) as 32-bit words: a view when aligned, else a copy. Not for RDKit's answers,
 * which may lie in memory RDKit reuses: {@link copyWords} those.
 */
export function words(bytes: Uint8Array): Uint32Array {
  return bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2)
    : new Uint32Array(bytes.slice().buffer);
}

/** A copy of `bytes` (a multiple of 4 long) as 32-bit words. */
export function copyWords(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.slice().buffer);
}

/**
 * Collects molecules in file order and orders their ECFP4 rows by popcount at the end.
 *
 * @example
 * ```ts
 * const builder = new IndexBuilder();
 * builder.add(ecfpBytes, patternBytes, "CCO", "ethanol");
 * const index = builder.finish();
 * ```
 */
export class IndexBuilder {
  readonly #ids: string[] = [];
  readonly #smiles: string[] = [];
  /** Pickles, one growing piece per {@link SHARD_ROWS} molecules. */
  readonly #patterns: { bytes: Uint8Array; used: number }[] = [];
  readonly #ecfp: Uint32Array[] = [];
  #patternEnds = new Uint32Array(BLOCK_ROWS);
  #patternBytes = 0;
  #popcounts = new Uint16Array(BLOCK_ROWS);

  /** Molecules added so far. */
  get count(): number {
    return this.#ids.length;
  }

  /** Adds one molecule: its ECFP4 as 256 bytes and its pickled pattern fingerprint (copied). */
  add(ecfp: Uint8Array, pattern: Uint8Array, smiles: string, id: string): void {
    const row = this.#ids.length;
    const block = row % BLOCK_ROWS;
    if (block === 0) this.#ecfp.push(new Uint32Array(BLOCK_ROWS * FP_WORDS));
    if (row >= this.#popcounts.length) {
      this.#popcounts = grown(this.#popcounts);
      this.#patternEnds = grown(this.#patternEnds);
    }
    const e = copyWords(ecfp);
    this.#ecfp.at(-1)!.set(e, block * FP_WORDS);
    if (row % SHARD_ROWS === 0) this.#patterns.push({ bytes: new Uint8Array(1 << 20), used: 0 });
    const chunk = this.#patterns.at(-1)!;
    if (chunk.used + pattern.length > chunk.bytes.length) {
      const bigger = new Uint8Array(Math.max(2 * chunk.bytes.length, chunk.used + pattern.length));
      bigger.set(chunk.bytes.subarray(0, chunk.used));
      chunk.bytes = bigger;
    }
    chunk.bytes.set(pattern, chunk.used);
    chunk.used += pattern.length;
    this.#patternBytes += pattern.length;
    this.#patternEnds[row] = this.#patternBytes;
    let bits = 0;
    for (let w = 0; w < FP_WORDS; w++) bits += popcount32(e[w]!);
    this.#popcounts[row] = bits;
    this.#ids.push(id);
    this.#smiles.push(smiles);
  }

  /** The index; the builder is spent. */
  finish(): LibraryIndex {
    const count = this.#ids.length;
    const bucketStart = new Uint32Array(FP_BITS + 2);
    for (let row = 0; row < count; row++) bucketStart[this.#popcounts[row]! + 1]!++;
    for (let p = 1; p < bucketStart.length; p++) bucketStart[p]! += bucketStart[p - 1]!;
    const next = bucketStart.slice();
    const ecfp = new Uint32Array(count * FP_WORDS);
    const positions = new Uint32Array(count);
    for (let row = 0; row < count; row++) {
      const to = next[this.#popcounts[row]!]!++;
      const block = this.#ecfp[Math.floor(row / BLOCK_ROWS)]!;
      const from = (row % BLOCK_ROWS) * FP_WORDS;
      ecfp.set(block.subarray(from, from + FP_WORDS), to * FP_WORDS);
      positions[to] = row;
    }
    this.#ecfp.length = 0;
    // Each piece cut to its size, one at a time, so the build holds at most one piece twice.
    const patterns = this.#patterns.map((chunk) => {
      const piece = chunk.bytes.slice(0, chunk.used);
      chunk.bytes = new Uint8Array(0);
      return piece;
    });
    this.#patterns.length = 0;
    const patternEnds = this.#patternEnds.slice(0, count);
    return {
      count,
      ids: this.#ids,
      smiles: this.#smiles,
      patterns,
      patternEnds,
      ecfp,
      positions,
      bucketStart,
    };
  }
}

function grown<T extends Uint16Array | Uint32Array>(array: T): T {
  const out = new (array.constructor as new (n: number) => T)(array.length * 2);
  out.set(array);
  return out;
}
