/**
 * What the model reads stays within its character budgets (docs/decisions/token-budget.md), and no result
 * carries the same content twice. Characters, not tokens, so no tokenizer is needed here; bench/tokens.ts reports
 * both.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  ATORVASTATIN,
  BUDGET_DRUGS,
  callsFor,
  connection,
  DEFAULT_RESULT_BUDGET,
  LIST_BUDGET_RATIO,
  LIST_BUDGET_TOOLS,
  LIST_BUDGETS,
  LIST_EXEMPT_TOOLS,
  listAndSingles,
  listMolecules,
  PACK_BUDGETS,
  PER_ATOM_TOOLS,
  repeatedContent,
  RESULT_BUDGETS,
  resultText,
  ROUTER_MOLJSON_BUDGET,
  toolsListText,
  useLocalNameLookup,
} from "../helpers/budget.ts";
import { toolRegistry } from "../../src/create_server.ts";
import { ALL_TOOLS, TOOLS } from "../../src/tools/registry.ts";
import { EXTRA_TOOLS } from "../../src/tools/extras.ts";

await loadTestRDKit();
after(useLocalNameLookup());
const conn = connection();

test("default tools/list: the spec's twenty, model-facing part ≤ 20,000 characters, whole result ≤ 60,000", async () => {
  const list = await toolsListText(connection(TOOLS));
  assert.equal((JSON.parse(list.whole) as { tools: unknown[] }).tools.length, 20);
  assert.ok(
    list.modelFacing.length <= LIST_BUDGETS.modelFacing,
    `model-facing tools/list is ${list.modelFacing.length} characters`,
  );
  assert.ok(list.whole.length <= LIST_BUDGETS.whole, `tools/list is ${list.whole.length} characters`);
});

test("depict, run_reaction and convert: each listing (name, title, description, inputSchema) ≤ 1,000 characters", async () => {
  const three = EXTRA_TOOLS.filter((tool) => ["depict", "run_reaction", "convert"].includes(tool.name));
  const list = JSON.parse((await toolsListText(connection(three))).modelFacing) as { name: string }[];
  assert.equal(list.length, 3);
  const over = list.map((tool) => [tool.name, JSON.stringify(tool).length] as const).filter(([, n]) =>
    n > 1_000
  );
  assert.deepEqual(over, [], "extra tools over 1,000 model-facing characters");
});

test("descriptions give author–year, not DOIs, and name the error codes the tool can return", () => {
  for (const tool of toolRegistry(ALL_TOOLS).descriptors) {
    assert.doesNotMatch(tool.description, /doi:|10\.\d{4,5}\//, tool.name);
    assert.match(tool.description, /\b(INVALID_[A-Z]+|NAME_NOT_FOUND)\b/, tool.name);
  }
});

test("every tool's result for ten drugs is within its budget, with nothing repeated", async () => {
  const over: string[] = [];
  for (const drug of BUDGET_DRUGS) {
    // generate_3d is measured per atom (bench/tokens.ts); one drug here keeps the test quick.
    const skip = new Set(drug.smiles === ATORVASTATIN ? [] : ["generate_3d"]);
    for (const call of callsFor(drug, skip)) {
      const text = await resultText(conn, call);
      const repeats = repeatedContent(JSON.parse(text));
      assert.deepEqual(repeats, [], `${call.tool} (${call.label}) repeats content`);
      if (PER_ATOM_TOOLS.includes(call.tool) || call.tool === "molecule_context_pack") continue;
      const budget = RESULT_BUDGETS[call.tool] ?? DEFAULT_RESULT_BUDGET;
      if (text.length > budget) over.push(`${call.tool} (${call.label}): ${text.length} > ${budget}`);
    }
  }
  assert.deepEqual(over, []);
});

test("molecule_context_pack for atorvastatin: json ≤ 8,000, markdown ≤ 10,000, prompt ≤ 6,000 characters", async () => {
  for (const format of ["json", "markdown", "prompt"] as const) {
    const text = await resultText(conn, {
      tool: "molecule_context_pack",
      label: format,
      args: { smiles: ATORVASTATIN, format },
    });
    assert.ok(text.length <= PACK_BUDGETS[format], `${format}: ${text.length} characters`);
  }
});

test("the repeat finder finds a section rendered beside its object, and a reference given twice", () => {
  const section = { method: "Rule of five (Lipinski et al., Adv. Drug Deliv. Rev. 1997)", violations: 0 };
  assert.notDeepEqual(repeatedContent({ lipinski: section, rendered: `Lipinski: ${section.method}` }), []);
  const endpoint = { reference: "Gleeson, J. Med. Chem. 2008, 51, 817–834", prediction: "x" };
  assert.equal(repeatedContent({ herg: endpoint, ppb: { ...endpoint, prediction: "y" } }).length, 1);
  assert.deepEqual(repeatedContent({ smiles: ATORVASTATIN, canonical_smiles: ATORVASTATIN }), []);
});

test("a batch of 100 molecules (or the cap) costs at most a quarter of the characters of the single calls", async () => {
  const over: string[] = [];
  for (const [tool, args] of Object.entries(LIST_BUDGET_TOOLS)) {
    const { list, singles, failed } = await listAndSingles(conn, tool, args, listMolecules(tool));
    assert.equal(failed, 0, `${tool}: every molecule of the set is answered`);
    if (list > LIST_BUDGET_RATIO * singles) over.push(`${tool}: ${list} > ${LIST_BUDGET_RATIO} × ${singles}`);
  }
  assert.deepEqual(over, []);
});

test("the tools exempt from the list budget stay within their measured ratio", async () => {
  const over: string[] = [];
  // generate_3d's ten conformers take seconds; bench/tokens.ts measures it.
  for (const [tool, { args, ratio }] of Object.entries(LIST_EXEMPT_TOOLS)) {
    if (tool === "generate_3d") continue;
    const { list, singles } = await listAndSingles(conn, tool, args, listMolecules(tool));
    if (list > ratio * singles) over.push(`${tool}: ${list} > ${ratio} × ${singles}`);
  }
  assert.deepEqual(over, []);
});

test("representation_router's MolJSON route for atorvastatin ≤ 5,000 characters", async () => {
  const text = await resultText(conn, {
    tool: "representation_router",
    label: "atom_edit",
    args: { smiles: ATORVASTATIN, task_kind: "atom_edit" },
  });
  assert.equal(JSON.parse(text).representation, "moljson");
  assert.ok(text.length <= ROUTER_MOLJSON_BUDGET, `${text.length} characters`);
});
