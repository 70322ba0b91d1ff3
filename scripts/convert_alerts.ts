/**
 * Converts the PAINS (Baell & Holloway, J. Med. Chem. 2010, 53, 2719) and Brenk (Brenk et al., ChemMedChem 2008,
 * 3, 435) SMARTS catalogs of RDKit's FilterCatalog (Code/GraphMol/FilterCatalog/, BSD-3-Clause) into the TypeScript
 * data modules src/chem/data/pains.ts and src/chem/data/brenk.ts.
 *
 * Usage (from /work/main):
 *   deno run -A scripts/convert_alerts.ts <dir with pains_a.in pains_b.in pains_c.in Filters.cpp> [rdkit-commit]
 * e.g. after `for f in pains_a.in pains_b.in pains_c.in Filters.cpp; do git -C <rdkit> show
 *   HEAD:Code/GraphMol/FilterCatalog/$f > /tmp/fc/$f; done`.
 *
 * RDKit builds each catalog entry with `SmartsToMol(smarts, 0, mergeHs=true)`: explicit-hydrogen query atoms
 * ([#1]) are folded into their neighbours as H-count queries. MinimalLib's `get_qmol` cannot merge, so this
 * script lets RDKit itself do it (query → RDKit JSON → `get_mol(json, {mergeQueryHs: true})`) and stores the
 * merged query's SMARTS next to the original. It checks that every merged SMARTS re-parses to itself, and that
 * every entry has RDKit's default count condition (max = 0: one match triggers the alert).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadRDKit, rdkit } from "../src/chem/rdkit.ts";

interface Entry {
  name: string;
  smarts: string;
  max: number;
  comment: string;
}

/** Reads a C string literal sequence (adjacent literals concatenate) starting at `pos`. */
function cStrings(src: string, start: number): { value: string; end: number } {
  let pos = start;
  let value = "";
  for (;;) {
    while (/\s/.test(src[pos] ?? "")) pos++;
    if (src[pos] !== '"') return { value, end: pos };
    pos++;
    while (src[pos] !== '"') {
      if (src[pos] === "\\") {
        const next = src[pos + 1];
        value += next === "n" ? "\n" : next === "t" ? "\t" : next;
        pos += 2;
      } else {
        value += src[pos++];
      }
    }
    pos++;
  }
}

/** Parses `{name, smarts, max, comment}` records of a `const FilterData_t NAME[] = { … };` array. */
function filterData(src: string, arrayName: string): Entry[] {
  const head = src.indexOf(`const FilterData_t ${arrayName}[] = {`);
  if (head < 0) throw new Error(`array ${arrayName} not found`);
  let pos = src.indexOf("{", head) + 1;
  const entries: Entry[] = [];
  for (;;) {
    while (/[\s,]/.test(src[pos] ?? "")) pos++;
    if (src[pos] === "}") break;
    if (src[pos] !== "{") throw new Error(`unexpected '${src[pos]}' in ${arrayName} at ${pos}`);
    const name = cStrings(src, pos + 1);
    pos = name.end + 1;
    const smarts = cStrings(src, pos);
    pos = smarts.end + 1;
    const maxMatch = /^\s*(\d+)\s*,/.exec(src.slice(pos, pos + 40));
    if (!maxMatch) throw new Error(`no max count for ${name.value}`);
    pos += maxMatch[0].length;
    const comment = cStrings(src, pos);
    pos = src.indexOf("}", comment.end) + 1;
    entries.push({
      name: name.value,
      smarts: smarts.value,
      max: Number(maxMatch[1]),
      comment: comment.value,
    });
  }
  return entries;
}

/** The SMARTS of the query RDKit's FilterCatalog would build (explicit-H query atoms merged). */
function mergedSmarts(smarts: string): string {
  const r = rdkit();
  const q = r.get_qmol(smarts);
  if (!q || !q.is_valid()) throw new Error(`RDKit rejects SMARTS ${smarts}`);
  const json = q.get_json();
  q.delete();
  const opts = { sanitize: false, removeHs: false, assignStereo: false, mergeQueryHs: true };
  const merged = r.get_mol(json, JSON.stringify(opts));
  if (!merged) throw new Error(`merge failed for ${smarts}`);
  const out = merged.get_smarts();
  merged.delete();
  const again = r.get_qmol(out);
  const roundTrip = again?.get_smarts();
  again?.delete();
  if (roundTrip !== out) throw new Error(`merged SMARTS does not round-trip: ${out} -> ${roundTrip}`);
  return out;
}

function moduleText(
  constName: string,
  entries: { family: string; entry: Entry }[],
  header: string,
): string {
  const rows = entries.map(({ family, entry }) => {
    if (entry.max !== 0) throw new Error(`${entry.name}: max count ${entry.max} not handled`);
    if (entry.comment) throw new Error(`${entry.name}: comment '${entry.comment}' not handled`);
    return `  [${JSON.stringify(entry.name)}, ${JSON.stringify(family)}, ${JSON.stringify(entry.smarts)}, ` +
      `${JSON.stringify(mergedSmarts(entry.smarts))}],`;
  });
  return `${header}
/** Rows: [RDKit entry name, family, SMARTS as RDKit ships it, SMARTS of RDKit's H-merged query (matched)]. */
export const ${constName}: readonly (readonly [string, string, string, string])[] = [
${rows.join("\n")}
];
`;
}

async function main(): Promise<void> {
  const [dir, commit = "unknown"] = Deno.args;
  if (!dir) {
    throw new Error("usage: deno run -A scripts/convert_alerts.ts <FilterCatalog dir> [rdkit-commit]");
  }
  const require = createRequire(import.meta.url);
  await loadRDKit(readFileSync(require.resolve("@rdkit/rdkit/RDKit_minimal.wasm")));
  const read = (f: string) => Deno.readTextFileSync(`${dir}/${f}`);

  const pains = [
    ...filterData(read("pains_a.in"), "PAINS_A").map((entry) => ({ family: "PAINS_A", entry })),
    ...filterData(read("pains_b.in"), "PAINS_B").map((entry) => ({ family: "PAINS_B", entry })),
    ...filterData(read("pains_c.in"), "PAINS_C").map((entry) => ({ family: "PAINS_C", entry })),
  ];
  const brenk = filterData(read("Filters.cpp"), "BRENK").map((entry) => ({ family: "Brenk", entry }));
  const source = (files: string) =>
    `// Generated by scripts/convert_alerts.ts — do not edit. Provenance: docs/data/{pains,brenk}.md.
// Source: RDKit Code/GraphMol/FilterCatalog/${files} (commit ${commit}),
// Copyright (c) 2015, Novartis Institutes for BioMedical Research Inc., BSD-3-Clause
// (LICENSES/RDKit-BSD-3-Clause.txt).`;
  const painsText = moduleText(
    "PAINS_ALERTS",
    pains,
    `${source("pains_a.in, pains_b.in, pains_c.in")}
// Baell & Holloway, J. Med. Chem. 2010, 53, 2719, doi:10.1021/jm901137j. ${pains.length} classes.
`,
  );
  const brenkText = moduleText(
    "BRENK_ALERTS",
    brenk,
    `${source("Filters.cpp (BRENK array)")}
// Brenk et al., ChemMedChem 2008, 3, 435, doi:10.1002/cmdc.200700139. ${brenk.length} alerts.
`,
  );
  const painsFile = new URL("../src/chem/data/pains.ts", import.meta.url);
  const brenkFile = new URL("../src/chem/data/brenk.ts", import.meta.url);
  Deno.writeTextFileSync(painsFile, painsText);
  Deno.writeTextFileSync(brenkFile, brenkText);
  // Keep the generated files stable under the project's formatter.
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", painsFile.pathname, brenkFile.pathname],
  })
    .output();
  const count = (f: string) => pains.filter((p) => p.family === f).length;
  console.log(
    `PAINS ${pains.length} (A ${count("PAINS_A")}, B ${count("PAINS_B")}, C ${count("PAINS_C")}), ` +
      `Brenk ${brenk.length}`,
  );
}

await main();
