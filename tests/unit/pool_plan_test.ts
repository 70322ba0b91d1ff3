// Where each call runs (src/tools/placement.ts): every tool declares its placement beside its schemas, its cost
// reads every molecule, pattern, block and list among its arguments, and one plan says where, within which
// deadline and of which kind. MOL blocks are read as RDKit reads them (V3000 continuation lines, any case).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { ALL_TOOLS, WORKER_TOOLS } from "../../src/tools/registry.ts";
import {
  ITEMS_SUFFIX,
  molBlocksCost,
  planCall,
  POOLED_DEADLINE_MS,
  textsCost,
  warmUpCalls,
} from "../../src/tools/placement.ts";
import { LIGHT_MAX_ATOMS, LIGHT_MAX_TOTAL_ATOMS, molBlockCost } from "../../src/chem/cost.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { ChemError } from "../../src/errors.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";

const byName = new Map(WORKER_TOOLS.map((tool) => [tool.name, tool]));
const tool = (name: string): Tool => byName.get(name)!;
const BIG = "C".repeat(LIGHT_MAX_ATOMS + 1);
/** 66 atoms and 33 ring closures: past the light ring-closure limit, well within the refusal limits. */
const LABELS = Array.from({ length: 33 }, (_, i) => `C%${i + 10}`).join("");
const LADDER = LABELS + LABELS;
const plan = (name: string, args: Record<string, unknown>) => {
  const t = tool(name);
  return planCall(t, v.parse(t.input, args) as Record<string, unknown>);
};

/** The tools whose placement these tests pin (tools added later declare theirs beside their schemas too). */
const PLACED = [
  "name_to_smiles",
  "parse_smiles",
  "canonical_smiles",
  "ecfp4",
  "tanimoto",
  "smarts_match",
  "calc_properties",
  "lipinski_check",
  "sa_score",
  "pains_check",
  "brenk_check",
  "admet_profile",
  "boiled_egg",
  "find_mcs",
  "generate_3d",
  "retrosynthesis",
  "smiles_to_moljson",
  "moljson_to_smiles",
  "representation_router",
  "molecule_context_pack",
  "batch",
  "similarity_search",
  "depict",
  "run_reaction",
  "convert",
];

test("every tool declares where it runs; the name lists are gone", () => {
  for (const name of PLACED) assert.ok(tool(name).placement, `${name} declares its placement`);
  assert.ok(ALL_TOOLS.length >= PLACED.length);
  const where = (name: string) => tool(name).placement?.where;
  assert.equal(where("name_to_smiles"), "in_place");
  assert.equal(where("batch"), "in_place");
  assert.equal(where("similarity_search"), "in_place", "its parts are pooled");
  assert.equal(where("similarity_search:part"), "pool");
  for (const name of ["canonical_smiles", "ecfp4", "tanimoto", "smiles_to_moljson", "moljson_to_smiles"]) {
    assert.equal(where(name), "by_cost", name);
  }
  for (const name of ["calc_properties", "depict", "convert", "generate_3d"]) {
    assert.equal(where(name), "pool", name);
  }
});

test("a plan: in place when light, pooled bounded, possibly long past the light limits or with a limit of its own", () => {
  assert.deepEqual(plan("canonical_smiles", { smiles: "CCO" }), {
    where: "in_place",
    deadlineMs: POOLED_DEADLINE_MS,
    kind: "bounded",
    long: false,
    name: "canonical_smiles",
  });
  assert.equal(plan("canonical_smiles", { smiles: BIG }).where, "pool");
  assert.equal(plan("canonical_smiles", { smiles: BIG }).kind, "possibly_long");
  assert.equal(plan("calc_properties", { smiles: "CCO" }).kind, "bounded");
  assert.equal(plan("calc_properties", { smiles: LADDER }).kind, "possibly_long");
  const search = plan("smarts_match", { smiles: "CCO", smarts: "[#6]", timeout_seconds: 2 });
  assert.equal(search.kind, "possibly_long");
  assert.equal(search.deadlineMs, 2_000);
  assert.equal(plan("name_to_smiles", { name: "aspirin" }).where, "in_place");
});

test("the cost reads every input: highlights, grids, reactants, libraries, MolJSON, MOL blocks", () => {
  const long = (name: string, args: Record<string, unknown>) => plan(name, args).kind === "possibly_long";
  assert.equal(long("depict", { smiles: "CCO" }), false);
  assert.equal(long("depict", { smiles: ["CCO", BIG] }), true, "a grid's molecule");
  assert.equal(
    long("depict", { smiles: "CCO", smarts: "[#6]" }),
    true,
    "a highlight search has no limit of its own",
  );
  assert.equal(long("depict", { smiles: "CCO", highlight: "mcs", mcs_with: "CCN" }), true);
  assert.equal(long("tanimoto", { smiles_a: "CCO", smiles_b: BIG }), true);
  // A search's parts are chunks: long (withdrawn on a cancel) when costly.
  const part = (library: string[]) =>
    plan("similarity_search:part", { query: "CCO", library, start: 0, threshold: 0, top_k: 10 }).long;
  assert.equal(part(["CCO", "CCN"]), false);
  assert.equal(part(["CCO", LADDER]), true);
  const many = Array.from({ length: 400 }, () => "CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(part(many), true, "the list's length");
  assert.equal(long("convert", { input: BIG, from: "smiles", to: "inchi" }), true);
  assert.equal(long("convert", { input: V2000_QUERY, from: "molblock", to: "smiles" }), true, "query atoms");
  assert.equal(long("convert", { input: V2000_ETHANOL, from: "molblock", to: "smiles" }), false);
  const atoms = Array.from({ length: LIGHT_MAX_ATOMS + 1 }, (_, i) => ({ index: i, element: "C" }));
  const moljson = { atoms, bonds: [] };
  assert.equal(planCall(tool("moljson_to_smiles"), { moljson }).kind, "possibly_long");
});

test("list chunks are planned as chunks of their tool; long when the tool has a limit or a molecule is costly", () => {
  const chunk = (name: string, list: string[], rest: Record<string, unknown> = {}) =>
    planCall(tool(name + ITEMS_SUFFIX), { ...rest, smiles_list: list, start: 0, left_ms: 1_000 });
  assert.deepEqual(chunk("calc_properties", ["CCO"]), {
    where: "pool",
    deadlineMs: POOLED_DEADLINE_MS,
    kind: "chunk",
    long: false,
    name: "calc_properties",
  });
  assert.equal(chunk("calc_properties", ["CCO", BIG]).long, true);
  assert.equal(chunk("generate_3d", ["CCO"]).long, true);
});

test("textsCost counts all molecules of a call together", () => {
  const drug = "CC(=O)Oc1ccccc1C(=O)O"; // 13 atoms
  const fit = Math.floor(LIGHT_MAX_TOTAL_ATOMS / 13);
  assert.equal(textsCost(Array.from({ length: fit }, () => drug)), "light");
  assert.equal(textsCost(Array.from({ length: fit + 1 }, () => drug)), "costly");
  assert.equal(textsCost([["CCO"], [["CCN"]]], 7, undefined), "light");
});

test("warm-up calls come from the tools that declare them, in registry order", () => {
  const calls = warmUpCalls(WORKER_TOOLS).map((call) => call.tool);
  assert.deepEqual(calls, [
    "parse_smiles",
    "smarts_match",
    "find_mcs",
    "generate_3d",
    "generate_3d",
    "retrosynthesis",
    "molecule_context_pack",
  ]);
});

const V2000_ETHANOL = `ethanol
  chem-mcp

  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
M  END
`;

const V2000_QUERY = V2000_ETHANOL.replace(" O   0", " A   0");

test("molBlockCost reads a V2000 block's atoms, bonds and query atoms", () => {
  assert.deepEqual(molBlockCost(V2000_ETHANOL), {
    atoms: 3,
    ringClosures: 0,
    excessDegree: 0,
    stereoAtoms: 0,
    declaredAtoms: 3,
    queryAtoms: 0,
  });
  assert.equal(molBlockCost(V2000_QUERY).queryAtoms, 1);
  assert.equal(molBlocksCost(V2000_ETHANOL + "$$$$\n" + V2000_QUERY + "$$$$\n"), "costly");
});

/** A V3000 block whose COUNTS line is continued with ` -` and written in lower case, as RDKit accepts. */
function v3000(atoms: number, counts: (n: number) => string): string {
  const atomLines = Array.from({ length: atoms }, (_, i) => `M  V30 ${i + 1} C 0 0 0 0`);
  const bondLines = Array.from({ length: atoms - 1 }, (_, i) => `M  V30 ${i + 1} 1 ${i + 1} ${i + 2}`);
  return [
    "",
    "  chem-mcp",
    "",
    "  0  0  0     0  0            999 V3000",
    "M  V30 BEGIN CTAB",
    ...counts(atoms).split("\n"),
    "M  V30 BEGIN ATOM",
    ...atomLines,
    "M  V30 END ATOM",
    "M  V30 BEGIN BOND",
    ...bondLines,
    "M  V30 END BOND",
    "M  V30 END CTAB",
    "M  END",
    "",
  ].join("\n");
}

test("V3000 counts are read as RDKit reads them: continuation lines and lower case", () => {
  const plain = molBlockCost(v3000(4, (n) => `M  V30 COUNTS ${n} ${n - 1} 0 0 0`));
  assert.equal(plain.declaredAtoms, 4);
  assert.equal(plain.atoms, 4);
  const continued = molBlockCost(v3000(4, (n) => `M  V30 COUNTS -\nM  V30 ${n} ${n - 1} 0 0 0`));
  assert.equal(continued.declaredAtoms, 4);
  const lower = molBlockCost(v3000(4, (n) => `m  v30 counts ${n} ${n - 1} 0 0 0`));
  assert.equal(lower.declaredAtoms, 4);
  // A chain of 200 atoms declared through a continued line: costly, not read as a V2000 count of 0.
  const long = v3000(LIGHT_MAX_ATOMS + 50, (n) => `M  V30 COUNTS ${n} -\nM  V30  ${n - 1} 0 0 0`);
  assert.equal(molBlockCost(long).declaredAtoms, LIGHT_MAX_ATOMS + 50);
  assert.equal(molBlocksCost(long), "costly");
});

/** A ring of `n` MDL query atoms `A`, each bonded to its neighbours 1, 2 and 3 along the ring (degree 6). */
function denseQueryBlock(n: number): string {
  const bonds = new Set<string>();
  for (let i = 0; i < n; i++) {
    for (const step of [1, 2, 3]) bonds.add([i, (i + step) % n].sort((a, b) => a - b).join(" "));
  }
  const pad = (k: number) => String(k).padStart(3);
  return [
    "",
    "  chem-mcp",
    "",
    `${pad(n)}${pad(bonds.size)}  0  0  0  0  0  0  0  0999 V2000`,
    ...Array.from(
      { length: n },
      () => "    0.0000    0.0000    0.0000 A   0  0  0  0  0  0  0  0  0  0  0  0",
    ),
    ...[...bonds].map((pair) => pair.split(" ").map((i) => pad(Number(i) + 1)).join("") + "  1  0"),
    "M  END",
    "",
  ].join("\n");
}

test("convert refuses a dense query-atom block as the SMILES cost model would, before RDKit sanitises it", async () => {
  await loadTestRDKit();
  const convert = tool("convert");
  for (const n of [20, 30]) {
    const block = denseQueryBlock(n);
    assert.equal(molBlocksCost(block), "costly");
    const started = performance.now();
    assert.throws(() => convert.run({ input: block, from: "molblock", to: "smiles" }), (error: unknown) => {
      assert.ok(error instanceof ChemError);
      assert.equal(error.code, "MOLECULE_TOO_LARGE");
      assert.equal(error.details?.limit_name, "excess_degree");
      return true;
    });
    // Refused from the text: RDKit's sanitiser took 5.3 s (20 atoms) and 66 s (30 atoms) on these.
    assert.ok(performance.now() - started < 1_000);
  }
});
