/**
 * Time per call of run_reaction and convert on drug-sized input: an amide coupling enumerated over the drug set's
 * carboxylic acids and twenty amines, the 10,000-combination enumeration of the hostile-input test, a RECAP cut of
 * every drug, and SMILES to each output format and back for the drug set; an SD file of the drug set (63
 * records) to SMILES. Prints milliseconds (median and mean over the rounds) and the previous run's median over this
 * one (above 1× is faster). Run: deno run -A bench/reaction_convert_bench.ts [--rounds 5]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { runReaction } from "../src/chem/reaction.ts";
import { convertOne, convertSdf } from "../src/chem/convert.ts";
import { smartsMatch } from "../src/chem/substructure.ts";
import { ChemError } from "../src/errors.ts";
import { type Figures, loadPrevious, timer } from "./previous.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 5;
const previous = loadPrevious("reaction_convert");
const medians: Figures = {};
const time = timer(previous, medians, ROUNDS, { width: 62, digits: 1 });

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const roomy = () => ({ maxProducts: 1_000, deadline: Date.now() + 600_000 });
const drugs = DRUGS50.map((d) => d.smiles);
const acids = drugs.filter((s) => smartsMatch(s, "[CX3](=O)[OX2H1]").matched);
const amines = [
  "CN",
  "CCN",
  "CC(C)N",
  "NCc1ccccc1",
  "C1CCNCC1",
  "C1COCCN1",
  "CN1CCNCC1",
  "Nc1ccccc1",
  "NCCO",
  "CNC",
  "NC1CC1",
  "NCC(F)(F)F",
  "Nc1ccncc1",
  "COc1ccc(N)cc1",
  "NCCc1ccccc1",
  "C1CCNC1",
  "NC(C)(C)C",
  "NCC#C",
  "CCOC(=O)CN",
  "NC1CCCCC1",
];
const AMIDE = "[C:1](=[O:2])[OH].[N;!H0:3]>>[C:1](=[O:2])[N:3]";
const amide = runReaction(AMIDE, [acids, amines], roomy());
console.log(
  `amide coupling: ${acids.length} acids × ${amines.length} amines = ${amide.combinations} combinations, ` +
    `${amide.products.length} distinct products; rounds: ${ROUNDS}\n`,
);
await time(
  `run_reaction, amide coupling, ${amide.combinations} combinations`,
  () => runReaction(AMIDE, [acids, amines], roomy()),
);
await time("run_reaction, RECAP amide cut of each drug (one call per drug)", () => {
  for (const s of drugs) {
    runReaction("[C;!$(C([#7])[#7]):1](=!@[O:2])!@[#7;+0;!D1:3]>>*[C:1]=[O:2].*[#7:3]", [[s]], roomy());
  }
});
const chainsAcid = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}C(=O)O`);
const chainsAlcohol = Array.from({ length: 100 }, (_, i) => `${"C".repeat(i + 1)}O`);
await time("run_reaction, 10,000 ester combinations until TOO_MANY_PRODUCTS", () => {
  try {
    runReaction(
      "[C:1](=[O:2])[OH].[OH:3][C:4]>>[C:1](=[O:2])[O:3][C:4]",
      [chainsAcid, chainsAlcohol],
      roomy(),
    );
  } catch (error) {
    if (!(error instanceof ChemError) || error.code !== "TOO_MANY_PRODUCTS") throw error;
  }
});
for (const to of ["molblock", "molblock_v3000", "inchi", "inchikey"] as const) {
  await time(`convert SMILES → ${to}, ${drugs.length} drugs`, () => {
    for (const s of drugs) convertOne(s, "smiles", to);
  });
}
const blocks = drugs.map((s) => convertOne(s, "smiles", "molblock"));
await time(`convert MOL V2000 → SMILES, ${drugs.length} drugs`, () => {
  for (const b of blocks) convertOne(b, "molblock", "smiles");
});
const sdf = blocks.map((b) => `${b}$$$$\n`).join("");
await time(`convert SD file of ${drugs.length} records → SMILES`, () => convertSdf(sdf, "smiles"));
previous.save(medians);
