/**
 * The sample web app under the cost attacks, against its real process (src/runtime/webapp_deno.ts under Deno,
 * dist/src/runtime/webapp_node.js under Node) with two tool workers, the fewest it runs: its chemistry runs in
 * tool workers, so a costly POST /descriptors does not stop a second client; searches of 10,000 molecules take
 * one worker at most, the rest wait briefly or get 503, so /descriptors is answered well within a search's time
 * (no honest call waits for a search: its median is under a quarter of the searches', whatever the load); a dense
 * dummy-atom graph is refused from its text; and requests a DNS-rebinding or cross-site page could send (a
 * non-loopback Host on a loopback bind, a foreign Origin) are 403.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { startWebApp, type WebAppServer } from "../webapp/webapp_process.ts";
import { DENSE_PARSE_ATTACK, denseGraph } from "../data/costly.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { isLight, textCost } from "../../src/chem/cost.ts";

let server: WebAppServer;
before(async () => {
  // Two workers whatever the machine: the pool size where costly work leaves the fewest workers free.
  server = await startWebApp(["--port", "0"], 60_000, { CHEM_MCP_WORKERS: "2" });
});
after(async () => await server?.stop());

/** POSTs JSON with the given extra headers (Host included, which fetch cannot set); resolves status and body. */
function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; retryAfter?: string }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: server.port,
      path,
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers },
    }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        const retryAfter = res.headers["retry-after"];
        resolve({ status: res.statusCode ?? 0, body: text, ...(retryAfter ? { retryAfter } : {}) });
      });
    });
    req.on("error", reject);
    req.end(data);
  });
}

/**
 * An honest descriptors call; asserts it is ethanol's answer and resolves its time in ms. The 30 s bound only
 * catches a lost answer: how fast it is, on a machine as busy as the test's, is judged against the searches'.
 */
async function honest(): Promise<number> {
  const started = performance.now();
  const answer = await postJson("/descriptors", { smiles: "CCO" });
  const elapsed = performance.now() - started;
  assert.equal(answer.status, 200, answer.body);
  assert.equal((JSON.parse(answer.body) as { mw: number }).mw, 46.069);
  assert.ok(elapsed < 30_000, `honest call took ${Math.round(elapsed)} ms`);
  return elapsed;
}

/** 10,000 light drug SMILES (the drug set, light ones only, over and over): seconds of fingerprints. */
const LIGHT_LIBRARY = (() => {
  const light = DRUGS50.map((d) => d.smiles).filter((smiles) => isLight(textCost(smiles)));
  return Array.from({ length: 10_000 }, (_, i) => light[i % light.length]!);
})();

/** The median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

test("webapp cost: four searches of 10,000 molecules, sent again as each ends, do not hold up /descriptors", async () => {
  const aspirin = DRUGS50.find((d) => d.name === "aspirin")!.smiles;
  const search = { query: aspirin, library: LIGHT_LIBRARY, threshold: 0.9 };
  const answers: { status: number; body: string; retryAfter?: string; ms: number }[] = [];
  let attacking = true;
  const attacker = async () => {
    while (attacking) {
      const started = performance.now();
      const answer = await postJson("/similarity", search);
      answers.push({ ...answer, ms: performance.now() - started });
    }
  };
  // The pool is up, and first in the file no worker is being replaced after an earlier test's large molecule (a
  // replacement's start takes seconds on a busy machine and is not what this test measures).
  assert.equal((await postJson("/descriptors", { smiles: "CCO" })).status, 200);
  const attack = Promise.all([attacker(), attacker(), attacker(), attacker()]);
  const honestMs: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < 6; i++) {
      honestMs.push(await honest());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    attacking = false;
    await attack;
  }
  const served = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 503);
  // A search past 30 s (a machine busy with other work) is stopped: 422, also an admitted search's answer.
  const stopped = answers.filter((a) => a.status === 422);
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  const statuses = [...counts].map(([status, n]) => `${n} × ${status}`).join(", ");
  assert.equal(served.length + refused.length + stopped.length, answers.length, statuses);
  assert.ok(served.length + stopped.length >= 1, `searches are still admitted, one at a time: ${statuses}`);
  assert.ok(refused.length >= 1, "searches past the places are refused");
  // Both figures scale with the machine's load; an honest call queued behind a search would take about as long.
  const searchMs = median([...served, ...stopped].map((a) => a.ms));
  assert.ok(
    median(honestMs) < searchMs / 4,
    `honest calls ${honestMs.map(Math.round).join(", ")} ms against searches' median ${
      Math.round(searchMs)
    } ms`,
  );
  // Aspirin is in the drug set: every copy of it is a hit with score 1.
  for (const answer of served) {
    const hits = JSON.parse(answer.body) as { smiles: string; score: number }[];
    const copies = LIGHT_LIBRARY.filter((smiles) => smiles === aspirin).length;
    assert.equal(hits.filter((hit) => hit.smiles === aspirin && hit.score === 1).length, copies);
  }
  for (const answer of refused) {
    assert.equal(answer.retryAfter, "4");
    const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "SERVER_BUSY");
    assert.match(error.message, /Retry in 4 s/);
  }
});

test("webapp cost: a costly POST /descriptors does not stop a second client", async () => {
  // The pool is up (its start is the cold-start suites' subject, not this one's).
  assert.equal((await postJson("/descriptors", { smiles: "CCO" })).status, 200);
  // 500 atoms of at most four neighbours, 178 ring closures: accepted (ring density 63), seconds of descriptors.
  const costly = postJson("/descriptors", { smiles: denseGraph(500, 178, "*", 1, 4) });
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (let i = 0; i < 3; i++) await honest();
  const answer = await costly;
  assert.ok([200, 422].includes(answer.status), answer.body);
});

test("webapp cost: a dense dummy-atom graph is refused at once, naming the limit", async () => {
  const answer = await postJson("/descriptors", { smiles: DENSE_PARSE_ATTACK });
  assert.equal(answer.status, 400);
  const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
  assert.equal(error.code, "MOLECULE_TOO_LARGE");
  assert.match(error.message, /neighbours beyond four/);
  await honest();
});

test("webapp cost: a JSON document is not a SMILES", async () => {
  const answer = await postJson("/descriptors", { smiles: '{"commonchem":{"version":10}}' });
  assert.equal(answer.status, 400);
  assert.match(answer.body, /INVALID_SMILES/);
});

test("webapp host: a non-loopback Host on the loopback bind and a foreign Origin are 403", async () => {
  for (const host of ["attacker.example", "attacker.example:8080", "192.168.1.10"]) {
    const answer = await postJson("/descriptors", { smiles: "CCO" }, { host });
    assert.equal(answer.status, 403, host);
    assert.match(answer.body, /FORBIDDEN/);
  }
  const foreign = await postJson("/descriptors", { smiles: "CCO" }, { origin: "http://attacker.example" });
  assert.equal(foreign.status, 403);
  for (const host of ["localhost", `127.0.0.1:${server.port}`, "[::1]"]) {
    assert.equal((await postJson("/descriptors", { smiles: "CCO" }, { host })).status, 200, host);
  }
  const own = await postJson("/descriptors", { smiles: "CCO" }, {
    origin: `http://127.0.0.1:${server.port}`,
  });
  assert.equal(own.status, 200);
});
