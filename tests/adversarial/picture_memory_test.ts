// Picture memory against the real server: the resvg and RDKit WebAssembly heaps only grow, so a worker that drew
// the largest PNG grids is retired after its call (src/pool/policy.ts, `heapGrown`) and replaced while idle. Four
// such grids leave the process tree within 1.5 times its idle memory, and an honest call is answered beside them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { LineClient, startServer, treeUsage } from "../helpers/process.ts";
import { skipName } from "../helpers/skip.ts";
import { callDepict, DEPICT_ARGS, depictUnavailable } from "../helpers/depiction.ts";
import { DRUGS50 } from "../data/drugs50.ts";

const skip = (await depictUnavailable()) || (existsSync("/proc/self/stat") ? false : "needs Linux /proc");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process tree's memory once it has stopped changing (a replaced worker starting, a collector running). */
async function settledRssMiB(pid: number): Promise<number> {
  let last = treeUsage(pid).rssKiB;
  for (let i = 0; i < 40; i++) {
    await sleep(500);
    const now = treeUsage(pid).rssKiB;
    if (Math.abs(now - last) < 4 * 1024) return now / 1024;
    last = now;
  }
  return last / 1024;
}

test(skipName("four largest PNG grids: the tree returns within 1.5x of its idle memory", skip), {
  skip,
}, async () => {
  const child = startServer(DEPICT_ARGS, { CHEM_MCP_WORKERS: "2" });
  const client = new LineClient(child);
  try {
    const pid = child.pid!;
    // Idle: both workers warm, nothing running. Pictures two at a time, twice, so that each worker has drawn one
    // (one after the other, both could go to the first worker while the second, at a lower priority on a busy
    // machine, is still loading RDKit: the idle figure then missed a worker).
    for (let i = 0; i < 2; i++) {
      await Promise.all([0, 1].map(() => callDepict(client, { smiles: "CCO", format: "png" })));
    }
    const idle = await settledRssMiB(pid);
    const grid = DRUGS50.slice(0, 16).map((drug) => drug.smiles);
    for (let round = 0; round < 4; round++) {
      const answer = await callDepict(client, { smiles: grid, format: "png", width: 500, height: 500 }) as {
        result?: { isError: boolean };
      };
      assert.equal(answer.result?.isError, false, `grid ${round + 1}`);
    }
    const honest = await callDepict(client, { smiles: "CCO", format: "png" }) as {
      result?: { isError: boolean };
    };
    assert.equal(honest.result?.isError, false, "an ordinary picture after the grids");
    const after = await settledRssMiB(pid);
    console.log(
      `picture memory: idle ${idle.toFixed(0)} MiB, after four largest grids ${after.toFixed(0)} MiB`,
    );
    assert.ok(after <= 1.5 * idle, `idle ${idle.toFixed(0)} MiB, after ${after.toFixed(0)} MiB`);
  } finally {
    await client.close();
  }
});
