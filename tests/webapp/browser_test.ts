/**
 * The sample web application's page in a real headless Chromium (playwright-core driving the Chromium that
 * tests/helpers/chromium.ts finds, the npm-bundled one last; nothing is installed): types a SMILES, reads the
 * descriptors and verdict off the page, runs a similarity search, and takes screenshots (kept in
 * CHEM_MCP_SCREENSHOTS when set). Where no Chromium can be had (another OS or architecture), one line says why
 * and each test is reported skipped for that reason; a Chromium that does not start is a failure.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { findChromium, noChromiumLine, screenshotDir, startChromium } from "../helpers/chromium.ts";
import { sayOnce, skipName } from "../helpers/skip.ts";
import { startWebApp, type WebAppServer } from "./webapp_process.ts";

let server: WebAppServer | undefined;
const shots = screenshotDir("chem-mcp-webapp-shots-");

const search = await findChromium();
/** Why the browser tests are skipped (no Chromium can be had on this platform), or false when they run. */
const skip = "missing" in search ? `no Chromium: ${search.missing}` : false;
// Said once per run of the test command (the suite runs under Deno and Node); each test then reports itself
// skipped for this reason, in its name so that Deno's report keeps it. A Chromium found that does not start
// fails the file instead.
if ("missing" in search) sayOnce("no-chromium", noChromiumLine(search.missing));
const started = "found" in search
  ? await startChromium(search.found, { width: 1100, height: 900 })
  : undefined;
const browser = started?.context;
const named = (name: string) => skipName(name, skip);

before(async () => {
  if (browser) server = await startWebApp();
});

after(async () => {
  await started?.close();
  await server?.stop();
  shots.remove();
});

async function openPage(): Promise<Page> {
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(server!.url);
  // Any script error or CSP violation on load fails the test.
  assert.deepEqual(errors, []);
  return page;
}

/** Where a plotted point lies, read from the SVG geometry the page drew (not from the server's verdict). */
interface PlottedPoint {
  role: string;
  cls: string;
  smiles: string;
  tpsa: number;
  wlogp: number;
  inYolk: boolean;
  inWhite: boolean;
}

/** Every point of one BOILED-Egg figure, with its position tested against the drawn ellipses' fill. */
function plottedPoints(page: Page, figure: string): Promise<PlottedPoint[]> {
  // Runs in the page; typed structurally because Deno's type check has no DOM lib.
  return page.locator(`${figure} svg`).evaluate((root) => {
    type Geometry = { isPointInFill(point: unknown): boolean };
    type Node = { getAttribute(name: string): string | null };
    const svg = root as unknown as { querySelector(s: string): unknown; querySelectorAll(s: string): Node[] };
    const yolk = svg.querySelector("path.yolk") as Geometry;
    const white = svg.querySelector("path.white") as Geometry;
    const DOMPointCtor =
      (globalThis as unknown as { DOMPoint: new (x: number, y: number) => unknown }).DOMPoint;
    return [...svg.querySelectorAll("circle")].map((c) => {
      const point = new DOMPointCtor(Number(c.getAttribute("cx")), Number(c.getAttribute("cy")));
      return {
        role: c.getAttribute("data-role")!,
        cls: c.getAttribute("data-class")!,
        smiles: c.getAttribute("data-smiles")!,
        tpsa: Number(c.getAttribute("data-tpsa")),
        wlogp: Number(c.getAttribute("data-wlogp")),
        inYolk: yolk.isPointInFill(point),
        inWhite: white.isPointInFill(point),
      };
    });
  });
}

/** The drawn geometry agrees with the server's verdict for every point (yolk ⇒ BBB, white ⇒ GI). */
function assertGeometryMatchesVerdicts(points: PlottedPoint[]): void {
  for (const p of points) {
    const expected = p.inYolk ? "bbb" : p.inWhite ? "gi" : "none";
    assert.equal(p.cls, expected, `${p.smiles} (TPSA ${p.tpsa}, WLOGP ${p.wlogp}) drawn as ${expected}`);
  }
}

test(named("descriptors and Lipinski verdict of a typed SMILES appear on the page"), { skip }, async () => {
  const page = await openPage();
  await page.getByLabel("SMILES", { exact: true }).fill("CC(=O)Oc1ccccc1C(=O)O");
  await page.getByRole("button", { name: "Depict and compute" }).click();
  const verdict = page.locator("#verdict");
  await verdict.waitFor({ timeout: 30_000 });
  assert.equal(await verdict.textContent(), "Passes Lipinski's rule of five");
  assert.equal(await page.locator('td[data-key="mw"]').textContent(), "180.159");
  assert.equal(await page.locator('td[data-key="logp"]').textContent(), "1.31");
  assert.equal(await page.locator('td[data-key="tpsa"]').textContent(), "63.60");
  assert.equal(await page.locator('td[data-key="hbd"]').textContent(), "1");
  assert.equal(await page.locator('td[data-key="hba"]').textContent(), "4");
  const img = page.getByAltText("2D structure of CC(=O)Oc1ccccc1C(=O)O");
  await img.waitFor();
  // Runs in the page; typed structurally because Deno's type check has no DOM lib.
  const loaded = await img.evaluate((el) => {
    const image = el as unknown as { complete: boolean; naturalWidth: number };
    return image.complete && image.naturalWidth === 300;
  });
  assert.ok(loaded, "the depiction loaded as a 300 px wide image");

  // A failing molecule flips the verdict; an invalid one shows the server's message as text.
  await page.getByLabel("SMILES", { exact: true }).fill("CCCCCCCCCCCCCCCCCCCC");
  await page.getByRole("button", { name: "Depict and compute" }).click();
  await page.locator("#verdict", { hasText: "Fails" }).waitFor({ timeout: 30_000 });
  await page.getByLabel("SMILES", { exact: true }).fill("<b>C1CC</b>");
  await page.getByRole("button", { name: "Depict and compute" }).click();
  const error = page.locator("#mol-result .error");
  await error.waitFor({ timeout: 30_000 });
  assert.match((await error.textContent()) ?? "", /^Error: smiles: .*<b>C1CC<\/b>/);
  assert.equal(await page.locator("#mol-result b").count(), 0, "user text is never parsed as HTML");
  await page.close();
});

const EGG_TEST =
  "BOILED-Egg: a BBB-penetrant molecule is drawn in the yolk, a poorly absorbed one outside the white";

test(named(EGG_TEST), { skip }, async () => {
  const page = await openPage();
  const smilesBox = page.getByLabel("SMILES", { exact: true });
  const compute = page.getByRole("button", { name: "Depict and compute" });
  // Diazepam crosses the blood–brain barrier (WLOGP 3.15, TPSA 32.67 Å²).
  await smilesBox.fill("CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21");
  await compute.click();
  await page.locator("#mol-egg circle.query").waitFor({ timeout: 30_000 });
  const [diazepam] = await plottedPoints(page, "#mol-egg");
  assert.deepEqual(
    { ...diazepam, smiles: undefined },
    { role: "query", cls: "bbb", smiles: undefined, tpsa: 32.67, wlogp: 3.1538, inYolk: true, inWhite: true },
  );
  assert.match(await page.locator("#mol-egg svg").textContent() ?? "", /TPSA \(Å²\).*WLOGP/);
  await page.locator("#mol-egg").screenshot({ path: join(shots.dir, "boiled_egg_diazepam.png") });

  // Lactulose, an osmotic laxative that is not absorbed (TPSA 189.53 Å², WLOGP −5.40): outside the white.
  await smilesBox.fill("OCC1OC(OC2C(CO)OC(O)(CO)C2O)C(O)C(O)C1O");
  await compute.click();
  await page.locator("#mol-egg circle[data-smiles^='OCC1OC(OC2']").waitFor({ timeout: 30_000 });
  const [lactulose] = await plottedPoints(page, "#mol-egg");
  assert.equal(lactulose!.cls, "none");
  assert.equal(lactulose!.inWhite, false);
  assert.equal(lactulose!.inYolk, false);
  assert.equal(lactulose!.tpsa, 189.53);
  await page.close();
});

test(named("similarity search ranks the library and depicts the hits"), { skip }, async () => {
  const page = await openPage();
  // Descriptors first, so the screenshot shows both halves of the page filled in.
  await page.getByRole("button", { name: "Depict and compute" }).click();
  await page.locator("#verdict").waitFor({ timeout: 30_000 });
  await page.getByLabel("Query SMILES").fill("CC(=O)Oc1ccccc1C(=O)O");
  await page.getByLabel(/^Library/).fill(
    ["c1ccccc1", "OC(=O)c1ccccc1O", "", "CC(=O)Oc1ccccc1C(=O)O", "CC(=O)Nc1ccc(O)cc1"].join("\n"),
  );
  await page.getByLabel(/^Threshold/).fill("0.2");
  await page.getByRole("button", { name: "Search" }).click();
  const summary = page.locator("#search-summary");
  await summary.waitFor({ timeout: 30_000 });
  const items = page.locator("#hits > li");
  const texts = await items.allTextContents();
  assert.equal(await summary.textContent(), `${texts.length} of 4 molecules have Tanimoto ≥ 0.2.`);
  // Aspirin itself first (score 1), then salicylic acid; benzene is below 0.2. Line numbers count the empty line.
  assert.match(texts[0]!, /^#1 score 1\.000 \(line 4\) CC\(=O\)Oc1ccccc1C\(=O\)O$/);
  assert.match(texts[1]!, /^#2 score 0\.\d{3} \(line 2\) OC\(=O\)c1ccccc1O$/);
  assert.ok(texts.every((t) => !t.endsWith(" c1ccccc1")));
  await page.locator("#hits img").nth(texts.length - 1).waitFor();
  assert.equal(await page.locator("#hits img").count(), texts.length);
  // The search's BOILED-Egg plot: the query plus one point per hit, each drawn where its verdict says.
  const points = await plottedPoints(page, "#search-egg");
  assert.deepEqual(points.map((p) => p.role).sort(), ["query", ...texts.map(() => "hit")].sort());
  assertGeometryMatchesVerdicts(points);

  // Threshold 0 plots the whole library, one molecule of each class: limonene (TPSA 0, in the yolk but left of
  // the white's tip), caffeine (white only), lactulose (neither).
  await page.getByLabel(/^Library/).fill(
    ["CC1=CCC(CC1)C(=C)C", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "OCC1OC(OC2C(CO)OC(O)(CO)C2O)C(O)C(O)C1O"].join(
      "\n",
    ),
  );
  await page.getByLabel(/^Threshold/).fill("0");
  await page.getByRole("button", { name: "Search" }).click();
  await page.locator("#search-summary", { hasText: "3 of 3" }).waitFor({ timeout: 30_000 });
  const all = await plottedPoints(page, "#search-egg");
  assertGeometryMatchesVerdicts(all);
  const classOf = (smiles: string) => all.find((p) => p.role === "hit" && p.smiles === smiles)?.cls;
  assert.deepEqual(
    [
      classOf("CC1=CCC(CC1)C(=C)C"),
      classOf("Cn1cnc2c1c(=O)n(C)c(=O)n2C"),
      classOf("OCC1OC(OC2C(CO)OC(O)(CO)C2O)C(O)C(O)C1O"),
    ],
    ["bbb", "gi", "none"],
  );
  const limonene = all.find((p) => p.smiles === "CC1=CCC(CC1)C(=C)C")!;
  assert.deepEqual(
    [limonene.inYolk, limonene.inWhite],
    [true, false],
    "limonene: in the yolk, not the white",
  );
  await page.locator("#hits img").nth(2).waitFor();
  const file = join(shots.dir, "webapp.png");
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(statSync(file).size > 10_000, `screenshot written to ${file}`);
  console.log(`screenshot: ${file}`);
  await page.close();
});
