// Hostile input for run_reaction and convert through the protocol and the real worker pool: a 10,000-product
// enumeration, a million reactant combinations, a template that matches everywhere, nested recursive SMARTS, a
// 5,000-atom MOL block, a 999-atom chain, a counts line that lies, binary garbage, an SD file over its record
// cap. Each is answered with a typed error or a bounded answer before its deadline, never a hung worker, and an
// ordinary call afterwards gets its ordinary answer. The server is assembled in process with the extra tools in
// its registry and real pool workers (threads under Node, processes under Deno): a server process lists the extra
// tools only when `--tools` names them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import process from "node:process";
import { IS_DENO } from "../helpers/process.ts";
import { skipName } from "../helpers/skip.ts";
import { loadTestRDKit, RDKIT_WASM_PATH } from "../helpers/rdkit.ts";
import { modern, send } from "../helpers/protocol.ts";
import { chainBlock, chainV3000 } from "../helpers/molblock.ts";
import { readFileSync } from "node:fs";
import { McpServer } from "../../src/protocol/server.ts";
import { ToolRegistry, TOOLS } from "../../src/tools/registry.ts";
import { EXTRA_TOOLS } from "../../src/tools/extras.ts";
import { IsolatedRunner, type WorkerHandle } from "../../src/pool/runner.ts";
import { ISOLATION_GRACE_S } from "../../src/tools/common.ts";
import { REACTION_TIMEOUT_S } from "../../src/tools/run_reaction.ts";
import { POOLED_DEADLINE_MS } from "../../src/tools/placement.ts";
import { ANSWER_MAX_CHARS } from "../../src/tools/answer_cap.ts";
import type { Connection } from "../../src/protocol/server.ts";
import { HANDOVER_MS } from "../helpers/timing.ts";

await loadTestRDKit();

const REACTION_DEADLINE_MS = (REACTION_TIMEOUT_S + ISOLATION_GRACE_S) * 1000 + HANDOVER_MS;

/** A pool worker as the runtime entries start one: a Deno child process, a Node worker thread. */
async function spawner(): Promise<() => WorkerHandle> {
  if (IS_DENO) {
    const path = "../../src/runtime/process_worker_deno.ts";
    return ((await import(path)) as { spawnProcessWorker: () => WorkerHandle }).spawnProcessWorker;
  }
  return () => {
    const worker = new Worker(new URL("../../src/runtime/worker_node.js", import.meta.url));
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (listener) => void worker.on("message", listener),
      onFailure: (listener) => {
        worker.on("error", (error) => listener(String(error)));
        worker.on("exit", (code) => listener(`exited with code ${code}`));
      },
      terminate: () => void worker.terminate(),
      hold: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  };
}

interface Answer {
  ms: number;
  code?: string;
  content: Record<string, unknown>;
}

async function call(conn: Connection, name: string, args: Record<string, unknown>): Promise<Answer> {
  const started = performance.now();
  const reply = await send(conn, modern("tools/call", { name, arguments: args }));
  const ms = performance.now() - started;
  assert.equal(reply?.error, undefined, `${name}: JSON-RPC error ${JSON.stringify(reply?.error)}`);
  const content = reply!.result!.structuredContent!;
  const code = reply!.result!.isError ? (content.error as { code: string }).code : undefined;
  return { ms, content, ...(code ? { code } : {}) };
}

async function assertHealthy(conn: Connection, after: string): Promise<void> {
  const answer = await call(conn, "convert", { input: "OCC", from: "smiles", to: "inchikey" });
  assert.equal(answer.content.output, "LFQSCWFLJHTTHZ-UHFFFAOYSA-N", `after ${after}`);
  const reaction = await call(conn, "run_reaction", {
    reaction: "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]",
    reactants: ["CC(=O)O", "CN"],
  });
  assert.deepEqual(reaction.content.products, [{ smiles: "CNC(C)=O", reactants: ["CC(=O)O", "CN"] }], after);
}

/**
 * The suite runs in process, so against a built artefact (CHEM_MCP_SERVER_CMD) it would only repeat the Node run;
 * it is left out there until the artefact's server lists the extra tools.
 */
const SKIP = process.env.CHEM_MCP_SERVER_CMD ? "in process; the artefact lane repeats the Node run" : false;

test(
  skipName("run_reaction and convert: hostile input answered typed and in time, the pool undamaged", SKIP),
  {
    skip: SKIP,
  },
  async () => {
    const wasm = await WebAssembly.compile(readFileSync(RDKIT_WASM_PATH));
    const runner = new IsolatedRunner({ spawn: await spawner(), wasm, size: 2 });
    const server = new McpServer({
      registry: new ToolRegistry([...TOOLS, ...EXTRA_TOOLS]),
      info: { name: "chem-mcp", version: "test" },
      runTool: (tool, args, signal) => runner.run(tool, args, signal),
      workers: 2,
    });
    const conn = server.connect();
    try {
      await assertHealthy(conn, "start");
      const alcohols = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}O`);
      const acids = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}C(=O)O`);
      const ester = "[C:1](=[O:2])[OH].[OH:3][C:4]>>[C:1](=[O:2])[O:3][C:4]";

      // 10,000 combinations, one ester each: stopped at max_products.
      const tenThousand = await call(conn, "run_reaction", {
        reaction: ester,
        reactants: [acids, alcohols],
        max_products: 1000,
      });
      assert.equal(tenThousand.code, "TOO_MANY_PRODUCTS", JSON.stringify(tenThousand.content).slice(0, 300));
      assert.ok(
        tenThousand.ms < REACTION_DEADLINE_MS,
        `10,000-product enumeration answered in ${tenThousand.ms} ms`,
      );
      await assertHealthy(conn, "10,000 products");

      // A million combinations: refused before any is run.
      const three = "[C:1](=[O:2])[OH].[OH:3][C:4].[OH:5][C:6]>>[C:1](=[O:2])[O:3][C:4].[O:5][C:6]";
      const million = await call(conn, "run_reaction", {
        reaction: three,
        reactants: [acids, alcohols, alcohols],
      });
      assert.equal(million.code, "TOO_MANY_PRODUCTS");
      assert.equal(
        (million.content.error as { details: { combinations: number } }).details.combinations,
        1_000_000,
      );

      // A template matching every path of four atoms in a 250-atom branched alkane, on 100 copies written
      // differently: bounded by RDKit's 1,000 product sets per combination, the product cap and the time limit.
      const branched = `C${"C(C)".repeat(124)}C`;
      const everywhere = await call(conn, "run_reaction", {
        reaction: "[C:1][C:2][C:3][C:4]>>[C:1][C:2].[C:3][C:4]",
        reactants: [Array.from({ length: 100 }, (_, i) => `${"C".repeat(i % 3)}${branched}`)],
        max_products: 1000,
      });
      assert.ok(
        everywhere.code === undefined ||
          ["TOO_MANY_PRODUCTS", "COMPUTATION_TIMEOUT"].includes(everywhere.code),
        JSON.stringify(everywhere.content).slice(0, 300),
      );
      assert.ok(
        everywhere.ms < REACTION_DEADLINE_MS,
        `match-everywhere template answered in ${everywhere.ms} ms`,
      );
      await assertHealthy(conn, "match-everywhere template");

      const nested = `[C;$(${"[C;$(".repeat(40)}C${")]".repeat(40)}):1]>>[C:1]`;
      assert.equal(
        (await call(conn, "run_reaction", { reaction: nested, reactants: ["CC"] })).code,
        "INVALID_REACTION",
      );
      assert.equal(
        (await call(conn, "run_reaction", { reaction: "[C:1]>>[C:1]", reactants: ["CC", "CC"] })).code,
        "REACTANT_COUNT_MISMATCH",
      );
      // No product template: refused by the text check before RDKit runs it, the worker kept.
      for (const reaction of ["[C:1]>>", "[C:1]>[O]>"]) {
        assert.equal(
          (await call(conn, "run_reaction", { reaction, reactants: ["CC"] })).code,
          "INVALID_REACTION",
        );
      }
      await assertHealthy(conn, "a reaction without products");

      // Products echoing long reactants (isotope-labelled chains, 7 characters an atom): the answer stops at its
      // cap and counts the products it leaves out, where 1,000 of them once made 25 MiB.
      const labelled = (n: number, tail: string) => `${"[13CH2]".repeat(n)}${tail}`;
      const wordy = await call(conn, "run_reaction", {
        reaction: "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]",
        reactants: [
          Array.from({ length: 10 }, (_, i) => labelled(60 + i, "C(=O)O")),
          Array.from({ length: 30 }, (_, i) => labelled(60 + i, "N")),
        ],
        max_products: 1000,
      });
      assert.equal(wordy.code, undefined, JSON.stringify(wordy.content).slice(0, 300));
      const listed = (wordy.content.products as unknown[]).length;
      assert.ok((wordy.content.left_out as number) > 0, `${listed} listed`);
      assert.equal(listed + (wordy.content.left_out as number), 300);
      assert.ok(JSON.stringify(wordy.content).length <= ANSWER_MAX_CHARS);

      // MOL blocks: 5,000 atoms (V3000) refused by the counts line; a 999-atom chain read and refused by the
      // heavy-atom limit; a counts line that lies; binary garbage; 201 records.
      const five = await call(conn, "convert", { input: chainV3000(5000), from: "molblock", to: "smiles" });
      assert.equal(five.code, "MOLECULE_TOO_LARGE");
      // Refused by its counts line, before RDKit reads an atom (the message says so); the time only catches a
      // lost answer (3.7 s beside eight CPU-bound programs, a worker taking its turn).
      assert.match((five.content.error as { message: string }).message, /declares 5000 atoms/);
      assert.ok(five.ms < POOLED_DEADLINE_MS + HANDOVER_MS, `5,000-atom block answered in ${five.ms} ms`);
      const chain = await call(conn, "convert", { input: chainBlock(999), from: "molblock", to: "smiles" });
      assert.equal(chain.code, "MOLECULE_TOO_LARGE");
      assert.ok(chain.ms < POOLED_DEADLINE_MS + HANDOVER_MS);
      await assertHealthy(conn, "999-atom chain");
      const lying = chainBlock(40).replace(/^ 40 39/m, "999998");
      assert.equal(
        (await call(conn, "convert", { input: lying, from: "molblock", to: "smiles" })).code,
        "INVALID_MOLBLOCK",
      );
      const garbage = `${
        String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256))
      }\nM  END\n`;
      assert.equal(
        (await call(conn, "convert", { input: garbage, from: "molblock", to: "smiles" })).code,
        "INVALID_MOLBLOCK",
      );
      const record = `${chainBlock(3)}$$$$\n`;
      const tooMany = await call(conn, "convert", { input: record.repeat(201), from: "sdf", to: "smiles" });
      assert.equal(tooMany.code, "MOLECULE_TOO_LARGE");

      // 200 records of 60 atoms each, the largest SD call accepted in records: answered, every record converted.
      const big = `${chainBlock(60)}$$$$\n`.repeat(200);
      const many = await call(conn, "convert", { input: big, from: "sdf", to: "inchikey" });
      assert.equal(many.code, undefined);
      assert.equal((many.content.records as unknown[]).length, 200);
      assert.ok(many.ms < POOLED_DEADLINE_MS, `200 records answered in ${many.ms} ms`);
      await assertHealthy(conn, "everything");
    } finally {
      runner.close();
    }
  },
);
