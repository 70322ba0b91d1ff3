/**
 * A library from its file: the index from the cache when one matches the file's content, the RDKit version
 * and the index format, else built and then cached; and the one library the server holds.
 *
 * @module
 */
import { preview } from "../../errors.ts";
import { rdkit } from "../rdkit.ts";
import { buildIndex, type BuildOptions, type SkipReport } from "./build.ts";
import { type CacheReader, encodeIndex, INDEX_FORMAT, readIndex } from "./cache.ts";
import type { LibraryIndex } from "./index.ts";
import { formatOf, sdRecords, smilesRecords } from "./records.ts";
import { SubstructureShards } from "./shards.ts";

/** The file and cache operations a runtime provides (src/runtime/library_io.ts). */
export interface LibraryIo {
  /** The file's bytes in chunks, decompressed when it is gzip; fails when the file cannot be read. */
  readonly open: (path: string) => AsyncIterable<Uint8Array>;
  /** Lower-case hex SHA-256 of the file's bytes as stored; rejects when the file cannot be read. */
  readonly hash: (path: string) => Promise<string>;
  /** The cache directory the platform's convention gives, if any. */
  readonly defaultCacheDir: () => string | undefined;
  /**
   * The cache file to read by parts, or `undefined` when absent or unreadable; `done` is called once reading
   * is over (the reader may hold the file open until then).
   */
  readonly readCache: (
    dir: string,
    name: string,
  ) => Promise<(CacheReader & { done(): Promise<void> }) | undefined>;
  /** Writes the cache file whole or not at all; rejects with the reason when it cannot. */
  readonly writeCache: (dir: string, name: string, pieces: readonly Uint8Array[]) => Promise<void>;
}

/** Where the library comes from. */
export interface LibrarySettings {
  readonly path: string;
  /** The cache directory (`--library-cache`); else the platform's default. */
  readonly cacheDir?: string;
  /** The SD data field holding each record's id (`--library-id`); else the title line. */
  readonly idField?: string;
}

/** A library ready to search. */
export interface LoadedLibrary {
  readonly path: string;
  readonly index: LibraryIndex;
  readonly skipped: SkipReport;
  /**
   * RDKit's substructure libraries over the index, filled on demand or in the background; they hold the pattern
   * fingerprints and the SMILES (`index.patterns` and `index.smiles` are empty here: `shards.smiles(position)`).
   */
  readonly shards: SubstructureShards;
}

/** The library could not be loaded; the message says why, for the exit-2 line. */
export class LibraryLoadError extends Error {}

let current: LoadedLibrary | undefined;

/** The library the server holds, if any. */
export function currentLibrary(): LoadedLibrary | undefined {
  return current;
}

/** Makes `library` the one `library_search` searches (`undefined`: none). */
export function setLibrary(library: LoadedLibrary | undefined): void {
  current = library;
}

/** Where a build computes its batches: the tool workers at server start (default: in place). */
export type BuildPlace = Pick<BuildOptions, "compute" | "parallel">;

/**
 * Loads the library of `settings`: from the cache, or built (progress and the cache's fate told to `log`), its
 * batches computed where `place` says. Rejects with a {@link LibraryLoadError} when the file cannot be read or
 * holds no molecule.
 */
export async function loadLibrary(
  settings: LibrarySettings,
  io: LibraryIo,
  log: (message: string) => void,
  now: () => number = () => Date.now(),
  place: BuildPlace = {},
): Promise<LoadedLibrary> {
  const started = now();
  const { path } = settings;
  let hash: string;
  try {
    hash = await io.hash(path);
  } catch (error) {
    throw new LibraryLoadError(`cannot read library ${path}: ${reason(error)}`);
  }
  const format = formatOf(path);
  const key = `${hash}:${rdkit().version()}:${INDEX_FORMAT}:${format}:${settings.idField ?? ""}`;
  const name = `${hash.slice(0, 32)}-${format}${
    settings.idField ? `-${safe(settings.idField)}` : ""
  }.chemlib`;
  const dir = settings.cacheDir ?? io.defaultCacheDir();
  const cached = dir === undefined ? undefined : await io.readCache(dir, name);
  const decoded = cached ? await readIndex(cached, key) : undefined;
  if (decoded) {
    log(`library: index read from ${join(dir!, name)} in ${seconds(now() - started)}`);
    return {
      path,
      skipped: decoded.skipped,
      ...split(decoded.index, decoded.readPiece, () => cached!.done()),
    };
  }
  await cached?.done();
  log(`library: indexing ${path} (ECFP4, pattern fingerprint, canonical SMILES)`);
  let built;
  try {
    const chunks = io.open(path);
    const records = format === "sdf" ? sdRecords(chunks, settings.idField) : smilesRecords(chunks);
    built = await buildIndex(records, {
      ...place,
      now,
      progress: (indexed, skipped) =>
        log(
          `library: ${indexed.toLocaleString("en")} molecules indexed, ${skipped} skipped (${
            seconds(now() - started)
          })`,
        ),
    });
  } catch (error) {
    throw new LibraryLoadError(`cannot read library ${path}: ${reason(error)}`);
  }
  if (built.index.count === 0) {
    throw new LibraryLoadError(
      `no molecule could be read from library ${path}${describeSkips(built.skipped)}`,
    );
  }
  log(`library: ${built.index.count.toLocaleString("en")} molecules indexed in ${seconds(now() - started)}`);
  if (dir === undefined) {
    log("library: no cache directory (set --library-cache); the index is kept in memory only");
  } else {
    try {
      await io.writeCache(dir, name, encodeIndex(built.index, built.skipped, key));
      log(`library: index cached in ${join(dir, name)}`);
    } catch (error) {
      log(`library: cannot write the cache in ${dir} (${reason(error)}); the index is kept in memory only`);
    }
  }
  return { path, skipped: built.skipped, ...split(built.index) };
}

/** The startup line: how many molecules, from where, and what was skipped. */
export function describeLibrary(library: LoadedLibrary): string {
  return `library: ${library.index.count.toLocaleString("en")} molecules from ${library.path}` +
    describeSkips(library.skipped);
}

/**
 * `; N records skipped: line 3: …; …` (the first `named` named, each reason cut to `reasonChars`, then a count),
 * or nothing.
 */
export function describeSkips(skipped: SkipReport, named = skipped.first.length, reasonChars = 200): string {
  const stopped = skipped.stoppedAt ? `; reading stopped at ${skipped.stoppedAt}` : "";
  if (skipped.count === 0) return stopped;
  const first = skipped.first.slice(0, named).map((text) => preview(text, reasonChars));
  const more = skipped.count - first.length;
  return `; ${skipped.count.toLocaleString("en")} record${skipped.count === 1 ? "" : "s"} skipped: ` +
    first.join("; ") + (more > 0 ? `; and ${more.toLocaleString("en")} more` : "") + stopped;
}

/**
 * The index without its pickled pattern fingerprints and SMILES, and the shards that hold them until RDKit has its
 * own copies: a million molecules' pickles are about 0.5 GB, their SMILES as strings 0.1 GB.
 */
function split(
  index: LibraryIndex,
  readPiece?: (piece: number) => Promise<Uint8Array>,
  closeFile?: () => Promise<void>,
): { index: LibraryIndex; shards: SubstructureShards } {
  const shards = new SubstructureShards(index, readPiece, closeFile);
  const rest = { patterns: [], patternEnds: new Uint32Array(0), smiles: [] };
  return { index: { ...index, ...rest }, shards };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function join(dir: string, name: string): string {
  return /[\\/]$/.test(dir) ? dir + name : `${dir}/${name}`;
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40);
}
