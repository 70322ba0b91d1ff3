// The worker pool of src/tools/isolation.ts driven through fake workers that live in this thread: what runs in
// place, reuse, the deadline, errors crossing back, a worker dying, and the pool bound. Real workers in both
// runtimes are exercised end to end in tests/e2e/isolation_test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import {
  IsolatedRunner,
  type WorkerHandle,
  type WorkerReply,
  type WorkerRequest,
} from "../../src/tools/isolation.ts";
import { defineTool, type Tool } from "../../src/tools/tool.ts";
import { ChemError } from "../../src/errors.ts";

/** What the fake worker does with a call: answer after `ms`, throw, hang, or die. */
type Behaviour =
  | { ms: number; value: unknown }
  | { chem: string }
  | { fail: string }
  | { hang: true }
  | { die: string };

function fakeTool(name: string, isolated: boolean): Tool {
  return defineTool({
    name,
    title: name,
    description: name,
    input: v.object({ behaviour: v.any() }),
    output: v.object({}),
    ...(isolated ? { isolation: { deadlineMs: () => 100 } } : {}),
    run: () => ({ ranInPlace: true }),
  }) as unknown as Tool;
}

class FakeWorkers {
  spawned = 0;
  terminated = 0;
  running = 0;
  maxRunning = 0;

  spawn = (): WorkerHandle => {
    this.spawned++;
    let onMessage: (m: WorkerReply) => void = () => {};
    let onFailure: (reason: string) => void = () => {};
    let alive = true;
    let busy = false;
    const handle: WorkerHandle = {
      post: (message: WorkerRequest) => {
        if (message.kind === "init") {
          setTimeout(() => alive && onMessage({ kind: "ready" }), 1);
          return;
        }
        const behaviour = (message.args as { behaviour: Behaviour }).behaviour;
        this.running++;
        busy = true;
        this.maxRunning = Math.max(this.maxRunning, this.running);
        const done = (reply: () => void) => {
          if (!alive) return;
          this.running--;
          busy = false;
          reply();
        };
        if ("ms" in behaviour) {
          setTimeout(() => done(() => onMessage({ kind: "result", value: behaviour.value })), behaviour.ms);
        } else if ("chem" in behaviour) {
          setTimeout(
            () =>
              done(() =>
                onMessage({
                  kind: "chem_error",
                  code: "INVALID_SMARTS",
                  message: behaviour.chem,
                  details: { at: 3 },
                })
              ),
            1,
          );
        } else if ("fail" in behaviour) {
          setTimeout(() => done(() => onMessage({ kind: "failure", message: behaviour.fail })), 1);
        } else if ("die" in behaviour) setTimeout(() => done(() => onFailure(behaviour.die)), 1);
        // A hanging call never answers; terminate() is the only way out.
      },
      onMessage: (listener) => (onMessage = listener),
      onFailure: (listener) => (onFailure = listener),
      terminate: () => {
        if (alive) this.terminated++;
        if (busy) this.running--;
        alive = busy = false;
      },
      hold: () => {},
    };
    return handle;
  };
}

const wasm = {} as WebAssembly.Module; // never instantiated by fake workers
const inPlace = fakeTool("in_place", false);
const isolated = fakeTool("isolated", true);

test("a tool without isolation runs in place and starts no worker", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2 });
  assert.deepEqual(await runner.run(inPlace, { behaviour: null }), { ranInPlace: true });
  assert.equal(workers.spawned, 0);
});

test("an isolated tool runs in a worker, which is reused by the next call", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2 });
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { n: 1 } } }), { n: 1 });
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { n: 2 } } }), { n: 2 });
  assert.equal(workers.spawned, 1);
  runner.close();
  assert.equal(workers.terminated, 1);
});

test("a chemistry error in the worker comes back as the same ChemError", async () => {
  const runner = new IsolatedRunner({ spawn: new FakeWorkers().spawn, wasm, size: 1 });
  await assert.rejects(
    runner.run(isolated, { behaviour: { chem: "bad pattern" } }),
    (e) =>
      e instanceof ChemError && e.code === "INVALID_SMARTS" && e.message === "bad pattern" &&
      e.details?.at === 3,
  );
});

test("past the deadline the worker is terminated, the call gets COMPUTATION_TIMEOUT, and the next call works", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  await assert.rejects(
    runner.run(isolated, { behaviour: { hang: true } }),
    (e) => e instanceof ChemError && e.code === "COMPUTATION_TIMEOUT" && e.details?.limit_ms === 100,
  );
  assert.equal(workers.terminated, 1);
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { after: true } } }), {
    after: true,
  });
  assert.equal(workers.spawned, 2);
});

test("a worker that dies mid-call fails that call only; a fresh worker serves the next", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  await assert.rejects(
    runner.run(isolated, { behaviour: { die: "RuntimeError: unreachable" } }),
    (e) => e instanceof Error && !(e instanceof ChemError) && /unreachable/.test(e.message),
  );
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { ok: 1 } } }), { ok: 1 });
  assert.equal(workers.spawned, 2);
});

test("an exception in the worker fails the call and retires the worker (its RDKit may be broken)", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  await assert.rejects(
    runner.run(isolated, { behaviour: { fail: "RuntimeError: unreachable at get_smiles" } }),
    (e) =>
      e instanceof Error && !(e instanceof ChemError) && /threw in its worker: RuntimeError/.test(e.message),
  );
  assert.equal(workers.terminated, 1);
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { ok: 2 } } }), { ok: 2 });
  assert.equal(workers.spawned, 2);
});

test("never more workers than the pool size; waiting calls get the next free one, also after a timeout", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2 });
  const calls = [
    runner.run(isolated, { behaviour: { hang: true } }),
    runner.run(isolated, { behaviour: { ms: 60, value: 1 } }),
    runner.run(isolated, { behaviour: { ms: 60, value: 2 } }),
    runner.run(isolated, { behaviour: { ms: 60, value: 3 } }),
  ];
  const settled = await Promise.allSettled(calls);
  assert.equal(settled[0]!.status, "rejected");
  assert.deepEqual(settled.slice(1).map((s) => s.status === "fulfilled" && s.value), [1, 2, 3]);
  assert.ok(workers.maxRunning <= 2, `at most 2 at once, saw ${workers.maxRunning}`);
  assert.equal(workers.spawned, 3, "two at first, one to replace the timed-out worker");
});
