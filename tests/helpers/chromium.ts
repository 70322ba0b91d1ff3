/**
 * Finds a Chromium for the browser tests without installing anything: `CHEM_MCP_CHROMIUM` when set, then the
 * distribution's package (`/usr/bin/chromium`, `/usr/bin/chromium-browser`), then the browsers Playwright
 * downloads (`PLAYWRIGHT_BROWSERS_PATH`, else its per-user cache), then the headless Chromium that the npm
 * package `@sparticuz/chromium` (a dev dependency) carries inside itself, for Linux x86_64. Only where none of
 * these can be had are the browser tests skipped; a Chromium found that fails to start is a failure.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { type BrowserContext, chromium } from "playwright-core";

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
 * Set by the test command to the Chromium of `@sparticuz/chromium` it unpacked once for the run (into its run
 * directory), so browser test files share it instead of each unpacking 200 MB; a path that is not there fails.
 */
export const BUNDLED_CHROMIUM_ENV = "CHEM_MCP_BUNDLED_CHROMIUM";

/**
 * Unpacks the Chromium of `@sparticuz/chromium` into `dir` and returns its executable. The package unpacks into
 * the temporary directory it reads at the call (the executable, its fonts and its GL libraries side by side), so
 * that directory is pointed at `dir` for the call.
 */
export async function unpackBundledChromium(dir: string): Promise<string> {
  const { default: bundled } = await import("@sparticuz/chromium");
  mkdirSync(dir, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    // The package reads the temporary directory before its first await: the call alone needs `dir` set.
    const unpacking = bundled.executablePath();
    return await unpacking;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/**
 * The Chromium inside the npm package `@sparticuz/chromium`, with the flags the package says its build needs:
 * the one the test command unpacked ({@link BUNDLED_CHROMIUM_ENV}), or else one unpacked now into a directory
 * of this process's own, removed when it exits.
 */
export async function bundledChromium(): Promise<ChromiumSearch> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      missing: `@sparticuz/chromium carries Linux x86_64 only, this is ${process.platform}-${process.arch}`,
    };
  }
  const { default: bundled } = await import("@sparticuz/chromium");
  const shared = process.env[BUNDLED_CHROMIUM_ENV];
  if (shared) {
    if (!existsSync(shared)) throw new Error(`${BUNDLED_CHROMIUM_ENV}=${shared} does not exist`);
    return { found: { executablePath: shared, args: bundled.args, source: BUNDLED_CHROMIUM } };
  }
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-chromium-bin-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return {
    found: { executablePath: await unpackBundledChromium(dir), args: bundled.args, source: BUNDLED_CHROMIUM },
  };
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

/** A started Chromium whose profile lives in a temporary directory removed by {@link StartedChromium.close}. */
export interface StartedChromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts `found` headless with a fresh profile of its own (playwright takes --user-data-dir as the persistent
 * context's directory). A Chromium that does not start throws: the test fails, it is not skipped.
 */
export async function startChromium(
  found: ChromiumLaunch,
  viewport: { width: number; height: number },
): Promise<StartedChromium> {
  const profile = mkdtempSync(join(tmpdir(), "chem-mcp-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      viewport,
      headless: true,
      args: [...found.args],
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`${found.source} (${found.executablePath}) did not start: ${error}`);
  }
}

/**
 * Where a browser test keeps its screenshots: `CHEM_MCP_SCREENSHOTS` when set (kept there for a person to look
 * at), else a temporary directory removed by the returned `remove`.
 */
export function screenshotDir(prefix: string): { dir: string; remove: () => void } {
  const kept = process.env.CHEM_MCP_SCREENSHOTS;
  if (kept) {
    mkdirSync(kept, { recursive: true });
    return { dir: kept, remove: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
