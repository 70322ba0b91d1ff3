/**
 * R-group decomposition of 1,000 molecules (the first 1,000 of CHEMBL2321810, Debian's rdkit-data, on their
 * scaffold), ours against RDKit's Python `RGroupDecompose` with default parameters in the same run, alternating
 * round by round so that both meet the same machine; then the whole rgroup_decompose call with a Free–Wilson fit
 * (ols and ridge) and the hostile cores' refusals. Prints seconds per round (median, min) and our median over
 * Python's. Needs `/usr/bin/python3` with RDKit (`apt-get install -y python3-rdkit rdkit-data`).
 * Run: deno run -A bench/rgroup_bench.ts [--rounds 3]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import * as v from "valibot";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { decompose } from "../src/chem/rgroup.ts";
import { rgroupDecomposeTool } from "../src/tools/rgroup_decompose.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const DATA = "/usr/share/RDKit/Contrib/FreeWilson/data/";
const CORE = "[1*]S(=O)(=O)c1cc([10*])c(O[3*])c(C#N)c1";
const N = 1_000;

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const lines = readFileSync(DATA + "CHEMBL2321810.smi", "utf8").trim().split("\n").slice(0, N).map((l) =>
  l.split(/\s+/)
);
const smiles = lines.map((l) => l[0]!);
const activity = new Map(
  readFileSync(DATA + "CHEMBL2321810_act.csv", "utf8").trim().split("\n").slice(1).map((l) => {
    const [name, value] = l.split(",");
    return [name!, Number(value)] as const;
  }),
);
const values = lines.map((l) => activity.get(l[1]!)!);

/** Python's seconds for parsing and decomposing the same SMILES, timed inside Python (no interpreter start). */
const PYTHON = `
import sys, time
from rdkit import Chem, RDLogger
from rdkit.Chem import rdRGroupDecomposition as rgd
RDLogger.DisableLog("rdApp.*")
smiles = sys.stdin.read().split()
t = time.perf_counter()
mols = [Chem.MolFromSmiles(s) for s in smiles]
rows, unmatched = rgd.RGroupDecompose([Chem.MolFromSmiles(sys.argv[1])], mols, asSmiles=True, asRows=True)
print(time.perf_counter() - t, len(rows))
`;

function python(): { seconds: number; rows: number } {
  const out = spawnSync("/usr/bin/python3", ["-c", PYTHON, CORE], {
    input: smiles.join("\n"),
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(`python failed: ${out.stderr}`);
  const [seconds, rows] = out.stdout.trim().split(/\s+/).map(Number);
  return { seconds: seconds!, rows: rows! };
}

function ours(): { seconds: number; rows: number } {
  const t = performance.now();
  const d = decompose(smiles, [CORE], { deadline: Date.now() + 600_000 });
  return { seconds: (performance.now() - t) / 1000, rows: d.rows.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ourTimes: number[] = [];
const theirTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const a = ours();
  const b = python();
  if (a.rows !== b.rows) throw new Error(`rows differ: ours ${a.rows}, RDKit ${b.rows}`);
  ourTimes.push(a.seconds);
  theirTimes.push(b.seconds);
  console.log(`round ${round + 1}: ours ${a.seconds.toFixed(2)} s, RDKit Python ${b.seconds.toFixed(2)} s`);
}
console.log(
  `\n${N} molecules, ${ourTimes.length} rounds: ours median ${median(ourTimes).toFixed(2)} s (min ` +
    `${Math.min(...ourTimes).toFixed(2)}), Python median ${median(theirTimes).toFixed(2)} s (min ` +
    `${Math.min(...theirTimes).toFixed(2)}); ratio ${(median(ourTimes) / median(theirTimes)).toFixed(2)}×`,
);

for (const method of ["ols", "ridge"] as const) {
  const t = performance.now();
  const answer = await rgroupDecomposeTool.run(
    v.parse(rgroupDecomposeTool.input, { smiles_list: smiles, core: CORE, values, method }),
  );
  const text = JSON.stringify(answer);
  console.log(
    `rgroup_decompose with ${method} fit: ${
      ((performance.now() - t) / 1000).toFixed(2)
    } s, r² ${answer.fit?.r2}, ` +
      `${answer.rows.length} rows, answer ${text.length} characters`,
  );
}
