// Hostile input through the real protocol core: every tool that takes a SMILES or SMARTS gets a list of odd,
// broken, oversized and exotic strings, and moljson_to_smiles gets MolJSON broken one rule at a time. Whatever
// comes in, the answer is a typed error or a result that passed the tool's outputSchema (the server checks every
// result before sending it and answers -32603 when one does not), never an internal error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { createServer } from "../../src/create_server.ts";
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { CHEM_ERROR_DOCS } from "../../src/errors.ts";
import { modern, type Response, send } from "../helpers/protocol.ts";
import { TOOL_EXAMPLES } from "../helpers/examples.ts";
import { seededRandom } from "../helpers/random.ts";

await loadTestRDKit();

const logs: string[] = [];
const conn = createServer({ log: (message) => logs.push(message) }).connect();

const chain = (n: number) => "C".repeat(n);
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "😀",
  "{}",
  chain(20_001),
  chain(500),
  chain(501),
  `C1${chain(498)}1`,
  "C(".repeat(240) + "C" + ")".repeat(240),
  Array(60).fill("c1ccccc1").join("."),
  "C1CC",
  "c1cccc1",
  "C$C",
  "C->[Fe]",
  "[C@@H]",
  "C%(1234)CC%(1234)",
  "C=1=C=C=C=C=C=1",
  "B1B2B3B1B23",
  "*",
  "[*]",
  "[H][H]",
  "[HH]",
  "[H+]",
  "[2H]",
  "[e-]",
  "[Fe]",
  "[U]",
  "[Og]",
  "[Na+].[Cl-]",
  "[Pt](Cl)(Cl)(N)N",
  "[Fe](=O)(=O)(=O)(=O)(=O)(=O)(=O)(=O)(=O)",
  "[C+9]",
  "[C-15]",
  "[CH4+8]",
  "[CH12]",
  "[12345C]",
  "[301C]",
  "[0C]",
  "[C-4]",
  "[CH5]",
];

const KNOWN_CODES = new Set(Object.keys(CHEM_ERROR_DOCS));

function outcome(reply: Response | undefined): string {
  assert.ok(reply, "every request gets an answer");
  if (reply.error) return `rpc ${reply.error.code}`;
  const structured = reply.result?.structuredContent as { error?: { code?: string } } | undefined;
  return reply.result?.isError ? String(structured?.error?.code) : "ok";
}

async function call(name: string, args: Record<string, unknown>): Promise<string> {
  return outcome(await send(conn, modern("tools/call", { name, arguments: args })));
}

test("every SMILES and SMARTS argument of every tool survives hostile strings with a typed answer", async () => {
  const seen = new Map<string, number>();
  for (const [name, example] of Object.entries(TOOL_EXAMPLES)) {
    if (name === "name_to_smiles") continue; // networked; its input is a name, covered in lookup_test.ts
    const keys = Object.keys(example).filter((k) =>
      typeof example[k] === "string" && /smiles|smarts/.test(k)
    );
    for (const key of keys) {
      for (const text of HOSTILE_STRINGS) {
        const result = await call(name, { ...example, [key]: text });
        const label = `${name}.${key} = ${JSON.stringify(text.slice(0, 30))}`;
        assert.ok(
          result === "ok" || result === "rpc -32602" || KNOWN_CODES.has(result),
          `${label}: ${result}`,
        );
        seen.set(result, (seen.get(result) ?? 0) + 1);
      }
    }
  }
  assert.deepEqual(logs, [], "no tool broke its outputSchema or threw");
  // The list really is hostile: most strings are refused, with the codes users are told about.
  assert.ok((seen.get("INVALID_SMILES") ?? 0) > 150, JSON.stringify([...seen]));
  assert.ok((seen.get("MOLECULE_TOO_LARGE") ?? 0) > 20, JSON.stringify([...seen]));
});

test("limits and exotic atoms give the documented codes", async () => {
  // Empty and over-long strings fail the input schema (minLength 1, maxLength 20,000) before any chemistry.
  assert.equal(await call("canonical_smiles", { smiles: "" }), "rpc -32602");
  assert.equal(await call("canonical_smiles", { smiles: "C1CC" }), "INVALID_SMILES");
  assert.equal(await call("canonical_smiles", { smiles: chain(500) }), "ok");
  assert.equal(await call("canonical_smiles", { smiles: chain(501) }), "MOLECULE_TOO_LARGE");
  assert.equal(await call("canonical_smiles", { smiles: chain(20_001) }), "rpc -32602");
  assert.equal(await call("calc_properties", { smiles: "[Pt](Cl)(Cl)(N)N" }), "ok");
  assert.equal(await call("smarts_match", { smiles: "CCO", smarts: "[C" }), "INVALID_SMARTS");
});

test("smiles_to_moljson refuses atoms outside MolJSON's ranges instead of breaking its schema", async () => {
  for (const smiles of ["[12345C]", "[301C]", "[C+9]", "[C-15]", "[CH4+8]"]) {
    const reply = await send(
      conn,
      modern("tools/call", { name: "smiles_to_moljson", arguments: { smiles } }),
    );
    assert.equal(outcome(reply), "UNSUPPORTED_MOLECULE", smiles);
    const error = (reply?.result?.structuredContent as { error: { message: string } }).error;
    assert.match(error.message, /^atom 0 \(C\): (isotope|charge|radical_electrons) -?\d+ is outside/);
  }
  assert.equal(await call("smiles_to_moljson", { smiles: "[300C]" }), "ok");
  assert.equal(await call("smiles_to_moljson", { smiles: "[C-8]" }), "ok");
});

const BASE = (await send(
  conn,
  modern("tools/call", {
    name: "smiles_to_moljson",
    arguments: { smiles: "C[C@H](N)/C=C/c1ccccc1" },
  }),
))!.result!.structuredContent!.moljson as MolJsonDoc;

interface MolJsonDoc {
  atoms: Record<string, unknown>[];
  bonds: Record<string, unknown>[];
  [key: string]: unknown;
}

const BROKEN: [string, string, (m: MolJsonDoc) => void][] = [
  ["bond to itself", "INVALID_MOLJSON", (m) => (m.bonds[0]!.end = m.bonds[0]!.begin)],
  ["duplicate bond", "INVALID_MOLJSON", (m) => m.bonds.push({ ...m.bonds[0], index: m.bonds.length })],
  ["dangling bond", "INVALID_MOLJSON", (m) => (m.bonds[0]!.end = 499)],
  ["aromatic atom outside a ring", "INVALID_MOLJSON", (m) => (m.atoms[0]!.aromatic = true)],
  ["index not its position", "INVALID_MOLJSON", (m) => (m.atoms[0]!.index = 5)],
  ["lower-case element", "INVALID_MOLJSON", (m) => (m.atoms[0]!.element = "c")],
  ["eight hydrogens on a carbon", "INVALID_MOLJSON", (m) => (m.atoms[0]!.hydrogens = 8)],
  ["radicals on a saturated carbon", "INVALID_MOLJSON", (m) => (m.atoms[0]!.radical_electrons = 4)],
  // The schema requires an atom (minItems 1), so the input schema refuses it before the reader sees it.
  ["no atoms", "rpc -32602", (m) => {
    m.atoms = [];
    m.bonds = [];
  }],
  ["cis/trans on a single bond", "INVALID_MOLJSON", (m) => {
    m.bonds[0]!.stereo = { configuration: "cis", atoms: [1, 2] };
  }],
  ["chirality with repeated neighbours", "INVALID_MOLJSON", (m) => {
    const centre = m.atoms.find((a) => a.chirality)!;
    centre.chirality = { neighbors: [0, 0, 0, "H"], winding: "CW" };
  }],
  ["unknown version", "rpc -32602", (m) => (m.version = 9)],
  ["unknown field", "rpc -32602", (m) => (m.extra = 1)],
  ["charge beyond the schema", "rpc -32602", (m) => (m.atoms[0]!.charge = 9)],
];

test("moljson_to_smiles names what is wrong with MolJSON broken one rule at a time", async () => {
  for (const [label, expected, breakIt] of BROKEN) {
    const doc = structuredClone(BASE);
    breakIt(doc);
    assert.equal(await call("moljson_to_smiles", { moljson: doc }), expected, label);
  }
  assert.equal(await call("moljson_to_smiles", { moljson: BASE }), "ok");
  assert.deepEqual(logs, []);
});

test("random JSON-RPC-shaped messages always get a well-formed answer with a code from the error table", async () => {
  const next = seededRandom(3);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const atoms: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, "", "2.0", "CCO", "tools/call", [], {}];
  const keys = [
    "jsonrpc",
    "id",
    "method",
    "params",
    "name",
    "arguments",
    "_meta",
    "smiles",
    "result",
    "error",
  ];
  const methods = [
    "tools/call",
    "tools/list",
    "server/discover",
    "initialize",
    "ping",
    "x",
    "notifications/x",
  ];
  const value = (depth: number): unknown => {
    const roll = next();
    if (depth > 3 || roll < 0.5) return pick(atoms);
    if (roll < 0.6) return Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: Math.floor(next() * 4) }, () => [pick(keys), value(depth + 1)]),
    );
  };
  const allowed = new Set([-32700, -32600, -32601, -32602, -32603, -32000, -32010, -32022]);
  const tally = new Map<string, number>();
  for (let round = 0; round < 3000; round++) {
    const message: Record<string, unknown> = { jsonrpc: next() < 0.9 ? "2.0" : value(3) };
    if (next() < 0.8) message.id = next() < 0.9 ? round : value(3);
    message.method = next() < 0.9 ? pick(methods) : value(3);
    if (next() < 0.8) {
      const params = value(1);
      message.params = next() < 0.5 && params && typeof params === "object" && !Array.isArray(params)
        ? {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": pick([
              "2026-07-28",
              "2026-07-28",
              "2025-11-25",
              1,
              null,
            ]),
            "io.modelcontextprotocol/clientCapabilities": next() < 0.8 ? {} : value(3),
            ...(next() < 0.3 ? { "io.modelcontextprotocol/clientInfo": value(2) } : {}),
          },
        }
        : params;
    }
    const reply = await send(createServer().connect(), message);
    if (reply === undefined) continue; // a notification
    assert.equal(reply.jsonrpc, "2.0");
    if (reply.error) assert.ok(allowed.has(reply.error.code), JSON.stringify([message, reply]));
    else assert.ok(reply.result && typeof reply.result === "object", JSON.stringify([message, reply]));
    assert.notEqual(reply.error?.code, -32603, JSON.stringify(message));
    const kind = reply.error ? String(reply.error.code) : "result";
    tally.set(kind, (tally.get(kind) ?? 0) + 1);
  }
  // The generator reaches past the envelope checks: results and several distinct refusals.
  for (const kind of ["result", "-32600", "-32601", "-32602", "-32022"]) {
    assert.ok((tally.get(kind) ?? 0) > 10, `${kind}: ${JSON.stringify([...tally])}`);
  }
});

/** A lone surrogate in a reply, raw or as a JSON escape: strict JSON readers (serde_json) refuse the whole message. */
function loneSurrogates(text: string): string[] {
  const escaped =
    /\\u(d[89ab][0-9a-f]{2})(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/gi;
  const raw = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  return [...text.matchAll(escaped), ...text.matchAll(raw)].map((m) => m[0]);
}

test("no lone surrogate in any answer: texts cut across a pair, lone halves sent, in every tool's text arguments", async () => {
  const all = createServer({ tools: ALL_TOOLS }).connect();
  const face = "\u{1F600}";
  const surrogateTexts = [
    "C".repeat(79) + face + "C", // a pair across the 80th unit, where error messages cut
    "C".repeat(199) + face + "CC", // across the 200th, where RDKit's reason is cut
    face.repeat(60),
    "C\ud83dC",
    "C\ude00C",
    "[C\ud83d]",
    "c1ccccc1(" + face,
  ];
  const cases = (text: string): [string, Record<string, unknown>][] => [
    ...Object.entries(TOOL_EXAMPLES).filter(([name]) => name !== "name_to_smiles").flatMap((
      [name, example],
    ) =>
      Object.keys(example).filter((k) => typeof example[k] === "string" && /smiles|smarts/.test(k)).map((
        key,
      ) => [name, { ...example, [key]: text }] as [string, Record<string, unknown>])
    ),
    ["depict", { smiles: ["CCO", text] }],
    ["depict", { smiles: ["CCO", "CC"], labels: [text.slice(0, 40), "b"] }],
    ["depict", { smiles: "CCO", smarts: text }],
    ["similarity_search", { query: text, library: ["CCO"] }],
    ["similarity_search", { query: "CCO", library: [text, "CC"] }],
    ["run_reaction", { reaction: `${text}>>C`, reactants: ["C"] }],
    ["run_reaction", { reaction: "[C:1]>>[C:1]O", reactants: [text] }],
    ["convert", { input: text, from: "smiles", to: ["smiles", "inchikey"] }],
    ["convert", {
      input: `${text}\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n`,
      from: "sdf",
      to: "smiles",
    }],
    ["convert", { input: text, from: text, to: "smiles" }],
    ["batch", { tool: "canonical_smiles", smiles_list: [text, "CCO"] }],
  ];
  let checked = 0;
  for (const text of surrogateTexts) {
    for (const [name, args] of cases(text)) {
      const reply = await all.handle(JSON.stringify(modern("tools/call", { name, arguments: args })));
      assert.ok(reply, name);
      assert.deepEqual(loneSurrogates(reply.text), [], `${name} ${JSON.stringify(args).slice(0, 120)}`);
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked}`);
});
