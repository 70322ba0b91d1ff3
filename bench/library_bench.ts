/**
 * Compound libraries at scale, against RDKit's Python in the same run: a deterministic library of amides
 * (scripts/reference/library_bench.py: 1,000,000 by default), the first start's build time per molecule (two
 * workers building) beside Python's per core, the cached start (server start to the first library_search
 * answer), the server's peak RSS (process tree), similarity top-10 times beside
 * DataStructs.BulkTanimotoSimilarity over the same prebuilt fingerprints, substructure times, and result
 * identity (top-10 ids and scores; substructure counts against SubstructMatch). Heavy: the oracle alone takes
 * about half an hour for a million on one core, the build about ten minutes on two.
 *
 * Run: npx deno run -A bench/library_bench.ts [--molecules N] [--dir DIR]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { LineClient, startServer, treeUsage } from "../tests/helpers/process.ts";
import { modern } from "../tests/helpers/protocol.ts";
import { loadLibrary } from "../src/chem/library/load.ts";
import { copyWords, FP_WORDS, type LibraryIndex } from "../src/chem/library/index.ts";
import { similarityHits } from "../src/chem/library/similarity.ts";
import { substructureHits } from "../src/chem/library/substructure.ts";
import { ecfp4Of } from "../src/chem/fingerprint.ts";
import { libraryIo } from "../src/runtime/library_io.ts";
import { loadPrevious } from "./previous.ts";

const { values } = parseArgs({ options: { molecules: { type: "string" }, dir: { type: "string" } } });
const count = Number(values.molecules ?? 1_000_000);
const dir = values.dir ?? "/tmp/chem-mcp-library-bench";
mkdirSync(dir, { recursive: true });
const file = join(dir, `amides-${count}.smi`);
const cache = join(dir, "cache");
const python = "/usr/bin/python3";
const script = "scripts/reference/library_bench.py";

if (!existsSync(file)) execFileSync(python, [script, "generate", String(count), file], { stdio: "inherit" });
const lines = readFileSync(file, "utf8").split("\n");
const pick = (at: number) => lines[at]!.split(" ")[0]!;
const QUERIES = {
  similarity: [
    pick(10),
    pick(Math.floor(count / 2)),
    pick(count - 1),
    "CC(=O)Nc1ccc(O)cc1",
    "O=C(NCc1ccccc1)c1ccccc1",
  ],
  substructure: ["c1ccc2ccccc2c1", "c1ccc2ncccc2c1", "c1ccsc1", "C1CC1"],
};
writeFileSync(join(dir, "queries.json"), JSON.stringify(QUERIES));

interface Oracle {
  rdkit: string;
  build_us_per_molecule: number;
  similarity: { query: string; ms: number; top10: [string, number][] }[];
  substructure: { smarts: string; count: number; ms: number }[];
}
let started = performance.now();
// The oracle's figures of an earlier run on the same file and queries are reused (delete oracle.json to redo).
if (!existsSync(join(dir, "oracle.json"))) {
  console.error(`RDKit Python on ${count.toLocaleString("en")} molecules…`);
  execFileSync(python, [script, "oracle", file, join(dir, "queries.json"), join(dir, "oracle.json")], {
    stdio: "inherit",
  });
  console.error(`  ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const oracle = JSON.parse(readFileSync(join(dir, "oracle.json"), "utf8")) as Oracle;

/**
 * Starts the server on the library and times its first library_search answer; peak RSS of its tree, and its
 * RSS once a substructure search has filled RDKit's substructure libraries (with the tool workers started so far).
 */
async function serverStart(): Promise<{ ms: number; peakMiB: number; filledMiB: number; stderr: string }> {
  const child = startServer(["--library", file, "--library-cache", cache], { CHEM_MCP_WORKERS: "2" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
    if (/indexed, /.test(text)) console.error(`  ${text.trim()}`);
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeUsage(child.pid!).rssKiB || 0)), 250);
  const begun = performance.now();
  const client = new LineClient(child);
  const call = modern("tools/call", { name: "library_search", arguments: { query: QUERIES.similarity[3] } });
  await client.request(call, 3_600_000);
  const ms = performance.now() - begun;
  peak = Math.max(peak, treeUsage(child.pid!).rssKiB || 0);
  const search = { query: QUERIES.substructure[3], mode: "substructure" };
  await client.request(modern("tools/call", { name: "library_search", arguments: search }), 600_000);
  const filled = treeUsage(child.pid!).rssKiB || 0;
  clearInterval(sampler);
  await client.close();
  return { ms, peakMiB: peak / 1024, filledMiB: filled / 1024, stderr };
}

rmSync(cache, { recursive: true, force: true });
console.error("first start (build)…");
const first = await serverStart();
console.error("second start (cache)…");
const second = await serverStart();
if (!/index read from/.test(second.stderr)) {
  throw new Error(`second start did not read the cache:\n${second.stderr}`);
}

await loadTestRDKit();
const library = await loadLibrary({ path: file, cacheDir: cache }, libraryIo, () => {});
const { index } = library;
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
const figures: Record<string, number> = {};
let identical = true;
for (const expected of oracle.similarity) {
  const q = copyWords(ecfp4Of(expected.query));
  const times: number[] = [];
  let found = similarityHits(index, q, 0, 10);
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    found = similarityHits(index, q, 0, 10);
    times.push(performance.now() - started);
  }
  const t07: number[] = [];
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    similarityHits(index, q, 0.7, 10);
    t07.push(performance.now() - started);
  }
  const ours = found.hits.map((h) => [index.ids[h.position], h.score]);
  const same = JSON.stringify(ours) === JSON.stringify(expected.top10);
  identical &&= same;
  const ms = median(times);
  rows.push(
    `| similarity top 10 \`${expected.query}\` | ${ms.toFixed(1)} ms (t ≥ 0.7: ${
      median(t07).toFixed(1)
    } ms) | ` +
      `${expected.ms.toFixed(0)} ms | ${(expected.ms / ms).toFixed(1)}× | ${
        same ? "identical" : "DIFFERENT"
      } |`,
  );
  figures[`similarity ${expected.query}`] = ms;
}
// A server fills RDKit's substructure libraries in the background once it answers; timed here on their own.
started = performance.now();
await library.shards.fillAll(() => Promise.resolve());
const fillMs = performance.now() - started;
figures["substructure fill ms"] = fillMs;
for (const expected of oracle.substructure) {
  started = performance.now();
  const found = await substructureHits(library.shards, expected.smarts, { limit: 10, budgetMs: 600_000 });
  const ms = performance.now() - started;
  const same = found.total === expected.count;
  identical &&= same;
  const hits = found.total.toLocaleString("en");
  rows.push(
    `| substructure \`${expected.smarts}\` (${hits} hits) | ${ms.toFixed(0)} ms | ${
      expected.ms.toFixed(0)
    } ms | ` +
      `${(expected.ms / ms).toFixed(1)}× | ${same ? "identical count" : `DIFFERENT (${expected.count})`} |`,
  );
  figures[`substructure ${expected.smarts}`] = ms;
}
// At a million rows whatever the file's size: the index repeated, popcount by popcount, as a real index lies,
// beside BulkTanimotoSimilarity over the file's fingerprints repeated as often, measured back to back.
const repeat = Math.max(1, Math.round(1_000_000 / count));
const scaled = repeatedIndex(index, repeat);
execFileSync(python, [
  script,
  "bulk",
  file,
  String(repeat),
  join(dir, "queries.json"),
  join(dir, "bulk.json"),
]);
const bulk = JSON.parse(readFileSync(join(dir, "bulk.json"), "utf8")) as {
  rows: number;
  ms: Record<string, number>;
};
for (const query of QUERIES.similarity) {
  const q = copyWords(ecfp4Of(query));
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    similarityHits(scaled, q, 0, 10);
    times.push(performance.now() - started);
  }
  const ms = Math.min(...times);
  const theirs = bulk.ms[query]!;
  rows.push(
    `| ${scaled.count.toLocaleString("en")} rows: similarity top 10 \`${query}\` | ${ms.toFixed(0)} ms | ` +
      `${theirs.toFixed(0)} ms (Bulk only) | ${(theirs / ms).toFixed(1)}× | |`,
  );
  figures[`million similarity ${query}`] = ms;
}

const buildUs = (first.ms * 1000) / count;
figures["first start ms"] = first.ms;
figures["cached start ms"] = second.ms;
figures["peak RSS MiB"] = second.peakMiB;
figures["filled RSS MiB"] = second.filledMiB;
const previous = loadPrevious("library");
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `\nLibrary: ${
    count.toLocaleString("en")
  } amides (${file}), RDKit Python ${oracle.rdkit}; load average at the ` +
    `end ${load}\n`,
);
console.log("| Step | chem-mcp | RDKit Python | ratio | result |");
console.log("| --- | --- | --- | --- | --- |");
console.log(
  `| first start: build, to the first answer | ${(first.ms / 1000).toFixed(0)} s (${
    buildUs.toFixed(0)
  } µs/molecule of wall time, ` +
    `two workers; peak RSS ${first.peakMiB.toFixed(0)} MiB) | ${
      oracle.build_us_per_molecule.toFixed(0)
    } µs/molecule ` +
    `per core | ${(oracle.build_us_per_molecule / buildUs).toFixed(2)}× | |`,
);
console.log(
  `| second start: cache, to the first answer | ${(second.ms / 1000).toFixed(1)} s (peak RSS ` +
    `${second.peakMiB.toFixed(0)} MiB, ${second.filledMiB.toFixed(0)} MiB with the substructure libraries ` +
    `filled; ${previous.speedupFromTime("cached start ms", second.ms)} of last run) | | | |`,
);
console.log(
  `| substructure libraries filled (in the background after the start) | ${
    (fillMs / 1000).toFixed(1)
  } s | | | |`,
);
for (const row of rows) console.log(row);
console.log(`\nResults ${identical ? "identical to RDKit's" : "DIFFER from RDKit's"}.`);
previous.save(figures);

/** `index`'s ECFP4 rows `times` times over, popcount by popcount (positions offset per copy). */
function repeatedIndex(index: LibraryIndex, times: number): LibraryIndex {
  const n = index.count * times;
  const ecfp = new Uint32Array(n * FP_WORDS);
  const positions = new Uint32Array(n);
  const bucketStart = new Uint32Array(index.bucketStart.length);
  let row = 0;
  for (let p = 0; p + 1 < index.bucketStart.length; p++) {
    bucketStart[p] = row;
    for (let copy = 0; copy < times; copy++) {
      for (let k = index.bucketStart[p]!; k < index.bucketStart[p + 1]!; k++) {
        ecfp.set(index.ecfp.subarray(k * FP_WORDS, (k + 1) * FP_WORDS), row * FP_WORDS);
        positions[row++] = index.positions[k]! + copy * index.count;
      }
    }
  }
  bucketStart[bucketStart.length - 1] = row;
  return { ...index, count: n, ecfp, positions, bucketStart };
}
