/**
 * The release workflow's view of the repository (scripts/release/metadata.ts):
 *
 *   deno run -A scripts/release_metadata.ts notes <tag>          the tag's dated CHANGELOG.md section, or exit 1
 *   deno run -A scripts/release_metadata.ts server-json <mcpb>   server.json with the bundle's SHA-256
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import process from "node:process";
import { releaseNotes, withBundleHash } from "./release/metadata.ts";

const [command, argument] = process.argv.slice(2);
try {
  if (command === "notes" && argument) {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    console.log(releaseNotes(argument, version, readFileSync("CHANGELOG.md", "utf8")));
  } else if (command === "server-json" && argument) {
    const sha256 = createHash("sha256").update(readFileSync(argument)).digest("hex");
    const serverJson = JSON.parse(readFileSync("server.json", "utf8")) as {
      packages: { registryType: string }[];
    };
    console.log(JSON.stringify(withBundleHash(serverJson, sha256), null, 2));
  } else {
    console.error("usage: release_metadata.ts notes <tag> | server-json <bundle.mcpb>");
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`release_metadata: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
