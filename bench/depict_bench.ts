/**
 * depict's cost: ten drugs drawn as SVG and as PNG (300 × 250 px, a SMARTS highlight), the alert highlight, a
 * grid of 12 as SVG and PNG, the largest canvas the schema allows (16 × 500 × 500 px), and the first PNG of a
 * process (resvg's WebAssembly compiled). Prints milliseconds per call (median and mean over the rounds), picture
 * sizes, and the previous run's median over this one (above 1× is faster).
 *
 * Run: deno run -A bench/depict_bench.ts [--rounds 10]
 */
import process from "node:process";
import * as v from "valibot";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import { provideTestRaster } from "../tests/helpers/raster.ts";
import { depictTool } from "../src/tools/depict.ts";
import { DRUGS50 } from "../tests/data/drugs50.ts";
import { type Figures, loadPrevious, timer } from "./previous.ts";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 10;
const previous = loadPrevious("depict");
const figures: Figures = {};

const draw = async (args: Record<string, unknown>) => await depictTool.run(v.parse(depictTool.input, args));

const time = timer(previous, figures, ROUNDS, { width: 56, digits: 1 });

await loadTestRDKit();
provideTestRaster();
const TEN = DRUGS50.slice(10, 20).map((d) => d.smiles);
const TWELVE = DRUGS50.slice(0, 12).map((d) => d.smiles);

const t0 = performance.now();
const first = await draw({ smiles: TEN[0], format: "png" });
console.log(
  `first PNG of the process (resvg compiled): ${(performance.now() - t0).toFixed(0)} ms; rounds ${ROUNDS}\n`,
);
figures["first PNG"] = performance.now() - t0;

const sizes: Record<string, number> = {};
await time("SVG, 10 drugs, SMARTS [#7,#8]", async () => {
  for (const smiles of TEN) sizes.svg = (await draw({ smiles, smarts: "[#7,#8]" })).picture.length;
});
await time("PNG, 10 drugs, SMARTS [#7,#8]", async () => {
  for (const smiles of TEN) {
    sizes.png = (await draw({ smiles, smarts: "[#7,#8]", format: "png" })).picture.length;
  }
});
await time("SVG, 10 drugs, PAINS and Brenk alerts", async () => {
  for (const smiles of TEN) await draw({ smiles, highlight: "alerts" });
});
await time("grid of 12, SVG (250 × 200 px per molecule)", async () => {
  sizes.gridSvg = (await draw({ smiles: TWELVE, width: 250, height: 200 })).picture.length;
});
await time("grid of 12, PNG (1000 × 600 px)", async () => {
  sizes.gridPng = (await draw({ smiles: TWELVE, width: 250, height: 200, format: "png" })).picture.length;
});
await time("grid of 16, PNG, 500 × 500 px each (2000 × 2000 px)", async () => {
  const grid = DRUGS50.slice(0, 16).map((d) => d.smiles);
  sizes.largest = (await draw({ smiles: grid, width: 500, height: 500, format: "png" })).picture.length;
});
const perDrug = Object.entries(figures).filter(([k]) => k.includes("10 drugs"));
console.log(
  `\nper drug: ${
    perDrug.map(([k, ms]) => `${k.replace(", 10 drugs", "")} ${(ms / 10).toFixed(1)} ms`).join("; ")
  }`,
);
const kib = (chars: number) => `${(chars / 1024).toFixed(1)} KiB`;
console.log(
  `sizes (text as sent; PNG as base64): one SVG ${kib(sizes.svg!)}, one PNG ${kib(sizes.png!)} (first: ${
    kib(first.picture.length)
  }), grid of 12 SVG ${kib(sizes.gridSvg!)}, PNG ${kib(sizes.gridPng!)}, 2000 × 2000 PNG ${
    kib(sizes.largest!)
  }`,
);
previous.save(figures);
