/// <reference lib="dom" />
/**
 * depict's grid of 12 molecules looked at in a real headless Chromium (the one tests/helpers/chromium.ts finds):
 * the SVG parses in the browser's own XML parser, it lays out 12 molecules 4 per row with the highlights the
 * result lists, and the SVG and the PNG show as images of the grid's size with ink in every cell. A screenshot
 * is taken (kept in CHEM_MCP_SCREENSHOTS when set). Skipped, saying why, where no Chromium can be had; a
 * Chromium that does not start is a failure.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { findChromium, noChromiumLine, screenshotDir, startChromium } from "../helpers/chromium.ts";
import { sayOnce, skipName } from "../helpers/skip.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { provideTestRaster } from "../helpers/raster.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { depictTool } from "../../src/tools/depict.ts";

await loadTestRDKit();
provideTestRaster();

const search = await findChromium();
/** Why the test is skipped (no Chromium can be had on this platform); a Chromium that does not start fails. */
const skip = "missing" in search ? `no Chromium: ${search.missing}` : false;
if ("missing" in search) sayOnce("no-chromium", noChromiumLine(search.missing));
const started = "found" in search
  ? await startChromium(search.found, { width: 1000, height: 700 })
  : undefined;
const browser = started?.context;
const shots = screenshotDir("chem-mcp-depict-");

after(async () => {
  await started?.close();
  shots.remove();
});

const drugs = DRUGS50.slice(0, 12);
const draw = async (format: "svg" | "png") =>
  await depictTool.run(v.parse(depictTool.input, {
    smiles: drugs.map((d) => d.smiles),
    highlight: "alerts",
    format,
    width: 250,
    height: 200,
  }));

test(
  skipName(
    "a grid of 12 in Chromium: parsed as XML, 4 per row, highlights as listed, SVG and PNG drawn",
    skip,
  ),
  {
    skip,
  },
  async () => {
    const svg = await draw("svg");
    const png = await draw("png");
    const page = await browser!.newPage();
    try {
      const seen = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, "image/svg+xml");
        const cells = [...doc.querySelectorAll("g[class^='molecule-']")];
        return {
          error: doc.querySelector("parsererror")?.textContent ?? null,
          root: doc.documentElement.localName,
          size: [doc.documentElement.getAttribute("width"), doc.documentElement.getAttribute("height")],
          cells: cells.map((g) => ({
            transform: g.getAttribute("transform"),
            atoms: [
              ...new Set([...g.querySelectorAll("ellipse")].map((e) => e.getAttribute("class"))),
            ].length,
            legend: g.querySelectorAll("path.legend").length,
          })),
        };
      }, svg.picture);
      assert.equal(seen.error, null);
      assert.equal(seen.root, "svg");
      assert.deepEqual(seen.size, ["1000px", "600px"]);
      assert.equal(seen.cells.length, 12);
      seen.cells.forEach((cell, i) => {
        assert.equal(cell.transform, `translate(${(i % 4) * 250},${Math.floor(i / 4) * 200})`);
        assert.equal(
          cell.atoms,
          svg.molecules[i]!.highlight_atoms?.length ?? 0,
          `molecule ${i}: highlighted atoms`,
        );
        assert.ok(cell.legend > 0, `molecule ${i}: no legend drawn`);
      });
      assert.ok(svg.molecules.some((m) => (m.highlights?.length ?? 0) > 0), "no alert in the 12 drugs");

      await page.setContent(
        `<body style="margin:0;background:#fff"><img id="svg" src="data:image/svg+xml;base64,${
          btoa(svg.picture)
        }"><img id="png" src="data:image/png;base64,${png.picture}"></body>`,
      );
      const images = await page.evaluate(async () => {
        const out: Record<string, number[]> = {};
        for (const img of [...document.images]) {
          await img.decode();
          // Ink per cell: the share of non-white pixels in each of the 12 cells, read back from a canvas.
          const canvas = document.createElement("canvas");
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const context = canvas.getContext("2d")!;
          context.drawImage(img, 0, 0);
          const ink = [];
          for (let i = 0; i < 12; i++) {
            const data = context.getImageData((i % 4) * 250, Math.floor(i / 4) * 200, 250, 200).data;
            let n = 0;
            for (let p = 0; p < data.length; p += 4) if (data[p]! + data[p + 1]! + data[p + 2]! < 600) n++;
            ink.push(n / (250 * 200));
          }
          out[img.id] = [img.naturalWidth, img.naturalHeight, ...ink];
        }
        return out;
      });
      for (const id of ["svg", "png"]) {
        const [width, height, ...ink] = images[id]!;
        assert.deepEqual([width, height], [1000, 600], `${id} size`);
        ink.forEach((share, i) => assert.ok(share > 0.01, `${id}: molecule ${i} has ${share} ink`));
      }
      const shot = join(shots.dir, "grid.png");
      await page.screenshot({ path: shot, fullPage: true });
      assert.ok(statSync(shot).size > 10_000);
      console.error(`depict grid screenshot: ${shot}`);
    } finally {
      await page.close();
    }
  },
);
