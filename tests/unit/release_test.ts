/**
 * Releases users can verify: every workflow passes GitHub's own workflow parser as a linter
 * (tests/helpers/workflow_lint.ts: the workflow schema, job references, expressions); the release
 * workflow checksums and attests every asset it builds before publishing any, and npm publishes with
 * provenance; CHANGELOG.md keeps the Keep a Changelog shape and gates the release notes; the released
 * server.json carries the bundle's hash and stays valid.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { Validator } from "@cfworker/json-schema";
import { parse } from "yaml";
import { changelogSections, releaseNotes, withBundleHash } from "../../scripts/release/metadata.ts";
import { ROOT } from "../helpers/process.ts";
import { workflowErrors } from "../helpers/workflow_lint.ts";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const WORKFLOWS = readdirSync(join(ROOT, ".github/workflows")).filter((f) => /\.ya?ml$/.test(f));
const pkg = JSON.parse(read("package.json")) as { version: string; repository: { url: string } };

interface Step {
  name?: string;
  if?: string;
  env?: Record<string, string>;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  "working-directory"?: string;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
const release = parse(read(".github/workflows/release.yml")) as { jobs: Record<string, Job> };

test("workflows: every workflow file passes the workflow linter", async () => {
  assert.ok(WORKFLOWS.includes("release.yml"));
  for (const file of WORKFLOWS) {
    assert.deepEqual(await workflowErrors(file, read(`.github/workflows/${file}`)), [], file);
  }
});

test("workflows: the linter finds a misspelt key, a job that needs no such job and a bad permission", async () => {
  const workflow = read(".github/workflows/release.yml");
  const cases: [string, string][] = [
    ["misspelt key", workflow.replace("runs-on: ubuntu-latest", "run-on: ubuntu-latest")],
    ["needs no such job", workflow.replace("needs: assets", "needs: asset")],
    ["bad permission", workflow.replace("attestations: write", "attestations: sometimes")],
    ["unclosed expression", workflow.replace("${{ github.token }}", "${{ github.token ")],
  ];
  for (const [what, broken] of cases) {
    assert.notEqual(broken, workflow, what);
    assert.notDeepEqual(await workflowErrors("release.yml", broken), [], what);
  }
});

/** The index of the first step of `job` whose `run` or `uses` matches. */
function stepIndex(job: Job, pattern: RegExp): number {
  return job.steps.findIndex((s) => pattern.test(s.run ?? "") || pattern.test(s.uses ?? ""));
}

test("release workflow: every asset is built, then checksummed and attested, then published", () => {
  const assets = release.jobs.assets!;
  const builders = [
    /deno task compile/,
    /scripts\/build_sea\.ts --out release\//,
    /deno task bundle/,
    /npm pack --pack-destination release/,
    /server-json .* > release\/server\.json/,
  ];
  const sums = stepIndex(assets, /sha256sum -- \* > SHA256SUMS/);
  assert.equal(assets.steps[sums]!["working-directory"], "release");
  const attest = stepIndex(assets, /^actions\/attest-build-provenance@/);
  const publish = stepIndex(assets, /gh release create "\$GITHUB_REF_NAME" release\/\*/);
  for (const builder of builders) {
    const at = stepIndex(assets, builder);
    assert.ok(at >= 0 && at < sums, `${builder} runs before the checksums`);
  }
  assert.ok(sums < attest && attest < publish, "checksums, then attestation, then the release");
  assert.equal(assets.steps[attest]!.with?.["subject-checksums"], "release/SHA256SUMS");
  assert.equal(assets.permissions?.["id-token"], "write");
  assert.equal(assets.permissions?.attestations, "write");
});

test("release workflow: npm publishes the attested tarball with provenance; the image is attested", () => {
  const npm = release.jobs.npm!;
  assert.equal(npm.needs, "assets");
  assert.equal(npm.permissions?.["id-token"], "write");
  const publish = npm.steps[stepIndex(npm, /npm publish/)]!;
  assert.match(publish.run!, /^npm publish \.\/chem-mcp-\*\.tgz --provenance --access public$/);
  assert.equal(publish.if, undefined, "npm publish is never skipped");
  assert.ok(stepIndex(npm, /^actions\/download-artifact@/) >= 0);
  // npm checks a provenance statement against the package's repository field.
  assert.match(pkg.repository.url, /^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
  const image = release.jobs.image!;
  const attest = image.steps[stepIndex(image, /^actions\/attest-build-provenance@/)]!;
  assert.equal(attest.with?.["push-to-registry"], true as unknown as string);
  assert.equal(image.permissions?.attestations, "write");
});

test("release workflow: without the NPM_TOKEN secret no release is made, before anything is built", () => {
  const assets = release.jobs.assets!;
  const gate = assets.steps[0]!;
  assert.equal(gate.env?.HAS_NPM_TOKEN, "${{ secrets.NPM_TOKEN != '' }}");
  assert.equal(gate.if, undefined);
  // The gate's own script, run as the runner runs it (bash -e), with and without the secret.
  for (const [has, code] of [["true", 0], ["false", 1]] as const) {
    const result = spawnSync("bash", ["-e", "-c", gate.run!], {
      env: { PATH: process.env.PATH ?? "", HAS_NPM_TOKEN: has },
      encoding: "utf8",
    });
    assert.equal(result.status, code, `HAS_NPM_TOKEN=${has}`);
    if (code) {
      assert.match(result.stdout, /^::error title=NPM_TOKEN is not set::No release without the npm package/);
    }
  }
  // Every job of the release comes after the gate: the assets job runs it first, the rest need that job.
  for (const [name, job] of Object.entries(release.jobs)) {
    if (name !== "assets") assert.equal(job.needs, "assets", `${name} needs assets`);
  }
});

const KEEP_A_CHANGELOG_KINDS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];

test("CHANGELOG.md: Keep a Changelog, starting at 1.1.0, newest the package's version", () => {
  const changelog = read("CHANGELOG.md");
  assert.match(changelog, /^# Changelog\n/);
  assert.match(changelog, /keepachangelog\.com\/en\/1\.1\.0/);
  const sections = changelogSections(changelog);
  assert.equal(sections[0]!.version, pkg.version);
  assert.equal(sections.at(-1)!.version, "1.1.0");
  for (const section of sections) {
    const kinds = [...section.body.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    assert.ok(kinds.length > 0, `${section.version} has entries`);
    for (const kind of kinds) assert.ok(KEEP_A_CHANGELOG_KINDS.includes(kind), `${section.version}: ${kind}`);
    assert.match(changelog, new RegExp(`^\\[${section.version.replaceAll(".", "\\.")}\\]: https://`, "m"));
  }
  assert.throws(() => changelogSections("## 1.1.0\n"), /is not '## \[x\.y\.z\] - YYYY-MM-DD'/);
});

test("release notes: only for the package's version, and only once its section is dated", () => {
  const changelog = read("CHANGELOG.md");
  assert.throws(() => releaseNotes("v9.9.9", pkg.version, changelog), /is not v/);
  const dated = changelog.replace(`## [${pkg.version}] - Unreleased`, `## [${pkg.version}] - 2026-12-01`);
  const notes = releaseNotes(`v${pkg.version}`, pkg.version, dated);
  assert.match(notes, /^### Added\n/);
  assert.doesNotMatch(notes, /^## /m);
  if (dated !== changelog) {
    assert.throws(() => releaseNotes(`v${pkg.version}`, pkg.version, changelog), /date the/);
  }
});

test("released server.json: the bundle's SHA-256 on its MCPB entry, still valid against the registry schema", () => {
  const serverJson = JSON.parse(read("server.json")) as { packages: { registryType: string }[] };
  const sha = "a".repeat(64);
  const released = withBundleHash(serverJson, sha) as {
    packages: { registryType: string; fileSha256?: string }[];
  };
  assert.deepEqual(released.packages.filter((p) => p.fileSha256).map((p) => p.registryType), ["mcpb"]);
  const schema = JSON.parse(read("docs/schemas/server.schema.json")) as never;
  assert.equal(new Validator(schema, "7", false).validate(released).valid, true);
  assert.throws(() => withBundleHash(serverJson, "A".repeat(64)), /not a SHA-256/);
});
