/**
 * The on-disk form of a library index: a JSON header, then the index's arrays as they lie in memory, so a
 * start from cache reads one file and copies its arrays out. Fingerprint words are stored little-endian, the byte
 * order of every platform the server is built for.
 *
 * @module
 */
import { FP_BITS, FP_WORDS, type LibraryIndex, pieceLengths, words } from "./index.ts";
import type { SkipReport } from "./build.ts";

/** Version of the layout below; a change makes every older cache file a miss. */
export const INDEX_FORMAT = 2;
const MAGIC = "CHEMLIB\n";

/** What the header records besides the layout. */
interface Header {
  readonly format: number;
  readonly key: string;
  readonly count: number;
  readonly skipped: SkipReport;
  readonly textBytes: number;
}

/** The cache file's bytes, in pieces to be written in order. */
export function encodeIndex(index: LibraryIndex, skipped: SkipReport, key: string): Uint8Array[] {
  const text = new TextEncoder().encode([...index.smiles, ...index.ids].join("\n"));
  const patternBytes = index.count === 0 ? 0 : index.patternEnds[index.count - 1]!;
  const header: Header = { format: INDEX_FORMAT, key, count: index.count, skipped, textBytes: text.length };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const head = new Uint8Array(pad4(MAGIC.length + 4 + json.length));
  head.set(new TextEncoder().encode(MAGIC));
  new DataView(head.buffer).setUint32(MAGIC.length, json.length, true);
  head.set(json, MAGIC.length + 4);
  const bytes = (array: Uint32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return [
    head,
    bytes(index.bucketStart),
    bytes(index.positions),
    bytes(index.ecfp),
    bytes(index.patternEnds),
    ...index.patterns,
    new Uint8Array(pad4(patternBytes) - patternBytes),
    text,
  ];
}

/**
 * A cache file read by parts, so that a start from cache holds each array once and never the whole file (0.9 GB
 * at a million molecules) beside them.
 */
export interface CacheReader {
  /** The file's size in bytes. */
  readonly size: number;
  /** Fills `into` with the bytes from `at`; resolves what was filled (shorter past the end of the file). */
  readonly read: (at: number, into: Uint8Array) => Promise<Uint8Array>;
}

/** A reader over bytes in memory (copies into the caller's buffer, as a file reader does). */
export function bytesReader(file: Uint8Array): CacheReader {
  return {
    size: file.length,
    read: (at, into) => {
      const bytes = file.subarray(at, at + into.length);
      into.set(bytes);
      return Promise.resolve(into.subarray(0, bytes.length));
    },
  };
}

/** A cache file's index, without its pattern pickles (`index.patterns` is empty): `readPiece` reads them. */
export interface CachedIndex {
  readonly index: LibraryIndex;
  readonly skipped: SkipReport;
  /**
   * Piece `piece` of the pattern pickles (one per substructure shard), read from the file while it is open, into
   * a buffer the next piece's read reuses.
   */
  readonly readPiece: (piece: number) => Promise<Uint8Array>;
}

/**
 * The index a cache file holds, or `undefined` when the file is not one of this format and key (a stale or
 * damaged cache is rebuilt, never trusted). Each array is read into its own buffer; the pattern pickles are left
 * in the file for `readPiece`, so the reader stays open until the substructure shards have them.
 */
export async function readIndex(reader: CacheReader, key: string): Promise<CachedIndex | undefined> {
  try {
    const head = await reader.read(0, new Uint8Array(MAGIC.length + 4));
    if (
      head.length < MAGIC.length + 4 || new TextDecoder().decode(head.subarray(0, MAGIC.length)) !== MAGIC
    ) {
      return undefined;
    }
    const length = new DataView(head.buffer, head.byteOffset).getUint32(MAGIC.length, true);
    const header = JSON.parse(
      new TextDecoder().decode(await reader.read(MAGIC.length + 4, new Uint8Array(length))),
    );
    if (header.format !== INDEX_FORMAT || header.key !== key) return undefined;
    const { count, textBytes } = header as Header;
    let at = pad4(MAGIC.length + 4 + length);
    const part = async (n: number) => {
      const bytes = await readExactly(reader, at, new Uint8Array(n));
      at += n;
      return bytes;
    };
    const take = async (n: number) => words(await part(n * 4));
    const bucketStart = await take(FP_BITS + 2);
    const positions = await take(count);
    const ecfp = await take(count * FP_WORDS);
    const patternEnds = await take(count);
    // The pickles stay in the file, read a piece at a time as the substructure shards fill (0.5 GB at a million).
    const pieces: { at: number; length: number }[] = [];
    for (const length of pieceLengths(patternEnds, count)) {
      pieces.push({ at, length });
      at += length;
    }
    at = pad4(at);
    if (at + textBytes !== reader.size || bucketStart[FP_BITS + 1] !== count) return undefined;
    const lines = splitLines(await part(textBytes), count);
    if (!lines) return undefined;
    // One buffer for every piece: a shard's pickles are done with before the next shard's are read, and half a
    // gigabyte of spent pieces would otherwise wait for a collection that an idle server may not run.
    let scratch = new Uint8Array(0);
    const readPiece = async (piece: number) => {
      const { at, length } = pieces[piece]!;
      if (scratch.length < length) scratch = new Uint8Array(length);
      return await readExactly(reader, at, scratch.subarray(0, length));
    };
    const index = {
      count,
      ...lines,
      patterns: [],
      patternEnds,
      ecfp,
      positions,
      bucketStart,
    };
    return { index, skipped: (header as Header).skipped, readPiece };
  } catch {
    return undefined;
  }
}

/** `into` filled from `at`; throws when the file ends first (shorter than its index says). */
async function readExactly(reader: CacheReader, at: number, into: Uint8Array): Promise<Uint8Array> {
  const bytes = await reader.read(at, into);
  if (bytes.length !== into.length) {
    throw new RangeError("the library's cache file is shorter than its index says");
  }
  return bytes;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * The SMILES and the ids of the cache's text, each decoded on its own: the runtime's substrings of one decoded
 * text would keep all of it alive through the ids, long after the substructure shards let the SMILES go.
 */
function splitLines(bytes: Uint8Array, count: number): { smiles: string[]; ids: string[] } | undefined {
  let cut = -1;
  for (let n = 0; n < count; n++) {
    cut = bytes.indexOf(10, cut + 1);
    if (cut < 0) return undefined;
  }
  const decoder = new TextDecoder();
  const smiles = decoder.decode(bytes.subarray(0, cut)).split("\n");
  const ids = decoder.decode(bytes.subarray(cut + 1)).split("\n");
  return smiles.length === count && ids.length === count ? { smiles, ids } : undefined;
}
