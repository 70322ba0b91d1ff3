/**
 * The MCP Registry metadata: the top-level `server.json` is valid against the registry's own schema (vendored in
 * docs/schemas/ with its provenance), and agrees with package.json (`mcpName`, version), the image's label
 * and the bundle's file name, so a release cannot publish one name or version and announce another.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@cfworker/json-schema";
import { bundleFileName } from "../../scripts/bundle/manifest.ts";
import { ROOT } from "../helpers/process.ts";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const schema = JSON.parse(read("docs/schemas/server.schema.json")) as Record<string, unknown>;
const serverJson = JSON.parse(read("server.json")) as {
  $schema: string;
  name: string;
  version: string;
  repository: { url: string };
  packages: { registryType: string; identifier: string; version?: string; transport: { type: string } }[];
};
const pkg = JSON.parse(read("package.json")) as { name: string; version: string; mcpName: string };

/** Errors of `value` against the registry schema (draft-07, as its `$schema` says). */
function registryErrors(value: unknown): string[] {
  const result = new Validator(schema as never, "7", false).validate(value);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

test("server.json: valid against the vendored registry schema, which it names", () => {
  assert.equal(serverJson.$schema, schema.$id);
  assert.deepEqual(registryErrors(serverJson), []);
});

test("server.json: the schema check refuses what the registry refuses", () => {
  assert.notDeepEqual(registryErrors({ ...serverJson, name: "chem-mcp" }), [], "a name without a namespace");
  assert.notDeepEqual(
    registryErrors({ ...serverJson, description: "x".repeat(101) }),
    [],
    "over 100 characters",
  );
  const latest = structuredClone(serverJson);
  latest.packages[0]!.version = "latest";
  assert.notDeepEqual(registryErrors(latest), [], "a package version 'latest'");
});

test("server.json: name is package.json's mcpName, in the namespace of the repository's GitHub owner", () => {
  assert.equal(serverJson.name, pkg.mcpName);
  const owner = /^https:\/\/github\.com\/([^/]+)\/[^/]+$/.exec(serverJson.repository.url)?.[1];
  assert.equal(serverJson.name.split("/")[0], `io.github.${owner}`);
});

test("server.json: one version everywhere, and the npm package, the bundle and the image listed", () => {
  assert.equal(serverJson.version, pkg.version);
  const byType = new Map(serverJson.packages.map((p) => [p.registryType, p]));
  assert.deepEqual([...byType.keys()].sort(), ["mcpb", "npm", "oci"]);
  assert.equal(byType.get("npm")!.identifier, pkg.name);
  assert.equal(byType.get("npm")!.version, pkg.version);
  assert.equal(byType.get("npm")!.transport.type, "stdio");
  const repo = serverJson.repository.url;
  assert.equal(
    byType.get("mcpb")!.identifier,
    `${repo}/releases/download/v${pkg.version}/${bundleFileName(pkg.version)}`,
  );
  assert.equal(byType.get("mcpb")!.transport.type, "stdio");
  const image = byType.get("oci")!;
  assert.equal(image.identifier, `ghcr.io/${new URL(repo).pathname.slice(1)}:${pkg.version}`);
  assert.equal(image.transport.type, "streamable-http");
});

test("server.json: the image carries the label the registry reads to tie it to this name", () => {
  const label = /io\.modelcontextprotocol\.server\.name="([^"]+)"/.exec(read("deploy/Containerfile"));
  assert.equal(label?.[1], serverJson.name);
});
