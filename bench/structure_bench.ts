/**
 * Time per call of find_mcs (FMCS over five beta-blockers) and retrosynthesis (BRICS + SA score over ten
 * drugs), plus MolJSON round trips and CML writing for reference. Prints milliseconds per call (median and
 * mean over the rounds) and the previous run's median over this one (above 1× is faster). Run: deno run -A bench/structure_bench.ts [--rounds 10]
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { findMcs } from "../src/chem/mcs.ts";
import { bricsDisconnections } from "../src/chem/brics.ts";
import { loadSaFragmentTable, saScore } from "../src/chem/sascore.ts";
import { toMolJson } from "../src/chem/moljson/writer.ts";
import { fromMolJson } from "../src/chem/moljson/reader.ts";
import { toCml } from "../src/chem/represent.ts";
import { type Figures, loadPrevious, timer } from "./previous.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 10;
const previous = loadPrevious("structure");
const medians: Figures = {};
const time = timer(previous, medians, ROUNDS, { width: 58, digits: 2 });

/** Five aryloxypropanolamine beta-blockers (shared ArO-CH2-CH(OH)-CH2-NH-iPr core). */
const BETA_BLOCKERS = [
  "CC(C)NCC(O)COc1cccc2ccccc12", // propranolol
  "COCCc1ccc(OCC(O)CNC(C)C)cc1", // metoprolol
  "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1", // atenolol
  "CC(C)NCC(O)COc1cccc2[nH]ccc12", // pindolol
  "CC(C)NCC(O)COc1ccc(COCCOC(C)C)cc1", // bisoprolol
];

/** Ten drugs for the one-step BRICS disconnection. */
const DRUGS = [
  "CC(=O)Nc1ccc(O)cc1", // paracetamol
  "CC(=O)Oc1ccccc1C(=O)O", // aspirin
  "CNC(=O)c1cc(Oc2ccc(NC(=O)Nc3ccc(Cl)c(C(F)(F)F)c3)cc2)ccn1", // sorafenib
  "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1", // imatinib
  "CCCc1nn(C)c2c1nc([nH]c2=O)-c1cc(ccc1OCC)S(=O)(=O)N1CCN(C)CC1", // sildenafil
  "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O", // atorvastatin
  "CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1", // fluoxetine
  "Cc1ccc(cc1)-c1cc(nn1-c1ccc(cc1)S(N)(=O)=O)C(F)(F)F", // celecoxib
  "CCCCc1nc(Cl)c(CO)n1Cc1ccc(cc1)-c1ccccc1-c1nn[nH]n1", // losartan
  "CCOC(=O)C1=C(COCCN)NC(C)=C(C1c1ccccc1Cl)C(=O)OC", // amlodipine
];

const t0 = performance.now();
await loadRDKit(readFileSync(RDKIT_WASM_PATH));
await loadSaFragmentTable();
console.log(`RDKit WASM load: ${(performance.now() - t0).toFixed(0)} ms; rounds: ${ROUNDS}\n`);

const mcs = findMcs(BETA_BLOCKERS);
console.log(
  `MCS of 5 beta-blockers: ${mcs.atom_count} atoms, ${mcs.bond_count} bonds, timed_out ${mcs.timed_out}`,
);
console.log(`  ${mcs.smarts}`);
await time("find_mcs, 5 beta-blockers (defaults, 2 s budget)", () => findMcs(BETA_BLOCKERS));
await time(
  "find_mcs, 5 beta-blockers, complete rings only",
  () => findMcs(BETA_BLOCKERS, { completeRingsOnly: true }),
);
console.log();

const scorer = (smiles: string) => saScore(smiles).score;
let cuts = 0;
for (const smiles of DRUGS) cuts += bricsDisconnections(smiles, scorer).disconnections.length;
console.log(`retrosynthesis of 10 drugs: ${cuts} BRICS disconnections in all`);
const all = await time("retrosynthesis, all 10 drugs (one call each)", () => {
  for (const smiles of DRUGS) bricsDisconnections(smiles, scorer);
});
const perCall = all.map((ms) => ms / DRUGS.length).sort((a, b) => a - b);
console.log(
  `${"  = per drug".padEnd(58)} median ${
    (perCall[Math.floor(perCall.length / 2)] ?? 0).toFixed(2).padStart(8)
  } ms`,
);
for (const smiles of DRUGS.slice(2, 6)) {
  await time(`retrosynthesis ${smiles.slice(0, 44)}`, () => bricsDisconnections(smiles, scorer));
}
console.log();

await time("SMILES -> MolJSON -> SMILES, 10 drugs", () => {
  for (const smiles of DRUGS) fromMolJson(toMolJson(smiles));
});
await time("CML, 10 drugs", () => {
  for (const smiles of DRUGS) toCml(smiles);
});
previous.save(medians);
