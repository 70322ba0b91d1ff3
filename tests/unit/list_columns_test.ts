// A list answer a model can read: columns named (a selector picks one element of an array, so lipinski_check's
// four rule values are four named columns), a column null in every row left out and said once, and a summary
// in grammar.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import {
  columnName,
  entryOf,
  listOutput,
  listSummary,
  withoutEmptyColumns,
} from "../../src/tools/list_shape.ts";
import { lipinskiCheckTool } from "../../src/tools/lipinski_check.ts";
import type { Tool } from "../../src/tools/tool.ts";

const RULE_COLUMNS = ["molecular_weight", "logp", "hbd", "hba"].map((rule) => `rules[rule=${rule}].value`);
const COLUMNS = ["passes", "violations", ...RULE_COLUMNS, "parent_smiles"];

const aspirin = {
  passes: true,
  violations: 0,
  rules: [
    { rule: "molecular_weight", value: 180.159, threshold: 500, passed: true, definition: "MW" },
    { rule: "logp", value: 1.31, threshold: 5, passed: true, definition: "logP" },
    { rule: "hbd", value: 1, threshold: 5, passed: true, definition: "NH + OH" },
    { rule: "hba", value: 4, threshold: 10, passed: true, definition: "N + O" },
  ],
};

test("a selector picks one element: each rule's value is a named column", () => {
  assert.deepEqual(entryOf(COLUMNS, [], aspirin), [true, 0, 180.159, 1.31, 1, 4, null]);
  assert.deepEqual(COLUMNS.map(columnName), [
    "passes",
    "violations",
    "rules.molecular_weight",
    "rules.logp",
    "rules.hbd",
    "rules.hba",
    "parent_smiles",
  ]);
  assert.equal(columnName("endpoints.herg.prediction"), "endpoints.herg.prediction");
  assert.equal(columnName("alerts.name"), "alerts.name");
  assert.deepEqual(entryOf(["rules[rule=none].value"], [], aspirin), [null]);
});

test("a column null in every answered row is left out; an error entry does not count", () => {
  const names = COLUMNS.map(columnName);
  const error = { index: 1, error: { code: "INVALID_SMILES", message: "x" } };
  const row = entryOf(COLUMNS, [], aspirin) as unknown[];
  const out = withoutEmptyColumns(names, [row, error, row]);
  assert.deepEqual(out.dropped, ["parent_smiles"]);
  assert.deepEqual(out.names, names.slice(0, -1));
  assert.deepEqual(out.entries, [row.slice(0, -1), error, row.slice(0, -1)]);
  const salt = [...row.slice(0, -1), "CC(=O)Oc1ccccc1C(=O)O"];
  assert.deepEqual(withoutEmptyColumns(names, [row, salt]).dropped, []);
  assert.deepEqual(withoutEmptyColumns(names, [error]).dropped, [], "nothing to judge by");
});

test("the summary counts in grammar and names the columns left out once", () => {
  assert.equal(listSummary(1, [], []), "1 molecule: 1 answered, 0 failed.");
  assert.equal(listSummary(2, [1], []), "2 molecules: 1 answered, 1 failed (index 1).");
  assert.equal(
    listSummary(3, [0, 2], ["parent_smiles"]),
    "3 molecules: 1 answered, 2 failed (indices 0, 2). Null in every row, left out: parent_smiles.",
  );
  const many = Array.from({ length: 175 }, (_, i) => 825 + i);
  assert.equal(
    listSummary(1000, many, []),
    `1000 molecules: 825 answered, 175 failed (indices ${many.slice(0, 20).join(", ")} and 155 more).`,
  );
});

test("the answer's schema checks each row against the columns the answer names", () => {
  const schema = listOutput(lipinskiCheckTool as unknown as Tool, ["method"], COLUMNS);
  const names = COLUMNS.map(columnName);
  const row = entryOf(COLUMNS, [], aspirin) as unknown[];
  const full = { summary: "s", columns: names, results: [row] };
  assert.ok(v.safeParse(schema, full).success);
  const { names: kept, entries } = withoutEmptyColumns(names, [row]);
  assert.ok(v.safeParse(schema, { summary: "s", columns: kept, results: entries }).success);
  assert.ok(!v.safeParse(schema, { summary: "s", columns: kept, results: [row] }).success, "a row too long");
  assert.ok(!v.safeParse(schema, { summary: "s", columns: ["rules.value"], results: [] }).success);
  const wrong = [...row];
  wrong[2] = "heavy";
  assert.ok(!v.safeParse(schema, { summary: "s", columns: names, results: [wrong] }).success);
});
