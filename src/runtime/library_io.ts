/**
 * A compound library's file and cache I/O (`--library`, `--library-cache`), through `node:` modules, which
 * Deno and Node both provide: the file streamed (gunzipped when it starts with gzip's magic bytes), hashed, and
 * its index cached in the platform's cache directory.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createGunzip } from "node:zlib";
import type { LibraryIo } from "../chem/library/load.ts";

/** The chunks of the file at `path`, decompressed when it is gzip. */
async function* openLibrary(path: string): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  const magic = new Uint8Array(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = magic[0] === 0x1f && magic[1] === 0x8b ? stream.pipe(createGunzip()) : stream;
  // A gunzip failure (a damaged file) is emitted on the gunzip stream, which iteration reports.
  stream.on("error", (error) => source.destroy(error));
  for await (const chunk of source) yield chunk as Uint8Array;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Uint8Array);
  }
  return hash.digest("hex");
}

/**
 * The cache directory by the platform's convention: `$XDG_CACHE_HOME` or `~/.cache` on Linux,
 * `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows, with `chem-mcp/library` below it.
 */
export function defaultCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: string = process.platform,
  home: () => string = homedir,
): string | undefined {
  try {
    const base = platform === "win32"
      ? env.LOCALAPPDATA
      : platform === "darwin"
      ? join(home(), "Library", "Caches")
      : env.XDG_CACHE_HOME || join(home(), ".cache");
    return base ? join(base, "chem-mcp", "library") : undefined;
  } catch {
    return undefined;
  }
}

/** The cache file to read by parts (each into the caller's buffer), open until `done`. */
async function readCache(dir: string, name: string) {
  let file;
  try {
    file = await open(join(dir, name), "r");
    const { size } = await file.stat();
    const handle = file;
    const read = async (at: number, into: Uint8Array) => {
      const bytes = into.subarray(0, Math.max(0, Math.min(into.length, size - at)));
      let done = 0;
      while (done < bytes.length) {
        const { bytesRead } = await handle.read(bytes, done, bytes.length - done, at + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === bytes.length ? bytes : bytes.subarray(0, done);
    };
    return { size, read, done: () => handle.close() };
  } catch {
    await file?.close().catch(() => {});
    return undefined;
  }
}

/** Writes a temporary file and renames it, so a reader never sees half a cache and replicas do not collide. */
async function writeCache(dir: string, name: string, pieces: readonly Uint8Array[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${name}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, pieces);
    await rename(temporary, join(dir, name));
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/** The library I/O of both runtimes. */
export const libraryIo: LibraryIo = {
  open: openLibrary,
  hash: hashFile,
  defaultCacheDir: () => defaultCacheDir(),
  readCache,
  writeCache,
};
