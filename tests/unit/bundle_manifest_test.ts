/**
 * The MCP Bundle's manifest and icon, without building the bundle (tests/artifacts/mcpb_bundle.ts builds it,
 * unpacks it and serves from it): the manifest passes `@anthropic-ai/mcpb`'s own validation, lists this
 * release's tools, and its `mcp_config`, with placeholders substituted by the same library hosts use, starts
 * the package's Node entry inside the unpacked folder; the icon is a real 512 × 512 PNG.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { getMcpConfigForManifest, validateManifest } from "@anthropic-ai/mcpb/node";
import { ICON_SIZE, iconPng } from "../../scripts/bundle/icon.ts";
import { BUNDLE_ENTRY, BUNDLE_ICON, bundleFileName, bundleManifest } from "../../scripts/bundle/manifest.ts";
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { ROOT } from "../helpers/process.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  description: string;
  bin: Record<string, string>;
};
const manifest = bundleManifest(pkg.description) as {
  version: string;
  tools: { name: string; description: string }[];
  server: { entry_point: string; mcp_config: { command: string; args: string[] } };
};

test("bundle: the manifest passes mcpb validation, with its icon beside it", () => {
  const dir = mkdtempSync(join(tmpdir(), "chem-mcp-manifest-"));
  try {
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
    writeFileSync(join(dir, BUNDLE_ICON), iconPng());
    assert.equal(validateManifest(join(dir, "manifest.json")), true);
    // The same check refuses a manifest without the server block, so it does check something.
    writeFileSync(join(dir, "broken.json"), JSON.stringify({ ...manifest, server: undefined }));
    assert.equal(validateManifest(join(dir, "broken.json")), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bundle: the manifest names this release, its file and every tool, each with one sentence", () => {
  assert.equal(manifest.version, pkg.version);
  assert.equal(bundleFileName(), `chem-mcp-${pkg.version}.mcpb`);
  assert.deepEqual(manifest.tools.map((t) => t.name), ALL_TOOLS.map((t) => t.name));
  assert.ok(manifest.tools.length > 20);
  for (const tool of manifest.tools) {
    assert.match(tool.description, /^[A-Z].*\.$/, tool.name);
    assert.ok(tool.description.length < 600, `${tool.name}: ${tool.description.length} characters`);
  }
});

test("bundle: mcp_config, substituted as the host does, runs node on the package's bin", async () => {
  assert.equal(manifest.server.entry_point, BUNDLE_ENTRY);
  assert.equal(pkg.bin["chem-mcp"], BUNDLE_ENTRY);
  const config = await getMcpConfigForManifest({
    manifest: manifest as unknown as Parameters<typeof getMcpConfigForManifest>[0]["manifest"],
    extensionPath: "/opt/extensions/chem-mcp",
    systemDirs: { HOME: "/home/user", DATA: "/home/user/.data", DOCUMENTS: "/home/user/Documents" },
    userConfig: {},
    pathSeparator: "/",
  });
  assert.deepEqual(config, {
    command: "node",
    args: ["/opt/extensions/chem-mcp/dist/src/runtime/node.js", "--tools", "spec"],
    env: { CHEM_MCP_LIBRARY: "" },
  });
  // The user's choice of tools reaches the command line.
  const all = await getMcpConfigForManifest({
    manifest: manifest as unknown as Parameters<typeof getMcpConfigForManifest>[0]["manifest"],
    extensionPath: "/opt/extensions/chem-mcp",
    systemDirs: { HOME: "/home/user", DATA: "/home/user/.data", DOCUMENTS: "/home/user/Documents" },
    userConfig: { tools: "all" },
    pathSeparator: "/",
  });
  assert.deepEqual(all?.args?.slice(1), ["--tools", "all"]);
  // A chosen compound library reaches the server's environment.
  const library = await getMcpConfigForManifest({
    manifest: manifest as unknown as Parameters<typeof getMcpConfigForManifest>[0]["manifest"],
    extensionPath: "/opt/extensions/chem-mcp",
    systemDirs: { HOME: "/home/user", DATA: "/home/user/.data", DOCUMENTS: "/home/user/Documents" },
    userConfig: { library: "/home/user/deck.smi" },
    pathSeparator: "/",
  });
  assert.deepEqual(library?.env, { CHEM_MCP_LIBRARY: "/home/user/deck.smi" });
});

test("bundle: the icon is a 512 x 512 RGBA PNG: white ring on teal, transparent corners", () => {
  const png = iconPng();
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset);
  assert.equal(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
  assert.equal(view.getUint32(16), ICON_SIZE);
  assert.equal(view.getUint32(20), ICON_SIZE);
  assert.deepEqual([...png.subarray(24, 29)], [8, 6, 0, 0, 0]);
  const idatLength = view.getUint32(33);
  assert.equal(new TextDecoder().decode(png.subarray(37, 41)), "IDAT");
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  const at = (x: number, y: number) => [...raw.subarray(y * (1 + ICON_SIZE * 4) + 1 + x * 4).subarray(0, 4)];
  assert.deepEqual(at(0, 0), [0, 0, 0, 0]);
  const c = ICON_SIZE / 2;
  assert.deepEqual(at(c, 40), [0x0f, 0x76, 0x6e, 255]);
  // The top corner of the hexagon (radius 78/256 of the icon from the centre) is drawn in white.
  assert.deepEqual(at(c, c - (78 * ICON_SIZE) / 256), [255, 255, 255, 255]);
});
