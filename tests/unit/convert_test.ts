/**
 * convert: formats in and out, what survives a MOL block (stereo, charges, isotopes, radicals), SD files answered
 * per record, the typed errors and limits, the tool's schemas and its listing budget.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { chainBlock } from "../helpers/molblock.ts";
import { thrownCode } from "../helpers/errors.ts";
import {
  convertOne,
  convertSdf,
  declaredAtoms,
  MAX_SD_RECORDS,
  type OutputFormat,
  sdRecords,
} from "../../src/chem/convert.ts";
import { convertTool } from "../../src/tools/convert.ts";
import { jsonSchemaOf, ToolRegistry } from "../../src/tools/registry.ts";

await loadTestRDKit();

/** L-alanine, a quaternary ¹³C ammonium, a radical, an E alkene, a Z alkene and an anion in one structure. */
const MIXED = "C[C@H](N)C(=O)O.C[N+](C)(C)[13CH3].[CH2]CC.C/C=C/C.C/C=C\\Cl.[O-]C(=O)C";

test("stereo, charges, isotopes and radicals survive SMILES → MOL block → SMILES in V2000 and V3000", () => {
  const canonical = convertOne(MIXED, "smiles", "smiles");
  for (const to of ["molblock", "molblock_v3000"] as const) {
    const block = convertOne(MIXED, "smiles", to);
    assert.match(block, to === "molblock" ? /V2000/ : /V3000/);
    assert.equal(convertOne(block, "molblock", "smiles"), canonical, to);
  }
  const v2000 = convertOne(MIXED, "smiles", "molblock");
  assert.match(v2000, /^M {2}CHG/m);
  assert.match(v2000, /^M {2}ISO/m);
  assert.match(v2000, /^M {2}RAD/m);
  assert.doesNotMatch(v2000, /^\s+0\.0000\s+0\.0000\s+0\.0000 C.*\n\s+0\.0000\s+0\.0000\s+0\.0000 C/m);
});

test("InChI and InChIKey from SMILES and from a MOL block agree; stereo is in them", () => {
  const block = convertOne("C[C@H](N)C(=O)O", "smiles", "molblock");
  assert.equal(
    convertOne(block, "molblock", "inchi"),
    "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1",
  );
  assert.equal(convertOne(block, "molblock", "inchikey"), "QNAYBMKLOCPYGJ-REOHCLBHSA-N");
  assert.equal(convertOne("C[C@H](N)C(=O)O", "smiles", "inchikey"), "QNAYBMKLOCPYGJ-REOHCLBHSA-N");
  assert.equal(thrownCode(() => convertOne("*CC", "smiles", "inchi")), "UNSUPPORTED_MOLECULE");
});

test("a MOL block's explicit hydrogens are removed, as RDKit reads them; the counts line is read first", () => {
  const withH = [
    "",
    "  test",
    "",
    "  5  4  0  0  0  0  0  0  0  0999 V2000",
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0",
    "    1.2990    0.7500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0",
    "   -1.2990    0.7500    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0",
    "    0.0000   -1.5000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0",
    "    0.5000   -0.5000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0",
    "  1  2  1  0",
    "  1  3  1  0",
    "  1  4  1  0",
    "  1  5  1  0",
    "M  END",
  ].join("\n");
  assert.equal(convertOne(withH, "molblock", "smiles"), "CO");
  assert.equal(declaredAtoms(withH), 5);
});

test("an SD file answers per record in order, names kept, a broken record answered with its error", () => {
  const block = (smiles: string, name: string) =>
    convertOne(smiles, "smiles", "molblock").replace(/^[^\n]*/, name);
  const broken = "broken\n\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0 C\nM  END\n";
  const sdf = [
    block("CCO", "ethanol"),
    "> <ID>\n1\n",
    "$$$$\n",
    broken,
    "$$$$\n",
    block("c1ccccc1", ""),
    "$$$$\n",
  ]
    .join("");
  assert.equal(sdRecords(sdf).length, 3);
  const records = convertSdf(sdf, "smiles");
  assert.deepEqual(records[0], { name: "ethanol", output: "CCO" });
  assert.equal((records[1] as { error: { code: string } }).error.code, "INVALID_MOLBLOCK");
  assert.match((records[1] as { error: { message: string } }).error.message, /^Record 2: /);
  assert.deepEqual(records[2], { output: "c1ccccc1" });
  const v3000 = convertSdf(`${convertOne("CC(=O)[O-].[Na+]", "smiles", "molblock_v3000")}$$$$\n`, "inchikey");
  assert.deepEqual(v3000, [{ output: "VMHLLURERBWHNL-UHFFFAOYSA-M" }]);
});

test("typed errors and limits: not a MOL block, no atoms, 5,000 declared atoms, too many records", () => {
  assert.equal(thrownCode(() => convertOne("CCO", "molblock", "smiles")), "INVALID_MOLBLOCK");
  assert.equal(
    thrownCode(() =>
      convertOne("\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n", "molblock", "smiles")
    ),
    "INVALID_MOLBLOCK",
  );
  const huge =
    "\n\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 5000 4999 0 0 0\nM  END\n";
  assert.equal(declaredAtoms(huge), 5000);
  assert.equal(thrownCode(() => convertOne(huge, "molblock", "smiles")), "MOLECULE_TOO_LARGE");
  assert.equal(thrownCode(() => convertOne("C1CC", "smiles", "molblock")), "INVALID_SMILES");
  const one = `${convertOne("C", "smiles", "molblock")}$$$$\n`;
  assert.equal(thrownCode(() => convertSdf(one.repeat(MAX_SD_RECORDS + 1), "smiles")), "MOLECULE_TOO_LARGE");
  assert.equal(convertSdf(one.repeat(MAX_SD_RECORDS), "smiles").length, MAX_SD_RECORDS);
  assert.equal(thrownCode(() => convertSdf("no records here", "smiles")), "INVALID_MOLBLOCK");
  assert.equal(thrownCode(() => convertOne(one.repeat(2), "molblock", "smiles")), "INVALID_MOLBLOCK");
  assert.equal(convertOne(one, "molblock", "smiles"), "C");
});

test("a 600-atom chain is refused by the heavy-atom limit; a counts line that lies is refused, not crashed on", () => {
  assert.equal(convertOne(chainBlock(30), "molblock", "smiles"), "C".repeat(30));
  assert.equal(thrownCode(() => convertOne(chainBlock(600), "molblock", "smiles")), "MOLECULE_TOO_LARGE");
  const lying = chainBlock(30).replace(/^ 30 29/m, "300299");
  assert.equal(thrownCode(() => convertOne(lying, "molblock", "smiles")), "INVALID_MOLBLOCK");
  // The instance still answers correctly afterwards.
  assert.equal(convertOne("C[C@H](N)C(=O)O", "smiles", "inchikey"), "QNAYBMKLOCPYGJ-REOHCLBHSA-N");
});

test("tool: schemas, one structure or an SD file, results valid against the published schema", async () => {
  for (
    const args of [{}, { input: "CCO", from: "inchi", to: "smiles" }, {
      input: "CCO",
      from: "smiles",
      to: "cml",
    }, {
      input: "",
      from: "smiles",
      to: "smiles",
    }]
  ) {
    assert.equal(v.safeParse(convertTool.input, args).success, false, JSON.stringify(args));
  }
  const schema = jsonSchemaOf(convertTool.output, "output");
  for (const to of ["smiles", "molblock", "molblock_v3000", "inchi", "inchikey"] as OutputFormat[]) {
    const one = await convertTool.run(v.parse(convertTool.input, { input: "OCC", from: "smiles", to }));
    assert.deepEqual(schemaErrors(schema, one), [], to);
    assert.equal(typeof one.output, "string");
  }
  const sdf = `${convertOne("CCO", "smiles", "molblock")}$$$$\n`;
  const many = await convertTool.run(v.parse(convertTool.input, { input: sdf, from: "sdf", to: "smiles" }));
  assert.deepEqual(many, { to: "smiles", records: [{ output: "CCO" }] });
  assert.deepEqual(schemaErrors(schema, many), []);
  assert.match(convertTool.description, /InChI input is not supported|No InChI input/);
});

test("to as a list: each output named by its format, one parse; SD records the same; the list checked", async () => {
  const schema = jsonSchemaOf(convertTool.output, "output");
  const run = async (args: Record<string, unknown>) =>
    await convertTool.run(v.parse(convertTool.input, args));
  const both = await run({ input: "C[C@H](N)C(=O)O", from: "smiles", to: ["smiles", "inchikey"] });
  assert.deepEqual(both, {
    to: ["smiles", "inchikey"],
    outputs: { smiles: "C[C@H](N)C(=O)O", inchikey: "QNAYBMKLOCPYGJ-REOHCLBHSA-N" },
  });
  assert.deepEqual(schemaErrors(schema, both), []);
  const block = convertOne("CCO", "smiles", "molblock");
  const sdf = `${block}$$$$\nbroken\n$$$$\n${block}$$$$\n`;
  const records = await run({ input: sdf, from: "sdf", to: ["smiles", "inchi"] });
  assert.deepEqual(records.records![0], {
    outputs: { smiles: "CCO", inchi: "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3" },
  });
  assert.equal(records.records![1]!.error!.code, "INVALID_MOLBLOCK");
  assert.deepEqual(schemaErrors(schema, records), []);
  assert.equal(v.safeParse(convertTool.input, { input: "C", from: "smiles", to: [] }).success, false);
  assert.equal(
    v.safeParse(convertTool.input, { input: "C", from: "smiles", to: ["inchi", "inchi"] }).success,
    false,
  );
});

test("a V3000 COUNTS line is read as RDKit reads it: any case, continued with '-'", () => {
  const head = "name\n\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\n";
  assert.equal(declaredAtoms(`${head}M  V30 COUNTS 15000 0 0 0 0\n`), 15000);
  assert.equal(declaredAtoms(`${head}m  v30 counts 15000 0 0 0 0\n`), 15000);
  assert.equal(declaredAtoms(`${head}M  V30 COUNTS -\nM  V30 15000 0 0 0 0\n`), 15000);
  assert.equal(
    thrownCode(() =>
      convertOne(
        `${head}M  V30 COUNTS -\nM  V30 15000 0 0 0 0\nM  V30 END CTAB\nM  END\n`,
        "molblock",
        "smiles",
      )
    ),
    "MOLECULE_TOO_LARGE",
  );
});

test("from inchi is refused with the reason, while the schema lists only the formats read", () => {
  const refused = v.safeParse(convertTool.input, { input: "InChI=1S/CH4/h1H4", from: "inchi", to: "smiles" });
  assert.equal(refused.success, false);
  assert.match(
    refused.issues![0]!.message,
    /^InChI cannot be read: RDKit's WebAssembly build has no InChI reader\./,
  );
  const from = (jsonSchemaOf(convertTool.input, "input").properties as Record<string, { enum: string[] }>)
    .from!;
  assert.deepEqual(from.enum, ["smiles", "molblock", "sdf"]);
});

test("the tool's listing (name, title, description, input schema) stays within 1,000 characters", () => {
  const { name, title, description, inputSchema } = new ToolRegistry([convertTool as never]).descriptors[0]!;
  const listing = JSON.stringify({ name, title, description, inputSchema }).length;
  assert.ok(listing <= 1000, `convert listing is ${listing} characters`);
});
