// The worker pool of src/pool/runner.ts driven through fake workers that live in this thread: what runs in
// place, reuse, the deadline, errors crossing back, a worker dying, the pool bound, starting and refilling the
// pool, the worker's warm-up and the pool size option. The timed rules (queue deadline, stalls, CPU time,
// spares, standby, trimming, cancels) are proven on a model clock in tests/unit/pool_clock_test.ts. Real workers
// in both runtimes are exercised end to end in tests/e2e/isolation_test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { readFileSync } from "node:fs";
import {
  IsolatedRunner,
  type IsolatedRunnerOptions,
  serveToolWorker,
  type WorkerHandle,
  type WorkerReply,
  type WorkerRequest,
} from "../../src/pool/runner.ts";
import { ITEMS_SUFFIX, POOLED_DEADLINE_MS, textsCost, warmUpCalls } from "../../src/tools/placement.ts";
import { LIGHT_MAX_ATOMS } from "../../src/chem/cost.ts";
import { TOOLS, WORKER_TOOLS } from "../../src/tools/registry.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "../../src/tools/tool.ts";
import { CancelledError, ChemError } from "../../src/errors.ts";
import { toolWorkerCount } from "../../src/main.ts";
import { loadTestRDKit, RDKIT_WASM_PATH } from "../helpers/rdkit.ts";
import { fakeTool as modelTool } from "../helpers/model_clock.ts";
import { takeLargestMolecule, withMol } from "../../src/chem/rdkit.ts";

/** The real RDKit module, for serveToolWorker run in this thread. */
function testWasm(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
}

/** What the fake worker does with a call: answer after `ms`, throw, hang, or die. */
type Behaviour =
  | { ms: number; value: unknown; retire?: true }
  | { chem: string }
  | { fail: string }
  | { hang: true }
  | { die: string };

function fakeTool(name: string, isolated: boolean): Tool {
  return modelTool(
    name,
    isolated
      ? { where: "pool", deadlineMs: () => 100 }
      : { where: "by_cost", cost: (a: Record<string, unknown>) => textsCost(a.smiles, a.smiles_list) },
    () => ({ ranInPlace: true }),
  );
}

class FakeWorkers {
  /**
   * @param startMs How long each worker takes to report ready.
   * @param warmMs How long it then spends warming up; a call posted meanwhile begins (and says so) after it.
   */
  constructor(public startMs = 1, readonly warmMs = 0) {}
  spawned = 0;
  terminated = 0;
  readonly warmed = new Set<WorkerHandle>();
  running = 0;
  maxRunning = 0;

  spawn = (): WorkerHandle => {
    this.spawned++;
    let onMessage: (m: WorkerReply) => void = () => {};
    let onFailure: (reason: string) => void = () => {};
    let alive = true;
    let busy = false;
    let starting: ReturnType<typeof setTimeout> | undefined;
    let warm: Promise<void> = new Promise(() => {});
    const handle: WorkerHandle = {
      post: (message: WorkerRequest) => {
        if (message.kind === "init") {
          warm = new Promise((resolve) => {
            starting = setTimeout(() => {
              if (!alive) return;
              onMessage({ kind: "ready" });
              starting = setTimeout(() => {
                if (!alive) return;
                onMessage({ kind: "warm" });
                resolve();
              }, this.warmMs);
            }, this.startMs);
          });
          return;
        }
        if (this.warmMs > 0 && !this.warmed.has(handle)) {
          void warm.then(() => {
            if (!alive) return;
            onMessage({ kind: "begin" });
            this.warmed.add(handle);
            handle.post(message);
          });
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
          const retire = "retire" in behaviour ? { retire: true } : {};
          setTimeout(
            () => done(() => onMessage({ kind: "result", value: behaviour.value, ...retire })),
            behaviour.ms,
          );
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
        // A stopped worker never starts: its pending start would also keep Node's test process alive.
        clearTimeout(starting);
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

/** The deadline of a pooled call as the runner plans it; `undefined` for a call run in place. */
function pooledDeadline(
  runner: IsolatedRunner,
  tool: Tool,
  args: Record<string, unknown>,
): number | undefined {
  const plan = runner.plan(tool, args);
  return plan.where === "in_place" ? undefined : plan.deadlineMs;
}

/**
 * Waits until `count` fake calls run (at most 5 s): fake workers start on timers, which a loaded machine runs
 * late, so a fixed sleep can look before they have.
 */
async function untilRunning(workers: FakeWorkers, count: number): Promise<void> {
  const until = performance.now() + 5_000;
  while (workers.running < count && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
}

/** A chunk of a list call on a costly input: a call that can run long, and may take any worker. */
const LONG_CHUNK = {
  ...fakeTool("pooled" + ITEMS_SUFFIX, false),
  placement: { where: "pool", chunkOf: "pooled", cost: (a: Record<string, unknown>) => textsCost(a.smiles) },
} as Tool;
const COSTLY = "C".repeat(LIGHT_MAX_ATOMS + 1);
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

/** The typed error a call gets when its worker traps or dies. */
function brokeItsWorker(cause: string) {
  return (e: unknown) =>
    e instanceof ChemError && e.code === "UNSUPPORTED_MOLECULE" && e.details?.cause === cause &&
    /worker was replaced/.test(e.message);
}

test("a worker that dies mid-call fails that call only, with a typed error; a fresh worker serves the next", async () => {
  const workers = new FakeWorkers();
  const logged: string[] = [];
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1, log: (m) => logged.push(m) });
  await assert.rejects(
    runner.run(isolated, { behaviour: { die: "RuntimeError: unreachable" } }),
    brokeItsWorker("worker_died"),
  );
  assert.match(logged.join("\n"), /broke its worker, which was replaced: RuntimeError: unreachable/);
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { ok: 1 } } }), { ok: 1 });
  assert.equal(workers.spawned, 2);
});

test("an exception in the worker fails the call and retires the worker (its RDKit may be broken)", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  await assert.rejects(
    runner.run(isolated, { behaviour: { fail: "RuntimeError: unreachable at get_smiles" } }),
    brokeItsWorker("worker_failure"),
  );
  assert.equal(workers.terminated, 1);
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { ok: 2 } } }), { ok: 2 });
  assert.equal(workers.spawned, 2);
});

/** A pool over `workers` with the fake tool "pooled" among its pooled tools, returned with it. */
function pooledRunner(
  workers: FakeWorkers,
  options: Omit<IsolatedRunnerOptions, "spawn" | "wasm" | "pooled">,
): { pooled: Tool; runner: IsolatedRunner } {
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, pooled: new Set(["pooled"]), ...options });
  return { pooled: fakeTool("pooled", false), runner };
}

test("list chunks of a tool that can run long take every worker; a single search keeps to size - 1", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2 });
  const chunkTool = {
    ...isolated,
    name: "isolated" + ITEMS_SUFFIX,
    placement: { where: "pool", chunkOf: "isolated", deadlineMs: () => 10_000 },
  } as Tool;
  const chunks = [1, 2].map((n) => runner.run(chunkTool, { behaviour: { ms: 100, value: n } }));
  assert.deepEqual(await Promise.all(chunks), [1, 2]);
  assert.equal(workers.maxRunning, 2, "both chunks ran at once");
  workers.maxRunning = 0;
  const searches = [1, 2].map((n) => runner.run(isolated, { behaviour: { ms: 30, value: n } }));
  assert.deepEqual(await Promise.all(searches), [1, 2]);
  assert.equal(workers.maxRunning, 1, "the second search waited for the first");
  runner.close();
});

test("SERVER_BUSY says what holds the workers", async () => {
  const workers = new FakeWorkers();
  const { pooled, runner } = pooledRunner(workers, { size: 2, pooledDeadlineMs: 1_000, queueDeadlineMs: 50 });
  const slowSearch = { ...isolated, placement: { where: "pool", deadlineMs: () => 400 } } as Tool;
  const search = runner.run(slowSearch, { behaviour: { hang: true } });
  await untilRunning(workers, 1);
  await assert.rejects(
    runner.run(slowSearch, { behaviour: { ms: 1, value: 1 } }),
    (e) =>
      e instanceof ChemError && e.code === "SERVER_BUSY" &&
      /may hold 1 of 2 workers.*isolated/.test(e.message),
  );
  const held = runner.run(LONG_CHUNK, { smiles: COSTLY, behaviour: { hang: true } });
  await untilRunning(workers, 2);
  await assert.rejects(
    runner.run(pooled, { behaviour: { ms: 1, value: 1 } }),
    (e) =>
      e instanceof ChemError && e.code === "SERVER_BUSY" &&
      /2 of 2 workers are running other calls/.test(e.message) &&
      !/search/.test(e.message.replace("isolated", "")),
  );
  await Promise.allSettled([search, held]);
  runner.close();
});

test("a call's deadline counts from when the worker begins it, not while it finishes its warm-up", async () => {
  const workers = new FakeWorkers(1, 300);
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  // The fake search's limit is 100 ms; the worker spends 300 ms warming up before it begins the call.
  assert.equal(await runner.run(isolated, { behaviour: { ms: 20, value: 5 } }), 5);
  assert.equal(workers.terminated, 0);
  runner.close();
});

test("workers that never start are stopped at the start limit; a call tries two, then gets SERVER_BUSY", async () => {
  const workers = new FakeWorkers(60_000);
  const { pooled, runner } = pooledRunner(workers, { size: 1, queueDeadlineMs: 30, startupMs: 60 });
  const busy = (e: unknown) =>
    e instanceof ChemError && e.code === "SERVER_BUSY" && /could not start/.test(e.message);
  await assert.rejects(runner.run(pooled, { behaviour: { ms: 1, value: 1 } }), busy);
  assert.equal(workers.spawned, 2, "the call tried a second worker");
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(workers.terminated, workers.spawned, "every worker past its start limit was stopped");
  workers.startMs = 1;
  assert.equal(
    await runner.run(pooled, { behaviour: { ms: 1, value: 2 } }),
    2,
    "a later call gets one that starts",
  );
  runner.close();
});

test("a cancelled call rejects with CancelledError at once and its worker is replaced; queued ones leave the queue", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  const running = new AbortController();
  const queued = new AbortController();
  const first = runner.run(isolated, { behaviour: { hang: true } }, running.signal);
  const second = runner.run(isolated, { behaviour: { ms: 1, value: 2 } }, queued.signal);
  while (workers.running === 0) await new Promise((r) => setTimeout(r, 5)); // the first runs in its worker
  queued.abort();
  await assert.rejects(second, (e) => e instanceof CancelledError);
  running.abort();
  await assert.rejects(first, (e) => e instanceof CancelledError);
  assert.equal(workers.terminated, 1);
  assert.equal(await runner.run(isolated, { behaviour: { ms: 1, value: 3 } }), 3);
  runner.close();
});

test("a call on a large input runs in the pool whatever the tool; a worker that built one is replaced", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1 });
  const big = "C".repeat(LIGHT_MAX_ATOMS + 1);
  assert.equal(pooledDeadline(runner, inPlace, { smiles: "CCO" }), undefined);
  assert.equal(pooledDeadline(runner, inPlace, { smiles: big }), POOLED_DEADLINE_MS);
  assert.equal(pooledDeadline(runner, inPlace, { smiles_list: ["C", big] }), POOLED_DEADLINE_MS);
  assert.deepEqual(await runner.run(inPlace, { smiles: big, behaviour: { ms: 1, value: { big: 1 } } }), {
    big: 1,
  });
  assert.equal(workers.terminated, 0, "kept: the worker built no large molecule (say, it refused the input)");
  assert.equal(await runner.run(inPlace, { smiles: big, behaviour: { ms: 1, value: 2, retire: true } }), 2);
  assert.equal(workers.terminated, 1, "retired after building a large molecule");
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: { n: 1 } } }), { n: 1 });
  assert.equal(workers.spawned, 2);
  runner.close();
});

test("takeLargestMolecule reports the largest molecule RDKit built since it was last asked", async () => {
  await loadTestRDKit();
  takeLargestMolecule();
  withMol("CCO", () => {});
  withMol("c1ccccc1", () => {});
  assert.equal(takeLargestMolecule(), 6);
  assert.equal(takeLargestMolecule(), 0);
});

test("if RDKit fails on the protocol thread, every later call goes to the pool", async () => {
  const workers = new FakeWorkers();
  const logged: string[] = [];
  const trapping = defineTool({
    name: "trapping",
    title: "t",
    description: "t",
    annotations: LOCAL_COMPUTATION,
    input: v.object({ behaviour: v.any() }),
    output: v.object({}),
    run: () => {
      throw new WebAssembly.RuntimeError("memory access out of bounds");
    },
  }) as unknown as Tool;
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1, log: (m) => logged.push(m) });
  await assert.rejects(runner.run(trapping, { behaviour: null }), WebAssembly.RuntimeError);
  assert.match(logged.join("\n"), /every later call runs in the pool/);
  assert.equal(pooledDeadline(runner, inPlace, {}), POOLED_DEADLINE_MS);
  assert.deepEqual(await runner.run(inPlace, { behaviour: { ms: 1, value: { pooled: 1 } } }), { pooled: 1 });
  runner.close();
});

test("a typed error or a result failing its schema on the protocol thread leaves calls in place", async () => {
  const workers = new FakeWorkers();
  const logged: string[] = [];
  const failing = (error: unknown) =>
    defineTool({
      name: "failing",
      title: "f",
      description: "f",
      annotations: LOCAL_COMPUTATION,
      input: v.object({ behaviour: v.any() }),
      output: v.object({}),
      run: () => {
        throw error;
      },
    }) as unknown as Tool;
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1, log: (m) => logged.push(m) });
  const invalid = v.safeParse(v.object({ n: v.number() }), {});
  const schemaError = new v.ValiError(invalid.issues!);
  await assert.rejects(runner.run(failing(schemaError), { behaviour: null }), v.ValiError);
  await assert.rejects(
    runner.run(failing(new ChemError("INVALID_SMILES", "x")), { behaviour: null }),
    ChemError,
  );
  assert.equal(pooledDeadline(runner, inPlace, {}), undefined);
  assert.deepEqual(logged, []);
  assert.equal(workers.spawned, 0);
});

test("a tool named in `pooled` runs in a worker with the pool deadline; others stay in place", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 1, pooled: new Set(["in_place"]) });
  assert.equal(pooledDeadline(runner, inPlace, {}), POOLED_DEADLINE_MS);
  assert.equal(pooledDeadline(runner, isolated, {}), 100, "a tool's own deadline wins");
  assert.equal(pooledDeadline(runner, fakeTool("cheap", false), {}), undefined);
  assert.deepEqual(await runner.run(inPlace, { behaviour: { ms: 1, value: { inWorker: true } } }), {
    inWorker: true,
  });
  assert.equal(workers.spawned, 1);
  runner.close();
});

test("a pooled tool past the pool deadline is stopped with COMPUTATION_TIMEOUT and its own message", async () => {
  const workers = new FakeWorkers();
  const costly = fakeTool("costly", false);
  const runner = new IsolatedRunner({
    spawn: workers.spawn,
    wasm,
    size: 1,
    pooled: new Set(["costly"]),
    pooledDeadlineMs: 50,
  });
  await assert.rejects(
    runner.run(costly, { behaviour: { hang: true } }),
    (e) =>
      e instanceof ChemError && e.code === "COMPUTATION_TIMEOUT" && e.details?.limit_ms === 50 &&
      /longest any call may compute/.test(e.message),
  );
  assert.equal(workers.terminated, 1);
  assert.deepEqual(await runner.run(costly, { behaviour: { ms: 1, value: { next: 1 } } }), { next: 1 });
  runner.close();
});

/** Waits for `n` turns of the event loop (macrotasks). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

test("start() starts the whole pool, one worker per turn of the event loop; calls use those workers and spawn no more", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 3 });
  runner.start();
  assert.equal(workers.spawned, 0, "no worker is created inside start(): requests read meanwhile come first");
  await turns(1);
  assert.equal(workers.spawned, 1);
  await turns(2);
  assert.equal(workers.spawned, 3);
  const values = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((n) => runner.run(isolated, { behaviour: { ms: 5, value: n } })),
  );
  assert.deepEqual(values, [1, 2, 3, 4, 5, 6]);
  assert.equal(workers.spawned, 3);
  assert.ok(workers.maxRunning <= 3);
  runner.close();
  assert.equal(workers.terminated, 3);
});

test("start() reports once, through onWarm, when every worker has warmed up", async () => {
  const workers = new FakeWorkers();
  const reports: number[] = [];
  const runner = new IsolatedRunner({
    spawn: workers.spawn,
    wasm,
    size: 2,
    onWarm: (ms) => reports.push(ms),
  });
  runner.start();
  assert.deepEqual(reports, [], "not before the workers answer");
  await runner.run(isolated, { behaviour: { ms: 1, value: 1 } });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(reports.length, 1);
  assert.ok(reports[0]! >= 0);
  runner.close();
});

test("a started pool replaces a retired worker at once, so the pool stays full; close() replaces none", async () => {
  const workers = new FakeWorkers();
  const runner = new IsolatedRunner({ spawn: workers.spawn, wasm, size: 2 });
  runner.start();
  await assert.rejects(runner.run(isolated, { behaviour: { hang: true } }));
  await turns(1);
  assert.equal(workers.spawned, 3, "the timed-out worker was replaced without waiting for a call");
  await assert.rejects(runner.run(isolated, { behaviour: { die: "RuntimeError: unreachable" } }));
  await turns(1);
  assert.equal(workers.spawned, 4);
  runner.close();
  assert.equal(workers.terminated, 4, "3 idle at close, 1 retired after its timeout");
  await assert.rejects(runner.run(isolated, { behaviour: { fail: "boom" } }));
  assert.equal(
    workers.spawned,
    5,
    "after close a call still gets a worker, but the retired one is not replaced",
  );
});

test("serveToolWorker reports ready once RDKit is loaded, then warms up; a call sent at ready comes first", async () => {
  const seen: unknown[] = [];
  const recorder = defineTool({
    name: "recorder",
    title: "recorder",
    description: "recorder",
    annotations: LOCAL_COMPUTATION,
    input: v.object({ n: v.optional(v.number(), 7) }),
    output: v.object({}),
    run: (args) => {
      seen.push(args);
      return { n: args.n };
    },
  }) as unknown as Tool;
  const posted: WorkerReply[] = [];
  let listener: (message: WorkerRequest) => void = () => {};
  serveToolWorker(
    {
      post: (message) => {
        posted.push(message);
        // A user's call arriving the moment the worker is ready is served before the warm-up calls.
        if (message.kind === "ready") listener({ kind: "call", tool: "recorder", args: { n: 1 } });
      },
      onMessage: (l) => (listener = l),
    },
    [recorder],
    [{ tool: "recorder", args: {} }, { tool: "recorder", args: { n: 2 } }],
  );
  listener({ kind: "init", wasm: await testWasm() });
  while (posted.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
  // The call arrived during the warm-up, so it says when it begins (its deadline counts from there).
  assert.deepEqual(posted, [{ kind: "ready" }, { kind: "begin" }, { kind: "result", value: { n: 1 } }, {
    kind: "warm",
  }]);
  assert.deepEqual(
    seen,
    [{ n: 1 }, { n: 7 }, { n: 2 }],
    "the call, then the warm-up calls with defaults applied",
  );
});

test("the tools' warm-up calls are valid calls of pooled tools, and every one succeeds", async () => {
  await loadTestRDKit();
  const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
  const calls = warmUpCalls(WORKER_TOOLS);
  assert.ok(calls.length >= 7);
  for (const call of calls) {
    const tool = byName.get(call.tool);
    assert.ok(tool, call.tool);
    assert.equal(tool.placement?.where, "pool", `${call.tool} runs in the pool`);
    const result = await tool.run(v.parse(tool.input, call.args));
    assert.ok(v.safeParse(tool.output, result).success, `${call.tool} result matches its schema`);
  }
  const served = new Set(WORKER_TOOLS.map((tool) => tool.name));
  for (const tool of TOOLS.filter((t) => t.list && t.placement?.where === "pool")) {
    assert.ok(served.has(tool.name + ITEMS_SUFFIX), `chunks of ${tool.name} are served`);
  }
});

test("toolWorkerCount: the available parallelism by default, CHEM_MCP_WORKERS when set, errors otherwise", () => {
  assert.equal(toolWorkerCount({}, 8), 8);
  assert.equal(toolWorkerCount({}, 0), 1);
  assert.equal(toolWorkerCount({ CHEM_MCP_WORKERS: "" }, 2), 2);
  assert.equal(toolWorkerCount({ CHEM_MCP_WORKERS: "3" }, 2), 3);
  assert.equal(toolWorkerCount({ CHEM_MCP_WORKERS: " 1 " }, 2), 1);
  for (const bad of ["0", "-1", "2.5", "many", "257"]) {
    assert.throws(() => toolWorkerCount({ CHEM_MCP_WORKERS: bad }, 2), /CHEM_MCP_WORKERS must be/);
  }
});

test("a worker that cannot be created is not the call's fault: the call gets the next worker", async () => {
  const workers = new FakeWorkers();
  let refuse = 1;
  const spawn = () => {
    if (refuse-- > 0) throw new Error("EAGAIN: no more threads");
    return workers.spawn();
  };
  const runner = new IsolatedRunner({ spawn, wasm, size: 1 });
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: 1 } }), 1);
  assert.deepEqual(await runner.run(isolated, { behaviour: { ms: 1, value: 2 } }), 2);
  runner.close();
});
