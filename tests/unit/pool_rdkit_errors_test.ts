// An exception RDKit raises for an input is the caller's typed error and keeps the worker; only a trap, an abort
// or exhausted memory or stack retire it (src/chem/rdkit_errors.ts, src/pool/serve.ts, src/pool/outcome.ts).
// Checked on fake throws and on one real case: run_reaction '[C:1]>>' (no product template), whose
// run_reactants raises a C++ exception.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as v from "valibot";
import { isRdkitException, rdkitBroken, rdkitRefusal } from "../../src/chem/rdkit_errors.ts";
import { rdkitFailed } from "../../src/pool/outcome.ts";
import {
  IsolatedRunner,
  serveToolWorker,
  type WorkerHandle,
  type WorkerReply,
  type WorkerRequest,
} from "../../src/pool/runner.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "../../src/tools/tool.ts";
import { runReactionTool } from "../../src/tools/run_reaction.ts";
import { ChemError } from "../../src/errors.ts";
import { RDKIT_WASM_PATH } from "../helpers/rdkit.ts";

/** A C++ exception as MinimalLib's unwinding delivers it to JavaScript. */
function cppException(): unknown {
  const wasm = WebAssembly as unknown as {
    Tag: new (type: { parameters: string[] }) => unknown;
    Exception: new (tag: unknown, payload: unknown[]) => unknown;
  };
  return new wasm.Exception(new wasm.Tag({ parameters: [] }), []);
}

test("an RDKit exception is a refusal of the input; traps, aborts and exhausted memory or stack are breakage", () => {
  const cpp = cppException();
  assert.equal(isRdkitException(cpp), true);
  assert.equal(rdkitBroken(cpp), false);
  assert.equal(rdkitFailed(cpp), false, "the protocol thread's RDKit stays trusted");
  const refusal = rdkitRefusal(cpp);
  assert.ok(refusal instanceof ChemError);
  assert.equal(refusal.details?.cause, "rdkit_exception");
  for (const broken of [new WebAssembly.RuntimeError("unreachable"), new RangeError("Maximum call stack")]) {
    assert.equal(rdkitBroken(broken), true);
    assert.equal(rdkitFailed(broken), true);
    assert.equal(rdkitRefusal(broken), undefined);
  }
  assert.equal(rdkitFailed(new TypeError("a bug of ours")), false);
  assert.equal(rdkitFailed(42), true, "a bare value thrown: unknown, not trusted");
});

/** A pool whose workers run serveToolWorker in this thread, with the real RDKit. */
function inThreadPool(tools: readonly Tool[], wasm: WebAssembly.Module) {
  let spawned = 0;
  let terminated = 0;
  const spawn = (): WorkerHandle => {
    spawned++;
    let toPool: (message: WorkerReply) => void = () => {};
    let toWorker: (message: WorkerRequest) => void = () => {};
    serveToolWorker(
      { post: (m) => queueMicrotask(() => toPool(m)), onMessage: (l) => (toWorker = l) },
      tools,
    );
    return {
      post: (message) => queueMicrotask(() => toWorker(message)),
      onMessage: (listener) => (toPool = listener),
      onFailure: () => {},
      terminate: () => void terminated++,
      hold: () => {},
    };
  };
  const runner = new IsolatedRunner({ spawn, wasm, size: 1 });
  return { runner, spawned: () => spawned, terminated: () => terminated };
}

test("a worker whose tool throws an RDKit exception answers a typed error and is kept", async () => {
  const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
  const throwing = defineTool({
    name: "throwing",
    title: "t",
    description: "t",
    annotations: LOCAL_COMPUTATION,
    input: v.object({}),
    output: v.object({}),
    placement: { where: "pool" },
    run: () => {
      throw cppException();
    },
  }) as unknown as Tool;
  const pool = inThreadPool([throwing], wasm);
  for (let i = 0; i < 3; i++) {
    await assert.rejects(pool.runner.run(throwing, {}), (error: unknown) => {
      assert.ok(error instanceof ChemError);
      assert.equal(error.code, "UNSUPPORTED_MOLECULE");
      return true;
    });
  }
  assert.equal(pool.spawned(), 1);
  assert.equal(pool.terminated(), 0);
  pool.runner.close();
});

test("run_reaction '[C:1]>>' twelve times: twelve typed errors, one worker, none replaced", async () => {
  const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
  const tool = runReactionTool as unknown as Tool;
  const pool = inThreadPool([tool], wasm);
  const args = v.parse(tool.input, { reaction: "[C:1]>>", reactants: ["CCO"] }) as Record<string, unknown>;
  for (let i = 0; i < 12; i++) {
    await assert.rejects(pool.runner.run(tool, args), (error: unknown) => {
      assert.ok(error instanceof ChemError, String(error));
      // The reaction text check may refuse it first (INVALID_REACTION); either way a typed error.
      assert.ok(["UNSUPPORTED_MOLECULE", "INVALID_REACTION"].includes(error.code), error.code);
      return true;
    });
  }
  assert.equal(pool.spawned(), 1);
  assert.equal(pool.terminated(), 0, "no worker replaced for an RDKit error");
  pool.runner.close();
});
