/**
 * depict: the SVG is well-formed XML of the asked size with the highlighted atoms drawn, the PNG decodes to the
 * asked size and shows the molecule (labels in their colours, the highlight), the highlight facts are RDKit's
 * matches, hostile sizes are refused with typed errors, and the server answers with image content.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { provideTestRaster } from "../helpers/raster.ts";
import { countPixels, decodePng } from "../helpers/png.ts";
import { checkWellFormed } from "../helpers/xml.ts";
import { drawnAtoms, drawnBonds } from "../helpers/depiction.ts";
import { modern, request, send } from "../helpers/protocol.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { depictTool } from "../../src/tools/depict.ts";
import { GRID_MAX, GRID_MAX_HEAVY_ATOMS } from "../../src/chem/depict.ts";
import { painsCheckSmiles } from "../../src/chem/alerts.ts";
import { ChemError } from "../../src/errors.ts";
import { McpServer } from "../../src/protocol/server.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import type { Tool } from "../../src/tools/tool.ts";

await loadTestRDKit();
provideTestRaster();

const PARACETAMOL = "CC(=O)Nc1ccc(O)cc1";
const RHODANINE = "S=C1SC(=Cc2ccccc2)C(=O)N1";

/** Runs the tool on arguments validated as the server validates them. */
const call = async (args: Record<string, unknown>) => await depictTool.run(v.parse(depictTool.input, args));
const invalid = (args: Record<string, unknown>) => !v.safeParse(depictTool.input, args).success;
const isCode = (code: string, text?: RegExp) => (e: unknown) =>
  e instanceof ChemError && e.code === code && (!text || text.test(e.message));

test("SVG: well-formed XML of the asked size, labels as paths (no font needed), the SMARTS match highlighted", async () => {
  const r = await call({ smiles: PARACETAMOL, smarts: "[OX2H]", format: "svg", width: 320, height: 240 });
  assert.equal(checkWellFormed(r.picture), "svg");
  assert.match(r.picture, /<svg[^>]*\swidth='320px' height='240px'/);
  assert.doesNotMatch(r.picture, /<text/);
  assert.deepEqual([r.width, r.height, r.format], [320, 240, "svg"]);
  assert.deepEqual(r.molecules, [{
    highlight_atoms: [8],
    highlights: [{ why: "SMARTS match", atoms: [8], bonds: [] }],
  }]); // an empty list is left out
  assert.deepEqual(drawnAtoms(r.picture), [8]);
  assert.deepEqual(drawnBonds(r.picture), []);
});

test("every SMARTS match is a group with its bonds; the union is highlighted in the picture", async () => {
  const r = await call({ smiles: "c1ccccc1-c1ccccc1", smarts: "c1ccccc1", format: "svg" });
  const [m] = r.molecules;
  assert.equal(m!.highlights!.length, 2);
  assert.ok(m!.highlights!.every((g) => g.atoms.length === 6 && g.bonds.length === 6));
  assert.deepEqual(m!.highlight_atoms, [...Array(12).keys()]);
  assert.equal(m!.highlight_bonds!.length, 12); // the biaryl bond is in neither ring
  assert.deepEqual(drawnAtoms(r.picture), m!.highlight_atoms);
  assert.deepEqual(drawnBonds(r.picture), m!.highlight_bonds);
});

test("alerts: each PAINS or Brenk alert raised is a group naming it, with pains_check's atoms", async () => {
  const r = await call({ smiles: RHODANINE, highlight: "alerts" });
  const groups = r.molecules[0]!.highlights ?? [];
  const pains = painsCheckSmiles(RHODANINE).hits;
  assert.ok(pains.length > 0);
  for (const hit of pains) {
    const group = groups.find((g) => g.why === `${hit.family} alert ${hit.name}`);
    assert.ok(group, `no group for ${hit.name}: ${groups.map((g) => g.why).join(", ")}`);
    assert.deepEqual(group.atoms, hit.atoms);
    assert.ok(group.bonds.length >= hit.atoms.length - 1);
  }
  assert.ok(groups.some((g) => g.why.startsWith("Brenk alert ")), "the thiocarbonyl is a Brenk alert");
  const clean = await call({ smiles: "CCO", highlight: "alerts" });
  assert.deepEqual(clean.molecules[0], {});
});

test("mcs: the common substructure with mcs_with is highlighted, and none when nothing is shared", async () => {
  const r = await call({ smiles: PARACETAMOL, highlight: "mcs", mcs_with: "Oc1ccccc1" });
  const [m] = r.molecules;
  assert.deepEqual(m!.highlight_atoms, [4, 5, 6, 7, 8, 9, 10]);
  assert.equal(m!.highlight_bonds!.length, 7);
  assert.match(m!.highlights![0]!.why, /^MCS with Oc1ccccc1 \(7 atoms\)$/);
  const none = await call({ smiles: "[Na+].[Cl-]", highlight: "mcs", mcs_with: "CCO" });
  assert.deepEqual(none.molecules[0], {});
  await assert.rejects(
    call({ smiles: PARACETAMOL, highlight: "mcs", mcs_with: "C1CC" }),
    isCode("INVALID_SMILES", /^mcs_with: /),
  );
});

test("PNG: decodes to the asked size, is not blank, shows the red O label and the highlight", async () => {
  const r = await call({ smiles: PARACETAMOL, smarts: "c1ccccc1", format: "png", width: 400, height: 300 });
  assert.equal(r.format, "png");
  const png = decodePng(new Uint8Array(Buffer.from(r.picture, "base64")));
  assert.deepEqual([png.width, png.height], [400, 300]);
  const pixels = png.width * png.height;
  const ink = countPixels(png, (r, g, b) => r + g + b < 600);
  assert.ok(ink > pixels * 0.01, `only ${ink} of ${pixels} pixels drawn`);
  // RDKit draws O labels in #FF0000 and N labels in #0000FF; the highlight is light red (255, 140, 140).
  assert.ok(countPixels(png, (r, g, b) => r > 200 && g < 60 && b < 60) > 20, "no red O label");
  assert.ok(countPixels(png, (r, g, b) => b > 200 && r < 60 && g < 60) > 20, "no blue N label");
  assert.ok(
    countPixels(png, (r, g, b) => r > 240 && g > 120 && g < 160 && b > 120 && b < 160) > 500,
    "no highlight",
  );
});

test("grid: 12 molecules, 4 per row, one well-formed SVG and a PNG of the grid's size, positions as legends", async () => {
  const grid = DRUGS50.slice(0, 12).map((d) => d.smiles);
  const svg = await call({ smiles: grid, smarts: "[#7]", format: "svg", width: 200, height: 180 });
  checkWellFormed(svg.picture);
  assert.deepEqual([svg.width, svg.height], [800, 540]);
  assert.equal(svg.molecules.length, 12);
  assert.equal([...svg.picture.matchAll(/<g class='molecule-\d+'/g)].length, 12);
  assert.equal([...svg.picture.matchAll(/class='legend'/g)].length > 12, true);
  const png = decodePng(
    new Uint8Array(
      Buffer.from((await call({ smiles: grid, format: "png", width: 200, height: 180 })).picture, "base64"),
    ),
  );
  assert.deepEqual([png.width, png.height], [800, 540]);
  const one = await call({ smiles: [PARACETAMOL] });
  assert.deepEqual([one.width, one.height], [300, 250]);
});

test("hostile sizes and contradictory arguments are refused with a clear reason", async () => {
  assert.ok(invalid({ smiles: "C", width: 5000 }));
  assert.ok(invalid({ smiles: "C", height: 10 }));
  assert.ok(invalid({ smiles: ["C"], width: 501 }));
  assert.ok(!invalid({ smiles: ["C"], width: 500, height: 500 }));
  assert.ok(!invalid({ smiles: "C", width: 800, height: 800 }));
  assert.ok(invalid({ smiles: Array(GRID_MAX + 1).fill("C") }));
  assert.ok(invalid({ smiles: [] }));
  assert.ok(invalid({}));
  assert.ok(invalid({ smiles: ["C"], legends: ["a"] }));
  assert.ok(invalid({ smiles: "C", smarts: "C", highlight: "alerts" }));
  assert.ok(invalid({ smiles: "C", highlight: "smarts" }));
  assert.ok(invalid({ smiles: "C", highlight: "mcs" }));
  assert.ok(invalid({ smiles: "C", mcs_with: "C" }));
  assert.ok(invalid({ smiles: "C", format: "gif" }));
  await assert.rejects(call({ smiles: "C".repeat(501) }), isCode("MOLECULE_TOO_LARGE"));
  await assert.rejects(call({ smiles: "C1CC" }), isCode("INVALID_SMILES"));
  await assert.rejects(call({ smiles: "CC", smarts: "[C" }), isCode("INVALID_SMARTS"));
  await assert.rejects(
    call({ smiles: ["CC", "C1CC", "O"] }),
    isCode("INVALID_SMILES", /^Molecule 1 \(0-based\)/),
  );
  const big = "C".repeat(Math.ceil(GRID_MAX_HEAVY_ATOMS / 4) + 1);
  await assert.rejects(call({ smiles: [big, big, big, big] }), isCode("MOLECULE_TOO_LARGE", /grid/));
});

test("the server answers PNG as image content and SVG as text, the facts as structuredContent", async () => {
  const server = new McpServer({
    registry: new ToolRegistry([depictTool as unknown as Tool]),
    info: { name: "test", version: "0" },
  });
  const conn = server.connect();
  const args = { smiles: PARACETAMOL, smarts: "[OX2H]" }; // PNG by default
  const reply = await send(conn, modern("tools/call", { name: "depict", arguments: args }));
  const result = reply!.result as unknown as {
    content: { type: string; data?: string; mimeType?: string; text?: string }[];
    structuredContent: Record<string, unknown>;
  };
  assert.equal(result.content.length, 2);
  assert.equal(result.content[0]!.type, "image");
  assert.equal(result.content[0]!.mimeType, "image/png");
  assert.equal(decodePng(new Uint8Array(Buffer.from(result.content[0]!.data!, "base64"))).width, 300);
  assert.deepEqual(JSON.parse(result.content[1]!.text!), result.structuredContent);
  assert.equal("picture" in result.structuredContent, false);
  assert.deepEqual(
    (result.structuredContent.molecules as { highlight_atoms: number[] }[])[0]!.highlight_atoms,
    [8],
  );

  const legacy = server.connect();
  await send(legacy, request("initialize", { protocolVersion: "2024-11-05", capabilities: {} }));
  const svg = await send(
    legacy,
    request("tools/call", { name: "depict", arguments: { smiles: "CCO", format: "svg" } }),
  );
  const content = (svg!.result as { content: { type: string; text: string }[] }).content;
  assert.deepEqual(content.map((c) => c.type), ["text", "text"]);
  assert.equal(checkWellFormed(content[0]!.text), "svg");
  assert.equal(JSON.parse(content[1]!.text).format, "svg");
});

test("hostile strings in every argument: a picture or a typed error, never an internal one", async () => {
  const logs: string[] = [];
  const conn = new McpServer({
    registry: new ToolRegistry([depictTool as unknown as Tool]),
    info: { name: "test", version: "0" },
    log: (message) => logs.push(message),
  }).connect();
  const hostile = [
    "",
    " ",
    "\u0000",
    "😀",
    "C".repeat(20_001),
    "C".repeat(500),
    "C(".repeat(240) + "C" + ")".repeat(240),
    Array(60).fill("c1ccccc1").join("."),
    "C1CC",
    "C$C",
    "*",
    "[H][H]",
    "[Fe](=O)(=O)(=O)(=O)(=O)(=O)(=O)(=O)(=O)",
    "[C+9]",
    "[12345C]",
    "[$([$([$(C)])])]",
    "<svg onload=alert(1)>",
  ];
  const codes = new Map<string, number>();
  const cases = (text: string) => [
    { smiles: text, format: "png" },
    { smiles: PARACETAMOL, smarts: text },
    { smiles: PARACETAMOL, highlight: "mcs", mcs_with: text },
    { smiles: [PARACETAMOL, text] },
    { smiles: [PARACETAMOL, text.slice(0, 60)], format: "png" },
  ];
  for (const text of hostile) {
    for (const args of cases(text)) {
      const reply = await send(conn, modern("tools/call", { name: "depict", arguments: args }));
      const code = reply?.error
        ? `rpc ${reply.error.code}`
        : reply?.result?.isError
        ? String((reply.result.structuredContent as { error: { code: string } }).error.code)
        : "ok";
      assert.ok(
        /^(ok|rpc -32602|INVALID_SMILES|INVALID_SMARTS|MOLECULE_TOO_LARGE)$/.test(code),
        `${JSON.stringify(args).slice(0, 80)}: ${code}`,
      );
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  }
  assert.deepEqual(logs, [], "no call broke the output schema or threw");
  assert.ok(
    (codes.get("INVALID_SMILES") ?? 0) > 10 && (codes.get("ok") ?? 0) > 10,
    JSON.stringify([...codes]),
  );
});
