/**
 * Sample web application under the search flood: the real app (src/runtime/webapp_deno.ts, two tool workers)
 * with four clients that post a search of 10,000 molecules again as soon as each is answered, and an honest
 * client that posts POST /descriptors for ethanol every 0.5 s beside them. Prints the honest answers' times
 * (median and worst) and how the searches were answered (hits, or 503 from the costly computations' places,
 * src/webapp/gate.ts).
 *
 * Run: deno run -A bench/webapp_attack_bench.ts [--rounds N]
 */
import process from "node:process";
import { startWebApp } from "../tests/webapp/webapp_process.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { isLight, textCost } from "../src/chem/cost.ts";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 10;
const light = DRUGS50.map((d) => d.smiles).filter((smiles) => isLight(textCost(smiles)));
const library = Array.from({ length: 10_000 }, (_, i) => light[i % light.length]!);
const server = await startWebApp(["--port", "0"], 60_000, { CHEM_MCP_WORKERS: "2" });

async function post(path: string, body: unknown): Promise<number> {
  const res = await fetch(new URL(path, server.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const search = { query: light[0]!, library, threshold: 0.9 };
try {
  await post("/descriptors", { smiles: "CCO" });
  let started = performance.now();
  await post("/similarity", search);
  const aloneMs = performance.now() - started;
  const statuses: number[] = [];
  let attacking = true;
  const attacker = async () => {
    while (attacking) statuses.push(await post("/similarity", search));
  };
  const attack = Promise.all([attacker(), attacker(), attacker(), attacker()]);
  await sleep(500);
  const times: number[] = [];
  const honest: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      started = performance.now();
      honest.push(await post("/descriptors", { smiles: "CCO" }));
      times.push(performance.now() - started);
      await sleep(500);
    }
  } finally {
    attacking = false;
    await attack;
  }
  times.sort((a, b) => a - b);
  const count = (status: number) => statuses.filter((s) => s === status).length;
  console.log(`one search of 10,000 molecules alone: ${aloneMs.toFixed(0)} ms`);
  console.log(
    `honest POST /descriptors beside four looping searches, ${rounds} calls: median ` +
      `${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms; ` +
      `${honest.filter((s) => s === 200).length} of ${rounds} answered 200` +
      (honest.some((s) => s !== 200) ? `, the others ${honest.filter((s) => s !== 200).join(", ")}` : ""),
  );
  console.log(
    `searches answered: ${count(200)} with hits, ${count(503)} 503 SERVER_BUSY, ` +
      `${statuses.length - count(200) - count(503)} other`,
  );
} finally {
  await server.stop();
}
