/**
 * Molecules per second for calc_properties (descriptors + QED), a PAINS + Brenk scan and the SA score over
 * 1,000 drug-like molecules (the drug validation set, repeated), each as a ratio to the bare RDKit descriptor call
 * (get_mol + get_descriptors + delete) in the same run, and to the previous run. Run: deno run -A bench/drug_likeness_bench.ts
 */
import { readFileSync } from "node:fs";
import { loadRDKit, rdkit, withMol } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { calcProperties } from "../src/chem/properties.ts";
import { brenkCheck, painsCheck } from "../src/chem/alerts.ts";
import { loadSaFragmentTable, saFragmentTableDecodeMs, saScoreOfMol } from "../src/chem/sascore.ts";
import { loadPrevious } from "./previous.ts";

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
// One-time costs, measured before anything warms them up.
const compileStart = performance.now();
withMol("C", (mol) => [painsCheck(mol), brenkCheck(mol)]);
const compileMs = performance.now() - compileStart;
await loadSaFragmentTable();
withMol("C", saScoreOfMol);
console.log(
  `one-time: PAINS + Brenk query compilation ${compileMs.toFixed(1)} ms, ` +
    `SA fragment table decode ${saFragmentTableDecodeMs()?.toFixed(1)} ms\n`,
);
const library = Array.from({ length: 1000 }, (_, i) => DRUGS50[i % DRUGS50.length]!.smiles);

function rate(fn: (smiles: string) => unknown): number {
  for (const smiles of library.slice(0, 100)) fn(smiles); // warm-up: JIT, lazily compiled queries
  const start = performance.now();
  for (const smiles of library) fn(smiles);
  return library.length / ((performance.now() - start) / 1000);
}

const bare = rate((smiles) => {
  const mol = rdkit().get_mol(smiles)!;
  mol.get_descriptors();
  mol.delete();
});
const rows: [string, number][] = [
  ["bare RDKit get_mol + get_descriptors", bare],
  ["calc_properties (descriptors + QED with 116 alerts)", rate(calcProperties)],
  [
    "PAINS (480) + Brenk (105) scan",
    rate((smiles) => withMol(smiles, (mol) => [painsCheck(mol), brenkCheck(mol)])),
  ],
  ["sa_score (Ertl & Schuffenhauer 2009)", rate((smiles) => withMol(smiles, saScoreOfMol))],
];
console.log(`1,000 drug-like molecules (${DRUGS50.length} distinct, repeated)\n`);
const previous = loadPrevious("drug_likeness");
console.log("| task | molecules/s | ratio to bare RDKit | vs previous run |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, r] of rows) {
  console.log(`| ${name} | ${r.toFixed(0)} | ${(r / bare).toFixed(3)}× | ${previous.speedup(name, r)} |`);
}
previous.save(Object.fromEntries(rows));
