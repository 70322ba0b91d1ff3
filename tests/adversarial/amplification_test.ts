/**
 * Invalid requests whose names, keys or versions are huge, against the real server process: the answer quotes
 * them shortened, so no answer to an invalid request passes 64 KiB, on stdio (both dialects) and HTTP.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { LineClient, runServer, startServer } from "../helpers/process.ts";
import { MODERN_META } from "../helpers/protocol.ts";

const HUGE = 900_000;
const LIMIT = 64 * 1024;

const call = (id: number, name: string, args: unknown, meta: unknown = MODERN_META) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, _meta: meta },
  });

/** A modern request whose method is a huge unknown name. */
const hugeMethod = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "m".repeat(HUGE), params: { _meta: MODERN_META } });

/** Each request line and what it tries to make the server repeat. */
const STDIO_MODERN: Readonly<Record<string, string>> = {
  "an unknown tool name": call(1, "t".repeat(HUGE), {}),
  "an unknown method": hugeMethod(2),
  "an unknown argument key": call(3, "parse_smiles", { smiles: "C", ["k".repeat(HUGE)]: 1 }),
  "a misspelt argument key": call(4, "parse_smiles", { ["smile" + "s".repeat(HUGE)]: "C" }),
  "50,000 unknown argument keys": call(
    5,
    "parse_smiles",
    Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key${i}`, i])),
  ),
  "an unsupported protocol version": call(6, "parse_smiles", { smiles: "C" }, {
    ...MODERN_META,
    "io.modelcontextprotocol/protocolVersion": "v".repeat(HUGE),
  }),
  "a parse error": `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":"${"a".repeat(HUGE)}`,
};

/** Every answer line of `lines` sent over stdio, with its size checked; resolves with the largest size. */
async function answersOver(lines: string[], expected: number): Promise<number> {
  const { stdout, code } = await runServer([], `${lines.join("\n")}\n`);
  assert.equal(code, 0);
  const answers = stdout.trim().split("\n");
  assert.equal(answers.length, expected, `${answers.length} answers`);
  for (const answer of answers) {
    assert.ok(answer.length < LIMIT, `an answer of ${answer.length} characters: ${answer.slice(0, 200)}`);
    const { id, error } = JSON.parse(answer) as { id: unknown; error?: unknown };
    assert.ok(id === 1 && expected > 1 || error, `an error: ${answer.slice(0, 200)}`);
  }
  return Math.max(...answers.map((a) => a.length));
}

test("amplification: stdio, invalid requests quoting huge names, keys and versions get short answers", async () => {
  for (const [what, line] of Object.entries(STDIO_MODERN)) {
    const largest = await answersOver([line], 1);
    console.log(`${what}: ${line.length} characters sent, answer ${largest}`);
  }
});

test("amplification: stdio, legacy dialect: a huge method in the wrong dialect gets a short answer", async () => {
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const wrongDialect = hugeMethod(2);
  const legacyCall = call(3, "t".repeat(HUGE), {}, undefined);
  const largest = await answersOver([init, wrongDialect, legacyCall], 3);
  assert.ok(largest < LIMIT);
});

test("amplification: http, header and body mismatches quoting huge values get short answers", async () => {
  const server = await startHttpServer();
  try {
    const headers = mcpHeaders("tools/call", "parse_smiles");
    const bodies: Record<string, string> = {
      "Mcp-Name against a huge params.name": call(1, "n".repeat(HUGE), {}),
      "Mcp-Method against a huge method": hugeMethod(2),
      "a huge list as the body's protocol version": call(3, "parse_smiles", { smiles: "C" }, {
        ...MODERN_META,
        "io.modelcontextprotocol/protocolVersion": Array.from({ length: 60_000 }, () => "2026-07-28"),
      }),
      "an unknown argument key": call(4, "parse_smiles", { smiles: "C", ["k".repeat(HUGE)]: 1 }),
    };
    for (const [what, body] of Object.entries(bodies)) {
      const response = await rawRequest(server.port, post(body, headers));
      assert.ok(response.status >= 400, `${what}: status ${response.status}`);
      assert.ok(response.body.length < LIMIT, `${what}: an answer of ${response.body.length} characters`);
      console.log(`http, ${what}: ${body.length} characters sent, answer ${response.body.length}`);
    }
  } finally {
    await server.stop();
  }
});

test("amplification: stdio, the extras' answers stay within 4 MiB, text and structured copies together", async () => {
  // run_reaction: 10 × 100 reactants of long isotope-labelled chains, each product echoing its reactants (a
  // 25 MiB answer once); depict: an SVG grid of 16 label-dense molecules (9.1 MiB once); convert: 200 SD
  // records to every format; similarity_search: 10,000 hits of long entries.
  const labelled = (n: number, tail: string) => `${"[13CH2]".repeat(n)}${tail}`;
  const dense = "[N+](=O)([O-])C(S(=O)(=O)[O-])(P(=O)([O-])[O-])C(Cl)(Br)I";
  const block = [
    "chain",
    "",
    "",
    " 30 29  0  0  0  0  0  0  0  0999 V2000",
    ...Array.from(
      { length: 30 },
      (_, i) => `${(i * 1.5).toFixed(4).padStart(10)}    0.0000    0.0000 C   0  0`,
    ),
    ...Array.from({ length: 29 }, (_, i) => `${String(i + 1).padStart(3)}${String(i + 2).padStart(3)}  1  0`),
    "M  END",
  ].join("\n");
  const lines = [
    call(1, "run_reaction", {
      reaction: "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]",
      reactants: [
        Array.from({ length: 10 }, (_, i) => labelled(60 + i, "C(=O)O")),
        Array.from(
          { length: 100 },
          (_, i) => labelled(60 + (i % 40), "N" + "C".repeat(1 + Math.floor(i / 40))),
        ),
      ],
      max_products: 1000,
    }),
    call(2, "depict", { smiles: Array(16).fill(Array(6).fill(dense).join(".")), format: "svg", width: 500 }),
    call(3, "convert", {
      input: `${block}\n$$$$\n`.repeat(200),
      from: "sdf",
      to: ["smiles", "molblock", "molblock_v3000", "inchi", "inchikey"],
    }),
    call(4, "similarity_search", {
      query: "CCO",
      library: Array(10_000).fill(labelled(8, "O")),
      top_k: 10_000,
    }),
  ];
  // One at a time, as a model calls: sent together, the pool would answer some SERVER_BUSY.
  const client = new LineClient(startServer(["--tools", "all"]));
  try {
    for (const line of lines) {
      const answer = await client.request(JSON.parse(line) as Record<string, unknown>, 300_000);
      const text = JSON.stringify(answer);
      const bytes = new TextEncoder().encode(text).length;
      const result = answer.result as { isError: boolean } | undefined;
      assert.equal(answer.error, undefined, `answer ${answer.id}: ${text.slice(0, 300)}`);
      assert.equal(result!.isError, false, `answer ${answer.id}: ${text.slice(0, 300)}`);
      assert.ok(bytes < 4 * 1024 * 1024, `answer ${answer.id}: ${bytes} bytes`);
      console.log(`extras, answer ${answer.id}: ${bytes} bytes`);
    }
  } finally {
    assert.equal(await client.close(), 0);
  }
});
