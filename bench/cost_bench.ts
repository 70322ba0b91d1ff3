/**
 * What RDKit costs on inputs whose cost is out of proportion to their size, the measurements behind the cost
 * model (src/chem/cost.ts, docs/security.md): parse (get_mol), descriptors (get_descriptors) and CIP labelling
 * (get_mol with assignCIPLabels) of dense dummy-atom graphs, graphs of at most four neighbours per atom, and
 * stereocentre-rich perhydropolyacenes, each with the model's reading of its text. One fresh process per input,
 * so one runaway cannot delay the others, stopped after `--limit` seconds (reported as `>limit`).
 * Run: deno run -A bench/cost_bench.ts [--limit 60] [--slow] (`--slow` adds the inputs of 20 s and more)
 */
import { spawnSync } from "node:child_process";
import process from "node:process";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { rdkit } from "../src/chem/rdkit.ts";
import { costRefusal, isLight, textCost } from "../src/chem/cost.ts";
import { denseGraph } from "../tests/data/costly.ts";
import { perhydroPolyacene } from "../tests/data/runaway.ts";

/** Input specs: `g:atoms:closures[:maxDegree]` (dummy atoms) or `pps:rings` (stereo perhydropolyacene). */
const FAST = [
  "g:12:19",
  "g:12:30",
  "g:12:40",
  "g:24:30",
  "g:24:40",
  "g:24:60",
  "g:48:40",
  "g:48:80",
  "g:96:60",
  "g:96:120",
  "g:8:21",
  "g:150:32:4",
  "g:150:140:4",
  "g:500:178:4",
  "g:500:273:4",
  "g:100:500",
  "g:150:600",
  "pp:90",
  ...[4, 6, 8, 10, 12, 14, 15, 16, 17].map((k) => `pps:${k}`),
];
const SLOW = ["g:24:80", "g:48:120", "g:150:1164"];

function smilesOf(spec: string): string {
  const [kind, a, b, c] = spec.split(":");
  if (kind === "g") return denseGraph(Number(a), Number(b), "*", 1, c ? Number(c) : Infinity);
  return perhydroPolyacene(Number(a), kind === "pps");
}

async function measure(spec: string): Promise<void> {
  await loadTestRDKit();
  const R = rdkit();
  // First calls build RDKit's own tables; not the input's cost.
  R.get_mol("C[C@H](N)O", JSON.stringify({ assignCIPLabels: true }))?.delete();
  const warm = R.get_mol("CCO")!;
  warm.get_descriptors();
  warm.delete();
  const smiles = smilesOf(spec);
  const time = (fn: () => void) => {
    const started = performance.now();
    fn();
    return Math.round(performance.now() - started);
  };
  let mol = R.get_mol("C");
  const parse = time(() => (mol?.delete(), mol = R.get_mol(smiles)));
  const descriptors = spec.startsWith("pps") ? "" : time(() => mol!.get_descriptors());
  const cip = spec.startsWith("pps")
    ? time(() => R.get_mol(smiles, JSON.stringify({ assignCIPLabels: true }))?.delete())
    : "";
  mol?.delete();
  const cost = textCost(smiles);
  const verdict = costRefusal(cost) ? "refused" : isLight(cost) ? "light" : "costly";
  console.log(
    `| ${spec} | ${smiles.length} | ${cost.atoms} | ${cost.ringClosures} | ${cost.excessDegree} | ` +
      `${cost.stereoAtoms} | ${parse} | ${descriptors} | ${cip} | ${verdict} |`,
  );
}

const child = process.argv.indexOf("--one");
if (child >= 0) await measure(process.argv[child + 1]!);
else {
  const limit = Number(process.argv[process.argv.indexOf("--limit") + 1]) || 60;
  const specs = process.argv.includes("--slow") ? [...FAST, ...SLOW] : FAST;
  console.log(
    "| input | chars | atoms | ring closures | excess degree | stereo | parse ms | descriptors ms | CIP ms | verdict |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const spec of specs) {
    const run = spawnSync(process.execPath, ["run", "-A", new URL(import.meta.url).pathname, "--one", spec], {
      encoding: "utf8",
      timeout: limit * 1000,
    });
    process.stdout.write(run.stdout || `| ${spec} | >${limit} s |\n`);
  }
}
