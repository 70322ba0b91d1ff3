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
