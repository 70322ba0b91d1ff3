/**
 * The last resort of the browser tests, exercised on its own: the headless Chromium that the npm package
 * `@sparticuz/chromium` carries, launched by playwright-core with the package's own `executablePath()` and
 * `args`, loads the sample page and computes one molecule. browser_test.ts takes the first Chromium it finds,
 * and CI machines have the distribution's, so without this test a fresh machine with nothing but npm would
 * rely on a path nothing runs. The package carries Linux x86_64 only; elsewhere the test is skipped with why.
 * The test command unpacks it once per run and names it in CHEM_MCP_BUNDLED_CHROMIUM; run alone, this file
 * unpacks it into a temporary directory of its own.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { bundledChromium, startChromium, type StartedChromium } from "../helpers/chromium.ts";
import { skipName } from "../helpers/skip.ts";
import { startWebApp, type WebAppServer } from "./webapp_process.ts";

const search = await bundledChromium();
/** Why the test is skipped: the one cause the package gives for not being usable here, its platform. */
const skip = "missing" in search && /carries Linux x86_64 only/.test(search.missing) ? search.missing : false;
let browser: StartedChromium | undefined;
let server: WebAppServer | undefined;

after(async () => {
  await browser?.close();
  await server?.stop();
});

test(skipName("@sparticuz/chromium, as the package launches it, loads the sample page and computes", skip), {
  skip,
}, async () => {
  // On Linux x86_64 a package that did not unpack is a failure, not a reason to skip.
  assert.ok("found" in search, "missing" in search ? search.missing : "");
  browser = await startChromium(search.found, { width: 1100, height: 900 });
  assert.match(browser.context.browser()?.version() ?? "", /^\d+\./, "a Chromium version");
  server = await startWebApp();
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.getByLabel("SMILES", { exact: true }).fill("CC(=O)Oc1ccccc1C(=O)O");
  await page.getByRole("button", { name: "Depict and compute" }).click();
  const verdict = page.locator("#verdict");
  await verdict.waitFor({ timeout: 30_000 });
  assert.equal(await verdict.textContent(), "Passes Lipinski's rule of five");
  assert.deepEqual(errors, []);
  await page.close();
});
