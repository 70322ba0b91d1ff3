/**
 * Finds a Chromium for the browser test without installing anything: `CHEM_MCP_CHROMIUM` when set, then the
 * distribution's package (`/usr/bin/chromium`, `/usr/bin/chromium-browser`), then the browsers Playwright
 * downloads (`PLAYWRIGHT_BROWSERS_PATH`, else its per-user cache).
 */
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** The environment variable that names a Chromium (or Chrome) executable for the browser test. */
export const CHROMIUM_ENV = "CHEM_MCP_CHROMIUM";

/** The one line printed when no Chromium is found: what to install, or which variable to set. */
export function chromiumMissing(): string {
  const chosen = process.env[CHROMIUM_ENV];
  const what = chosen ? `${CHROMIUM_ENV}=${chosen} does not exist` : "No Chromium found for the browser test";
  return `${what}: install one with \`apt-get install chromium\` (Debian/Ubuntu) or ` +
    `\`npx playwright-core install chromium\`, or set ${CHROMIUM_ENV}=/path/to/chromium.`;
}

/** Where Playwright keeps the browsers it downloads, per platform. */
function playwrightCaches(): string[] {
  const own = process.env.PLAYWRIGHT_BROWSERS_PATH;
  const home = homedir();
  return [
    ...(own && own !== "0" ? [own] : []),
    join(home, ".cache", "ms-playwright"),
    join(home, "Library", "Caches", "ms-playwright"),
    ...(process.env.LOCALAPPDATA ? [join(process.env.LOCALAPPDATA, "ms-playwright")] : []),
  ];
}

/** Executables inside one Playwright `chromium-<build>` directory, newest layout first. */
const PLAYWRIGHT_LAYOUTS = [
  ["chrome-linux64", "chrome"],
  ["chrome-linux", "chrome"],
  ["chrome-mac-arm64", "Chromium.app", "Contents", "MacOS", "Chromium"],
  ["chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"],
  ["chrome-win64", "chrome.exe"],
  ["chrome-win", "chrome.exe"],
];

function playwrightChromiums(): string[] {
  const found: string[] = [];
  for (const cache of playwrightCaches().filter((dir) => existsSync(dir))) {
    // Newest build first: directory names are chromium-<build number>.
    const builds = readdirSync(cache).filter((name) => /^chromium-\d+$/.test(name))
      .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
    for (const build of builds) {
      for (const layout of PLAYWRIGHT_LAYOUTS) found.push(join(cache, build, ...layout));
    }
  }
  return found;
}

/**
 * The first Chromium executable found, or undefined. When `CHEM_MCP_CHROMIUM` is set, only that path counts, so
 * a wrong path is reported rather than silently replaced by another Chromium.
 */
export function findChromium(): string | undefined {
  const chosen = process.env[CHROMIUM_ENV];
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  const candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", ...playwrightChromiums()];
  return candidates.find((path) => existsSync(path));
}
