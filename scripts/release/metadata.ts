/**
 * What the release workflow (.github/workflows/release.yml) derives from the repository before it publishes:
 * the CHANGELOG.md section of the tagged version (its release notes, which must be dated), and the server.json
 * it attaches, with the SHA-256 of the bundle it built (the registry requires the hash of an MCPB package, and
 * the hash exists only once the bundle does).
 *
 * @module
 */

/** One released version's section of a Keep a Changelog file. */
export interface ChangelogSection {
  readonly version: string;
  /** ISO date (YYYY-MM-DD), or "Unreleased" while the version is being prepared. */
  readonly date: string;
  /** The section's text below its heading, trimmed. */
  readonly body: string;
}

const HEADING = /^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - (\d{4}-\d{2}-\d{2}|Unreleased)$/;

/**
 * The version sections of a Keep a Changelog 1.1.0 file (https://keepachangelog.com/en/1.1.0/), newest first.
 * Throws on a second-level heading that is neither `## [Unreleased]` nor `## [x.y.z] - YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * changelogSections("## [1.1.0] - 2026-12-01\n### Added\n- x\n")[0]!.date; // "2026-12-01"
 * ```
 */
export function changelogSections(markdown: string): ChangelogSection[] {
  const sections: { version: string; date: string; lines: string[] }[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) {
      if (line === "## [Unreleased]") {
        sections.push({ version: "Unreleased", date: "", lines: [] });
        continue;
      }
      const match = HEADING.exec(line);
      if (!match) throw new Error(`CHANGELOG.md: '${line}' is not '## [x.y.z] - YYYY-MM-DD'`);
      sections.push({ version: match[1]!, date: match[2]!, lines: [] });
    } else if (/^\[[^\]]+\]: /.test(line)) {
      continue;
    } else {
      sections.at(-1)?.lines.push(line);
    }
  }
  return sections.filter((s) => s.version !== "Unreleased").map((s) => ({
    version: s.version,
    date: s.date,
    body: s.lines.join("\n").trim(),
  }));
}

/**
 * The release notes of `tag` (`v` + the package version): its dated CHANGELOG.md section. Throws when the tag
 * is not the package's version or the section is missing or undated, so nothing is published by mistake.
 */
export function releaseNotes(tag: string, packageVersion: string, changelog: string): string {
  if (tag !== `v${packageVersion}`) {
    throw new Error(`tag ${tag} is not v${packageVersion}, the package's version`);
  }
  const section = changelogSections(changelog).find((s) => s.version === packageVersion);
  if (!section) throw new Error(`CHANGELOG.md has no section for ${packageVersion}`);
  if (section.date === "Unreleased") {
    throw new Error(`CHANGELOG.md: date the ${packageVersion} section (## [${packageVersion}] - YYYY-MM-DD)`);
  }
  return section.body;
}

/** A server.json package entry, as far as this module reads it. */
interface PackageEntry {
  readonly registryType: string;
  readonly fileSha256?: string;
}

/**
 * `serverJson` with `fileSha256` set on its MCPB package entry.
 *
 * @example
 * ```ts
 * withBundleHash(JSON.parse(readFileSync("server.json", "utf8")), "ab12…");
 * ```
 */
export function withBundleHash<T extends { packages: readonly PackageEntry[] }>(
  serverJson: T,
  sha256: string,
): T {
  if (!/^[a-f0-9]{64}$/.test(sha256)) throw new Error(`not a SHA-256 in lower-case hex: ${sha256}`);
  if (!serverJson.packages.some((p) => p.registryType === "mcpb")) {
    throw new Error("server.json lists no mcpb");
  }
  return {
    ...serverJson,
    packages: serverJson.packages.map((p) => (p.registryType === "mcpb" ? { ...p, fileSha256: sha256 } : p)),
  };
}
