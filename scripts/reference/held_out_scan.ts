/**
 * Runs our chemistry over the whole held-out scan (scripts/reference/held_out.py's output, about 17,000 molecules
 * outside the validation set) and writes tests/data/reference/held_out.json: RDKit 2022.09's records, unchanged, of
 * every molecule on which some field differs or a tool refuses, plus every SAMPLE_EVERY-th other molecule, with the
 * scan's totals in the provenance. The suite then checks each of those molecules on every run.
 *
 * Usage: `npx deno run -A scripts/reference/held_out_scan.ts [/tmp/held_out_scan.json]` (several minutes).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { ROOT } from "../../tests/helpers/process.ts";
import {
  agrees,
  HELD_OUT_FIELDS,
  heldOutOurs,
  type HeldOutRecord,
  loadHeldOut,
} from "../../tests/reference/held_out_values.ts";

/** Every k-th agreeing molecule is kept too, so the suite also shows agreement it would lose. */
const SAMPLE_EVERY = 50;

const input = process.argv[2] ?? "/tmp/held_out_scan.json";
const scan = JSON.parse(readFileSync(input, "utf8")) as {
  provenance: Record<string, unknown>;
  molecules: HeldOutRecord[];
};
await loadHeldOut();
const differing: Record<string, number> = Object.fromEntries(HELD_OUT_FIELDS.map((f) => [f.key, 0]));
const refused: Record<string, number> = {};
const kept: HeldOutRecord[] = [];
let agreeing = 0;
const started = performance.now();
for (const [i, m] of scan.molecules.entries()) {
  const ours = heldOutOurs(m.smiles);
  let keep = false;
  if ("refused" in ours) {
    refused[ours.refused] = (refused[ours.refused] ?? 0) + 1;
    keep = true;
  } else {
    for (const f of HELD_OUT_FIELDS) {
      if (!agrees(f, ours, m)) {
        differing[f.key]! += 1;
        keep = true;
      }
    }
  }
  if (!keep && agreeing++ % SAMPLE_EVERY === 0) keep = true;
  if (keep) kept.push(m);
  if (i % 1000 === 0) console.error(`${i} molecules, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const provenance = {
  ...scan.provenance,
  selected_by: "scripts/reference/held_out_scan.ts",
  scan: {
    molecules: scan.molecules.length,
    differing,
    refused,
    kept: kept.length,
    sample_every: SAMPLE_EVERY,
    rule: `every molecule on which a field differed or a tool refused, plus every ${SAMPLE_EVERY}th other`,
  },
};
const out = join(ROOT, "tests/data/reference/held_out.json");
writeFileSync(out, JSON.stringify({ provenance, molecules: kept }) + "\n");
console.error(
  `${out}: ${kept.length} of ${scan.molecules.length} molecules`,
  JSON.stringify(provenance.scan),
);
