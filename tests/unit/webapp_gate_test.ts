/**
 * The web app's limit on costly computations (src/webapp/gate.ts) on a model clock: which computations are
 * costly, how many run and wait, the wait's deadline to the millisecond, a visitor leaving while waiting, and the
 * HTTP answers the app gives for each (503 SERVER_BUSY with Retry-After, no signal handed to a costly job).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CancelledError, ChemError } from "../../src/errors.ts";
import { COSTLY_WAIT_MS, CostlyGate } from "../../src/webapp/gate.ts";
import { LIGHT_LIST_ENTRIES, webAppJobCost } from "../../src/tools/webapp_jobs.ts";
import { costlyPlaces, gatedCompute } from "../../src/webapp/jobs.ts";
import { type ComputeJob, createWebApp } from "../../src/webapp/handler.ts";
import { ModelClock } from "../helpers/model_clock.ts";

/** A job that ends when the test says, and the record of its settling. */
function pending(): { job: () => Promise<string>; finish: (value: string) => void; started: () => boolean } {
  let finish!: (value: string) => void;
  let started = false;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return {
    job: () => {
      started = true;
      return done;
    },
    finish: (value) => finish(value),
    started: () => started,
  };
}

/** The outcome of `promise` once settled: its value or its error. */
function outcome<T>(promise: Promise<T>): { value?: T; error?: unknown; settled: boolean } {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then((value) => Object.assign(state, { value, settled: true }))
    .catch((error: unknown) => Object.assign(state, { error, settled: true }));
  return state;
}

test("webapp gate: a list over 256 entries or 5,000 atoms, or a molecule past the light limits, is costly", () => {
  const list = (n: number, smiles = "c1ccccc1") => ({
    smiles: "CCO",
    smiles_list: Array<string>(n).fill(smiles),
  });
  const costly = (args: Record<string, unknown>) => webAppJobCost(args) === "costly";
  assert.equal(LIGHT_LIST_ENTRIES, 256);
  assert.equal(costly(list(256)), false);
  assert.equal(costly(list(257)), true);
  assert.equal(costly({ smiles_list: Array<string>(10_000).fill("C") }), true);
  // 200 molecules of 27 heavy atoms: 5,400 atoms, past the cost model's 5,000 in all.
  assert.equal(costly(list(200, "CC(C)Cc1ccc(cc1)C(C)C(=O)OCCN(C)Cc1ccccc1")), true);
  assert.equal(costly({ smiles: "CC(=O)Oc1ccccc1C(=O)O" }), false);
  // 151 atoms: past the cost model's 150 light atoms.
  assert.equal(costly({ smiles: "C".repeat(151) }), true);
  assert.equal(costly({ smiles_list: ["CCO", "C".repeat(151)] }), true);
  assert.deepEqual(costlyPlaces(2), { running: 1, waiting: 2, waitMs: 4_000 });
  assert.deepEqual(costlyPlaces(8), { running: 7, waiting: 14, waitMs: 4_000 });
});

test("webapp gate: one runs, two wait in order, the fourth is refused at once", async () => {
  const clock = new ModelClock();
  const gate = new CostlyGate({ running: 1, waiting: 2, waitMs: COSTLY_WAIT_MS, clock });
  const [a, b, c, d] = [pending(), pending(), pending(), pending()];
  const first = outcome(gate.run(a.job));
  const second = outcome(gate.run(b.job));
  const third = outcome(gate.run(c.job));
  const fourth = outcome(gate.run(d.job));
  await clock.settle();
  assert.deepEqual([a.started(), b.started(), c.started(), d.started()], [true, false, false, false]);
  assert.equal(fourth.settled, true);
  assert.ok(fourth.error instanceof ChemError && fourth.error.code === "SERVER_BUSY");
  assert.match((fourth.error as ChemError).message, /no place to wait is left\. Retry in 4 s/);
  assert.deepEqual([gate.running, gate.waiting], [1, 2]);
  a.finish("a");
  await clock.advance(1_000);
  assert.equal(first.value, "a");
  assert.deepEqual([b.started(), c.started()], [true, false], "the first waiting is admitted first");
  b.finish("b");
  await clock.advance(1_000);
  assert.deepEqual([second.value, c.started()], ["b", true]);
  c.finish("c");
  await clock.settle();
  assert.equal(third.value, "c");
  assert.deepEqual([gate.running, gate.waiting], [0, 0]);
});

test("webapp gate: a computation waits 4 s to the millisecond, then SERVER_BUSY; its place in line is freed", async () => {
  const clock = new ModelClock();
  const gate = new CostlyGate({ running: 1, waiting: 1, waitMs: COSTLY_WAIT_MS, clock });
  const holder = pending();
  void gate.run(holder.job);
  const waiter = pending();
  const waiting = outcome(gate.run(waiter.job));
  await clock.advance(COSTLY_WAIT_MS - 1);
  assert.equal(waiting.settled, false);
  await clock.advance(1);
  assert.ok(waiting.error instanceof ChemError && waiting.error.code === "SERVER_BUSY");
  assert.match((waiting.error as ChemError).message, /none came free within 4 s/);
  assert.equal(waiter.started(), false);
  assert.equal(gate.waiting, 0);
  // The line has room again.
  const next = pending();
  void gate.run(next.job);
  holder.finish("done");
  await clock.settle();
  assert.equal(next.started(), true);
});

test("webapp gate: a visitor who leaves while waiting is withdrawn from the line (CancelledError)", async () => {
  const clock = new ModelClock();
  const gate = new CostlyGate({ running: 1, waiting: 2, waitMs: COSTLY_WAIT_MS, clock });
  const holder = pending();
  void gate.run(holder.job);
  const leaving = new AbortController();
  const left = pending();
  const waiting = outcome(gate.run(left.job, leaving.signal));
  await clock.settle();
  leaving.abort();
  await clock.settle();
  assert.ok(waiting.error instanceof CancelledError);
  assert.equal(gate.waiting, 0);
  const gone = new AbortController();
  gone.abort();
  const already = outcome(gate.run(pending().job, gone.signal));
  await clock.settle();
  assert.ok(already.error instanceof CancelledError, "a request already gone never joins the line");
  holder.finish("done");
  await clock.settle();
  const late = pending();
  assert.ok(
    await gate.run(late.job, gone.signal).then(() => false, (error) => error instanceof CancelledError),
    "nor takes a free place",
  );
  assert.equal(late.started(), false);
  assert.equal(left.started(), false);
  assert.equal(gate.running, 0);
});

test("webapp gate: through the app, a costly request past the places is 503 SERVER_BUSY with Retry-After: 4", async () => {
  const clock = new ModelClock();
  const signals: (AbortSignal | undefined)[] = [];
  const holder = pending();
  const compute: ComputeJob = (_job, args, signal) => {
    signals.push(signal);
    return Array.isArray(args.smiles_list) ? holder.job() : Promise.resolve({ mw: 46.069 });
  };
  const gate = new CostlyGate({ running: 1, waiting: 0, waitMs: COSTLY_WAIT_MS, clock });
  const app = createWebApp({ compute: gatedCompute(compute, gate) });
  const post = (path: string, body: unknown) =>
    app(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  const search = { query: "CCO", library: Array<string>(1_000).fill("CCO"), threshold: 0.5 };
  const first = post("/similarity", search);
  await clock.settle();
  const refused = await post("/similarity", search);
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "4");
  const error = (await refused.json() as { error: { code: string; message: string } }).error;
  assert.equal(error.code, "SERVER_BUSY");
  assert.match(error.message, /1 large computation is running/);
  // A light request is not held back by the costly one still running.
  const light = await post("/descriptors", { smiles: "CCO" });
  assert.equal(light.status, 200);
  holder.finish("[]");
  assert.equal((await first).status, 200);
  // The costly job was not handed the visitor's signal (it keeps its place until its worker is done); the light
  // one was.
  assert.deepEqual(signals.map((s) => s !== undefined), [false, true]);
});
