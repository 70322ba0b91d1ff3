/**
 * The on-disk form of a library index: a JSON header, then the index's arrays as they lie in memory, so a
 * start from cache reads one file and copies its arrays out. Fingerprint words are stored little-endian, the byte
 * order of every platform the server is built for.
 *
 * @module
 */
import { FP_BITS, FP_WORDS, type LibraryIndex, words } from "./index.ts";
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
    index.patterns,
    new Uint8Array(pad4(index.patterns.length) - index.patterns.length),
    text,
  ];
}

/**
 * The index a cache file holds, or `undefined` when the file is not one of this format and key (a stale or
 * damaged cache is rebuilt, never trusted).
 */
export function decodeIndex(
  file: Uint8Array,
  key: string,
): { index: LibraryIndex; skipped: SkipReport } | undefined {
  try {
    if (new TextDecoder().decode(file.subarray(0, MAGIC.length)) !== MAGIC) return undefined;
    const length = new DataView(file.buffer, file.byteOffset).getUint32(MAGIC.length, true);
    const header = JSON.parse(
      new TextDecoder().decode(file.subarray(MAGIC.length + 4, MAGIC.length + 4 + length)),
    );
    if (header.format !== INDEX_FORMAT || header.key !== key) return undefined;
    const { count, textBytes } = header as Header;
    let at = pad4(MAGIC.length + 4 + length);
    // Copies, so that the file's buffer is held by the pattern pickles alone and goes once RDKit has those.
    const take = (n: number) => words(file.subarray(at, at += n * 4)).slice();
    const bucketStart = take(FP_BITS + 2);
    const positions = take(count);
    const ecfp = take(count * FP_WORDS);
    const patternEnds = take(count);
    const patternBytes = count === 0 ? 0 : patternEnds[count - 1]!;
    if (at + patternBytes > file.length) return undefined;
    const patterns = file.subarray(at, at + patternBytes);
    at += pad4(patternBytes);
    if (at + textBytes !== file.length || bucketStart[FP_BITS + 1] !== count) return undefined;
    const text = new TextDecoder().decode(file.subarray(at)).split("\n");
    if (text.length !== 2 * count) return undefined;
    const index = {
      count,
      ids: text.slice(count),
      smiles: text.slice(0, count),
      patterns,
      patternEnds,
      ecfp,
      positions,
      bucketStart,
    };
    return { index, skipped: (header as Header).skipped };
  } catch {
    return undefined;
  }
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
