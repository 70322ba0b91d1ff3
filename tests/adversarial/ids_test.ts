/**
 * JSON-RPC ids echoed exactly as sent (JSON-RPC 2.0 §5: the response id is the same as the request's), digit for
 * digit, on stdio (both dialects) and HTTP, for results and errors, against the real server process. The
 * answers are compared as text: parsing them into doubles would hide the very loss under test.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { toolCall } from "../helpers/attack.ts";
import { runServer } from "../helpers/process.ts";
import { MODERN_META } from "../helpers/protocol.ts";

/** Number tokens a double cannot round-trip, or whose spelling JSON.stringify would change. */
const IDS = [
  "9007199254740993",
  "123456789012345678901234567890",
  "-98765432109876543210",
  "1.0",
  "-0",
  "1e3",
  "1E400",
  "0.1000000000000000055511151231257827",
  "-12.50",
];

/** The id token of a serialised response (the server writes `{"jsonrpc":"2.0","id":…,`). */
function idToken(line: string): string | undefined {
  return /^\{"jsonrpc":"2\.0","id":([^,]+),/.exec(line)?.[1];
}

let server: HttpServer;
before(async () => {
  server = await startHttpServer();
});
after(async () => await server.stop());

test("ids: stdio, modern dialect: results and errors echo each numeric id verbatim", async () => {
  const meta = JSON.stringify(MODERN_META);
  const lines = IDS.flatMap((id) => [
    toolCall("canonical_smiles", { smiles: "OCC" }, id),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${meta},"cursor":7}}`,
    `{"jsonrpc":"1.0","id":${id},"method":"tools/list"}`,
  ]);
  const { stdout, code } = await runServer([], `${lines.join("\n")}\n`);
  assert.equal(code, 0);
  const echoed = stdout.trim().split("\n").map(idToken).sort();
  assert.deepEqual(echoed, IDS.flatMap((id) => [id, id, id]).sort());
});

test("ids: stdio, legacy dialect: the handshake and tool calls echo each id verbatim", async () => {
  const init = {
    protocolVersion: "2024-11-05",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  };
  const lines = [
    `{"jsonrpc":"2.0","id":${IDS[0]},"method":"initialize","params":${JSON.stringify(init)}}`,
    ...IDS.slice(1).map((id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"parse_smiles","arguments":{"smiles":"C"}}}`
    ),
  ];
  const { stdout } = await runServer([], `${lines.join("\n")}\n`);
  assert.deepEqual(stdout.trim().split("\n").map(idToken).sort(), [...IDS].sort());
});

test("ids: HTTP: results, header mismatches and protocol errors echo each id verbatim", async () => {
  for (const id of IDS) {
    const ok = await rawRequest(
      server.port,
      post(toolCall("parse_smiles", { smiles: "CCO" }, id), mcpHeaders("tools/call", "parse_smiles")),
    );
    assert.equal(ok.status, 200);
    assert.equal(idToken(ok.body), id);
    const mismatch = await rawRequest(
      server.port,
      post(toolCall("parse_smiles", { smiles: "CCO" }, id), mcpHeaders("tools/call", "calc_properties")),
    );
    assert.equal(mismatch.status, 400);
    assert.equal(idToken(mismatch.body), id);
  }
});

test("ids: string ids, duplicate id members and ids after nested values are answered as JSON.parse reads them", async () => {
  const meta = JSON.stringify(MODERN_META);
  const lines = [
    `{"jsonrpc":"2.0","params":{"_meta":${meta},"id":[1,"}\\"{",{"id":2}]},"id":42.000,"method":"tools/list"}`,
    `{"jsonrpc":"2.0","id":1,"id":77.70,"method":"tools/list","params":{"_meta":${meta}}}`,
    `{"jsonrpc":"2.0","\\u0069d":5.5e-1,"method":"tools/list","params":{"_meta":${meta}}}`,
    `{"jsonrpc":"2.0","id":"9007199254740993","method":"tools/list","params":{"_meta":${meta}}}`,
  ];
  const { stdout } = await runServer([], `${lines.join("\n")}\n`);
  assert.deepEqual(
    stdout.trim().split("\n").map(idToken).sort(),
    ["42.000", "77.70", "5.5e-1", '"9007199254740993"'].sort(),
  );
});
