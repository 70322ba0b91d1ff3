/**
 * The library index against RDKit's Python (tests/data/reference/library.json, scripts/reference/
 * library_oracle.py): the molecules read, the ten best by ECFP4 Tanimoto, substructure counts; the popcount
 * bounds against a scan of every row; the cache's round trip.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { buildIndex, MAX_LEADING_FAILURES } from "../../src/chem/library/build.ts";
import { bytesReader, encodeIndex, readIndex } from "../../src/chem/library/cache.ts";
import {
  copyWords,
  FP_WORDS,
  IndexBuilder,
  type LibraryIndex,
  patternAt,
  popcount32,
  SHARD_ROWS,
} from "../../src/chem/library/index.ts";
import { sdRecords, smilesRecords } from "../../src/chem/library/records.ts";
import { similarityHits } from "../../src/chem/library/similarity.ts";
import { substructureHits } from "../../src/chem/library/substructure.ts";
import { SubstructureShards } from "../../src/chem/library/shards.ts";
import { ecfp4Of } from "../../src/chem/fingerprint.ts";
import { libraryIo } from "../../src/runtime/library_io.ts";

await loadTestRDKit();

interface Answers {
  ids: string[];
  similarity: { query: string; top10: { id: string; score: number }[]; at_least_0_3: number }[];
  substructure: { smarts: string; count: number; first10: string[] }[];
}
const ORACLE = JSON.parse(
  readFileSync(join(ROOT, "tests/data/reference/library.json"), "utf8"),
) as Record<string, Answers>;
const path = (name: string) => join(ROOT, "tests/data/library", name);

const nci = await buildIndex(smilesRecords(libraryIo.open(path("nci400.smi"))));
const bzr = await buildIndex(sdRecords(libraryIo.open(path("bzr40.sdf"))));

const query = (smiles: string) => copyWords(ecfp4Of(smiles));

for (const [name, built] of [["nci400.smi", nci], ["bzr40.sdf", bzr]] as const) {
  const oracle = ORACLE[name]!;
  const { index } = built;

  test(`${name}: the molecules RDKit reads, with their ids, in file order`, () => {
    assert.deepEqual(index.ids, oracle.ids);
    assert.equal(built.skipped.count, 0);
  });

  test(`${name}: the ten best by ECFP4 Tanimoto and the count ≥ 0.3 equal RDKit's BulkTanimotoSimilarity`, () => {
    for (const expected of oracle.similarity) {
      const top = similarityHits(index, query(expected.query), 0, 10);
      assert.deepEqual(
        top.hits.map((h) => ({ id: index.ids[h.position], score: h.score })),
        expected.top10,
        expected.query,
      );
      assert.equal(top.total, index.count);
      assert.equal(similarityHits(index, query(expected.query), 0.3, 10).total, expected.at_least_0_3);
    }
  });

  test(`${name}: substructure counts and first hits equal RDKit's HasSubstructMatch`, async () => {
    for (const expected of oracle.substructure) {
      const found = await substructureHits(new SubstructureShards(index), expected.smarts, {
        limit: 10,
        budgetMs: 60_000,
      });
      assert.equal(found.total, expected.count, expected.smarts);
      assert.deepEqual(found.positions.map((p) => index.ids[p]), expected.first10, expected.smarts);
      assert.equal(found.stopped, false);
      assert.equal(found.searched, index.count);
    }
  });
}

test("SD ids from a named data field", async () => {
  const byField = await buildIndex(sdRecords(libraryIo.open(path("bzr40.sdf")), "ACTIVITY"));
  assert.deepEqual(byField.index.ids, ORACLE["bzr40.sdf#ACTIVITY"]!.ids);
});

/** Every row scored: what the popcount bounds must reproduce. */
function scan(index: LibraryIndex, q: Uint32Array, threshold: number) {
  let a = 0;
  for (let w = 0; w < FP_WORDS; w++) a += popcount32(q[w]!);
  const hits: { position: number; score: number }[] = [];
  for (let row = 0; row < index.count; row++) {
    let common = 0;
    let b = 0;
    for (let w = 0; w < FP_WORDS; w++) {
      common += popcount32(index.ecfp[row * FP_WORDS + w]! & q[w]!);
      b += popcount32(index.ecfp[row * FP_WORDS + w]!);
    }
    const score = a + b - common === 0 ? 0 : common / (a + b - common);
    if (score >= threshold) hits.push({ position: index.positions[row]!, score });
  }
  return hits.sort((x, y) => y.score - x.score || x.position - y.position);
}

test("popcount bounds: every threshold and k gives the scan's answer, and a high threshold reads little", () => {
  const { index } = nci;
  for (const smiles of ["c1ccccc1O", "CCCCCCCCCC(=O)O", "Clc1ccc(Cl)cc1", "O", "CN1CCC[C@H]1c1cccnc1"]) {
    const q = query(smiles);
    for (const threshold of [0, 0.1, 0.25, 0.5, 0.8, 1]) {
      const all = scan(index, q, threshold);
      for (const k of [1, 3, 10, 500]) {
        const found = similarityHits(index, q, threshold, k);
        assert.deepEqual(found.hits, all.slice(0, k), `${smiles} ${threshold} ${k}`);
        assert.equal(found.total, all.length);
      }
    }
  }
  const found = similarityHits(index, query("CC(=O)Nc1ccc(O)cc1"), 0.9, 10);
  assert.ok(found.compared < index.count / 2, `${found.compared} of ${index.count} rows compared`);
  const top = similarityHits(index, query("CC(=O)Nc1ccc(O)cc1"), 0, 1);
  assert.ok(top.compared < index.count, `${top.compared} of ${index.count} rows compared for the best one`);
});

/** Random fingerprints of `count` rows, a few bits to a hundred each, every fifth a copy of an earlier one. */
function randomIndex(count: number, seed: number): LibraryIndex {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const builder = new IndexBuilder();
  const rows: Uint8Array[] = [];
  for (let row = 0; row < count; row++) {
    const bytes = new Uint8Array(FP_WORDS * 4);
    if (row % 5 === 4) bytes.set(rows[Math.floor(next() * rows.length)]!);
    else {
      // Bits drawn from a narrow range as well as the whole width, so rows share bits as molecules do.
      const bits = Math.floor(next() * 100);
      for (let i = 0; i < bits; i++) {
        const bit = next() < 0.5 ? Math.floor(next() * 96) : Math.floor(next() * FP_WORDS * 32);
        bytes[bit >> 3]! |= 1 << (bit & 7);
      }
    }
    rows.push(bytes);
    builder.add(bytes, new Uint8Array(0), "C", `${row}`);
  }
  return builder.finish();
}

test("the best k by popcount bins equal a scan of every row on random fingerprints, ties by position", () => {
  const index = randomIndex(3_000, 7);
  for (let row = 0; row < 60; row++) {
    const at = (row * 997) % index.count;
    const q = index.ecfp.slice(at * FP_WORDS, (at + 1) * FP_WORDS);
    for (const threshold of [0, 0.2, 0.6]) {
      const all = scan(index, q, threshold);
      for (const k of [1, 4, 10, 200]) {
        const found = similarityHits(index, q, threshold, k);
        assert.deepEqual(found.hits, all.slice(0, k), `row ${at} ${threshold} ${k}`);
        assert.equal(found.total, threshold === 0 ? index.count : all.length);
      }
    }
  }
  const empty = new Uint32Array(FP_WORDS);
  assert.deepEqual(similarityHits(index, empty, 0, 10).hits, scan(index, empty, 0).slice(0, 10));
});

test("every molecule of the test libraries as a query: the ten best equal a scan of every row", () => {
  for (const { index } of [nci, bzr]) {
    for (let at = 0; at < index.count; at++) {
      const q = index.ecfp.slice(at * FP_WORDS, (at + 1) * FP_WORDS);
      assert.deepEqual(similarityHits(index, q, 0, 10).hits, scan(index, q, 0).slice(0, 10), `row ${at}`);
    }
  }
});

test("the cache gives back the same index; another key, a damaged or truncated file give nothing", async () => {
  const file = concat(encodeIndex(nci.index, nci.skipped, "key-1"));
  const decodeIndex = (bytes: Uint8Array, key: string) => readIndex(bytesReader(bytes), key);
  const back = await decodeIndex(file, "key-1");
  assert.ok(back);
  assert.deepEqual(back.index.ids, nci.index.ids);
  assert.deepEqual(back.index.smiles, nci.index.smiles);
  assert.deepEqual(back.index.ecfp, nci.index.ecfp);
  assert.deepEqual(back.index.positions, nci.index.positions);
  assert.deepEqual(back.index.bucketStart, nci.index.bucketStart);
  assert.deepEqual(back.index.patterns, [], "the pickles are left in the file");
  assert.deepEqual(await back.readPiece(0), nci.index.patterns[0]);
  assert.deepEqual(back.index.patternEnds, nci.index.patternEnds);
  assert.deepEqual(back.skipped, nci.skipped);
  assert.equal(await decodeIndex(file, "key-2"), undefined);
  assert.equal(await decodeIndex(file.subarray(0, file.length - 1), "key-1"), undefined);
  assert.equal(await decodeIndex(file.subarray(0, 2_000), "key-1"), undefined);
  assert.equal(await decodeIndex(new Uint8Array(100), "key-1"), undefined);
  assert.equal(await decodeIndex(new Uint8Array(0), "key-1"), undefined);
});

/** The nci400 molecules repeated to `count` rows: enough for several shards, without building them. */
function repeated(index: LibraryIndex, count: number): LibraryIndex {
  const ends: number[] = [];
  const pieces: Uint8Array[][] = [];
  let at = 0;
  for (let row = 0; row < count; row++) {
    const pickle = patternAt(index.patterns, index.patternEnds, row % index.count);
    if (row % SHARD_ROWS === 0) pieces.push([]);
    pieces.at(-1)!.push(pickle);
    ends.push(at += pickle.length);
  }
  return {
    ...index,
    count,
    ids: Array.from({ length: count }, (_, row) => `${row}`),
    smiles: Array.from({ length: count }, (_, row) => index.smiles[row % index.count]!),
    patterns: pieces.map((piece) => concat(piece)),
    patternEnds: Uint32Array.from(ends),
  };
}

test("a substructure search over shards stops at its time bound and says how far it got", async () => {
  const big = repeated(nci.index, SHARD_ROWS + 100);
  // The pickles read a shard at a time, as from a cache file, which is closed once every shard is filled.
  let closed = 0;
  const shards = new SubstructureShards(
    { ...big, patterns: [] },
    (piece) => Promise.resolve(big.patterns[piece]!),
    () => {
      closed++;
      return Promise.resolve();
    },
  );
  // The clock passes the deadline once the second shard starts filling.
  const found = await substructureHits(shards, "c1ccccc1", {
    limit: 5,
    budgetMs: 500,
    now: () => (shards.filled > SHARD_ROWS ? 1_000 : 0),
    yieldNow: () => Promise.resolve(),
  });
  assert.equal(found.stopped, true);
  assert.equal(found.searched, SHARD_ROWS);
  assert.equal(found.positions.length, 5);
  const perCopy = ORACLE["nci400.smi"]!.substructure.find((s) => s.smarts === "c1ccccc1")!.count;
  assert.ok(found.total > perCopy * 40, `${found.total}`);
  const all = await substructureHits(shards, "c1ccccc1", { limit: 3, budgetMs: 60_000 });
  assert.equal(all.stopped, false);
  assert.equal(all.searched, big.count);
  assert.equal(closed, 1);
  const inFirst100 = ORACLE["nci400.smi"]!.substructure.find((s) => s.smarts === "c1ccccc1")!.first10;
  assert.deepEqual(
    all.positions.map((p) => big.smiles[p]),
    inFirst100.slice(0, 3).map((id) => nci.index.smiles[nci.index.ids.indexOf(id)]),
  );
});

test("records RDKit refuses or that are too large are skipped, the first few named", async () => {
  const text = `CCO a\nC1CC b\nxyz c\n${"C".repeat(400)} d\nN e\nC(C d\nC)C f\nF g\n`;
  const built = await buildIndex(smilesRecords((async function* () {
    yield new TextEncoder().encode(text);
  })()));
  assert.deepEqual(built.index.ids, ["a", "e", "g"]);
  assert.equal(built.skipped.count, 5);
  assert.equal(built.skipped.first.length, 5);
  assert.match(built.skipped.first[0]!, /^line 2: RDKit could not parse SMILES 'C1CC'/);
  assert.match(built.skipped.first[2]!, /^line 4: larger than a library molecule may be/);
});

test("reading stops at the molecule limit, and after 10,000 unreadable records with no molecule first", async () => {
  const lines = (text: string) =>
    smilesRecords((async function* () {
      yield new TextEncoder().encode(text);
    })());
  const capped = await buildIndex(lines("C a\nCC b\nCCC c\n"), { maxMolecules: 2 });
  assert.deepEqual(capped.index.ids, ["a", "b"]);
  assert.equal(capped.skipped.stoppedAt, "line 3 (2 molecules read)");
  const junk = await buildIndex(lines("Q\n".repeat(MAX_LEADING_FAILURES + 50) + "CCO late\n"));
  assert.equal(junk.index.count, 0);
  assert.equal(junk.skipped.count, MAX_LEADING_FAILURES);
  assert.match(junk.skipped.stoppedAt ?? "", /^line 10000, after 10,000 unreadable records and no molecule$/);
});

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

test("pattern pickles are kept in one piece per shard, read back row by row and through the cache", async () => {
  const builder = new IndexBuilder();
  const rows = 2 * SHARD_ROWS + 5;
  const pickle = (row: number) => Uint8Array.from({ length: 20 + (row % 37) }, (_, i) => (row * 7 + i) & 255);
  for (let row = 0; row < rows; row++) builder.add(new Uint8Array(256), pickle(row), "C", `${row}`);
  const index = builder.finish();
  assert.deepEqual(index.patterns.map((piece) => piece.length > 0), [true, true, true]);
  for (const row of [0, 1, SHARD_ROWS - 1, SHARD_ROWS, 2 * SHARD_ROWS + 4]) {
    assert.deepEqual(patternAt(index.patterns, index.patternEnds, row), pickle(row), `row ${row}`);
  }
  const back = await readIndex(bytesReader(concat(encodeIndex(index, { count: 0, first: [] }, "k"))), "k");
  assert.ok(back);
  for (let piece = 0; piece < 3; piece++) {
    assert.deepEqual(await back.readPiece(piece), index.patterns[piece]);
  }
});
