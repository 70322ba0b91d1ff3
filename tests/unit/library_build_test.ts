// A library index built in batches by several workers at once is the index built in place: same molecules, ids,
// canonical SMILES, fingerprints and pickles, in file order, whatever order the batches finish in; a batch whose
// worker dies is redone a molecule at a time, a busy pool is asked again, and the rules that stop reading early
// hold with batches in flight.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { buildIndex, type ComputeBatch, MAX_LEADING_FAILURES } from "../../src/chem/library/build.ts";
import { indexTexts } from "../../src/chem/library/entries.ts";
import type { LibraryIndex } from "../../src/chem/library/index.ts";
import { smilesRecords } from "../../src/chem/library/records.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();

const NCI = readFileSync(join(ROOT, "tests/data/library/nci400.smi"), "utf8").trim().split("\n");
/** 802 lines: the NCI set twice (ids made unique) and two lines RDKit cannot read; batches of 64 molecules. */
const LINES = Array.from({ length: 2 }, (_, k) => NCI.map((line) => `${line}_${k}`)).flat();
LINES.splice(5, 0, "C1CC broken");
LINES.splice(500, 0, "N(C)(C)(C)(C)C valence");
const BATCH = 64;
const FILE = new TextEncoder().encode(LINES.join("\n") + "\n");

async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const build = (compute?: ComputeBatch, parallel?: number, maxMolecules?: number) =>
  buildIndex(smilesRecords(chunks(FILE)), {
    compute,
    parallel,
    maxMolecules,
    batchMolecules: BATCH,
    retryMs: 1,
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function assertSameIndex(a: LibraryIndex, b: LibraryIndex): void {
  assert.equal(a.count, b.count);
  assert.deepEqual(a.ids, b.ids);
  assert.deepEqual(a.smiles, b.smiles);
  assert.deepEqual(a.ecfp, b.ecfp);
  assert.deepEqual(a.patterns, b.patterns);
  assert.deepEqual(a.patternEnds, b.patternEnds);
  assert.deepEqual(a.positions, b.positions);
  assert.deepEqual(a.bucketStart, b.bucketStart);
}

const inPlace = await build();

test("the file makes several batches, and the in-place build skips the two bad lines", () => {
  assert.ok(inPlace.index.count > 10 * BATCH, String(inPlace.index.count));
  assert.equal(inPlace.skipped.count, LINES.length - inPlace.index.count);
  assert.ok(inPlace.skipped.first.some((line) => /broken|unclosed ring/.test(line)));
});

test("three workers finishing in any order build the same index", async () => {
  let calls = 0;
  let most = 0;
  let running = 0;
  const compute: ComputeBatch = async (texts) => {
    calls++;
    most = Math.max(most, ++running);
    // Later batches finish first.
    await sleep(30 - 10 * (calls % 3));
    running--;
    return JSON.parse(JSON.stringify(indexTexts(texts)));
  };
  const built = await build(compute, 3);
  assertSameIndex(built.index, inPlace.index);
  assert.deepEqual(built.skipped, inPlace.skipped);
  assert.equal(most, 3, "three batches computed at once");
  assert.equal(calls, Math.ceil(LINES.length / BATCH), "one call per batch of molecule records");
});

test("a batch whose worker dies is redone one molecule at a time; the molecule that kills it is skipped", async () => {
  const deadly = LINES[300]!.split(/\s+/)[0]!;
  const compute: ComputeBatch = (texts) =>
    texts.includes(deadly)
      ? Promise.reject(
        new ChemError("UNSUPPORTED_MOLECULE", "RDKit failed on this input; its worker was replaced"),
      )
      : Promise.resolve(indexTexts(texts));
  const built = await build(compute, 2);
  const lost = LINES.filter((line) => line.split(/\s+/)[0] === deadly).map((line) => line.split(/\s+/)[1]!);
  assert.equal(lost.length, 2, "the NCI line's two copies");
  assert.deepEqual(built.index.ids, inPlace.index.ids.filter((id) => !lost.includes(id)));
  assert.equal(built.skipped.count, inPlace.skipped.count + lost.length);
});

test("a busy pool is asked again, and the index is the same", async () => {
  let busy = 2;
  const compute: ComputeBatch = (texts) =>
    busy-- > 0
      ? Promise.reject(new ChemError("SERVER_BUSY", "every worker is busy"))
      : Promise.resolve(indexTexts(texts));
  const built = await build(compute, 2);
  assertSameIndex(built.index, inPlace.index);
});

test("reading stops at the most molecules, and after the leading failures, with batches in flight", async () => {
  const compute: ComputeBatch = (texts) => Promise.resolve(indexTexts(texts));
  const capped = await build(compute, 3, 300);
  assert.equal(capped.index.count, 300);
  assert.deepEqual(capped.index.ids, inPlace.index.ids.slice(0, 300));
  assert.match(capped.skipped.stoppedAt!, /300 molecules read/);
  const garbage = new TextEncoder().encode("C1CC x\n".repeat(MAX_LEADING_FAILURES + 3_000));
  const failed = await buildIndex(smilesRecords(chunks(garbage)), {
    compute,
    parallel: 3,
    batchMolecules: BATCH,
  });
  assert.equal(failed.index.count, 0);
  assert.equal(failed.skipped.count, MAX_LEADING_FAILURES);
  assert.match(failed.skipped.stoppedAt!, /after 10,000 unreadable records and no molecule/);
});

test("a pool that cannot start a worker, or stays busy, is left: the rest is built in place", async () => {
  let calls = 0;
  const broken: ComputeBatch = () => {
    calls++;
    return Promise.reject(new Error("the worker entry is missing"));
  };
  assertSameIndex((await build(broken, 2)).index, inPlace.index);
  assert.ok(calls <= 2, `asked ${calls} times`);
  calls = 0;
  const busy: ComputeBatch = () => {
    calls++;
    return Promise.reject(
      new ChemError("SERVER_BUSY", "A tool worker could not start; retry in a few seconds."),
    );
  };
  assertSameIndex((await build(busy, 2)).index, inPlace.index);
  assert.ok(calls <= 60, `asked ${calls} times, not once per molecule`);
});
