/**
 * Argument errors a caller can act on: a misspelt argument is named, with the likely intended one and the list of
 * arguments the tool takes, in both dialects, with the codes the spec gives (-32602 modern, -32000 legacy).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { initialize, modern, request, send } from "../helpers/protocol.ts";
import { createServer } from "../../src/create_server.ts";
import { argumentSummary, readableIssue } from "../../src/protocol/arguments.ts";

await loadTestRDKit();
const server = createServer();

test("a misspelt argument (smile) is named, with the intended one and what the tool takes (modern, -32602)", async () => {
  const r = await send(
    server.connect(),
    modern("tools/call", { name: "calc_properties", arguments: { smile: "CCO" } }),
  );
  assert.equal(r?.error?.code, -32602);
  assert.equal(
    r?.error?.message,
    "Invalid arguments for tool 'calc_properties': unknown argument 'smile' (did you mean 'smiles'?); " +
      "missing required argument 'smiles'. calc_properties takes: smiles (required)",
  );
  assert.doesNotMatch(r?.error?.message ?? "", /Expected never/);
  assert.deepEqual(r?.error?.data, {
    issues: [
      { path: "arguments.smile", message: "unknown argument 'smile' (did you mean 'smiles'?)" },
      { path: "arguments.smiles", message: "missing required argument 'smiles'" },
    ],
  });
});

test("the legacy dialect gets the same words under -32000 with data.code INVALID_ARGUMENTS", async () => {
  const conn = server.connect();
  await send(conn, initialize());
  const r = await send(
    conn,
    request("tools/call", { name: "tanimoto", arguments: { smiles_a: "C", smile_b: "O" } }),
  );
  assert.equal(r?.error?.code, -32000);
  assert.equal(r?.error?.data?.code, "INVALID_ARGUMENTS");
  assert.equal(
    r?.error?.message,
    "Invalid arguments for tool 'tanimoto': unknown argument 'smile_b' (did you mean 'smiles_b'?); " +
      "missing required argument 'smiles_b'. tanimoto takes: smiles_a (required), smiles_b (required)",
  );
});

test("a wrong type keeps valibot's message and its path, without the argument list", async () => {
  const r = await send(
    server.connect(),
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: 3 } }),
  );
  assert.equal(r?.error?.code, -32602);
  assert.equal(
    r?.error?.message,
    "Invalid arguments for tool 'canonical_smiles': arguments.smiles: Invalid type: Expected string but received 3",
  );
});

test("a prefix of an argument is suggested; a name like no argument gets no suggestion", () => {
  const schema = v.strictObject({ smiles_list: v.array(v.string()), threshold: v.optional(v.number()) });
  const known = ["smiles_list", "threshold"];
  // A strict object reports its first unknown key only.
  const message = (args: Record<string, unknown>) =>
    v.safeParse(schema, args).issues!.map((i) => readableIssue(i, known).message);
  assert.deepEqual(message({ smiles: [], smiles_list: [] }), [
    "unknown argument 'smiles' (did you mean 'smiles_list'?)",
  ]);
  assert.deepEqual(message({ colour: 1, smiles_list: [] }), ["unknown argument 'colour'"]);
  assert.deepEqual(message({ treshold: 1, smiles_list: [] }), [
    "unknown argument 'treshold' (did you mean 'threshold'?)",
  ]);
});

test("nested keys are fields, not arguments", () => {
  const schema = v.strictObject({ moljson: v.strictObject({ atoms: v.array(v.string()) }) });
  const issues = v.safeParse(schema, { moljson: { atom: [] } }).issues!;
  assert.deepEqual(issues.map((i) => readableIssue(i).message), [
    "missing required field 'moljson.atoms'",
    "unknown field 'moljson.atom'",
  ]);
});

test("the argument summary marks required arguments and keeps the schema's order", () => {
  const schema = {
    type: "object",
    properties: { smiles: {}, format: {}, depth: {} },
    required: ["smiles", "depth"],
  };
  assert.equal(argumentSummary(schema), "smiles (required), format, depth (required)");
});
