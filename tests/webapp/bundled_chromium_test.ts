/**
 * The last resort of the browser tests, exercised on its own: the headless Chromium that the npm package
 * `@sparticuz/chromium` carries, launched by playwright-core with the package's own `executablePath()` and
 * `args`, loads the sample page and computes one molecule. browser_test.ts takes the first Chromium it finds,
 * and CI machines have the distribution's, so without this test a fresh machine with nothing but npm would
 * rely on a path nothing runs. The package carries Linux x86_64 only; elsewhere the test is skipped with why.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { bundledChromium } from "../helpers/chromium.ts";
import { skipName } from "../helpers/skip.ts";
import { startWebApp, type WebAppServer } from "./webapp_process.ts";

const search = await bundledChromium();
/** Why the test is skipped: the one cause the package gives for not being usable here, its platform. */
const skip = "missing" in search && /carries Linux x86_64 only/.test(search.missing) ? search.missing : false;
const profile = mkdtempSync(join(tmpdir(), "chem-mcp-bundled-chromium-"));
let browser: BrowserContext | undefined;
let server: WebAppServer | undefined;

after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(profile, { recursive: true, force: true });
});

test(skipName("@sparticuz/chromium, as the package launches it, loads the sample page and computes", skip), {
  skip,
}, async () => {
  // On Linux x86_64 a package that did not unpack is a failure, not a reason to skip.
  assert.ok("found" in search, "missing" in search ? search.missing : "");
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: search.found.executablePath,
    args: [...search.found.args],
    headless: true,
  });
  assert.match(browser.browser()?.version() ?? "", /^\d+\./, "a Chromium version");
  server = await startWebApp();
  const page = await browser.newPage();
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
