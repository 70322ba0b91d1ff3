/**
 * Invalid requests whose names, keys or versions are huge, against the real server process: the answer quotes
 * them shortened, so no answer to an invalid request passes 64 KiB, on stdio (both dialects) and HTTP.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { runServer } from "../helpers/process.ts";
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
