// The answer cap of the tools that answer lists (run_reaction's products, similarity_search's hits, convert's
// records): the leading items that fit, the rest counted; and run_reaction wired to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { ANSWER_MAX_CHARS, fitItems } from "../../src/tools/answer_cap.ts";
import { runReactionTool } from "../../src/tools/run_reaction.ts";

await loadTestRDKit();

test("fitItems keeps the leading items whose JSON fits and counts the rest", () => {
  assert.deepEqual(fitItems(["aaaa", "bbbb", "cccc"], 14), { kept: ["aaaa", "bbbb"], leftOut: 1 });
  assert.deepEqual(fitItems(["aaaa"], 7), { kept: ["aaaa"], leftOut: 0 });
  assert.deepEqual(fitItems(["aaaa"], 6), { kept: [], leftOut: 1 });
  assert.deepEqual(fitItems([], 0), { kept: [], leftOut: 0 });
  const many = Array.from({ length: 10_000 }, (_, i) => ({ smiles: "C".repeat(100), index: i }));
  const { kept, leftOut } = fitItems(many, ANSWER_MAX_CHARS);
  assert.ok(JSON.stringify(kept).length <= ANSWER_MAX_CHARS);
  assert.equal(kept.length + leftOut, 10_000);
  assert.ok(leftOut > 0 && kept.length > 3_000);
});

test("run_reaction: a small enumeration lists every product and says nothing left out", () => {
  const args = v.parse(runReactionTool.input, {
    reaction: "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]",
    reactants: [["CC(=O)O", "OC(=O)c1ccccc1"], ["CN", "NCCO"]],
  });
  const result = runReactionTool.run(args) as { products: unknown[]; left_out?: number };
  assert.equal(result.products.length, 4);
  assert.equal("left_out" in result, false);
  assert.ok(v.safeParse(runReactionTool.output, result).success);
});
