// `notifications/cancelled` sent to the real server process over stdio, in both dialects: a runaway search and a
// 1,000-molecule list are withdrawn, nothing answers them, and a pooled call on a one-worker server is answered
// within 1 s of the cancel (issue 24's bound) or, on a machine where the server itself took longer than that to
// start, within 1.5 times its start: a fresh worker loads RDKit as the server did; a cancel for a call already
// answered changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineClient, startServer } from "../helpers/process.ts";
import { initialize, modern, request } from "../helpers/protocol.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { RUNAWAY_MOLECULE, RUNAWAY_SMARTS } from "../data/runaway.ts";

type Dialect = "modern" | "legacy";

/** A one-worker server whose worker is up, spoken to in `dialect`, and the request maker for that dialect. */
async function oneWorkerServer(dialect: Dialect) {
  const starting = performance.now();
  const client = new LineClient(startServer([], { CHEM_MCP_WORKERS: "1" }));
  const call = (name: string, args: Record<string, unknown>) =>
    dialect === "modern"
      ? modern("tools/call", { name, arguments: args })
      : request("tools/call", { name, arguments: args });
  if (dialect === "legacy") {
    await client.request(initialize());
    client.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized", params: {} })}\n`);
  }
  // The worker starts after the first answer, and makes its warm-up calls after its first pooled answer, one
  // between any two calls; the bound is about the cancel, so wait until a pooled call no longer meets one.
  await client.request(call("canonical_smiles", { smiles: "C" }), 60_000);
  // The baseline of the cancel's bound, measured on this machine as it is now: start to first answer.
  const startMs = performance.now() - starting;
  await client.request(call("calc_properties", { smiles: "C" }), 60_000);
  for (let tries = 0; tries < 100; tries++) {
    const started = performance.now();
    await client.request(call("calc_properties", { smiles: "C" }), 60_000);
    if (performance.now() - started < 50) break;
  }
  return { client, call, startMs };
}

/** The molecular weight a calc_properties answer gives, in either dialect. */
function molecularWeight(reply: Record<string, unknown>): number {
  const result = reply.result as {
    structuredContent?: { molecular_weight: number };
    content: { text: string }[];
  };
  return (result.structuredContent ?? JSON.parse(result.content[0]!.text)).molecular_weight;
}

/**
 * Sends `running`, cancels it after `ms`, and checks that a pooled call is answered within 1 s of the cancel, or
 * 1.5 times the server's start where that is longer (a loaded machine), and that nothing ever answers the
 * cancelled id. Either bound is far below the 20 s a search that was not stopped would hold the worker.
 */
async function cancelThenCall(
  server: Awaited<ReturnType<typeof oneWorkerServer>>,
  running: Record<string, unknown>,
  ms: number,
): Promise<void> {
  const { client, call, startMs } = server;
  const boundMs = Math.max(1000, 1.5 * startMs);
  assert.ok(boundMs < 10_000, `the server took ${startMs.toFixed(0)} ms to start: too slow to tell a cancel`);
  client.write(`${JSON.stringify(running)}\n`);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: running.id } };
  client.write(`${JSON.stringify(cancel)}\n`);
  const started = performance.now();
  const next = await client.request(call("calc_properties", { smiles: "CCO" }));
  const latency = performance.now() - started;
  assert.equal(molecularWeight(next), 46.069);
  assert.ok(
    latency < boundMs,
    `pooled call answered ${latency.toFixed(0)} ms after the cancel (bound ${boundMs.toFixed(0)} ms, start ` +
      `${startMs.toFixed(0)} ms)`,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(
    client.received.filter((m) => m.id === running.id).length,
    0,
    "no answer for the cancelled id",
  );
}

for (const dialect of ["modern", "legacy"] as const) {
  test(`stdio, ${dialect}: a cancelled runaway search frees the one worker; a pooled call follows within 1 s`, async () => {
    const server = await oneWorkerServer(dialect);
    const search = server.call("smarts_match", {
      smiles: RUNAWAY_MOLECULE,
      smarts: RUNAWAY_SMARTS,
      timeout_seconds: 20,
    });
    await cancelThenCall(server, search, 500);
    // Nothing of the cancelled search may outlive it: not its worker, not its 21 s deadline, which once kept a
    // Node server alive after its stdin ended until the search's own limit.
    const closing = performance.now();
    assert.equal(await server.client.close(), 0);
    const exitMs = performance.now() - closing;
    assert.ok(exitMs < 5_000, `the server exited ${exitMs.toFixed(0)} ms after its stdin ended`);
  });
}

for (const dialect of ["modern", "legacy"] as const) {
  test(`stdio, ${dialect}: a cancelled 1,000-molecule list sends no answer; a pooled call follows within 1 s`, async () => {
    const server = await oneWorkerServer(dialect);
    const list = Array.from({ length: 1000 }, (_, i) => DRUGS50[i % DRUGS50.length]!.smiles);
    // calc_properties cannot run away: its chunk in flight (25 molecules, tens of ms) is let finish and its worker
    // kept, and no further chunk starts.
    await cancelThenCall(server, server.call("calc_properties", { smiles_list: list }), 500);
    assert.equal(await server.client.close(), 0);
  });
}

test("stdio: a cancel for a call already answered is ignored; the call keeps its one answer", async () => {
  const { client, call } = await oneWorkerServer("modern");
  const done = call("calc_properties", { smiles: "CCO" });
  await client.request(done);
  client.write(
    `${
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: done.id } })
    }\n`,
  );
  assert.equal(molecularWeight(await client.request(call("calc_properties", { smiles: "CCO" }))), 46.069);
  assert.equal(client.received.filter((m) => m.id === done.id).length, 1);
  assert.deepEqual(client.garbage, []);
  assert.equal(await client.close(), 0);
});
