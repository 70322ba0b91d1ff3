/** Loading a library: cache hit and miss, unwritable cache, unreadable file, gzip; the options that ask for it. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { bytesReader } from "../../src/chem/library/cache.ts";
import { type LibraryIo, LibraryLoadError, loadLibrary } from "../../src/chem/library/load.ts";
import { defaultCacheDir, libraryIo } from "../../src/runtime/library_io.ts";
import { startLibrary } from "../../src/chem/library/start.ts";
import { parseCli } from "../../src/cli.ts";
import { substructureHits } from "../../src/chem/library/substructure.ts";

await loadTestRDKit();

const FILE = "CCO ethanol\nc1ccccc1O phenol\nnot-a-molecule bad\nCC(=O)Nc1ccc(O)cc1 paracetamol\n";

/** An in-memory file and cache directory, counting what is read and written. */
function memoryIo(files: Record<string, string>, writable = true) {
  const cache = new Map<string, Uint8Array>();
  const counts = { opened: 0, written: 0 };
  const io: LibraryIo = {
    open: async function* (path) {
      counts.opened++;
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      yield new TextEncoder().encode(text);
    },
    hash: (path) =>
      files[path] === undefined
        ? Promise.reject(new Error(`ENOENT: ${path}`))
        : Promise.resolve(String(files[path].length).padStart(64, "0")),
    defaultCacheDir: () => "/cache",
    readCache: (dir, name) => {
      const bytes = cache.get(`${dir}/${name}`);
      return Promise.resolve(bytes && { ...bytesReader(bytes), done: () => Promise.resolve() });
    },
    writeCache: (dir, name, pieces) => {
      if (!writable) return Promise.reject(new Error("EROFS: read-only file system"));
      counts.written++;
      const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const piece of pieces) out.set(piece, (at += piece.length) - piece.length);
      cache.set(`${dir}/${name}`, out);
      return Promise.resolve();
    },
  };
  return { io, counts };
}

test("the first start builds and caches; the second reads the cache without opening the file", async () => {
  const { io, counts } = memoryIo({ "/deck.smi": FILE });
  const log: string[] = [];
  const first = await loadLibrary({ path: "/deck.smi" }, io, (m) => log.push(m));
  assert.deepEqual(first.index.ids, ["ethanol", "phenol", "paracetamol"]);
  assert.equal(first.skipped.count, 1);
  assert.deepEqual(counts, { opened: 1, written: 1 });
  assert.ok(log.some((m) => /index cached in \/cache\//.test(m)), log.join("\n"));
  const second = await loadLibrary({ path: "/deck.smi" }, io, (m) => log.push(m));
  assert.deepEqual(counts, { opened: 1, written: 1 });
  const smiles = (library: typeof first) => first.index.ids.map((_, at) => library.shards.smiles(at));
  assert.deepEqual(smiles(second), ["CCO", "Oc1ccccc1", "CC(=O)Nc1ccc(O)cc1"]);
  assert.deepEqual(smiles(second), smiles(first));
  assert.deepEqual(second.skipped, first.skipped);
  assert.match(log.at(-1)!, /^library: index read from \/cache\//);
  // The cached library's pattern fingerprints come from the file as its shards fill.
  const search = (library: typeof first) =>
    substructureHits(library.shards, "c1ccccc1", { limit: 10, budgetMs: 60_000 });
  assert.deepEqual(await search(second), await search(first));
  assert.equal((await search(second)).total, 2);
});

test("a loaded library's shards hold the pattern fingerprints; searches work before and after they fill", async () => {
  const { io } = memoryIo({ "/deck.smi": FILE });
  const library = await loadLibrary({ path: "/deck.smi" }, io, () => {});
  assert.equal(library.index.patterns.length, 0);
  const before = await substructureHits(library.shards, "c1ccccc1", { limit: 10, budgetMs: 60_000 });
  await library.shards.fillAll(() => Promise.resolve());
  const after = await substructureHits(library.shards, "c1ccccc1", { limit: 10, budgetMs: 60_000 });
  assert.deepEqual(before.positions, [1, 2]);
  assert.deepEqual(after, before);
  // Once filled, the SMILES are RDKit's copies, the same text.
  assert.deepEqual([0, 1, 2].map((at) => library.shards.smiles(at)), [
    "CCO",
    "Oc1ccccc1",
    "CC(=O)Nc1ccc(O)cc1",
  ]);
  assert.equal(library.index.smiles.length, 0);
});

test("an unwritable cache: the index is kept in memory, and the log says so", async () => {
  const { io } = memoryIo({ "/deck.smi": FILE }, false);
  const log: string[] = [];
  const library = await loadLibrary({ path: "/deck.smi", cacheDir: "/ro" }, io, (m) => log.push(m));
  assert.equal(library.index.count, 3);
  assert.ok(
    log.some((m) => /cannot write the cache in \/ro \(EROFS.*kept in memory only/.test(m)),
    log.join("\n"),
  );
});

test("a missing file, or one with no molecule, is a load error with the reason; startLibrary says it and fails", async () => {
  const { io } = memoryIo({ "/junk.smi": "xx\nyy\n" });
  await assert.rejects(
    loadLibrary({ path: "/none.smi" }, io, () => {}),
    (error: unknown) =>
      error instanceof LibraryLoadError && /cannot read library \/none\.smi: ENOENT/.test(error.message),
  );
  await assert.rejects(
    loadLibrary({ path: "/junk.smi" }, io, () => {}),
    (error: unknown) =>
      error instanceof LibraryLoadError &&
      /^no molecule could be read from library \/junk\.smi; 2 records skipped: line 1: /.test(error.message),
  );
  const log: string[] = [];
  assert.equal(await startLibrary({ path: "/none.smi" }, io, (m) => log.push(m)), false);
  assert.match(log.at(-1)!, /cannot read library \/none\.smi/);
  assert.equal(await startLibrary(undefined, io, () => {}), true);
});

test("startLibrary's line names the first skipped records, then counts the rest", async () => {
  const bad = Array.from({ length: 8 }, (_, i) => `Q${i} bad${i}`).join("\n");
  const { io } = memoryIo({ "/deck.smi": `${FILE}${bad}\n` });
  const log: string[] = [];
  assert.equal(await startLibrary({ path: "/deck.smi" }, io, (m) => log.push(m)), true);
  assert.match(
    log.at(-1)!,
    /^library: 3 molecules from \/deck\.smi; 9 records skipped: line 3: .*; and 4 more$/,
  );
});

test("files on disk: gzip is read through, a damaged gzip is an error, and the cache is written and read", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-library-"));
  try {
    writeFileSync(join(dir, "deck.smi.gz"), gzipSync(new TextEncoder().encode(FILE)));
    writeFileSync(join(dir, "broken.smi.gz"), gzipSync(new TextEncoder().encode(FILE)).subarray(0, 30));
    const log: string[] = [];
    const settings = { path: join(dir, "deck.smi.gz"), cacheDir: join(dir, "cache") };
    const built = await loadLibrary(settings, libraryIo, (m) => log.push(m));
    assert.deepEqual(built.index.ids, ["ethanol", "phenol", "paracetamol"]);
    const again = await loadLibrary(settings, libraryIo, (m) => log.push(m));
    assert.deepEqual(again.index.ids, built.index.ids);
    assert.match(log.at(-1)!, /index read from/);
    await assert.rejects(
      loadLibrary({ path: join(dir, "broken.smi.gz"), cacheDir: join(dir, "cache") }, libraryIo, () => {}),
      LibraryLoadError,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the default cache directory follows each platform's convention", () => {
  const home = () => "/home/u";
  assert.equal(defaultCacheDir({}, "linux", home), "/home/u/.cache/chem-mcp/library");
  assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "/x" }, "linux", home), "/x/chem-mcp/library");
  assert.equal(defaultCacheDir({}, "darwin", home), "/home/u/Library/Caches/chem-mcp/library");
  assert.equal(defaultCacheDir({}, "win32", home), undefined);
});

test("options: --library or CHEM_MCP_LIBRARY adds library_search; without a library it is never listed", () => {
  const names = (plan: ReturnType<typeof parseCli>) =>
    plan.kind === "serve" ? plan.options.tools.map((t) => t.name) : plan;
  const withLibrary = parseCli(["--library", "/d.sdf", "--library-cache", "/c", "--library-id", "CODE"]);
  assert.equal(withLibrary.kind, "serve");
  if (withLibrary.kind !== "serve") return;
  assert.deepEqual(withLibrary.options.library, { path: "/d.sdf", cacheDir: "/c", idField: "CODE" });
  assert.equal((names(withLibrary) as string[]).at(-1), "library_search");
  const fromEnv = parseCli(["--tools", "canonical_smiles"], { CHEM_MCP_LIBRARY: "/e.smi" });
  assert.deepEqual(names(fromEnv), ["canonical_smiles", "library_search"]);
  const flagFirst = parseCli(["--library", "/f.smi"], { CHEM_MCP_LIBRARY: "/e.smi" });
  assert.equal(flagFirst.kind === "serve" && flagFirst.options.library?.path, "/f.smi");
  assert.ok(!(names(parseCli(["--tools", "all"])) as string[]).includes("library_search"));
  for (const blank of ["", "${user_config.library}"]) {
    const plan = parseCli([], { CHEM_MCP_LIBRARY: blank });
    assert.equal(plan.kind === "serve" && plan.options.library, undefined, blank);
  }
  const refused = parseCli(["--tools", "library_search"]);
  assert.equal(refused.kind, "error");
  assert.match(refused.kind === "error" ? refused.message : "", /library_search needs --library/);
  assert.match(
    String((parseCli(["--library-cache", "/c"]) as { message?: string }).message),
    /needs --library/,
  );
});
