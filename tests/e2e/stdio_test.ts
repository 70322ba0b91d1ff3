import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import process from "node:process";
import { collect, LineClient, runServer, serverCommand, startServer } from "../helpers/process.ts";
import { initialize, modern, MODERN_META, request } from "../helpers/protocol.ts";
import { skipName } from "../helpers/skip.ts";

const lines = (text: string) => text.split("\n").filter((l) => l.length > 0);
// When the server is started through `npx`, npm may add its own "npm warn …" lines; they are not ours.
const ownLines = (text: string) => lines(text).filter((l) => !l.startsWith("npm "));

test("stdio: --version and --help print to stdout and exit 0", async () => {
  const version = await runServer(["--version"]);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, "chem-mcp 1.1.0\n");
  const help = await runServer(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--transport stdio\|streamable-http/);
  assert.match(help.stdout, /--allowed-origin/);
});

test("stdio: unknown options and HTTP-only options with stdio exit 2 with one stderr line", async () => {
  for (
    const args of [
      ["--bogus"],
      ["--port", "3000"],
      ["--transport", "stdio", "--bind", "127.0.0.1"],
      ["--allow-non-loopback"],
      ["--allowed-origin", "http://localhost:5173"],
      ["--max-concurrency", "4"],
      ["--transport", "carrier-pigeon"],
      ["--transport", "streamable-http", "--port", "70000"],
      ["--transport", "streamable-http", "--bind", "0.0.0.0"],
      ["--transport", "streamable-http", "--allowed-origin", "http://x.test/path"],
      ["positional"],
    ]
  ) {
    const r = await runServer(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stdout, "", args.join(" "));
    assert.equal(ownLines(r.stderr).length, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(ownLines(r.stderr)[0]!, /^chem-mcp: /);
  }
});

test("stdio: exits 0 on EOF with no input and prints nothing on stdout", async () => {
  const r = await runServer([]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
});

test("stdio: legacy transcript is byte-exact", async () => {
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},' +
    '"clientInfo":{"name":"golden","version":"1"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"canonical_smiles","arguments":{"smiles":"OCC"}}}',
  ];
  // One request at a time so the transcript order is fixed.
  const client = new LineClient(startServer());
  const out: string[] = [];
  for (const line of input) {
    const parsed = JSON.parse(line) as { id?: number };
    if (parsed.id === undefined) {
      client.write(`${line}\n`);
      continue;
    }
    out.push(JSON.stringify(await client.request(parsed as Record<string, unknown>)));
  }
  assert.equal(await client.close(), 0);
  assert.deepEqual(out, [
    '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{"listChanged":false}},' +
    '"serverInfo":{"name":"chem-mcp","version":"1.1.0"}}}',
    '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\\"smiles\\":\\"OCC\\",\\"canonical_smiles\\":' +
    '\\"CCO\\"}"}]}}',
  ]);
  assert.equal(client.received.length, 2, "the notification got no answer");
});

test("stdio: bad input never kills the server and stdout carries only JSON-RPC", async () => {
  const client = new LineClient(startServer());
  client.write("this is not json\n");
  client.write("[1,2,3]\n");
  client.write(new Uint8Array([0xff, 0xfe, 0x0a]));
  client.write("\n\n   \n");
  client.write('{"jsonrpc":"2.0","id":"x","method":"tools/call"\n');
  const discover = await client.request(modern("server/discover"));
  assert.ok(discover.result);
  const call = await client.request(
    modern("tools/call", { name: "parse_smiles", arguments: { smiles: "c1ccccc1" } }),
  );
  assert.equal(
    (call.result as { structuredContent: { atom_count: number } }).structuredContent.atom_count,
    6,
  );
  assert.equal(await client.close(), 0);
  assert.deepEqual(client.garbage, []);
  const errors = client.received.filter((m) => m.error).map((m) => (m.error as { code: number }).code);
  assert.deepEqual(errors.sort(), [-32600, -32700, -32700, -32700].sort());
});

test("stdio: a 1 MiB + 1 byte line is refused and the next request is served", async () => {
  const client = new LineClient(startServer());
  const filler = "C".repeat(1_048_576);
  const tooBig = JSON.stringify(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: filler } }),
  );
  const tooBigAnswer = client.waitFor("null");
  client.write(`${tooBig}\n`);
  const refused = await tooBigAnswer;
  assert.equal((refused.error as { code: number }).code, -32600);
  const ok = await client.request(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
  );
  assert.equal(
    (ok.result as { structuredContent: { canonical_smiles: string } }).structuredContent.canonical_smiles,
    "CCO",
  );
  assert.equal(await client.close(), 0);
});

test("stdio: 64 requests in flight are all answered, pinned modern", async () => {
  const client = new LineClient(startServer());
  const requests = Array.from(
    { length: 64 },
    (_, i) =>
      modern("tools/call", {
        name: "canonical_smiles",
        arguments: { smiles: "C".repeat(1 + (i % 10)) + "O" },
      }),
  );
  client.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const answers = await Promise.all(requests.map((r) => client.waitFor(JSON.stringify(r.id))));
  assert.equal(answers.length, 64);
  for (const [i, a] of answers.entries()) {
    const expected = "C".repeat(1 + (i % 10)) + "O";
    assert.equal(
      (a.result as { structuredContent: { canonical_smiles: string } }).structuredContent.canonical_smiles,
      expected,
    );
  }
  const switchTry = await client.request(initialize());
  assert.equal((switchTry.error as { code: number }).code, -32010);
  assert.equal(await client.close(), 0);
});

test("stdio: a final request without a trailing newline is still answered before exit", async () => {
  const child = startServer();
  const r = await collect(child, JSON.stringify(request("server/discover", { _meta: MODERN_META })));
  assert.equal(r.code, 0);
  const reply = JSON.parse(r.stdout) as { result: { serverInfo: { name: string } } };
  assert.equal(reply.result.serverInfo.name, "chem-mcp");
});

test("stdio: a client that does not read its answers makes the server stop reading, and loses nothing", async () => {
  const child = startServer();
  child.stdout.pause();
  const line = `${JSON.stringify(modern("tools/list"))}\n`; // each answer is about 90 KB
  const count = 2000;
  child.stdin.write(line.repeat(count));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // The server took in only what its queue of unread answers allows; the rest still waits in our stdin buffer.
  assert.ok(child.stdin.writableLength > line.length * 1000, `${child.stdin.writableLength} bytes unsent`);
  let received = 0;
  let tail = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const text = tail + chunk;
    const parts = text.split("\n");
    tail = parts.pop()!;
    received += parts.length;
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => {
    child.on("close", resolve);
    child.stdin.end();
  });
  assert.equal(code, 0);
  assert.equal(received, count);
});

/** util-linux `script` runs a command on a pseudo-terminal: the only way to give the server a terminal stdin. */
const HAS_SCRIPT = process.platform === "linux" && spawnSync("script", ["--version"]).status === 0;
const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

const NO_TERMINAL = HAS_SCRIPT ? false : "needs util-linux `script` to give the server a terminal";
const TERMINAL_TEST =
  "stdio: on a terminal the server says once on stderr that it waits for JSON-RPC on stdin";

test(skipName(TERMINAL_TEST, NO_TERMINAL), { skip: NO_TERMINAL }, async () => {
  const [cmd, base] = serverCommand();
  const line = [cmd, ...base].map(shellQuote).join(" ");
  // Stdin of `script` is a pipe we never write to; the server's stdin is the terminal `script` opened.
  const child = spawn("script", ["-qec", line, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    ...(process.env.CHEM_MCP_SERVER_CWD ? { cwd: process.env.CHEM_MCP_SERVER_CWD } : {}),
  });
  let seen = "";
  const waiting = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      seen += chunk;
      if (/waiting for JSON-RPC 2\.0 messages on stdin/.test(seen)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
  const closed = new Promise((done) => child.on("close", done));
  process.kill(-child.pid!, "SIGKILL");
  await closed;
  assert.ok(waiting, `no waiting line within 60 s:\n${seen}`);
  assert.equal(seen.match(/waiting for JSON-RPC/g)?.length, 1);
  assert.doesNotMatch(seen, /warmed up/);
});

test("stdio: with stdin a pipe, nothing but protocol on stdout and no start-up chatter on stderr", async () => {
  const r = await runServer(
    [],
    `${JSON.stringify(modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }))}\n`,
  );
  assert.equal(r.code, 0);
  assert.equal(lines(r.stdout).length, 1);
  assert.doesNotMatch(r.stderr, /waiting for JSON-RPC|warmed up/);
});
