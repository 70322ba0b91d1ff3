/**
 * depict's answer sized for a model: PNG by default, grid labels, facts within 1,000 characters with the rest
 * counted, an SVG over its cap sent as PNG, a runaway highlight refused before RDKit searches, and the layout
 * engine chosen by the molecule (CoordGen for drug-sized molecules, RDKit's own for macrocycles and large ones).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { provideTestRaster } from "../helpers/raster.ts";
import { decodePng } from "../helpers/png.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { depictTool, LABEL_MAX_CHARS, SVG_MAX_CHARS } from "../../src/tools/depict.ts";
import { FACTS_MAX_CHARS } from "../../src/tools/depict_facts.ts";
import {
  HIGHLIGHT_DENSE_MAX_QUERY_ATOMS,
  HIGHLIGHT_MAX_QUERY_ATOMS,
  prefersCoordGen,
} from "../../src/chem/depict_bounds.ts";
import { rdkit, withMol } from "../../src/chem/rdkit.ts";
import { ChemError } from "../../src/errors.ts";

await loadTestRDKit();
provideTestRaster();

const call = async (args: Record<string, unknown>) => await depictTool.run(v.parse(depictTool.input, args));
const invalid = (args: Record<string, unknown>) => !v.safeParse(depictTool.input, args).success;
const drug = (name: string) => DRUGS50.find((d) => d.name === name)!.smiles;
const factsOf = ({ picture: _, ...facts }: { picture: string }) => facts;

/** A ladder of `n` rungs (2n carbons, n − 1 fused four-membered rings), written with ring closures. */
function ladder(n: number): string {
  let smiles = "";
  for (let i = 0; i < n; i++) {
    const bottom = "C" + (i > 0 ? `${((i + 1) % 2) + 1}` : "") + (i < n - 1 ? `${(i % 2) + 1}` : "");
    smiles += `C(${bottom})`;
  }
  return smiles;
}

test("PNG by default: a picture of the asked size, its facts as short text", async () => {
  const r = await call({ smiles: "CC(=O)Nc1ccc(O)cc1", smarts: "[OX2H]" });
  assert.equal(r.format, "png");
  const png = decodePng(new Uint8Array(Buffer.from(r.picture, "base64")));
  assert.deepEqual([png.width, png.height], [300, 250]);
  assert.ok(JSON.stringify(factsOf(r)).length <= FACTS_MAX_CHARS);
  assert.deepEqual(r.molecules[0]!.highlight_atoms, [8]);
});

test("grid labels: one per molecule, drawn under each, bounded by the schema", async () => {
  const smiles = ["CCO", "c1ccccc1", "CC(=O)O"];
  const labelled = await call({ smiles, labels: ["ethanol", "benzene", "acetic acid"], format: "svg" });
  const plain = await call({ smiles, format: "svg" });
  // Labels are drawn as outline paths (no text to inject markup through), so the pictures differ in shape.
  assert.notEqual(labelled.picture, plain.picture);
  assert.doesNotMatch(labelled.picture, /ethanol|<text/);
  const hostile = await call({
    smiles: ["C", "O"],
    labels: ["<script>alert(1)</script>", "a&b"],
    format: "svg",
  });
  assert.doesNotMatch(hostile.picture, /<script|alert\(|a&b/);
  assert.ok(invalid({ smiles: "CCO", labels: ["x"] }), "labels need a list");
  assert.ok(invalid({ smiles: ["C", "O"], labels: ["x"] }), "one label per molecule");
  assert.ok(invalid({ smiles: ["C"], labels: ["x".repeat(LABEL_MAX_CHARS + 1)] }));
  assert.ok(!invalid({ smiles: ["C"], labels: ["x".repeat(LABEL_MAX_CHARS)] }));
});

test("facts stay within 1,000 characters; what is not listed is counted", async () => {
  const r = await call({ smiles: "c1ccccc1" + "C".repeat(60), smarts: "C" });
  const text = JSON.stringify(factsOf(r));
  assert.ok(text.length <= FACTS_MAX_CHARS, `${text.length}`);
  const m = r.molecules[0]!;
  assert.equal(m.highlights!.length + r.left_out!.highlights, 60);
  assert.equal(m.highlight_atoms!.length + r.left_out!.atoms, 60);
  const grid = await call({
    smiles: Array(16).fill("c1ccccc1CCCCCCCC"),
    highlight: "alerts",
    width: 100,
    height: 100,
  });
  assert.ok(JSON.stringify(factsOf(grid)).length <= FACTS_MAX_CHARS);
  assert.equal(grid.molecules.length, 16);
});

test("an SVG over its cap is sent as PNG, and the facts say why", async () => {
  const dense = "[N+](=O)([O-])C(S(=O)(=O)[O-])(P(=O)([O-])[O-])C(Cl)(Br)I";
  const r = await call({ smiles: Array(16).fill(Array(6).fill(dense).join(".")), format: "svg", width: 500 });
  assert.equal(r.format, "png");
  assert.match(
    r.note!,
    new RegExp(`^SVG of \\d+ characters is over the ${SVG_MAX_CHARS} cap; sent as PNG\\.$`),
  );
  assert.ok(r.picture.length < 3 * 1024 * 1024, `${r.picture.length}`);
  assert.deepEqual(decodePng(new Uint8Array(Buffer.from(r.picture, "base64"))).width, 2000);
});

test("a highlight whose search could run away is refused before RDKit searches", async () => {
  const wildRing = (k: number) => "*1" + "*".repeat(k - 2) + "*1";
  const started = Date.now();
  await assert.rejects(
    call({ smiles: ladder(65), smarts: wildRing(51) }),
    (e: unknown) =>
      e instanceof ChemError && e.code === "MOLECULE_TOO_LARGE" &&
      e.details?.limit_name === "highlight_query_atoms",
  );
  await assert.rejects(call({ smiles: "CCO", smarts: "C".repeat(HIGHLIGHT_MAX_QUERY_ATOMS + 1) }), ChemError);
  await assert.rejects(
    call({ smiles: ladder(65), smarts: wildRing(HIGHLIGHT_DENSE_MAX_QUERY_ATOMS + 1) }),
    ChemError,
  );
  assert.ok(Date.now() - started < 2_000, "refused from the text");
  // Within the bounds: a dense molecule's 12-atom ring search and a 20-atom chain on an honest one are answered.
  const dense = await call({ smiles: ladder(65), smarts: wildRing(HIGHLIGHT_DENSE_MAX_QUERY_ATOMS) });
  assert.ok(dense.molecules[0]!.highlight_atoms!.length > 0);
  await call({ smiles: "C".repeat(30), smarts: "C".repeat(HIGHLIGHT_MAX_QUERY_ATOMS) });
});

test("layout: CoordGen for bridged drugs, RDKit's own for macrocycles and large molecules; the preference restored", async () => {
  for (const name of ["morphine", "strychnine", "paclitaxel"]) {
    assert.ok(withMol(drug(name), prefersCoordGen), name);
  }
  assert.ok(!withMol(drug("cyclosporin A"), prefersCoordGen), "a 33-membered ring");
  assert.ok(!withMol("C".repeat(101), prefersCoordGen), "101 atoms");
  const before = withMol("C1CC2CCC1CC2", (mol) => mol.get_svg());
  await call({ smiles: drug("morphine") });
  assert.equal(withMol("C1CC2CCC1CC2", (mol) => mol.get_svg()), before, "other drawings keep RDKit's layout");
  // A morphine drawn here is CoordGen's: the same as RDKit's with CoordGen preferred.
  rdkit().prefer_coordgen(true);
  const coordgen = withMol(
    drug("morphine"),
    (mol) => mol.get_svg_with_highlights(JSON.stringify({ width: 300, height: 250 })),
  );
  rdkit().prefer_coordgen(false);
  const ours = await call({ smiles: drug("morphine"), format: "svg" });
  assert.equal(ours.picture.replace(/^<\?xml[^>]*\?>/, ""), coordgen.replace(/^<\?xml[^>]*\?>/, ""));
});
