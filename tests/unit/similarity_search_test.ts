// similarity_search sized for a model: entries RDKit cannot read skipped and listed (capped, counted), the query
// still refused, the best ten by default with the number of hits in all, scores to 4 decimals.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import {
  DEFAULT_TOP_K,
  MAX_SKIPPED_LISTED,
  similaritySearchTool,
} from "../../src/tools/similarity_search.ts";
import { similaritySearch } from "../../src/chem/similarity.ts";
import { ChemError } from "../../src/errors.ts";
import type { Tool } from "../../src/tools/tool.ts";

await loadTestRDKit();

interface Answer {
  hits: { index: number; smiles: string; score: number }[];
  total_hits: number;
  skipped?: { index: number; error: string }[];
  skipped_count?: number;
}

const search = (args: Record<string, unknown>): Answer => {
  const result = similaritySearchTool.run(v.parse(similaritySearchTool.input, args));
  assert.ok(v.safeParse(similaritySearchTool.output, result).success, "the answer meets its schema");
  return result as Answer;
};

const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const LIBRARY = DRUGS50.map((d) => d.smiles);

test("the best ten by default, the number of hits in all, scores to 4 decimals", () => {
  const answer = search({ query: ASPIRIN, library: LIBRARY });
  assert.equal(answer.hits.length, DEFAULT_TOP_K);
  assert.equal(answer.total_hits, LIBRARY.length);
  const exact = similaritySearch(ASPIRIN, LIBRARY, 0);
  answer.hits.forEach((hit, i) => {
    assert.equal(hit.index, exact[i]!.index);
    assert.equal(hit.score, Math.round(exact[i]!.score * 1e4) / 1e4);
    assert.ok(String(hit.score).length <= 6, String(hit.score));
  });
  assert.equal("skipped" in answer, false);
  assert.equal(search({ query: ASPIRIN, library: LIBRARY, top_k: 3, threshold: 0.3 }).hits.length <= 3, true);
});

test("entries RDKit cannot read are skipped and listed; the others are searched", () => {
  const library = ["CCO", "C1CC", ASPIRIN, "CN(C)(C)(C)C", "C".repeat(501), "c1ccccc1O"];
  const answer = search({ query: ASPIRIN, library });
  assert.deepEqual(answer.skipped!.map((s) => s.index), [1, 3, 4]);
  assert.equal(answer.skipped_count, 3);
  assert.match(answer.skipped![0]!.error, /^INVALID_SMILES: .*unclosed ring/);
  assert.match(answer.skipped![1]!.error, /^INVALID_SMILES: .*valence/);
  assert.match(answer.skipped![2]!.error, /^MOLECULE_TOO_LARGE: /);
  assert.deepEqual(answer.hits.map((h) => h.index), [2, 5, 0]);
  assert.equal(answer.hits[0]!.score, 1);
});

test("skipped entries are listed up to their cap and counted beyond it", () => {
  const library = [...Array(MAX_SKIPPED_LISTED + 5).fill("C1CC"), "CCO"];
  const answer = search({ query: "CCO", library });
  assert.equal(answer.skipped!.length, MAX_SKIPPED_LISTED);
  assert.equal(answer.skipped_count, MAX_SKIPPED_LISTED + 5);
  assert.deepEqual(answer.hits, [{ index: MAX_SKIPPED_LISTED + 5, smiles: "CCO", score: 1 }]);
});

test("a query RDKit cannot read still fails, naming the query", () => {
  assert.throws(
    () => search({ query: "c1ccccc1(O", library: LIBRARY }),
    (e: unknown) =>
      e instanceof ChemError && e.code === "INVALID_SMILES" && /^query: .*unclosed branch/.test(e.message),
  );
});

/** The fan-out the server runs, its parts run in place; `calls` records each part's start and length. */
async function fanned(args: Record<string, unknown>, workers: number, calls: [number, number][] = []) {
  const parsed = v.parse(similaritySearchTool.input, args);
  const run = (tool: Tool, a: Record<string, unknown>) => {
    calls.push([a.start as number, (a.library as string[]).length]);
    return Promise.resolve(tool.run(v.parse(tool.input, a)));
  };
  const result = await similaritySearchTool.fanOut!(parsed, run, workers);
  assert.ok(v.safeParse(similaritySearchTool.output, result).success, "the answer meets its schema");
  return result as Answer;
}

test("split over the workers, the answer is the one pass's: best hits, ties by index, totals and skips", async () => {
  // 1,000 entries with repeats (ties across parts) and unreadable ones in both halves.
  const library = Array.from(
    { length: 1_000 },
    (_, i) => i % 97 === 5 ? "C1CC" : LIBRARY[i % LIBRARY.length]!,
  );
  for (const args of [{ top_k: 25 }, { threshold: 0.2, top_k: 100 }, {}]) {
    const calls: [number, number][] = [];
    const split = await fanned({ query: ASPIRIN, library, ...args }, 2, calls);
    assert.deepEqual(calls, [[0, 500], [500, 500]]);
    assert.deepEqual(split, search({ query: ASPIRIN, library, ...args }));
  }
  const whole = await fanned({ query: ASPIRIN, library }, 2);
  assert.equal(whole.skipped_count, 11);
  assert.deepEqual(whole.skipped!.map((s) => s.index).slice(0, 3), [5, 102, 199]);
});

test("a short library is one part; more workers than parts of 500 give fewer parts", async () => {
  const calls: [number, number][] = [];
  await fanned({ query: ASPIRIN, library: LIBRARY }, 4, calls);
  assert.deepEqual(calls, [[0, LIBRARY.length]]);
  const library = Array.from({ length: 1_200 }, (_, i) => LIBRARY[i % LIBRARY.length]!);
  calls.length = 0;
  await fanned({ query: ASPIRIN, library }, 8, calls);
  assert.deepEqual(calls, [[0, 600], [600, 600]]);
});

test("split, a query RDKit cannot read still fails, naming the query", async () => {
  const library = Array.from({ length: 1_000 }, (_, i) => LIBRARY[i % LIBRARY.length]!);
  await assert.rejects(
    fanned({ query: "c1ccccc1(O", library }, 2),
    (e: unknown) => e instanceof ChemError && /^query: .*unclosed branch/.test(e.message),
  );
});
