// A busy machine is not an attack. With CPU-bound programs beside the server (two per core, at the server's own
// priority), a fresh server answers 100 honest calls sent at once over every tool, all with results, and a warm
// one 300 honest calls kept 16 in flight. Answers may be slower; none may be refused (SERVER_BUSY) or time out.
// Runs under Deno, Node, and (through CHEM_MCP_SERVER_CMD) the built artefacts; the figures of each run are
// printed, and bench/busy_machine_bench.ts repeats them in three trials per runtime for docs/benchmarks.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import process from "node:process";
import { IS_DENO, LineClient, startServer } from "../helpers/process.ts";
import { TOOL_EXAMPLES } from "../helpers/examples.ts";
import { startLookupStub } from "../helpers/lookup_stub.ts";
import { BACKGROUND_LOAD_ENV } from "../../scripts/load.ts";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Starts `count` programs that spin a core each until stopped. */
function startBurners(count: number): ChildProcess[] {
  const args = IS_DENO ? ["eval", "for (;;) {}"] : ["-e", "for (;;) {}"];
  return Array.from({ length: count }, () => spawn(process.execPath, args, { stdio: "ignore" }));
}

function stopBurners(burners: ChildProcess[]): Promise<unknown> {
  return Promise.all(burners.map((burner) =>
    new Promise((done) => {
      if (burner.exitCode !== null || burner.signalCode !== null) return done(undefined);
      burner.once("exit", done);
      burner.kill("SIGKILL");
    })
  ));
}

/** Every tool's example call, in turn, `count` calls in all. */
function honestCalls(count: number): { name: string; arguments: Record<string, unknown> }[] {
  const tools = Object.keys(TOOL_EXAMPLES).sort();
  return Array.from({ length: count }, (_, i) => {
    const name = tools[i % tools.length]!;
    return { name, arguments: TOOL_EXAMPLES[name]! };
  });
}

let nextId = 1;

/** What went wrong with an answer, or undefined when it is a result. */
function failure(answer: Record<string, unknown>): string | undefined {
  if (answer.error) return `JSON-RPC error ${JSON.stringify(answer.error)}`;
  const result = answer.result as {
    isError?: boolean;
    structuredContent?: { error?: { code?: string; message?: string } };
  };
  const error = result.structuredContent?.error;
  return result.isError ? (error ? `${error.code} (${error.message})` : JSON.stringify(result)) : undefined;
}

/** Sends `calls` with at most `inFlight` outstanding; resolves with the failures, by tool. */
async function send(
  client: LineClient,
  calls: { name: string; arguments: Record<string, unknown> }[],
  inFlight: number,
): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < calls.length) {
      const call = calls[next++]!;
      const answer = await client.request(
        { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { ...call, _meta: META } },
        300_000,
      );
      const why = failure(answer);
      if (why) failures.push(`${call.name}: ${why}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return failures;
}

/** A server over stdio with the lookup stub for name_to_smiles. */
async function startHonestServer(): Promise<{ client: LineClient; stderr: () => string }> {
  const child = startServer([], { CHEM_MCP_NAME_LOOKUP_URL: await startLookupStub() });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return { client: new LineClient(child), stderr: () => stderr };
}

const BURNERS = 2 * availableParallelism();
/**
 * CPU-bound programs this test starts: the test command's loaded stage runs it beside its own (scripts/load.ts),
 * and the busy machine asked for is two per core in all, not two more.
 */
const BACKGROUND = Number(process.env[BACKGROUND_LOAD_ENV] ?? 0);
const OWN_BURNERS = Math.max(0, BURNERS - BACKGROUND);

test(
  "beside 2 CPU-bound programs per core, a fresh server answers 100 calls at once with results, a warm one 300 calls 16 in flight",
  {
    timeout: 900_000,
  },
  async () => {
    const burners = startBurners(OWN_BURNERS);
    let server: Awaited<ReturnType<typeof startHonestServer>> | undefined;
    try {
      server = await startHonestServer();
      const started = performance.now();
      const canonical = [{ name: "canonical_smiles", arguments: TOOL_EXAMPLES.canonical_smiles! }];
      assert.deepEqual(await send(server.client, canonical, 1), [], "the first call");
      const first = performance.now() - started;
      const burst = performance.now();
      const fresh = await send(server.client, honestCalls(100), 100);
      const burstMs = performance.now() - burst;
      assert.deepEqual(
        fresh,
        [],
        `fresh server, 100 calls at once: ${fresh.length} failed\n${server.stderr()}`,
      );
      const warm = performance.now();
      const warmFailures = await send(server.client, honestCalls(300), 16);
      const warmMs = performance.now() - warm;
      assert.deepEqual(
        warmFailures,
        [],
        `warm server, 300 calls 16 in flight: ${warmFailures.length} failed`,
      );
      console.log(
        `${BACKGROUND + OWN_BURNERS} CPU-bound programs (${OWN_BURNERS} of them this test's): first answer ${
          first.toFixed(0)
        } ms, 100 at once ${burstMs.toFixed(0)} ms, ` +
          `300 16 in flight ${warmMs.toFixed(0)} ms`,
      );
    } finally {
      await server?.client.close();
      await stopBurners(burners);
    }
  },
);
