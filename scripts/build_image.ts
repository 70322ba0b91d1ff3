/**
 * Builds the OCI image of deploy/Containerfile with buildah: the Node single-executable binary
 * (scripts/build_sea.ts), the shared libraries `ldd` lists for it, a passwd/group entry for the non-root user
 * and the licence texts (the project's, and the Debian copyright files of the packages the libraries come from)
 * are staged as rootfs/ in a build context under .cache/image, then `buildah build` makes a `FROM scratch` image.
 *
 * Usage: deno run -A scripts/build_image.ts [--tag localhost/chem-mcp:<version>]
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { VERSION } from "../src/version.ts";

/** The user the image runs as (no name clash with host users; it owns nothing in the image). */
export const IMAGE_UID = 65532;
/** Where the binary lives inside the image. */
export const IMAGE_BINARY = "/usr/local/bin/chem-mcp";
/** The default tag. */
export const DEFAULT_TAG = `localhost/chem-mcp:${VERSION}`;

/** A built image. */
export interface BuiltImage {
  readonly tag: string;
  readonly id: string;
  /** Bytes of the image's single layer as stored (uncompressed). */
  readonly sizeBytes: number;
  /** Bytes of the staged binary alone. */
  readonly binaryBytes: number;
  /** The staged root file system (the same files the image holds). */
  readonly rootfs: string;
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** Absolute paths of the shared libraries (and the loader) that `binary` loads, from `ldd`. */
export function sharedLibraries(binary: string): string[] {
  return run("ldd", [binary]).split("\n").flatMap((line) => {
    const path = /(\/\S+)\s+\(0x/.exec(line)?.[1];
    return path ? [path] : [];
  });
}

/** The Debian package owning `path`, or undefined off Debian (tried as given, resolved, and merged-/usr forms). */
function debianPackage(path: string): string | undefined {
  const real = realpathSync(path);
  for (const candidate of [path, real, real.replace(/^\/usr\/lib/, "/lib")]) {
    try {
      const out = execFileSync("dpkg", ["-S", candidate], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
      return out.split(":")[0];
    } catch {
      // not this spelling of the path
    }
  }
  return undefined;
}

/** Copies `path` to the same path under `root`, resolving symlinks (the image keeps the name the loader asks). */
function stage(root: string, path: string, target = path): void {
  mkdirSync(dirname(`${root}${target}`), { recursive: true });
  copyFileSync(realpathSync(path), `${root}${target}`);
}

/** Builds the binary and stages the image's root file system under `context`/rootfs. */
export function stageRootfs(context: string): { rootfs: string; binaryBytes: number } {
  const rootfs = `${context}/rootfs`;
  rmSync(context, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });
  const binary = `${context}/chem-mcp`;
  run(process.execPath, ["run", "-A", "scripts/build_sea.ts", "--out", binary]);
  stage(rootfs, binary, IMAGE_BINARY);
  chmodSync(`${rootfs}${IMAGE_BINARY}`, 0o755);
  const packages = new Set<string>(["nodejs"]);
  for (const library of sharedLibraries(binary)) {
    stage(rootfs, library);
    const owner = debianPackage(library);
    if (owner) packages.add(owner);
  }
  stage(rootfs, "LICENSE", "/usr/share/doc/chem-mcp/LICENSE");
  for (const file of ["RDKit-BSD-3-Clause.txt", "molflux-MIT.txt"]) {
    stage(rootfs, `LICENSES/${file}`, `/usr/share/doc/chem-mcp/LICENSES/${file}`);
  }
  // The binary is Node itself plus our script, and the libraries are glibc's and GCC's: their terms travel too.
  for (const pkg of packages) {
    const copyright = `/usr/share/doc/${pkg}/copyright`;
    try {
      stage(rootfs, copyright, `/usr/share/doc/chem-mcp/third-party/${pkg}.copyright`);
    } catch {
      console.error(`note: no ${copyright} on this machine; its licence text is not in the image`);
    }
  }
  mkdirSync(`${rootfs}/etc`, { recursive: true });
  writeFileSync(`${rootfs}/etc/passwd`, `chem-mcp:x:${IMAGE_UID}:${IMAGE_UID}:chem-mcp:/nonexistent:/none\n`);
  writeFileSync(`${rootfs}/etc/group`, `chem-mcp:x:${IMAGE_UID}:\n`);
  mkdirSync(`${rootfs}/tmp`);
  chmodSync(`${rootfs}/tmp`, 0o1777);
  return { rootfs, binaryBytes: Number(run("stat", ["-c", "%s", binary]).trim()) };
}

/** Stages the root file system and builds the image with buildah (which must run as root here). */
export function buildImage(tag = DEFAULT_TAG, context = resolve(".cache/image")): BuiltImage {
  const { rootfs, binaryBytes } = stageRootfs(context);
  // A rebuild under the same tag would otherwise leave the previous image behind, untagged, in the store.
  const previous = imageId(tag);
  run("buildah", [
    "build",
    "--quiet",
    "--layers=false",
    "-f",
    resolve("deploy/Containerfile"),
    "--build-arg",
    `VERSION=${VERSION}`,
    "--build-arg",
    `CREATED=${new Date().toISOString()}`,
    "-t",
    tag,
    context,
  ]);
  const id = imageId(tag)!;
  if (previous && previous !== id) run("buildah", ["rmi", previous]);
  return { tag, id, sizeBytes: imageSize(tag), binaryBytes, rootfs };
}

/** The id of the image tagged `tag`, or undefined when there is none. */
function imageId(tag: string): string | undefined {
  try {
    return execFileSync("buildah", ["inspect", "--type", "image", "--format", "{{.FromImageID}}", tag], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The image's size: its layers as stored locally (uncompressed tar), in bytes. */
export function imageSize(tag: string): number {
  const manifest = JSON.parse(
    run("buildah", ["inspect", "--type", "image", "--format", "{{.Manifest}}", tag]),
  ) as { layers: { size: number }[] };
  return manifest.layers.reduce((sum, layer) => sum + layer.size, 0);
}

/** The size a registry would store: the image pushed to an OCI layout with gzip-compressed layers, in bytes. */
export function compressedSize(tag: string, dir: string): number {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  run("buildah", ["push", "--quiet", "--compression-format", "gzip", tag, `oci:${dir}`]);
  const total = run("du", ["-sb", `${dir}/blobs`]).split("\t")[0];
  rmSync(dir, { recursive: true, force: true });
  return Number(total);
}

if (import.meta.main) {
  const tagIndex = process.argv.indexOf("--tag");
  const image = buildImage(tagIndex > -1 ? process.argv[tagIndex + 1] : DEFAULT_TAG);
  console.log(
    `built ${image.tag} (${image.id.slice(0, 12)}): ${(image.sizeBytes / 2 ** 20).toFixed(1)} MiB, ` +
      `of which the binary ${(image.binaryBytes / 2 ** 20).toFixed(1)} MiB; gzip-compressed ` +
      `${(compressedSize(image.tag, resolve(".cache/image-oci")) / 2 ** 20).toFixed(1)} MiB`,
  );
}
