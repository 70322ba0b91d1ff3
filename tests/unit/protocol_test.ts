import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { initialize, modern, MODERN_META, request, send } from "../helpers/protocol.ts";
import { createServer } from "../../src/create_server.ts";
import { depthExceeds, idSource, MAX_JSON_DEPTH, MAX_REQUEST_BYTES } from "../../src/protocol/jsonrpc.ts";
import { McpServer } from "../../src/protocol/server.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool, LOCAL_COMPUTATION } from "../../src/tools/tool.ts";
import * as v from "valibot";

await loadTestRDKit();
const server = createServer();

test("JSON-RPC error table: -32700 malformed JSON, id null", async () => {
  const r = await send(server.connect(), '{"jsonrpc":"2.0","id":1,');
  assert.equal(r?.error?.code, -32700);
  assert.equal(r?.id, null);
});

test("JSON-RPC error table: -32600 for batches, non-objects, bad jsonrpc, null id, missing method", async () => {
  const conn = server.connect();
  for (const text of ["[]", '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', "42", '"x"', "null"]) {
    const r = await send(conn, text);
    assert.equal(r?.error?.code, -32600, text);
    assert.equal(r?.id, null, text);
  }
  const wrongVersion = await send(conn, { jsonrpc: "1.0", id: 7, method: "tools/list" });
  assert.equal(wrongVersion?.error?.code, -32600);
  assert.equal(wrongVersion?.id, 7);
  assert.equal((await send(conn, { jsonrpc: "2.0", id: null, method: "tools/list" }))?.error?.code, -32600);
  assert.equal((await send(conn, { jsonrpc: "2.0", id: 3 }))?.error?.code, -32600);
  assert.equal((await send(conn, { jsonrpc: "2.0", id: 3, method: 5 }))?.error?.code, -32600);
});

test("JSON-RPC error table: -32601 unknown methods in both dialects", async () => {
  const legacy = server.connect();
  await send(legacy, initialize());
  for (const method of ["resources/list", "prompts/list", "logging/setLevel", "nope"]) {
    assert.equal((await send(legacy, request(method, {})))?.error?.code, -32601, method);
  }
  const modernConn = server.connect();
  for (const method of ["resources/list", "prompts/get", "ping"]) {
    assert.equal((await send(modernConn, modern(method)))?.error?.code, -32601, method);
  }
});

test("JSON-RPC error table: -32602 for bad arguments and unknown tools (modern)", async () => {
  const conn = server.connect();
  const missing = await send(conn, modern("tools/call", { name: "canonical_smiles", arguments: {} }));
  assert.equal(missing?.error?.code, -32602);
  // The schema requires the molecule, and so does the server.
  assert.match(missing!.error!.message, /missing required argument 'smiles'/);
  const wrongType = await send(
    conn,
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: 5 } }),
  );
  assert.equal(wrongType?.error?.code, -32602);
  const extra = await send(
    conn,
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "C", x: 1 } }),
  );
  assert.equal(extra?.error?.code, -32602);
  const noArgs = await send(conn, modern("tools/call", { name: "canonical_smiles" }));
  assert.equal(noArgs?.error?.code, -32602);
  const unknown = await send(conn, modern("tools/call", { name: "no_such_tool", arguments: {} }));
  assert.equal(unknown?.error?.code, -32602);
  assert.ok(Array.isArray(unknown?.error?.data?.available));
  const badParams = await send(conn, { jsonrpc: "2.0", id: 99, method: "tools/list", params: [1] });
  assert.equal(badParams?.error?.code, -32602);
});

test("JSON-RPC error table: -32603 when a tool throws something that is not a chemistry error", async () => {
  const boom = defineTool({
    name: "boom",
    title: "Boom",
    description: "Always throws.",
    annotations: LOCAL_COMPUTATION,
    input: v.strictObject({}),
    output: v.object({}),
    run: () => {
      throw new TypeError("secret internals");
    },
  });
  const liar = defineTool({
    name: "liar",
    title: "Liar",
    description: "Breaks its output schema.",
    annotations: LOCAL_COMPUTATION,
    input: v.strictObject({}),
    output: v.object({ n: v.number() }),
    run: () => ({ n: "not a number" }) as unknown as { n: number },
  });
  const logs: string[] = [];
  const custom = new McpServer({
    registry: new ToolRegistry([boom, liar] as never),
    info: { name: "t", version: "0" },
    log: (m) => logs.push(m),
  });
  for (const conn of [custom.connect(), custom.connect()]) {
    const first = conn === undefined
      ? undefined
      : await send(conn, modern("tools/call", { name: "boom", arguments: {} }));
    assert.equal(first?.error?.code, -32603);
    assert.doesNotMatch(first!.error!.message, /secret/);
    const second = await send(conn, modern("tools/call", { name: "liar", arguments: {} }));
    assert.equal(second?.error?.code, -32603);
  }
  const legacy = custom.connect();
  await send(legacy, initialize());
  assert.equal(
    (await send(legacy, request("tools/call", { name: "boom", arguments: {} })))?.error?.code,
    -32603,
  );
  assert.ok(logs.some((m) => m.includes("secret internals")), "the stack goes to the log, not the wire");
});

test("JSON-RPC error table: -32022 with the supported list for an unsupported version", async () => {
  const r = await send(
    server.connect(),
    request("server/discover", {
      _meta: { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2025-11-25" },
    }),
  );
  assert.equal(r?.error?.code, -32022);
  assert.deepEqual(r?.error?.data, { supported: ["2026-07-28"], requested: "2025-11-25" });
});

test("JSON-RPC error table: -32000 for every legacy tool failure (domain, arguments, unknown tool)", async () => {
  const conn = server.connect();
  await send(conn, initialize());
  const domain = await send(
    conn,
    request("tools/call", { name: "canonical_smiles", arguments: { smiles: "C1CC" } }),
  );
  assert.equal(domain?.error?.code, -32000);
  assert.equal(domain?.error?.data?.code, "INVALID_SMILES");
  const args = await send(
    conn,
    request("tools/call", { name: "canonical_smiles", arguments: { smile: "C" } }),
  );
  assert.equal(args?.error?.code, -32000);
  assert.equal(args?.error?.data?.code, "INVALID_ARGUMENTS");
  const unknown = await send(conn, request("tools/call", { name: "nope", arguments: {} }));
  assert.equal(unknown?.error?.code, -32000);
  assert.equal(unknown?.error?.data?.code, "UNKNOWN_TOOL");
});

const cases: [string, Record<string, unknown>, number][] = [
  ["missing protocolVersion", { "io.modelcontextprotocol/clientCapabilities": {} }, -32602],
  [
    "non-string protocolVersion",
    { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": 20260728 },
    -32602,
  ],
  ["missing clientCapabilities", { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }, -32602],
  [
    "clientCapabilities not an object",
    { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": [] },
    -32602,
  ],
  ["clientInfo not an object", { ...MODERN_META, "io.modelcontextprotocol/clientInfo": "me" }, -32602],
  [
    "clientInfo without version",
    { ...MODERN_META, "io.modelcontextprotocol/clientInfo": { name: "x" } },
    -32602,
  ],
  ["clientInfo name not a string", {
    ...MODERN_META,
    "io.modelcontextprotocol/clientInfo": { name: 1, version: "1" },
  }, -32602],
  [
    "unsupported version",
    { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    -32022,
  ],
];
for (const [name, meta, code] of cases) {
  test(`_meta rules (modern): ${name}`, async () => {
    for (const method of ["server/discover", "tools/list"]) {
      const r = await send(server.connect(), request(method, { _meta: meta }));
      assert.equal(r?.error?.code, code, `${method}: ${JSON.stringify(r)}`);
    }
  });
}

test("_meta rules (modern): clientInfo is optional", async () => {
  const meta = { ...MODERN_META } as Record<string, unknown>;
  delete meta["io.modelcontextprotocol/clientInfo"];
  const r = await send(server.connect(), request("server/discover", { _meta: meta }));
  assert.deepEqual(r?.result?.supportedVersions, ["2026-07-28"]);
});

test("_meta rules (modern): every modern request needs _meta, not only the first", async () => {
  const conn = server.connect();
  assert.ok((await send(conn, modern("server/discover")))?.result);
  const r = await send(conn, request("tools/list", {}));
  assert.equal(r?.error?.code, -32602);
  assert.match(r!.error!.message, /protocolVersion/);
});

test("dialect pinning: legacy pin: modern request refused with -32010, legacy keeps working", async () => {
  const conn = server.connect();
  assert.equal(conn.dialect, null);
  await send(conn, initialize());
  assert.equal(conn.dialect, "legacy");
  for (const msg of [modern("server/discover"), modern("tools/list")]) {
    const r = await send(conn, msg);
    assert.equal(r?.error?.code, -32010);
    assert.deepEqual(r?.error?.data, { pinned: "legacy", requested: "modern" });
  }
  assert.equal(conn.dialect, "legacy");
  const list = await send(conn, request("tools/list", {}));
  assert.ok(Array.isArray(list?.result?.tools));
});

test("dialect pinning: modern pin: initialize refused with -32010, modern keeps working", async () => {
  const conn = server.connect();
  await send(conn, modern("server/discover"));
  assert.equal(conn.dialect, "modern");
  const r = await send(conn, initialize());
  assert.equal(r?.error?.code, -32010);
  assert.deepEqual(r?.error?.data, { pinned: "modern", requested: "legacy" });
  assert.equal(conn.dialect, "modern");
  assert.equal((await send(conn, modern("tools/list")))?.result?.ttlMs, 86_400_000);
});

test("dialect pinning: a modern tools/call as first request pins modern", async () => {
  const conn = server.connect();
  const r = await send(
    conn,
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
  );
  assert.equal(r?.result?.structuredContent?.canonical_smiles, "CCO");
  assert.equal(conn.dialect, "modern");
});

test("dialect pinning: a rejected first request does not pin", async () => {
  const conn = server.connect();
  await send(
    conn,
    request("server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }),
  );
  assert.equal(conn.dialect, null);
  await send(conn, request("tools/list", {}));
  assert.equal(conn.dialect, null);
  await send(conn, initialize());
  assert.equal(conn.dialect, "legacy");
});

test("dialect pinning: unpinned request without _meta is told how to start", async () => {
  const r = await send(server.connect(), request("tools/list", {}));
  assert.equal(r?.error?.code, -32602);
  assert.match(r!.error!.message, /initialize/);
});

test("dialect pinning: modern-only connections (HTTP) treat legacy methods as unknown", async () => {
  const conn = server.connect("modern-only");
  assert.equal((await send(conn, initialize()))?.error?.code, -32601);
  assert.equal((await send(conn, request("ping", {})))?.error?.code, -32601);
  assert.equal((await send(conn, request("tools/list", {})))?.error?.code, -32602);
});

test("dialect shaping: legacy initialize result, byte for byte", async () => {
  const reply = await server.connect().handle(
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{}}}',
  );
  assert.equal(
    reply?.text,
    '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":' +
      '{"listChanged":false}},"serverInfo":{"name":"chem-mcp","version":"1.1.0"}}}',
  );
});

test("dialect shaping: legacy initialize asking a newer version still answers 2024-11-05", async () => {
  const r = await send(
    server.connect(),
    request("initialize", { protocolVersion: "2025-06-18", capabilities: {} }),
  );
  assert.equal(r?.result?.protocolVersion, "2024-11-05");
});

test("dialect shaping: legacy tools/call: one text item holding the JSON result, nothing else", async () => {
  const conn = server.connect();
  await send(conn, initialize());
  const reply = await conn.handle(JSON.stringify(
    {
      jsonrpc: "2.0",
      id: "a",
      method: "tools/call",
      params: { name: "canonical_smiles", arguments: { smiles: "OCC" } },
    },
  ));
  assert.equal(
    reply?.text,
    '{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"{\\"smiles\\":\\"OCC\\",' +
      '\\"canonical_smiles\\":\\"CCO\\"}"}]}}',
  );
});

test("dialect shaping: legacy notifications get no answer; ping answers {}", async () => {
  const conn = server.connect();
  await send(conn, initialize());
  assert.equal(await send(conn, { jsonrpc: "2.0", method: "notifications/initialized" }), undefined);
  assert.equal(
    await send(conn, { jsonrpc: "2.0", method: "notifications/cancelled", params: {} }),
    undefined,
  );
  assert.deepEqual((await send(conn, request("ping", {})))?.result, {});
});

test("dialect shaping: modern server/discover advertises tools only", async () => {
  const r = await send(server.connect(), modern("server/discover"));
  assert.equal(r?.result?.resultType, "complete");
  assert.deepEqual(r?.result?.supportedVersions, ["2026-07-28"]);
  assert.deepEqual(r?.result?.capabilities, { tools: { listChanged: false } });
  assert.deepEqual(r?.result?.serverInfo, { name: "chem-mcp", version: "1.1.0" });
});

test("dialect shaping: modern tools/list carries the cache hint and both schemas", async () => {
  const r = await send(server.connect(), modern("tools/list"));
  assert.equal(r?.result?.ttlMs, 86_400_000);
  assert.equal(r?.result?.cacheScope, "public");
  const tools = r?.result?.tools as {
    name: string;
    inputSchema: { $schema?: string; type: string };
    outputSchema: object;
  }[];
  assert.ok(tools.length >= 5);
  for (const tool of tools) {
    // No $schema: JSON Schema 2020-12 is MCP's default dialect for tool schemas (docs/decisions/published-schemas.md).
    assert.equal(tool.inputSchema.$schema, undefined, tool.name);
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.ok(tool.outputSchema, tool.name);
    assert.doesNotMatch(JSON.stringify(tool), /"\$ref"/);
  }
});

test("dialect shaping: modern chemistry failure is a result with isError and a string code", async () => {
  const r = await send(
    server.connect(),
    modern("tools/call", { name: "parse_smiles", arguments: { smiles: "C1CC" } }),
  );
  assert.equal(r?.error, undefined);
  assert.equal(r?.result?.isError, true);
  assert.equal(r?.result?.resultType, "complete");
  const structured = r?.result?.structuredContent as { error: { code: string; message: string } };
  assert.equal(structured.error.code, "INVALID_SMILES");
  assert.deepEqual(JSON.parse(r!.result!.content![0]!.text), structured);
});

test("dialect shaping: modern success: structuredContent equals the text content", async () => {
  const r = await send(
    server.connect(),
    modern("tools/call", { name: "parse_smiles", arguments: { smiles: "CCO" } }),
  );
  assert.equal(r?.result?.isError, false);
  assert.deepEqual(JSON.parse(r!.result!.content![0]!.text), r?.result?.structuredContent);
  assert.equal(r?.result?.structuredContent?.atom_count, 3);
});

test("limits: a message over 1 MiB is refused and the connection keeps serving", async () => {
  const conn = server.connect();
  const big = JSON.stringify(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "C".repeat(MAX_REQUEST_BYTES) } }),
  );
  const r = await send(conn, big);
  assert.equal(r?.error?.code, -32600);
  assert.match(r!.error!.message, /1 MiB/);
  assert.ok((await send(conn, modern("server/discover")))?.result);
});

test(`limits: nesting deeper than ${MAX_JSON_DEPTH} is refused with the request id`, async () => {
  let deep: unknown = 1;
  for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = { x: deep };
  const r = await send(
    server.connect(),
    modern("tools/call", { name: "canonical_smiles", arguments: deep as object }),
  );
  assert.equal(r?.error?.code, -32600);
  assert.equal(typeof r?.id, "number");
  let ok: unknown = 1;
  for (let i = 0; i < MAX_JSON_DEPTH - 6; i++) ok = { x: ok };
  const fine = await send(
    server.connect(),
    modern("tools/call", { name: "canonical_smiles", arguments: ok as object }),
  );
  assert.equal(fine?.error?.code, -32602, "shallow enough to reach argument validation");
});

test("limits: 100,000 levels of brackets do not crash the parser", async () => {
  const r = await send(server.connect(), "[".repeat(100_000) + "]".repeat(100_000));
  assert.equal(r?.error?.code, -32600);
});

test("dialect shaping: legacy tools/list has the 2024-11-05 tool shape (no outputSchema)", async () => {
  const conn = server.connect();
  await send(conn, initialize());
  const tools = (await send(conn, request("tools/list", {})))?.result?.tools as Record<string, unknown>[];
  for (const tool of tools) assert.deepEqual(Object.keys(tool), ["name", "description", "inputSchema"]);
});

test("modern tools/list: every tool read-only, idempotent, not destructive; only name_to_smiles open-world", async () => {
  const tools = (await send(server.connect(), modern("tools/list")))?.result?.tools as {
    name: string;
    annotations: Record<string, boolean>;
  }[];
  assert.equal(tools.length, 20);
  for (const { name, annotations } of tools) {
    assert.deepEqual(annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: name === "name_to_smiles",
    }, name);
  }
});

test("dialect shaping: modern discover carries serverInfo in _meta too", async () => {
  const r = await send(server.connect(), modern("server/discover"));
  assert.deepEqual(
    (r?.result?._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"],
    { name: "chem-mcp", version: "1.1.0" },
  );
});

test("idSource: the top-level id's token, the last one winning, wherever the client wrote it", () => {
  const cases: [string, string | undefined][] = [
    ['{"jsonrpc":"2.0","id":1.0,"method":"m"}', "1.0"],
    ['{"id":-0,"jsonrpc":"2.0","method":"m"}', "-0"],
    ['{"method":"m","params":{},"jsonrpc":"2.0","id":1e3}', "1e3"],
    ['{"method":"m","jsonrpc":"2.0","id":1E400}  \n', "1E400"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","id":2.50}', "2.50"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","\\u0069d":7.0,"x":0}', "7.0"],
    ['{"jsonrpc":"2.0","id":3.0,"params":{"id":4}}', "3.0"],
    ['{"params":{"id":4},"id":5.0,"p":{"id":6}}', "5.0"],
    ['{"x":"\\"id\\":9}","id":1.5}', "1.5"],
    ['{"x\\"id":9,"id":8.0,"y":1}', "8.0"],
    ['{ "id" : 12.0 , "method":"m"}', "12.0"],
    ['{"method":"m","id": 7 }', "7"],
    ['{"jsonrpc":"2.0","method":"m"}', undefined],
  ];
  for (const [text, token] of cases) {
    JSON.parse(text); // every case is JSON the decoder would have accepted
    assert.equal(idSource(text), token, text);
  }
});

test("depthExceeds counts the message object as depth 1 and stops past the limit", () => {
  const nest = (depth: number) => JSON.parse("[".repeat(depth - 1) + "{}" + "]".repeat(depth - 1));
  assert.equal(depthExceeds(nest(3), 3), false);
  assert.equal(depthExceeds(nest(4), 3), true);
  assert.equal(depthExceeds({ a: [1, { b: 2 }], c: "x" }, 3), false);
  assert.equal(depthExceeds({ a: [1, { b: {} }], c: "x" }, 3), true);
  assert.equal(depthExceeds(JSON.parse('{"__proto__":{"a":{}}}'), 2), true);
  assert.equal(depthExceeds(7, 0), false);
});
