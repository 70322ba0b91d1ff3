// Hostile content in well-formed requests, against the real server process: huge and pathological molecules for
// every tool, recursive SMARTS, work past its time limit, calls queued behind runaway searches, answers inflated
// by garbage input, and cancellation. After each attack an ordinary call must get its ordinary answer: no request
// may leave damage for the next one. Runs under Deno, Node, and (through CHEM_MCP_SERVER_CMD) the built artefacts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { LineClient, startServer, treeUsage } from "../helpers/process.ts";
import { mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { toolCall } from "../helpers/attack.ts";
import { TOOL_EXAMPLES } from "../helpers/examples.ts";
import { cancelled } from "../helpers/protocol.ts";
import { RUNAWAY_MCS, RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";
import { HANDOVER_MS } from "../helpers/timing.ts";
import { ISOLATION_GRACE_S } from "../../src/tools/common.ts";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Codes a tool may answer for hostile input: typed, documented, never an internal error. */
const TYPED = new Set([
  "INVALID_SMILES",
  "INVALID_SMARTS",
  "INVALID_MOLJSON",
  "MOLECULE_TOO_LARGE",
  "UNSUPPORTED_MOLECULE",
  "NO_COMMON_SUBSTRUCTURE",
  "COMPUTATION_TIMEOUT",
  "EMBEDDING_FAILED",
  "SERVER_BUSY",
]);

interface Server {
  client: LineClient;
  pid: number;
  stderr: () => string;
  call(name: string, args: unknown, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<number | null>;
}

let nextId = 1;

function start(env: Record<string, string> = {}): Server {
  const child = startServer([], { CHEM_MCP_WORKERS: "2", ...env });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const client = new LineClient(child);
  return {
    client,
    pid: child.pid!,
    stderr: () => stderr,
    call: (name, args, timeoutMs = 60_000) =>
      client.request({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name, arguments: args, _meta: META },
      }, timeoutMs),
    close: () => client.close(),
  };
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** The tool's structured answer, failing the test on a JSON-RPC error (an internal error above all). */
function structured(
  answer: Record<string, unknown>,
  what: string,
): { error?: boolean; code?: string } & Result {
  assert.equal(answer.error, undefined, `${what}: JSON-RPC error ${JSON.stringify(answer.error)}`);
  const result = answer.result as Result;
  const error = result.structuredContent?.error as { code?: string } | undefined;
  return { ...result, error: result.isError === true, code: error?.code };
}

/** An ordinary call and its ordinary answer: the server is undamaged. */
async function assertHealthy(server: Server, after: string): Promise<void> {
  const answer = structured(await server.call("calc_properties", { smiles: "CCO" }), `after ${after}`);
  assert.equal(answer.isError, false, `after ${after}: ${JSON.stringify(answer.structuredContent)}`);
  assert.equal(answer.structuredContent?.molecular_weight, 46.069, `after ${after}`);
  const search = structured(await server.call("smarts_match", { smiles: "CCO", smarts: "CO" }), after);
  assert.equal(search.structuredContent?.match_count, 1, `after ${after}`);
}

const HUGE: Readonly<Record<string, string>> = {
  "300-membered aromatic ring": "c1" + "c".repeat(298) + "c1",
  "499-atom chain": "C".repeat(499),
  "900-atom chain (over every limit)": "C".repeat(900),
};

/** The tool's example arguments with every molecule replaced by `smiles`. */
function withMolecule(tool: string, smiles: string): Record<string, unknown> | undefined {
  const args = { ...TOOL_EXAMPLES[tool] };
  if ("smiles" in args) args.smiles = smiles;
  else if ("smiles_a" in args) args.smiles_a = smiles;
  else if ("smiles_list" in args) args.smiles_list = [smiles, "CCO"];
  else return undefined;
  return args;
}

test("huge molecules through every tool: a result or a typed error, and the next ordinary call is unharmed", async () => {
  const server = start();
  try {
    for (const [label, smiles] of Object.entries(HUGE)) {
      for (const tool of Object.keys(TOOL_EXAMPLES)) {
        const args = withMolecule(tool, smiles);
        if (!args) continue;
        const answer = structured(await server.call(tool, args, 90_000), `${tool} on a ${label}`);
        if (answer.error) {
          assert.ok(TYPED.has(answer.code ?? ""), `${tool} on a ${label}: code ${answer.code}`);
        }
      }
      await assertHealthy(server, `every tool on a ${label}`);
    }
    assert.doesNotMatch(server.stderr(), /Internal error|threw:/);
  } finally {
    await server.close();
  }
});

test("recursive SMARTS nested 200 and 600 deep: INVALID_SMARTS naming the limit; later searches unharmed", async () => {
  const server = start();
  try {
    for (const depth of [200, 600]) {
      const smarts = "[$(".repeat(depth) + "C" + ")]".repeat(depth);
      const answer = structured(
        await server.call("smarts_match", { smiles: "CCO", smarts }),
        `${depth} deep`,
      );
      assert.equal(answer.code, "INVALID_SMARTS");
      assert.match(JSON.stringify(answer.structuredContent), /at most 16 levels/);
      await assertHealthy(server, `a SMARTS ${depth} deep`);
    }
  } finally {
    await server.close();
  }
});

/** Waits until the process tree uses under a tenth of a core over one second (start-up and warm-up included). */
async function idle(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  let before = treeUsage(pid).cpuMs;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeUsage(pid).cpuMs;
    if (now - before < 100) return true;
    before = now;
  }
  return false;
}

const PROC = existsSync("/proc/self/stat");

/**
 * The first health check of a fresh server, timed: its pooled call waits for a worker to start, so this is what a
 * worker start costs on this machine now. A bound that may include a worker start is stated against it, so it
 * holds on a loaded machine, where a start takes seconds rather than a fraction of one.
 */
async function startMs(server: Server): Promise<number> {
  const started = Date.now();
  await assertHealthy(server, "start");
  return Date.now() - started;
}

test("after COMPUTATION_TIMEOUT nothing keeps computing, and repeated timeouts do not grow memory", {
  skip: PROC ? false : "needs Linux /proc to read CPU time and memory",
}, async () => {
  const server = start({ CHEM_MCP_WORKERS: "1" });
  const runaway = async (boundMs: number) => {
    const started = Date.now();
    const args = { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 1 };
    const answer = structured(await server.call("smarts_match", args), "runaway search");
    assert.equal(answer.code, "COMPUTATION_TIMEOUT");
    const ms = Date.now() - started;
    assert.ok(ms < boundMs, `answered ${ms} ms after its 1 s limit's start (bound ${boundMs} ms)`);
  };
  try {
    // Each search may wait for the worker that replaces the one the last timeout retired: on a loaded machine
    // that start, not the search, is most of the wait.
    const boundMs = 1_000 + 2 * await startMs(server) + HANDOVER_MS;
    // The first searches start the spare worker that a one-worker pool keeps beside a running search, and
    // under Node take the allocator to the high-water mark that retired worker threads leave (docs/security.md).
    for (let round = 0; round < 3; round++) await runaway(boundMs);
    assert.ok(await idle(server.pid, 30_000), "idle after start-up");
    const before = treeUsage(server.pid).rssKiB;
    for (let round = 0; round < 5; round++) await runaway(boundMs);
    assert.ok(await idle(server.pid, 30_000), "no thread or process keeps computing after the timeouts");
    const after = treeUsage(server.pid).rssKiB;
    console.log(`RSS after 3 timeouts ${before >> 10} MiB, after 8 ${after >> 10} MiB`);
    // A worker whose memory stayed behind would cost 60 MiB or more each time.
    assert.ok(after - before < 48 * 1024, `memory stays near ${before} KiB, is ${after} KiB`);
    await assertHealthy(server, "the timeouts");
  } finally {
    await server.close();
  }
});

test("find_mcs's own timeout_seconds holds from outside: answered within the limit plus its 1 s margin", async () => {
  const server = start();
  const { smiles_list: pair, ...loose } = RUNAWAY_MCS;
  try {
    await assertHealthy(server, "start");
    for (const [list, limit] of [[pair, 1], [Array(10).fill(pair).flat(), 2]] as const) {
      const started = Date.now();
      const answer = structured(
        await server.call("find_mcs", { smiles_list: list, timeout_seconds: limit, ...loose }),
        `find_mcs of ${list.length} at ${limit} s`,
      );
      const elapsed = Date.now() - started;
      console.log(
        `find_mcs of ${list.length} macrocycles, timeout_seconds ${limit}: answered in ${elapsed} ms`,
      );
      assert.ok(answer.structuredContent?.timed_out === true || answer.code === "COMPUTATION_TIMEOUT");
      // The documented margin is 1 s; a runaway that kept its worker would take minutes.
      const bound = (limit + ISOLATION_GRACE_S) * 1000 + HANDOVER_MS;
      assert.ok(elapsed < bound, `answered after ${elapsed} ms at a ${limit} s limit (bound ${bound} ms)`);
    }
    await assertHealthy(server, "the searches");
  } finally {
    await server.close();
  }
});

test("a call queued behind runaway searches is answered long before their limit; a search past the reserve gets SERVER_BUSY", async () => {
  const server = start({ CHEM_MCP_WORKERS: "2" });
  try {
    await assertHealthy(server, "start");
    // The search behind the first is refused once the first has done a runaway's work (STALL_CPU_MS of CPU):
    // within a second or two on a quiet machine, later where CPU-bound programs leave its worker a tenth of a
    // core. The first's limit leaves room for that.
    const runaway = { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 20 };
    const searches = [server.call("smarts_match", runaway), server.call("smarts_match", runaway)];
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const cheap = structured(
      await server.call("calc_properties", { smiles: "c1ccccc1O" }),
      "behind searches",
    );
    assert.equal(cheap.isError, false);
    const waited = Date.now() - started;
    console.log(`a call behind two runaway searches answered in ${waited} ms`);
    // Held behind a search it would wait for the search's 20 s limit; it takes milliseconds on a quiet machine
    // and 2.5 s here beside eight CPU-bound programs (a worker starting), so half the limit is the bound.
    assert.ok(waited < (runaway.timeout_seconds * 1000) / 2, `answered in ${waited} ms`);
    const answers = await Promise.all(searches);
    const codes = answers.map((a) => structured(a, "search").code).sort();
    assert.deepEqual(codes, ["COMPUTATION_TIMEOUT", "SERVER_BUSY"]);
    const busy = answers.map((a) => structured(a, "search")).find((a) => a.code === "SERVER_BUSY")!;
    const details = (busy.structuredContent?.error as { details?: { retry_after_ms?: number } }).details;
    assert.ok((details?.retry_after_ms ?? 0) > 0, "a retry hint");
    await assertHealthy(server, "the searches");
  } finally {
    await server.close();
  }
});

test("garbage input cannot inflate an answer: a 1 MiB list of numbers gets one short error", async () => {
  const server = start();
  try {
    const garbage = { smiles_list: Array.from({ length: 500_000 }, () => 1) };
    const answer = await server.call("find_mcs", garbage);
    const text = JSON.stringify(answer);
    assert.ok(text.length < 64 * 1024, `answer of ${text.length} characters`);
    assert.equal((answer.error as { code?: number }).code, -32602);
    const many = { smiles_list: Array.from({ length: 900 }, (_, i) => i) };
    const listed = await server.call("find_mcs", many);
    const data = listed.error as { data?: { issues?: unknown[] }; message?: string };
    assert.ok((data.data?.issues?.length ?? 0) <= 5, "at most five problems listed");
    assert.match(data.message ?? "", /and \d+ more/);
    await assertHealthy(server, "garbage lists");
  } finally {
    await server.close();
  }
});

test("stdio: notifications/cancelled stops a running search, frees its worker at once, and nothing answers it", async () => {
  const server = start({ CHEM_MCP_WORKERS: "1" });
  try {
    // The call after the cancel may wait for the standby that starts beside a search: at most a worker start
    // (bench/pool_bench.ts --sections cancel measures it; a search the cancel missed would hold it for 20 s).
    const boundMs = Math.max(2_000, 2 * await startMs(server)) + HANDOVER_MS;
    const id = nextId++;
    server.client.write(
      `${
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "smarts_match",
            arguments: { smiles: RUNAWAY_MOLECULE, smarts: RUNAWAY_SMARTS, timeout_seconds: 20 },
            _meta: META,
          },
        })
      }\n`,
    );
    await new Promise((r) => setTimeout(r, 500));
    server.client.write(`${JSON.stringify(cancelled(id, "test"))}\n`);
    // A cancel for an id nobody knows is ignored.
    server.client.write(`${JSON.stringify(cancelled(987654))}\n`);
    const started = Date.now();
    const next = structured(await server.call("calc_properties", { smiles: "CCO" }), "after the cancel");
    assert.equal(next.structuredContent?.molecular_weight, 46.069);
    const ms = Date.now() - started;
    assert.ok(ms < boundMs, `pooled call answered ${ms} ms after the cancel (bound ${boundMs} ms)`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(
      server.client.received.filter((m) => m.id === id).length,
      0,
      "no answer for the cancelled id",
    );
  } finally {
    await server.close();
  }
});

test("http: a connection reset cancels its call and frees its worker; a half-close still gets its answer", async () => {
  const http = await startHttpServer([], { CHEM_MCP_WORKERS: "2" });
  try {
    const search = (timeout: number) =>
      post(
        toolCall("smarts_match", {
          smiles: RUNAWAY_MOLECULE,
          smarts: RUNAWAY_SMARTS,
          timeout_seconds: timeout,
        }),
        mcpHeaders("tools/call", "smarts_match"),
      );
    // Two workers leave one for searches: the reset search must give it back at once.
    const socket = connect(http.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(search(25));
    await new Promise((r) => setTimeout(r, 1_000));
    socket.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const next = await rawRequest(http.port, search(1));
    assert.equal(next.status, 200);
    assert.match(next.body, /COMPUTATION_TIMEOUT/, "the next search ran (it was not answered SERVER_BUSY)");
    // Held by the reset search, the worker would have answered SERVER_BUSY or after that search's 25 s; what
    // the wide bound leaves is the start of the worker that replaces the retired one on a loaded machine.
    assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms`);
    // A half-closed request is no cancel: its answer comes.
    const halfClosed = await new Promise<string>((resolve) => {
      const s = connect(http.port, "127.0.0.1");
      const chunks: Buffer[] = [];
      s.on("data", (c: Buffer) => chunks.push(c));
      s.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      s.end(search(1));
    });
    assert.match(halfClosed, /^HTTP\/1\.1 200 [\s\S]*COMPUTATION_TIMEOUT/);
  } finally {
    await http.stop();
  }
});
