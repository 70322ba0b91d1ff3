// The pool's rules (src/pool/) proven on a model clock with fake workers: no real time passes and nothing
// sleeps, so each rule is checked at its exact time, and the file passes the same way on a busy machine.
// Queue deadline, the stall and CPU-time rules, spares and the one-worker standby, trimming, retirement and
// replacement, and the worker slot's states.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IsolatedRunner } from "../../src/pool/runner.ts";
import {
  BOUNDED_SPARE_AFTER_MS,
  QUEUE_DEADLINE_MS,
  SPARE_AFTER_MS,
  SPARE_LINGER_MS,
  STALL_CPU_MS,
} from "../../src/pool/policy.ts";
import { WorkerSlot } from "../../src/pool/slot.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { ANSWER_WITHIN_MS, MAX_QUEUE_WAIT_MS, type Placement } from "../../src/tools/placement.ts";
import { CancelledError, ChemError } from "../../src/errors.ts";
import { type Behaviour, fakeTool, ModelClock, ModelWorkers } from "../helpers/model_clock.ts";

const wasm = {} as WebAssembly.Module;

const fake = (name: string, placement: Placement): Tool => fakeTool(name, placement);

/** A pooled tool without a limit of its own (bounded calls). */
const BOUNDED = fake("bounded", { where: "pool" });
/** A tool with a time limit of its own: its calls are possibly long. */
const SEARCH = fake("search", { where: "pool", deadlineMs: () => 20_000 });
/** Chunks of a list of a tool that may run long. */
const CHUNK = fake("search:items", { where: "pool", chunkOf: "search", deadlineMs: () => 20_000 });

/** A call's outcome as the test sees it, without awaiting it. */
interface Watched {
  settled: boolean;
  value?: unknown;
  error?: unknown;
}

function watch(promise: Promise<unknown>): Watched {
  const watched: Watched = { settled: false };
  promise.then(
    (value) => Object.assign(watched, { settled: true, value }),
    (error) => Object.assign(watched, { settled: true, error }),
  );
  return watched;
}

function pool(size: number, startMs = 100) {
  const clock = new ModelClock();
  const workers = new ModelWorkers(clock, startMs);
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size, clock });
  const call = (tool: Tool, behaviour: Behaviour) => watch(runner.run(tool, { behaviour }));
  return { clock, workers, runner, call };
}

const HANG: Behaviour = { hang: true };
const isBusy = (w: Watched) => w.error instanceof ChemError && w.error.code === "SERVER_BUSY";

test("a search behind a runaway search is answered SERVER_BUSY exactly at the queue deadline", async () => {
  const { clock, runner, call } = pool(2);
  const runaway = call(SEARCH, HANG);
  await clock.advance(200); // the worker has started and the runaway runs
  const waiting = call(SEARCH, { ms: 10, value: 1 });
  await clock.advance(QUEUE_DEADLINE_MS - 1);
  assert.equal(waiting.settled, false, "not a moment early");
  await clock.advance(1);
  assert.ok(isBusy(waiting), "refused at the deadline");
  assert.match((waiting.error as Error).message, /searches that may run to their time limit may hold 1 of 2/);
  assert.equal(runaway.settled, false);
  runner.close();
});

test("a queue that moves is honest load: 8 calls of 3 s on one worker all end, none refused", async () => {
  const { clock, call } = pool(1);
  const calls = Array.from({ length: 8 }, (_, n) => call(BOUNDED, { ms: 3_000, value: n }));
  await clock.advance(8 * 3_000 + 200);
  assert.deepEqual(calls.map((c) => c.value), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test("the CPU rule: a search that has done little work is slow, not stuck, until it has done STALL_CPU_MS", async () => {
  const { clock, workers, runner, call } = pool(2);
  workers.cpuShare = 0.1; // a busy machine: a tenth of a core
  call(SEARCH, HANG);
  await clock.advance(100);
  const waiting = call(SEARCH, { ms: 10, value: 1 });
  // CPU reaches STALL_CPU_MS after 10 s of wall time; the queue deadline counts from then.
  await clock.advance(STALL_CPU_MS * 10 - 200);
  assert.equal(waiting.settled, false, "not refused while the holder has done little work");
  await clock.advance(200 + QUEUE_DEADLINE_MS + 200);
  assert.ok(isBusy(waiting));
  runner.close();
});

test("an honest bounded call beside runaway searches takes the worker they may not: answered in its own time", async () => {
  const { clock, runner, call } = pool(2);
  runner.start();
  await clock.advance(200);
  const attacks = [1, 2, 3].map(() => call(SEARCH, HANG));
  await clock.advance(500);
  const honest = call(BOUNDED, { ms: 20, value: "honest" });
  await clock.advance(20);
  assert.equal(honest.value, "honest");
  await clock.advance(QUEUE_DEADLINE_MS);
  assert.equal(attacks.filter(isBusy).length, 2, "the attacks beyond the searches' share are refused");
  runner.close();
});

test("when long chunks hold every worker past SPARE_AFTER_MS, one spare starts for the bounded call waiting", async () => {
  const { clock, workers, runner, call } = pool(2);
  runner.start();
  await clock.advance(200);
  [1, 2].map(() => call(CHUNK, HANG));
  await clock.advance(10);
  const bounded = call(BOUNDED, { ms: 5, value: 3 });
  await clock.advance(SPARE_AFTER_MS - 20);
  assert.equal(workers.spawned, 2, "no spare before the chunks have held their workers SPARE_AFTER_MS");
  await clock.advance(20);
  assert.equal(workers.spawned, 3, "one spare");
  await clock.advance(100 + 5);
  assert.equal(bounded.value, 3, "answered once the spare has started");
  runner.close();
});

test("a bounded call running past BOUNDED_SPARE_AFTER_MS counts as long: a spare starts for the call behind it", async () => {
  const { clock, workers, runner, call } = pool(1);
  call(BOUNDED, HANG); // begins once its worker has started, at 100 ms
  await clock.advance(200);
  const next = call(BOUNDED, { ms: 5, value: "next" });
  await clock.advance(BOUNDED_SPARE_AFTER_MS - 110);
  assert.equal(workers.spawned, 1);
  await clock.advance(10);
  assert.equal(workers.spawned, 2, "the spare starts at the threshold");
  await clock.advance(100 + 5);
  assert.equal(next.value, "next");
  runner.close();
});

test("with one worker a search gets a standby at once; sequential searches start no more and retire none", async () => {
  const { clock, workers, runner, call } = pool(1);
  runner.start();
  await clock.advance(200);
  for (let n = 0; n < 4; n++) {
    const search = call(SEARCH, { ms: 50, value: n });
    await clock.advance(60);
    assert.equal(search.value, n);
  }
  assert.equal(workers.spawned, 2, "one standby");
  assert.equal(workers.terminated, 0);
  // The standby stays SPARE_LINGER_MS after it was last needed, then is trimmed.
  await clock.advance(SPARE_LINGER_MS + 100);
  assert.equal(workers.terminated, 1, "trimmed once no longer needed");
  runner.close();
});

test("a call past its deadline gets COMPUTATION_TIMEOUT at the deadline; a started pool replaces the worker", async () => {
  const { clock, workers, runner, call } = pool(1);
  runner.start();
  await clock.advance(200);
  const search = call(SEARCH, HANG);
  await clock.advance(20_000 - 1);
  assert.equal(search.settled, false);
  await clock.advance(1);
  assert.equal((search.error as ChemError).code, "COMPUTATION_TIMEOUT");
  assert.equal(workers.terminated, 1);
  assert.equal(workers.spawned, 2, "replaced at once");
  await clock.advance(200);
  const next = call(BOUNDED, { ms: 1, value: "ok" });
  await clock.advance(1);
  assert.equal(next.value, "ok", "the replacement is warm for the next call");
  runner.close();
});

test("a worker that built a very large molecule is retired after its call, and an RDKit trap too", async () => {
  const { clock, workers, runner, call } = pool(1);
  const big = call(BOUNDED, { ms: 1, value: 1, retire: true });
  await clock.advance(200);
  assert.equal(big.value, 1);
  assert.equal(workers.terminated, 1);
  const trap = call(BOUNDED, { fail: "RuntimeError: unreachable" });
  await clock.advance(200);
  assert.equal((trap.error as ChemError).code, "UNSUPPORTED_MOLECULE");
  assert.equal(workers.terminated, 2);
  runner.close();
});

test("a typed error keeps the worker", async () => {
  const { clock, workers, runner, call } = pool(1);
  const bad = call(BOUNDED, { chem: "INVALID_REACTION" });
  await clock.advance(200);
  assert.equal((bad.error as ChemError).code, "INVALID_REACTION");
  assert.equal(workers.terminated, 0);
  runner.close();
});

test("a worker that never starts is stopped at the start limit; the call tries another, then gets SERVER_BUSY", async () => {
  const clock = new ModelClock();
  const workers = new ModelWorkers(clock, 1e9);
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1, clock, startupMs: 1_000 });
  const call = watch(runner.run(BOUNDED, { behaviour: { ms: 1, value: 1 } }));
  await clock.advance(1_999);
  assert.equal(call.settled, false);
  await clock.advance(2);
  assert.ok(isBusy(call));
  assert.match((call.error as Error).message, /could not start/);
  assert.equal(workers.spawned, 2);
});

test("a worker slot moves through its states in order, and refuses a transition out of order", () => {
  const clock = new ModelClock();
  const workers = new ModelWorkers(clock, 0);
  const slot = new WorkerSlot(clock, 1_000, () => {});
  assert.equal(slot.state, "queued");
  slot.start(workers.spawn, wasm);
  assert.equal(slot.state, "starting");
  slot.retire();
  assert.equal(slot.state, "retired");
  assert.equal(slot.dead, true);
  slot.retire(); // once retired, stays so
  assert.equal(slot.state, "retired");
  // A worker that reports warm before ready breaks the protocol: the slot refuses it rather than guess.
  let send: (message: { kind: "warm" }) => void = () => {};
  const early = new WorkerSlot(clock, 1_000, () => {});
  early.start(() => ({
    post: () => {},
    onMessage: (listener) => (send = listener),
    onFailure: () => {},
    terminate: () => {},
    hold: () => {},
  }), wasm);
  assert.throws(() => send({ kind: "warm" }), /starting → warm/);
  early.retire();
});

test("a search whose share is full is refused at the queue deadline, whatever else starts meanwhile", async () => {
  const { clock, workers, runner, call } = pool(2);
  call(SEARCH, HANG);
  await clock.advance(200);
  workers.startMs = 10_000; // the second worker starts slowly: it cannot help a search
  runner.start();
  const second = call(SEARCH, { ms: 1, value: 1 });
  await clock.advance(QUEUE_DEADLINE_MS);
  assert.ok(isBusy(second));
  assert.match((second.error as Error).message, /1 is running \(search\)/);
  runner.close();
});

test("a worker that is starting is not busy: calls wait for it past the queue deadline", async () => {
  const { clock, workers, runner, call } = pool(1, QUEUE_DEADLINE_MS * 3);
  const calls = [1, 2, 3, 4].map((n) => call(BOUNDED, { ms: 1, value: n }));
  await clock.advance(QUEUE_DEADLINE_MS * 3 + 10);
  assert.deepEqual(calls.map((c) => c.value), [1, 2, 3, 4], "no call refused while the worker starts");
  assert.equal(workers.spawned, 1);
  runner.close();
});

test("with one worker, a bounded call does not wait for the search holding it: the standby answers it", async () => {
  const { clock, workers, runner, call } = pool(1);
  runner.start();
  await clock.advance(200);
  const search = call(SEARCH, HANG);
  await clock.advance(1);
  assert.equal(workers.spawned, 2, "the standby starts beside the search at once");
  await clock.advance(100);
  const bounded = call(BOUNDED, { ms: 5, value: 3 });
  await clock.advance(5);
  assert.equal(bounded.value, 3);
  assert.equal(search.settled, false);
  runner.close();
});

test("a cancelled bounded call is answered at once and finishes in its worker, which stays; a long one is withdrawn", async () => {
  const { clock, workers, runner } = pool(1);
  runner.start();
  await clock.advance(200);
  const cancel = new AbortController();
  const bounded = watch(runner.run(BOUNDED, { behaviour: { ms: 60, value: 1 } }, cancel.signal));
  await clock.advance(20);
  cancel.abort();
  await clock.settle();
  assert.ok(bounded.error instanceof CancelledError, "at once");
  const next = watch(runner.run(BOUNDED, { behaviour: { ms: 1, value: 2 } }));
  await clock.advance(39);
  assert.equal(next.settled, false, "the next call waits for the cancelled one to finish");
  await clock.advance(2);
  assert.equal(next.value, 2);
  assert.equal(workers.terminated, 0);
  const stop = new AbortController();
  const search = watch(runner.run(SEARCH, { behaviour: HANG }, stop.signal));
  await clock.advance(10);
  stop.abort();
  await clock.settle();
  assert.ok(search.error instanceof CancelledError);
  assert.equal(workers.terminated, 1, "a long call is withdrawn with its worker");
  runner.close();
});

test("every call is answered within 55 s: a queue that moves is left at MAX_QUEUE_WAIT_MS, and the wait caps the limit", async () => {
  const { clock, workers, runner, call } = pool(1);
  workers.cpuShare = 0.01; // a busy machine: the calls are slow, not stuck, so no stall is called
  runner.start();
  await clock.advance(200);
  // Twenty calls of 2.9 s (below the spare threshold) behind one worker: the two still waiting at
  // MAX_QUEUE_WAIT_MS are told to come back.
  const calls = Array.from({ length: 20 }, (_, n) => call(BOUNDED, { ms: 2_900, value: n }));
  await clock.advance(MAX_QUEUE_WAIT_MS - 1);
  assert.equal(calls.filter(isBusy).length, 0);
  await clock.advance(1);
  assert.equal(calls.filter(isBusy).length, 2, "the last two, still waiting, are refused");
  assert.match((calls[19]!.error as Error).message, new RegExp(`within ${MAX_QUEUE_WAIT_MS / 1000} s`));
  await clock.advance(10_000);
  assert.deepEqual(calls.slice(0, 18).map((c) => c.value), Array.from({ length: 18 }, (_, n) => n));
  // A search with a limit of 50 s of its own, behind a call of 20 s: it computes at most 55 − 20 s.
  const LONG = fake("long", { where: "pool", deadlineMs: () => 50_000 });
  call(BOUNDED, { ms: 20_000, value: "first" });
  await clock.advance(1);
  const long = call(LONG, HANG);
  await clock.advance(20_000 + 35_000 - 2);
  assert.equal(long.settled, false);
  await clock.advance(2);
  assert.equal((long.error as ChemError).code, "COMPUTATION_TIMEOUT");
  assert.equal((long.error as ChemError).details?.limit_ms, ANSWER_WITHIN_MS - 20_000 + 1);
  runner.close();
});

test("a worker whose memory grew past twice its warm size and the slack is retired after its call and replaced", async () => {
  const { clock, workers, runner, call } = pool(1);
  workers.warmHeap = 100 * 2 ** 20;
  runner.start();
  await clock.advance(200);
  const small = call(BOUNDED, { ms: 5, value: 1, heap: 230 * 2 ** 20 });
  await clock.advance(5);
  assert.equal(small.value, 1);
  assert.equal(workers.terminated, 0, "kept within twice its warm size and HEAP_SLACK_BYTES");
  const picture = call(BOUNDED, { ms: 5, value: 2, heap: 233 * 2 ** 20 });
  await clock.advance(5);
  assert.equal(picture.value, 2, "the call is answered");
  assert.equal(workers.terminated, 1, "then its worker is retired");
  assert.equal(workers.spawned, 2, "and replaced while idle");
  runner.close();
});

test("never more workers than the pool size; waiting calls get the next free one, also after a timeout", async () => {
  const clock = new ModelClock();
  const workers = new ModelWorkers(clock, 10);
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2, clock, pooledDeadlineMs: 100 });
  let most = 0;
  const calls = [HANG, ...[1, 2, 3].map((value) => ({ ms: 60, value }))].map((behaviour) =>
    watch(runner.run(BOUNDED, { behaviour }))
  );
  for (let t = 0; t < 400; t += 5) {
    await clock.advance(5);
    most = Math.max(most, workers.running);
  }
  assert.equal((calls[0]!.error as ChemError).code, "COMPUTATION_TIMEOUT");
  assert.deepEqual(calls.slice(1).map((c) => c.value), [1, 2, 3]);
  assert.ok(most <= 2, `at most 2 at once, saw ${most}`);
  assert.equal(workers.spawned, 3, "two at first, one to replace the timed-out worker");
});

test("the spare goes to the bounded call waiting, not to a long call that came first", async () => {
  const { clock, workers, runner, call } = pool(2);
  runner.start();
  await clock.advance(200);
  [1, 2].map(() => call(CHUNK, HANG));
  await clock.advance(10);
  const thirdChunk = call(CHUNK, HANG); // waits first
  const bounded = call(BOUNDED, { ms: 5, value: "honest" });
  await clock.advance(SPARE_AFTER_MS + 100 + 5);
  assert.equal(workers.spawned, 3, "one spare");
  assert.equal(bounded.value, "honest", "the bounded call took the spare");
  assert.equal(thirdChunk.settled, false, "the long call still waits for a worker of the pool");
  runner.close();
});
