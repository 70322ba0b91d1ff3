/**
 * run_reaction: template counting, combinatorial enumeration, sanitisation, the typed errors and the limits, the
 * tool's schemas and its listing budget.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { thrownCode } from "../helpers/errors.ts";
import {
  combinationsOf,
  MAX_COMBINATIONS,
  reactantTemplates,
  type ReactionLimits,
  runReaction,
} from "../../src/chem/reaction.ts";
import { runReactionTool } from "../../src/tools/run_reaction.ts";
import { jsonSchemaOf, ToolRegistry } from "../../src/tools/registry.ts";

await loadTestRDKit();

const AMIDE = "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]";
const roomy = (): ReactionLimits => ({ maxProducts: 1000, deadline: Date.now() + 60_000 });

test("reactant templates are the reactant part's components; a parenthesised group is one", () => {
  assert.equal(reactantTemplates(AMIDE), 2);
  assert.equal(reactantTemplates("[C:1]=[O:2]>>[C:1][O:2]"), 1);
  assert.equal(reactantTemplates("([C:1].[C:2])>>[C:1][C:2]"), 1);
  assert.equal(reactantTemplates("[C:1].[N:2]>[Pd]>[C:1][N:2]"), 2);
  assert.equal(reactantTemplates("[C;$(C.C):1].[N:2]>>[C:1][N:2]"), 2);
});

test("amide coupling over two lists: every combination in order, distinct products, their reactants", () => {
  const result = runReaction(AMIDE, [["CC(=O)O", "OC(=O)c1ccccc1"], ["CN", "NCCO"]], roomy());
  assert.equal(result.templates, 2);
  assert.equal(result.combinations, 4);
  assert.deepEqual(result.products, [
    { smiles: "CNC(C)=O", reactants: ["CC(=O)O", "CN"] },
    { smiles: "CC(=O)NCCO", reactants: ["CC(=O)O", "NCCO"] },
    { smiles: "CNC(=O)c1ccccc1", reactants: ["OC(=O)c1ccccc1", "CN"] },
    { smiles: "O=C(NCCO)c1ccccc1", reactants: ["OC(=O)c1ccccc1", "NCCO"] },
  ]);
  assert.equal(result.unsanitizable, 0);
});

test("a symmetric reactant's equivalent matches give one product; both amines of a diamine give one too", () => {
  const result = runReaction(AMIDE, [["CC(=O)O"], ["NCCN"]], roomy());
  assert.deepEqual(result.products.map((p) => p.smiles), ["CC(=O)NCCN"]);
});

test("stereo of reactant atoms survives; several product templates are joined by '.' in template order", () => {
  const ester = runReaction(
    "[C:1](=[O:2])[O:3][C:4]>>[C:1](=[O:2])[OH].[OH:3][C:4]",
    [["CC(=O)O[C@@H](C)CC"]],
    roomy(),
  );
  // (S)-butan-2-yl acetate gives (S)-butan-2-ol: RDKit's Python answers the same SMILES.
  assert.deepEqual(ester.products.map((p) => p.smiles), ["CC(=O)O.CC[C@H](C)O"]);
});

test("an unmapped template builds its product from the template alone", () => {
  const result = runReaction("C(=O)O>>C(=O)N", [["CCC(=O)O"]], roomy());
  assert.deepEqual(result.products.map((p) => p.smiles), ["NC=O"]);
});

test("products that cannot be sanitised are counted and left out", () => {
  const result = runReaction("[C:1]>>[C:1](F)(F)(F)(F)F", [["CC"]], roomy());
  assert.deepEqual(result.products, []);
  assert.equal(result.unsanitizable, 2);
  assert.deepEqual(runReaction(AMIDE, [["CCO"], ["CN"]], roomy()).products, []);
});

test("typed errors: a reaction RDKit cannot read, the wrong number of reactants, a bad reactant", () => {
  for (const bad of ["", "C>C", "[C:1>>C", "CC(>>C", `[$(${"[$(C".repeat(17)}${")]".repeat(17)})]>>C`]) {
    assert.equal(thrownCode(() => runReaction(bad, [["C"]], roomy())), "INVALID_REACTION", bad);
  }
  assert.equal(thrownCode(() => runReaction(AMIDE, [["CC(=O)O"]], roomy())), "REACTANT_COUNT_MISMATCH");
  assert.equal(
    thrownCode(() => runReaction(AMIDE, [["CC(=O)O"], ["CN"], ["C"]], roomy())),
    "REACTANT_COUNT_MISMATCH",
  );
  assert.equal(thrownCode(() => runReaction(AMIDE, [["CC(=O)O"], ["C1CC"]], roomy())), "INVALID_SMILES");
});

test("a reaction without product templates is refused by the text check, before RDKit sees it", () => {
  for (const bad of ["[C:1]>>", "[C:1]>> ", "[C:1]>[O]>", "[C:1].[N:2]>>"]) {
    const slots = bad.includes("[N:2]") ? [["C"], ["N"]] : [["CC"]];
    let message = "";
    assert.equal(
      thrownCode(() => {
        try {
          runReaction(bad, slots, roomy());
        } catch (error) {
          message = (error as Error).message;
          throw error;
        }
      }),
      "INVALID_REACTION",
      bad,
    );
    assert.match(message, /no product template/, bad);
  }
});

test("limits: combinations refused before running, distinct products capped, the deadline between combinations", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}N`);
  const acids = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}C(=O)O`);
  const three = "[C:1](=[O:2])[OH].[N;!H0:3].[N;!H0:4]>>[C:1](=[O:2])[N:3].[N:4]";
  assert.equal(thrownCode(() => runReaction(three, [acids, hundred, hundred], roomy())), "TOO_MANY_PRODUCTS");
  assert.ok(100 * 100 * 100 > MAX_COMBINATIONS);
  assert.equal(
    thrownCode(() =>
      runReaction(AMIDE, [acids, hundred], { maxProducts: 150, deadline: Date.now() + 60_000 })
    ),
    "TOO_MANY_PRODUCTS",
  );
  assert.equal(
    runReaction(AMIDE, [acids.slice(0, 10), hundred.slice(0, 15)], {
      maxProducts: 150,
      deadline: Date.now() + 60_000,
    })
      .products.length,
    150,
  );
  assert.equal(
    thrownCode(() => runReaction(AMIDE, [acids, hundred], { maxProducts: 1000, deadline: Date.now() - 1 })),
    "COMPUTATION_TIMEOUT",
  );
});

test("combinations are enumerated with the last slot fastest", () => {
  assert.deepEqual([...combinationsOf([["a", "b"], ["x", "y", "z"]])].map((c) => c.join("")), [
    "ax",
    "ay",
    "az",
    "bx",
    "by",
    "bz",
  ]);
});

test("tool: schemas, a single SMILES or a list per slot, result valid against its published schema", async () => {
  const bad = [
    {},
    { reaction: AMIDE },
    { reaction: AMIDE, reactants: [] },
    { reaction: AMIDE, reactants: ["C", []] },
    { reaction: AMIDE, reactants: ["C", Array(101).fill("C")] },
    { reaction: "", reactants: ["C"] },
    { reaction: AMIDE, reactants: ["C", "N"], max_products: 1001 },
    { reaction: AMIDE, reactants: ["C", "N"], extra: 1 },
  ];
  for (const args of bad) {
    assert.equal(v.safeParse(runReactionTool.input, args).success, false, JSON.stringify(args));
  }
  const args = v.parse(runReactionTool.input, { reaction: AMIDE, reactants: ["CC(=O)O", ["CN", "CCN"]] });
  assert.equal(args.max_products, 100);
  const result = await runReactionTool.run(args);
  assert.deepEqual(schemaErrors(jsonSchemaOf(runReactionTool.output, "output"), result), []);
  assert.ok(v.safeParse(runReactionTool.output, result).success);
  assert.equal(result.combinations, 2);
  assert.deepEqual(result.products.map((p) => p.smiles), ["CNC(C)=O", "CCNC(C)=O"]);
  assert.deepEqual(
    schemaErrors(jsonSchemaOf(runReactionTool.input, "input"), { reaction: AMIDE, reactants: ["C", ["N"]] }),
    [],
  );
});

test("the tool's listing (name, title, description, input schema) stays within 1,000 characters", () => {
  const { name, title, description, inputSchema } = new ToolRegistry([runReactionTool as never])
    .descriptors[0]!;
  const listing = JSON.stringify({ name, title, description, inputSchema }).length;
  assert.ok(listing <= 1000, `run_reaction listing is ${listing} characters`);
});
