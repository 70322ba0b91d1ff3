/**
 * standardize over 1,000 drug-like molecules (the first 1,000 of the validation set, tests/data/reference/
 * molecules.smi) through batch's list machinery (src/tools/list.ts, in place, one worker), against RDKit's Python
 * in the same run, alternating round by round so that both meet the same machine: Python's StandardizeSmiles +
 * TautomerEnumerator().Canonicalize (the yardstick for ours, all four steps), and ChargeParent (ours without the
 * tautomer step). Python is timed inside Python (no interpreter start). Prints seconds per
 * round (median, min) and our median over each of Python's. Needs `/usr/bin/python3` with RDKit.
 * Run: deno run -A bench/standardize_bench.ts [--rounds 3]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { runList } from "../src/tools/list.ts";
import { standardizeTool } from "../src/tools/standardize.ts";
import type { Tool } from "../src/tools/tool.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const N = 1_000;

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const smiles = readFileSync("tests/data/reference/molecules.smi", "utf8").split("\n")
  .filter((l) => l && !l.startsWith("#")).slice(0, N).map((l) => l.split("\t")[0]!);

const PYTHON = `
import sys, time
from rdkit import Chem, RDLogger
from rdkit.Chem.MolStandardize import rdMolStandardize as S
RDLogger.DisableLog("rdApp.*")
smiles = sys.stdin.read().split()
te = S.TautomerEnumerator()
t = time.perf_counter()
for s in smiles:
    try:
        te.Canonicalize(Chem.MolFromSmiles(S.StandardizeSmiles(s)))
    except Exception:
        pass
a = time.perf_counter() - t
t = time.perf_counter()
for s in smiles:
    m = Chem.MolFromSmiles(s)
    if m is not None:
        Chem.MolToSmiles(S.ChargeParent(m))
print(a, time.perf_counter() - t)
`;

function python(): { tautomer: number; chargeParent: number } {
  const out = spawnSync("/usr/bin/python3", ["-c", PYTHON], { input: smiles.join("\n"), encoding: "utf8" });
  if (out.status !== 0) throw new Error(`python failed: ${out.stderr}`);
  const [tautomer, chargeParent] = out.stdout.trim().split(/\s+/).map(Number);
  return { tautomer: tautomer!, chargeParent: chargeParent! };
}

async function ours(): Promise<{ seconds: number; answered: number }> {
  const t = performance.now();
  const answer = await runList(standardizeTool as unknown as Tool, { smiles_list: smiles });
  const items = (answer.results ?? answer.items ?? []) as unknown[];
  return { seconds: (performance.now() - t) / 1000, answered: items.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mine: number[] = [];
const taut: number[] = [];
const parent: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const a = await ours();
  const b = python();
  mine.push(a.seconds);
  taut.push(b.tautomer);
  parent.push(b.chargeParent);
  console.log(
    `round ${round + 1}: ours ${
      a.seconds.toFixed(2)
    } s (${a.answered} entries), Python StandardizeSmiles + ` +
      `Canonicalize ${b.tautomer.toFixed(2)} s, ChargeParent ${b.chargeParent.toFixed(2)} s`,
  );
}
const m = median(mine);
console.log(
  `\n${N} molecules, ${ROUNDS} rounds: ours median ${m.toFixed(2)} s (min ${
    Math.min(...mine).toFixed(2)
  }); ` +
    `Python StandardizeSmiles + Canonicalize median ${median(taut).toFixed(2)} s (ratio ` +
    `${(m / median(taut)).toFixed(2)}×); Python ChargeParent median ${median(parent).toFixed(2)} s (ratio ` +
    `${(m / median(parent)).toFixed(2)}×)`,
);
