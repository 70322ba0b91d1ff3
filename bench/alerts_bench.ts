/**
 * PAINS + Brenk screening and SA score throughput (molecules/s) over drug-like SMILES, each as a ratio to the
 * bare RDKit baseline "parse + get_descriptors". Also prints the one-time costs: query compilation and the SA
 * fragment-table decode. Run: deno run -A bench/alerts_bench.ts [--rounds 20]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { loadRDKit, rdkit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { brenkCheck, painsCheck } from "../src/chem/alerts.ts";
import { saFragmentTableDecodeMs, saScoreOfMol } from "../src/chem/sascore.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 20;

const DRUGS = [
  "CC(=O)Oc1ccccc1C(=O)O",
  "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
  "CC(=O)Nc1ccc(O)cc1",
  "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
  "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1",
  "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
  "CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1",
  "COc1ccc2[nH]c(nc2c1)S(=O)Cc1ncc(C)c(OC)c1C",
  "CCCCc1nc(Cl)c(CO)n1Cc1ccc(cc1)-c1ccccc1-c1nn[nH]n1",
  "OC(=O)Cc1ccccc1Nc1c(Cl)cccc1Cl",
  "OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O",
  "OC(=O)COCCN1CCN(CC1)C(c1ccccc1)c1ccc(Cl)cc1",
  "CCOC(=O)N1CCC(=C2c3ccc(Cl)cc3CCc3cccnc23)CC1",
  "Cc1ccc(cc1)-c1cc(nn1-c1ccc(cc1)S(N)(=O)=O)C(F)(F)F",
  "OC1(CCN(CCCC(=O)c2ccc(F)cc2)CC1)c1ccc(Cl)cc1",
  "CCCc1nn(C)c2c1nc([nH]c2=O)-c1cc(ccc1OCC)S(=O)(=O)N1CCN(C)CC1",
  "CCOC(=O)C1=C(COCCN)NC(C)=C(C1c1ccccc1Cl)C(=O)OC",
  "CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O",
  "CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5",
  "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O",
  "N[C@@H](Cc1ccc(O)c(O)c1)C(=O)O",
  "OC(=O)c1cc(ccc1O)N=Nc1ccc(cc1)S(=O)(=O)Nc1ccccn1",
  "COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3)CC1)C2",
  "Clc1ccc2c(c1)C(=NCc1nncn1-2)c1ccccc1F",
];

function rate(label: string, fn: (smiles: string) => void): number {
  for (const s of DRUGS) fn(s); // warm-up (query compilation, table decode)
  const start = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (const s of DRUGS) fn(s);
  const perSecond = (ROUNDS * DRUGS.length) / ((performance.now() - start) / 1000);
  console.log(`${label.padEnd(34)} ${perSecond.toFixed(0).padStart(7)} molecules/s`);
  return perSecond;
}

function withParsed(
  smiles: string,
  fn: (mol: NonNullable<ReturnType<ReturnType<typeof rdkit>["get_mol"]>>) => void,
) {
  const mol = rdkit().get_mol(smiles)!;
  try {
    fn(mol);
  } finally {
    mol.delete();
  }
}

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const compileStart = performance.now();
withParsed("C", (mol) => {
  painsCheck(mol);
  brenkCheck(mol);
});
console.log(`PAINS + Brenk query compilation (once): ${(performance.now() - compileStart).toFixed(1)} ms`);
withParsed("C", saScoreOfMol);
console.log(`SA fragment table decode (once): ${saFragmentTableDecodeMs()?.toFixed(1)} ms`);

const base = rate("baseline parse + get_descriptors", (s) => withParsed(s, (m) => m.get_descriptors()));
const alerts = rate("parse + PAINS (480) + Brenk (105)", (s) =>
  withParsed(s, (m) => {
    painsCheck(m);
    brenkCheck(m);
  }));
const sa = rate("parse + SA score", (s) => withParsed(s, saScoreOfMol));
console.log(
  `PAINS+Brenk cost / baseline: ${(base / alerts).toFixed(2)}x   SA score cost / baseline: ${
    (base / sa).toFixed(2)
  }x`,
);
