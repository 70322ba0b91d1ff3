// A SMARTS search that would run for hours, sent to the real server process (stdio and HTTP): it is stopped at
// its deadline with COMPUTATION_TIMEOUT while the same process goes on answering other requests, and the next
// search works. Costly tools run in the pool too, so a cheap call never waits behind them; the pool size
// follows CHEM_MCP_WORKERS. Runs against every artefact (source, npm package, single executable), so the
// worker entry of each is exercised.
import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { getPriority, setPriority } from "node:os";
import { collect, LineClient, startServer, stopGroup, treeThreads } from "../helpers/process.ts";
import { initialize, modern, request } from "../helpers/protocol.ts";
import { mcpHeaders, post, rawRequest, startHttpServer } from "../helpers/http.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";
import { WORKER_NICE_STEP } from "../../src/runtime/worker_priority.ts";

const MOLECULE = RUNAWAY_MOLECULE;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RUNAWAY = RUNAWAY_SMARTS;

function structured(response: Record<string, unknown>): Record<string, unknown> {
  return (response.result as { structuredContent: Record<string, unknown> }).structuredContent;
}

test("stdio: a runaway SMARTS search stops at timeout_seconds while other requests are answered", async () => {
  const client = new LineClient(startServer());
  const slow = client.request(
    modern("tools/call", {
      name: "smarts_match",
      arguments: { smiles: MOLECULE, smarts: RUNAWAY, timeout_seconds: 1 },
    }),
  );
  const quick = await client.request(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
  );
  assert.equal(structured(quick).canonical_smiles, "CCO");
  const stopped = await slow;
  const result = stopped.result as { isError: boolean };
  assert.equal(result.isError, true);
  const error = structured(stopped).error as { code: string; details: { limit_ms: number } };
  assert.equal(error.code, "COMPUTATION_TIMEOUT");
  assert.equal(error.details.limit_ms, 1000);
  // The quick answer went out first: the main thread never waited on the search.
  const order = client.received.map((m) => m.id);
  assert.ok(order.indexOf(quick.id) < order.indexOf(stopped.id), JSON.stringify(order));
  // A fresh worker serves the next search on the same molecule.
  const next = await client.request(
    modern("tools/call", {
      name: "smarts_match",
      arguments: { smiles: MOLECULE, smarts: "[CH2][CH]([CH2])[CH2]" },
    }),
  );
  assert.equal(structured(next).matched, false);
  assert.equal(await client.close(), 0);
  assert.deepEqual(client.garbage, []);
});

test("stdio, legacy dialect: the stopped search is a -32000 tool failure with the code", async () => {
  const client = new LineClient(startServer());
  await client.request(initialize());
  client.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized", params: {} })}\n`);
  const reply = await client.request(
    request("tools/call", {
      name: "smarts_match",
      arguments: { smiles: MOLECULE, smarts: RUNAWAY, timeout_seconds: 1 },
    }),
  );
  const error = reply.error as { code: number; data: { code: string } };
  assert.equal(error.code, -32000);
  assert.equal(error.data.code, "COMPUTATION_TIMEOUT");
  assert.equal(await client.close(), 0);
});

test("stdio: stdin closed during an isolated call still gets its answer before exit 0", async () => {
  const client = new LineClient(startServer());
  const call = modern("tools/call", {
    name: "smarts_match",
    arguments: { smiles: MOLECULE, smarts: RUNAWAY, timeout_seconds: 1 },
  });
  const answer = client.waitFor(JSON.stringify(call.id));
  client.write(`${JSON.stringify(call)}\n`);
  const code = await client.close();
  assert.equal(code, 0);
  assert.equal((structured(await answer).error as { code: string }).code, "COMPUTATION_TIMEOUT");
});

test("http: a runaway search answers 200 with COMPUTATION_TIMEOUT; a request sent meanwhile is served first", async () => {
  const server = await startHttpServer();
  try {
    const body = JSON.stringify(
      modern("tools/call", {
        name: "smarts_match",
        arguments: { smiles: MOLECULE, smarts: RUNAWAY, timeout_seconds: 1 },
      }),
    );
    const finished: string[] = [];
    const slow = rawRequest(server.port, post(body, mcpHeaders("tools/call", "smarts_match"))).then((r) => {
      finished.push("slow");
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quickBody = JSON.stringify(
      modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
    );
    const quick = await rawRequest(
      server.port,
      post(quickBody, mcpHeaders("tools/call", "canonical_smiles")),
    );
    finished.push("quick");
    assert.equal(quick.status, 200);
    const stopped = await slow;
    assert.equal(stopped.status, 200);
    const parsed = JSON.parse(stopped.body) as Record<string, unknown>;
    assert.equal((structured(parsed).error as { code: string }).code, "COMPUTATION_TIMEOUT");
    assert.deepEqual(finished, ["quick", "slow"]);
  } finally {
    await server.stop();
  }
});

const ATORVASTATIN = "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O";

test("stdio: 8 context packs in flight in the pool give one same pack; a cheap call sent after them answers first", async () => {
  const client = new LineClient(startServer());
  const pack = modern("tools/call", { name: "molecule_context_pack", arguments: { smiles: ATORVASTATIN } });
  await client.request(pack); // past every one-time table, wherever it is built
  const packs = Array.from({ length: 8 }, () =>
    client.request(
      modern("tools/call", { name: "molecule_context_pack", arguments: { smiles: ATORVASTATIN } }),
    ));
  const quick = await client.request(
    modern("tools/call", { name: "canonical_smiles", arguments: { smiles: "OCC" } }),
  );
  assert.equal(structured(quick).canonical_smiles, "CCO");
  const answers = await Promise.all(packs);
  const order = client.received.map((m) => m.id);
  for (const answer of answers) {
    assert.ok(order.indexOf(quick.id) < order.indexOf(answer.id), JSON.stringify(order));
    assert.equal(structured(answer).smiles, ATORVASTATIN);
    assert.deepEqual(structured(answer), structured(answers[0]!), "every worker computes the same pack");
  }
  assert.equal(await client.close(), 0);
  assert.deepEqual(client.garbage, []);
});

test("stdio, CHEM_MCP_WORKERS=1: a timed-out search retires the only worker; a pooled call then gets a fresh one", async () => {
  const client = new LineClient(startServer([], { CHEM_MCP_WORKERS: "1" }));
  const slow = client.request(
    modern("tools/call", {
      name: "smarts_match",
      arguments: { smiles: MOLECULE, smarts: RUNAWAY, timeout_seconds: 1 },
    }),
  );
  const pack = client.request(
    modern("tools/call", { name: "sa_score", arguments: { smiles: "CC(=O)Oc1ccccc1C(=O)O" } }),
  );
  assert.equal((structured(await slow).error as { code: string }).code, "COMPUTATION_TIMEOUT");
  const score = structured(await pack).sa_score as number;
  assert.ok(score > 1 && score < 3, `aspirin is easy to make: ${score}`);
  assert.equal(await client.close(), 0);
});

test("CHEM_MCP_WORKERS that is not a whole number from 1 to 256 exits 2 naming the variable", async () => {
  const finished = await collect(startServer([], { CHEM_MCP_WORKERS: "0" }), "");
  assert.equal(finished.code, 2);
  assert.match(
    finished.stderr,
    /CHEM_MCP_WORKERS must be a whole number of tool workers from 1 to 256, not '0'/,
  );
  assert.equal(finished.stdout, "");
});

/** This process's nice value: the server inherits it. */
const BASE_NICE = process.platform === "linux" ? getPriority() : 0;

test(
  "the protocol thread keeps its priority; the pool's threads run WORKER_NICE_STEP nice steps below it (Linux)",
  {
    skip: (process.platform !== "linux" && "nice values are per thread on Linux only") ||
      (BASE_NICE > 19 - WORKER_NICE_STEP &&
        `the tests run at nice ${BASE_NICE}, leaving no room for ${WORKER_NICE_STEP} steps below`),
  },
  async () => {
    // In its own process group, so a failed assertion still ends the server and anything a launcher started.
    const child = startServer([], { CHEM_MCP_WORKERS: "2" }, true);
    try {
      await assertPriorities(child, BASE_NICE);
    } finally {
      await stopGroup(child);
    }
  },
);

test("a server started at nice 15 keeps its pool below itself, at 19 (Linux)", {
  skip: (process.platform !== "linux" && "nice values are per thread on Linux only") ||
    (BASE_NICE > 15 && `the tests run at nice ${BASE_NICE}, above 15`),
}, async () => {
  const child = startServer([], { CHEM_MCP_WORKERS: "2" }, true);
  try {
    // Before the server (or a launcher's server, forked later) creates any worker: workers come after the
    // first answer, and the runtime's threads born before this are lowered with the workers.
    setPriority(child.pid!, 15);
    await assertPriorities(child, 15);
  } finally {
    await stopGroup(child);
  }
});

async function assertPriorities(child: ReturnType<typeof startServer>, protocolNice: number): Promise<void> {
  const poolNice = Math.min(19, protocolNice + WORKER_NICE_STEP);
  const client = new LineClient(child);
  const call = () =>
    client.request(modern("tools/call", { name: "parse_smiles", arguments: { smiles: "CCO" } }));
  await Promise.all([call(), call()]);
  // The warm-up of two workers takes hundreds of ms of CPU each: wait until it shows, at most 30 s.
  const lowered = () => treeThreads(child.pid!).filter((t) => t.nice === poolNice && t.cpuMs >= 100);
  for (let i = 0; i < 300 && lowered().length < 2; i++) await sleep(100);
  const threads = treeThreads(child.pid!);
  const worker = lowered()[0];
  assert.ok(
    worker && lowered().length >= 2,
    `no two busy threads at nice ${poolNice}: ${JSON.stringify(threads)}`,
  );
  // The server is the worker thread's process (Node), or the parent of a worker process (Deno); a launcher
  // such as npx may stand above it.
  const workerProcess = threads.find((t) => t.tid === worker.pid)!;
  const server = workerProcess.nice === poolNice ? workerProcess.ppid : worker.pid;
  assert.equal(threads.find((t) => t.tid === server)?.nice, protocolNice, "the protocol thread");
  // Every thread of a worker process, and every other thread of the server that did real work (the worker
  // threads and the compiler threads optimising RDKit for them).
  const pool = threads.filter((t) =>
    t.ppid === server || (t.pid === server && t.tid !== server && t.cpuMs >= 100)
  );
  assert.ok(pool.length >= 2, JSON.stringify(threads));
  assert.deepEqual(pool.filter((t) => t.nice !== poolNice), [], JSON.stringify(threads));
}
