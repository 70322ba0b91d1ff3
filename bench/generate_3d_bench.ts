/**
 * generate_3d over the drug set of tests/data/drugs50.ts: wall time per molecule (ms), iterations, final DREIDING
 * RMS gradient and energy, then the distributions (min, median, p90, max) and totals. One warm-up molecule is run
 * first so JIT compilation is not charged to the first entry. The median and total are compared with the previous run.
 *
 * Run: deno run -A bench/generate_3d_bench.ts [--rounds 3] [--quiet]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { generate3d } from "../src/chem/conformer/index.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { loadPrevious } from "./previous.ts";

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const ROUNDS = Number(process.argv.includes("--rounds") ? arg("--rounds") : 3) || 3;
const QUIET = process.argv.includes("--quiet");

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
generate3d("CC(=O)Oc1ccccc1C(=O)O");

interface Row {
  name: string;
  heavy: number;
  atoms: number;
  ms: number;
  iterations: number;
  setup: number;
  rms: number;
  energy: number;
  converged: boolean;
  attempt: number;
}

const rows: Row[] = DRUGS50.map((d) => {
  const times: number[] = [];
  let last = generate3d(d.smiles);
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    last = generate3d(d.smiles);
    times.push(performance.now() - t0);
  }
  return {
    name: d.name,
    heavy: last.heavyAtomCount,
    atoms: last.atomCount,
    ms: quantile(times, 0.5),
    iterations: last.iterations,
    setup: last.setupIterations,
    rms: last.rmsGradient,
    energy: last.energy,
    converged: last.converged,
    attempt: last.attempt,
  };
});

if (!QUIET) {
  console.log(
    "molecule                     heavy atoms     ms  iter setup  rms(kcal/mol/Å)  E(kcal/mol) att",
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(28)} ${String(r.heavy).padStart(5)} ${String(r.atoms).padStart(5)} ` +
        `${r.ms.toFixed(1).padStart(6)} ${String(r.iterations).padStart(5)} ${String(r.setup).padStart(5)} ` +
        `${r.rms.toExponential(2).padStart(16)} ${r.energy.toFixed(2).padStart(12)} ${
          String(r.attempt).padStart(3)
        }` +
        `${r.converged ? "" : "  NOT CONVERGED"}`,
    );
  }
}

const ms = rows.map((r) => r.ms);
const rms = rows.map((r) => r.rms);
const summary = {
  molecules: rows.length,
  rounds: ROUNDS,
  ms_per_molecule: stats(ms),
  total_ms: round(ms.reduce((a, b) => a + b, 0), 1),
  rms_gradient_kcal_mol_A: stats(rms, 5),
  final_iterations: stats(rows.map((r) => r.iterations), 0),
  setup_iterations: stats(rows.map((r) => r.setup), 0),
  converged: rows.filter((r) => r.converged).length,
  first_attempt: rows.filter((r) => r.attempt === 1).length,
};
console.log(JSON.stringify(summary, null, 2));
const previous = loadPrevious("generate_3d");
const figures = { "median ms per molecule": summary.ms_per_molecule.median, "total ms": summary.total_ms };
for (const [row, value] of Object.entries(figures)) {
  console.log(
    `${row}: ${value} ms, vs previous run ${previous.speedupFromTime(row, value)} (above 1× is faster)`,
  );
}
previous.save(figures);

function stats(values: number[], digits = 1) {
  return {
    min: round(Math.min(...values), digits),
    median: round(quantile(values, 0.5), digits),
    p90: round(quantile(values, 0.9), digits),
    max: round(Math.max(...values), digits),
    mean: round(values.reduce((a, b) => a + b, 0) / values.length, digits),
  };
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
