/**
 * Sample web application: POST /similarity over a 10,000-molecule library, in process (the handler called with
 * Request objects, so JSON parsing, validation, fingerprinting, Tanimoto and sorting are all counted), as
 * molecules/s and as a ratio to fingerprinting each entry with a bare RDKit call (get_mol +
 * get_morgan_fp_as_uint8array + delete) in the same run.
 *
 * The library is a deterministic enumeration: each drug of tests/data/drugs50.ts with a substituent prefixed
 * (bonded to its first atom) and one appended (bonded to its last atom), keeping the first 10,000 distinct
 * variants RDKit accepts. Run: deno run -A bench/webapp_bench.ts
 */
import { readFileSync } from "node:fs";
import { loadRDKit, rdkit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { createWebApp } from "../src/webapp/handler.ts";
import { loadPrevious } from "./previous.ts";

const SIZE = 10_000;
const PREFIXES = [
  "",
  "C",
  "CC",
  "F",
  "Cl",
  "Br",
  "N",
  "O",
  "CO",
  "CN",
  "OC",
  "NC",
  "FC(F)(F)",
  "N#C",
  "c1ccccc1",
];
const SUFFIXES = [
  "",
  "C",
  "CC",
  "F",
  "Cl",
  "Br",
  "N",
  "O",
  "OC",
  "C(F)(F)F",
  "C#N",
  "CCO",
  "CN",
  "C(C)C",
  "I",
];
const MORGAN = JSON.stringify({ radius: 2, nBits: 2048 });

await loadRDKit(readFileSync(RDKIT_WASM_PATH));

function isValid(smiles: string): boolean {
  const mol = rdkit().get_mol(smiles);
  const ok = !!mol && mol.is_valid();
  mol?.delete();
  return ok;
}

function enumerate(): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const suffix of SUFFIXES) {
    for (const prefix of PREFIXES) {
      for (const drug of DRUGS50) {
        const smiles = prefix + drug.smiles + suffix;
        if (seen.has(smiles) || !isValid(smiles)) continue;
        seen.add(smiles);
        out.push(smiles);
        if (out.length === SIZE) return out;
      }
    }
  }
  throw new Error(`only ${out.length} valid variants; add substituents`);
}

const library = enumerate();
const query = DRUGS50[0]!.smiles;
const app = createWebApp();
const body = JSON.stringify({ query, library, threshold: 0.3 });

async function search(): Promise<number> {
  const res = await app(
    new Request("http://bench/similarity", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );
  if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
  return ((await res.json()) as unknown[]).length;
}

function bare(): void {
  for (const smiles of library) {
    const mol = rdkit().get_mol(smiles)!;
    mol.get_morgan_fp_as_uint8array(MORGAN);
    mol.delete();
  }
}

async function timed(fn: () => unknown, rounds = 3): Promise<number> {
  await fn(); // warm-up
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const hits = await search();
const bareMs = await timed(bare);
const searchMs = await timed(search);
const bareRate = SIZE / (bareMs / 1000);
const searchRate = SIZE / (searchMs / 1000);
console.log(
  `${SIZE} library molecules (${DRUGS50.length} drugs × substituent variants), query ${DRUGS50[0]!.name}, ` +
    `threshold 0.3: ${hits} hits; best of 3 after warm-up\n`,
);
const previous = loadPrevious("webapp");
const bareRow = "bare RDKit get_mol + get_morgan_fp_as_uint8array + delete";
const searchRow = "POST /similarity (handler, JSON in/out)";
console.log("| task | time (ms) | molecules/s | ratio to bare RDKit | vs previous run |");
console.log("| --- | ---: | ---: | ---: | ---: |");
console.log(
  `| ${bareRow} | ${bareMs.toFixed(0)} | ${bareRate.toFixed(0)} | 1.000× | ${
    previous.speedup(bareRow, bareRate)
  } |`,
);
console.log(
  `| ${searchRow} | ${searchMs.toFixed(0)} | ${searchRate.toFixed(0)} | ` +
    `${(searchRate / bareRate).toFixed(3)}× | ${previous.speedup(searchRow, searchRate)} |`,
);
previous.save({ [bareRow]: bareRate, [searchRow]: searchRate });
