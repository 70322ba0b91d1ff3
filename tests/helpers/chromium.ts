/**
 * Finds a Chromium for the browser tests without installing anything: `CHEM_MCP_CHROMIUM` when set, then the
 * distribution's package (`/usr/bin/chromium`, `/usr/bin/chromium-browser`), then the browsers Playwright
 * downloads (`PLAYWRIGHT_BROWSERS_PATH`, else its per-user cache), then the headless Chromium that the npm
 * package `@sparticuz/chromium` (a dev dependency) carries inside itself, for Linux x86_64.
 */
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** The environment variable that names a Chromium (or Chrome) executable, or `bundled` for the npm one. */
export const CHROMIUM_ENV = "CHEM_MCP_CHROMIUM";

/** The `source` of the Chromium that `@sparticuz/chromium` carries. */
export const BUNDLED_CHROMIUM = "@sparticuz/chromium";

/** A Chromium to launch and the flags it needs. */
export interface ChromiumLaunch {
  readonly executablePath: string;
  readonly args: readonly string[];
  /** Where it was found, for the log. */
  readonly source: string;
}

/** The answer of {@link findChromium}: a Chromium, or why there is none (a short cause, no advice). */
export type ChromiumSearch = { readonly found: ChromiumLaunch } | { readonly missing: string };

/** Flags for a desktop Chromium run headless by a test: no sandbox (CI runs as root), nothing phoning home. */
const DESKTOP_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

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
 * The Chromium inside the npm package `@sparticuz/chromium`, unpacked on first use (into the system's temporary
 * directory, where the package keeps it), with the flags the package says its build needs.
 */
export async function bundledChromium(): Promise<ChromiumSearch> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      missing: `@sparticuz/chromium carries Linux x86_64 only, this is ${process.platform}-${process.arch}`,
    };
  }
  try {
    const { default: bundled } = await import("@sparticuz/chromium");
    return {
      found: { executablePath: await bundled.executablePath(), args: bundled.args, source: BUNDLED_CHROMIUM },
    };
  } catch (error) {
    return {
      missing: `@sparticuz/chromium did not unpack: ${error instanceof Error ? error.message : error}`,
    };
  }
}

/**
 * The first Chromium found. `CHEM_MCP_CHROMIUM` set to a path makes only that path count, so a wrong path is
 * an error rather than silently replaced by another Chromium; set to `bundled` it selects the npm package's.
 */
export async function findChromium(): Promise<ChromiumSearch> {
  const chosen = process.env[CHROMIUM_ENV];
  if (chosen === "bundled") return await bundledChromium();
  if (chosen) {
    // A wrong path is a mistake to correct, not a machine without Chromium.
    if (!existsSync(chosen)) throw new Error(`${CHROMIUM_ENV}=${chosen} does not exist`);
    return { found: { executablePath: chosen, args: DESKTOP_ARGS, source: CHROMIUM_ENV } };
  }
  const installed = ["/usr/bin/chromium", "/usr/bin/chromium-browser", ...playwrightChromiums()]
    .find((path) => existsSync(path));
  if (installed) return { found: { executablePath: installed, args: DESKTOP_ARGS, source: installed } };
  return await bundledChromium();
}

/** The one line printed when the browser tests are skipped: the cause, and how to provide a Chromium. */
export function noChromiumLine(cause: string): string {
  return `browser tests skipped, no Chromium here: ${cause}. Install one (\`apt-get install chromium\`, ` +
    `\`npx playwright-core install chromium\`) or set ${CHROMIUM_ENV}=/path/to/chromium.`;
}
