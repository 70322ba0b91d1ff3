/**
 * `similarity_search` over 10,000 molecules (WEHI's PAINS test set in Debian's rdkit-data, every line, none
 * hand-picked), aspirin as the query, top 10: our server over stdio (the call timed by the client, the 0.4 MB
 * request included) on Deno, Node and the single executable, each with two tool workers, against RDKit's Python
 * on one core in the same run (`MolFromSmiles`, `GetMorganFingerprintAsBitVect(m, 2, 2048)`,
 * `BulkTanimotoSimilarity`, timed inside Python), rounds alternating so both meet the same machine. Checks that
 * the ten hits are Python's (indices, and scores to 4 decimals). Needs `/usr/bin/python3` with RDKit
 * (`apt-get install -y python3-rdkit rdkit-data`); Node needs `npm run build`, the binary scripts/build_sea.ts.
 *
 * Run: npx deno run -A bench/similarity_bench.ts [--rounds 5] [--runtimes deno,node,sea]
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { available, SEA_BINARY } from "./servers.ts";
import { LineClient } from "../tests/helpers/process.ts";
import { modern } from "../tests/helpers/protocol.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" }, runtimes: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 5);
const RUNTIMES = (values.runtimes ?? "deno,node,sea").split(",").filter(available);
const FILE = "/usr/share/RDKit/Data/Pains/test_data/wehi_mols.csv";
const QUERY = "CC(=O)Oc1ccccc1C(=O)O";
const TOP_K = 10;

const library = readFileSync(FILE, "utf8").trim().split("\n").map((line) =>
  line.split(",")[0]!.replaceAll('"', "")
);

const PYTHON = `
import sys, time, json
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import rdMolDescriptors
RDLogger.DisableLog("rdApp.*")
library = sys.stdin.read().split()
t = time.perf_counter()
fp = lambda m: rdMolDescriptors.GetMorganFingerprintAsBitVect(m, 2, 2048)
query = fp(Chem.MolFromSmiles(sys.argv[1]))
mols = [Chem.MolFromSmiles(s) for s in library]
kept = [i for i, m in enumerate(mols) if m is not None]
scores = DataStructs.BulkTanimotoSimilarity(query, [fp(mols[i]) for i in kept])
best = sorted(zip(kept, scores), key=lambda h: (-h[1], h[0]))[:int(sys.argv[2])]
print(json.dumps({"seconds": time.perf_counter() - t, "best": best}))
`;

interface Hits {
  seconds: number;
  best: [number, number][];
}

/** Python's seconds and top hits; the interpreter's start is not timed. */
function python(): Hits {
  const out = spawnSync("/usr/bin/python3", ["-c", PYTHON, QUERY, String(TOP_K)], {
    input: library.join("\n"),
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (out.status !== 0) throw new Error(`python failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as Hits;
}

/** A server under `runtime` with two tool workers and every tool listed. */
function start(runtime: string): ChildProcessWithoutNullStreams {
  const [cmd, args, cwd] = runtime === "deno"
    ? [process.execPath, ["run", "-A", "mod.ts"], "."]
    : runtime === "node"
    ? ["node", ["dist/src/runtime/node.js"], "."]
    : [SEA_BINARY, [], dirname(SEA_BINARY)];
  const child = spawn(cmd, [...args, "--tools", "all"], {
    cwd,
    env: { ...process.env, CHEM_MCP_WORKERS: process.env.BENCH_WORKERS ?? "2" },
    stdio: "pipe",
  });
  child.stderr.resume();
  return child;
}

/** One search's client-timed seconds and its hits. */
async function ours(client: LineClient): Promise<Hits> {
  const t = performance.now();
  const answer = await client.request(
    modern("tools/call", {
      name: "similarity_search",
      arguments: { query: QUERY, library, top_k: TOP_K },
    }),
    120_000,
  ) as { result?: { structuredContent?: { hits: { index: number; score: number }[] } } };
  const seconds = (performance.now() - t) / 1000;
  const hits = answer.result?.structuredContent?.hits;
  if (!hits) throw new Error(`failed call: ${JSON.stringify(answer).slice(0, 300)}`);
  return { seconds, best: hits.map((hit) => [hit.index, hit.score]) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const same = (a: Hits, b: Hits) =>
  a.best.length === b.best.length &&
  a.best.every(([i, s], k) => i === b.best[k]![0] && Math.abs(s - b.best[k]![1]) < 5e-5);

console.log(
  `similarity_search, ${
    library.length.toLocaleString("en")
  } molecules (${FILE}), top ${TOP_K}, ${ROUNDS} rounds`,
);
console.log("| Runtime | ours, median (min) | RDKit Python one core, median (min) | speed ratio | hits |");
console.log("| --- | ---: | ---: | ---: | --- |");
for (const runtime of RUNTIMES) {
  const child = start(runtime);
  const client = new LineClient(child);
  await ours(client); // Warms both workers' first search (and the server's first call).
  const mine: number[] = [];
  const theirs: number[] = [];
  let identical = true;
  for (let round = 0; round < ROUNDS; round++) {
    const a = await ours(client);
    const b = python();
    mine.push(a.seconds);
    theirs.push(b.seconds);
    identical &&= same(a, b);
  }
  child.kill("SIGTERM");
  const fmt = (xs: number[]) => `${median(xs).toFixed(2)} s (${Math.min(...xs).toFixed(2)})`;
  console.log(
    `| ${runtime} | ${fmt(mine)} | ${fmt(theirs)} | ${(median(theirs) / median(mine)).toFixed(2)}× | ${
      identical ? "identical" : "DIFFER"
    } |`,
  );
}
console.log(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
