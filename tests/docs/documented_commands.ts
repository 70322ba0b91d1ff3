/**
 * Every command README.md and docs/*.md tell a reader to run, run as written in a temporary copy of the
 * repository, with its effect checked. Run once by scripts/test.ts (stage "documented commands"), not by both
 * suites: the commands are the subject, the runtime running this file is not.
 *
 * Which commands: every line of every fenced `sh` block (a trailing `\` joins lines, `# …` comments are dropped),
 * and every inline code span that starts with `deno task`, `npx deno task` or `npm run` (spans with a `<name>`
 * or `…` placeholder are prose). A new command in the docs is picked up by itself; one this file has no way to check
 * fails with a message saying so. Every task of deno.json must be documented.
 *
 * The copy: the repository's files (`git ls-files`, tracked and untracked-but-not-ignored) copied to a
 * temporary directory, with `node_modules` a symlink to this clone's, so the README's set-up (`npm ci`) counts as
 * done and is not repeated (a leading `npm ci && ` is dropped). A fresh clone plus `npm ci` would add a minute.
 *
 * From a local build: a command or client configuration that names the clone by the README's placeholder
 * `/path/to/chem-mcp` runs with the copy's path in its place, from an empty directory outside the copy, as a
 * user runs it from anywhere; what it starts (the tarball of `npm pack`, `dist/`, the binary of
 * `deno task build:sea`) is built first if the docs' build commands have not run yet. Every entry of a Claude
 * Desktop or VS Code configuration block is started as written and called.
 *
 * What only a release provides (`npx -y @chem/mcp`, `jsr:@chem/mcp`, a downloaded binary, the release's
 * checksums and attestations) is reported as skipped, needing a release: nothing here stands in for it.
 *
 * Stand-ins for the rest of the outside world, each named where it is used:
 *   - a globally installed `deno`: the npm package's binary, on PATH ahead of the rest;
 *   - `deno task compile` downloads `denort` per target from Deno's servers, which this test does not do: it is
 *     run only when `DENORT_BIN` names a local denort (for the host target, and the binary is then started);
 *     otherwise it is reported skipped, and a test of its own runs the task with the Deno executable standing in
 *     for denort, which shows the task goes through and what it embeds, not that the binary runs;
 *   - servers started with a fixed port get `--port 0`, so the test never collides with a running server, and a
 *     `curl` to port 3000 goes to the port the test's own server got.
 *
 * Commands it does not run are reported as skipped, with the reason in the test's name, never as passing: the
 * test command itself (`npm ci && npm test --silent`, `npx deno task test`: it is what runs this file), and what
 * needs root, buildah, haproxy, a registry or a cluster (see `NOT_RUN_HERE`). What can be checked about them
 * without running them (that `.ci/run` and the two manifests run exactly them) is a test of its own.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { mcpHeaders } from "../helpers/http.ts";
import { IS_DENO, ROOT } from "../helpers/process.ts";
import { skipName } from "../helpers/skip.ts";
import { STATIC_CHECKS_ENV } from "../../scripts/test_plan.ts";

/** A command found in the docs, with where it was found. */
interface Documented {
  command: string;
  where: string;
}

/** Drops a `# comment` that starts outside quotes after whitespace. */
function stripComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) {
      return line.slice(0, i).trimEnd();
    }
  }
  return line.trimEnd();
}

/** The commands of one Markdown file (see the module comment for the rules). */
export function commandsIn(markdown: string, file: string): Documented[] {
  const found: Documented[] = [];
  const lines = markdown.split("\n");
  let inSh = false;
  let inOther = false;
  let pending = "";
  lines.forEach((line, i) => {
    const fence = /^```(\S*)/.exec(line);
    if (fence) {
      if (inSh || inOther) {
        inSh = inOther = false;
      } else if (fence[1] === "sh") {
        inSh = true;
      } else {
        inOther = true;
      }
      return;
    }
    if (inSh) {
      const text = stripComment(line);
      if (text.endsWith("\\")) {
        pending += text.slice(0, -1).trim() + " ";
        return;
      }
      const command = (pending + text.trim()).trim();
      pending = "";
      if (command) found.push({ command, where: `${file}:${i + 1}` });
      return;
    }
    if (inOther) return;
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      const text = span[1]!.trim();
      if (/^(npx deno task|deno task|npm run) /.test(text) && !/[<…]/.test(text)) {
        found.push({ command: text, where: `${file}:${i + 1}` });
      }
    }
  });
  return found;
}

/** Every documented command of README.md and docs/*.md, first occurrence kept. */
function documentedCommands(root: string): Documented[] {
  const files = [
    "README.md",
    ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort()
      .map((f) => `docs/${f}`),
  ];
  // `deno task X` and `npx deno task X` run the same task: one of them is run, the first documented.
  const seen = new Map<string, Documented>();
  for (const file of files) {
    for (const d of commandsIn(readFileSync(join(root, file), "utf8"), file)) {
      const key = d.command.replace(/^npx deno task /, "deno task ");
      if (!seen.has(key)) seen.set(key, d);
    }
  }
  return [...seen.values()];
}

// -----------------------------------------------------------------------------------------------------------
// The temporary copy

let copy = "";
/** An empty directory outside the copy, where commands that name the clone by its path run. */
let outside = "";
let globalBin = "";
let env: Record<string, string> = {};
/** The Deno executable itself (this file runs under Deno), not an npm launcher script that would start it. */
const DENO = IS_DENO ? process.execPath : realpathSync(join(ROOT, "node_modules/.bin/deno"));

function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "-c", "-o", "--exclude-standard"], { cwd: ROOT });
  // A node_modules that is a symlink is not matched by .gitignore's `node_modules/`; the copy links its own.
  return out.toString().split("\0").filter((f) => f && f !== "node_modules" && existsSync(join(ROOT, f)));
}

before(() => {
  copy = mkdtempSync(join(tmpdir(), "chem-mcp-docs-"));
  for (const file of repositoryFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  outside = mkdtempSync(join(tmpdir(), "chem-mcp-elsewhere-"));
  // A global Deno: the npm package's executable, first on PATH.
  globalBin = mkdtempSync(join(tmpdir(), "chem-mcp-global-bin-"));
  symlinkSync(DENO, join(globalBin, "deno"));
  env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  env.PATH = `${globalBin}:${env.PATH ?? ""}`;
  // Colours and npm's notices would only get in the way of reading the output.
  env.NO_COLOR = "1";
});

/** Removes the copy and the other directories this file made; safe to call more than once. */
function removeTemporaries(): void {
  for (const dir of [copy, outside, globalBin].filter(Boolean)) rmSync(dir, { recursive: true, force: true });
}

after(removeTemporaries);
// The copy holds builds (a binary, bundles, tarballs: some 300 MB): it goes on Ctrl-C too, not only at the end.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    removeTemporaries();
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

// -----------------------------------------------------------------------------------------------------------
// Running commands

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a shell command line to completion, in the copy unless `cwd` says (stdin from `input`, or closed). The
 * default limit only catches a hang: `deno task validation` took over 5 min beside other work on two cores.
 */
function run(
  command: string,
  input = "",
  extraEnv: Record<string, string> = {},
  timeoutMs = 900_000,
  cwd = copy,
) {
  return new Promise<Finished>((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd, env: { ...env, ...extraEnv }, detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => killGroup(child.pid), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts a long-running command, waits for `ready` on stderr or stdout, and returns the match and a stop. */
function startServer(command: string, ready: RegExp, timeoutMs = 180_000, cwd = copy) {
  const child = spawn("sh", ["-c", command], { cwd, env, detached: true, stdio: "pipe" });
  let output = "";
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const stop = async () => {
    killGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => killGroup(child.pid), 5_000);
    await closed;
    clearTimeout(timer);
  };
  return new Promise<{ match: RegExpExecArray; stop: () => Promise<void> }>((resolve, reject) => {
    const timer = setTimeout(async () => {
      await stop();
      reject(new Error(`no ${ready} within ${timeoutMs} ms from: ${command}\n${output}`));
    }, timeoutMs);
    const onData = (chunk: string) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, stop });
      }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${ready}: ${command}\n${output}`));
    });
    child.stdin.end();
  });
}

function ok(result: Finished, command: string): void {
  assert.equal(result.code, 0, `${command} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
}

// -----------------------------------------------------------------------------------------------------------
// Stand-ins

/** One modern tools/call line, as the README's first conversation sends it. */
const CANONICAL_CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "canonical_smiles",
    arguments: { smiles: "OCC" },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

/** Where the README has readers put their clone. */
const CLONE = "/path/to/chem-mcp";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** What only a published release provides: reported as skipped with this reason, never run. */
const NEEDS_RELEASE = "needs a release";
const RELEASE_ONLY = [
  /npx -y @chem\/mcp\b/,
  /jsr:@chem\/mcp\b/,
  /\/usr\/local\/bin\/chem-mcp\b/,
  /^chem-mcp /,
  /SHA256SUMS/,
  /^gh attestation verify /,
  /^npm audit signatures$/,
];
const needsRelease = (text: string) => RELEASE_ONLY.some((pattern) => pattern.test(text));

/** Builds, in the copy, what a command naming the clone's build outputs starts, if not built yet. */
async function ensureBuilt(command: string): Promise<void> {
  if (command.includes(`${CLONE}/dist/`) && !existsSync(join(copy, "dist/src/runtime/node.js"))) {
    ok(await run("npm run build"), "npm run build");
  }
  if (
    command.includes(`${CLONE}/chem-mcp-${VERSION}.tgz`) && !existsSync(join(copy, `chem-mcp-${VERSION}.tgz`))
  ) {
    ok(await run("npm pack"), "npm pack");
  }
  if (command.includes(`${CLONE}/release/chem-mcp`) && !existsSync(join(copy, "release/chem-mcp"))) {
    ok(await run("npx deno task build:sea"), "npx deno task build:sea");
  }
}

/** A command as the test runs it, and where: outside the copy when it names the clone by its path. */
async function localEquivalent(command: string): Promise<{ line: string; cwd: string }> {
  let line = command.replace(/^npm ci && /, "");
  let cwd = copy;
  if (line.includes(CLONE)) {
    await ensureBuilt(line);
    line = line.replaceAll(CLONE, copy);
    cwd = outside;
  }
  // `&` (run in the background) is the test's job.
  line = line.replace(/\s*&$/, "");
  return { line: line.replace(/--port \d+/, "--port 0"), cwd };
}

// -----------------------------------------------------------------------------------------------------------
// Checks, one per kind of command

/** The test command in any of its documented forms (quick, full, a stage or some files of it). */
const isTestCommand = (c: string) =>
  /^(npm ci && )?npm (test|run test:all)( --silent)?( -- .*)?$/.test(c) ||
  /^(npx )?deno task test(:all)?( .*)?$/.test(c) || /^(npx )?deno run -A scripts\/test\.ts( .*)?$/.test(c);

function checkTestCommand(): void {
  // The command running this file: CI runs the full one, and npm and deno task run the same script.
  const ci = readFileSync(join(copy, ".ci/run"), "utf8");
  assert.match(ci, /^\(npm ci && npm run test:all --silent\) 2>&1/m, ".ci/run runs the full test command");
  const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const deno = JSON.parse(readFileSync(join(copy, "deno.json"), "utf8")) as { tasks: Record<string, string> };
  assert.equal(pkg.scripts.test, "deno run -A scripts/test.ts");
  assert.equal(pkg.scripts["test:all"], "deno run -A scripts/test.ts --all");
  assert.equal(deno.tasks.test, "env deno run -A scripts/test.ts");
  assert.equal(deno.tasks["test:all"], "env deno run -A scripts/test.ts --all");
}

const isInspector = (c: string) => c.startsWith("npx -y @modelcontextprotocol/inspector-cli@");
const isHttpServer = (c: string) => c.includes("--transport streamable-http");
const isWebApp = (c: string) => /deno task webapp|npm run webapp|serve_deno\.ts|serve_node\.js/.test(c);
const isStdioServer = (c: string) =>
  /(^|\s)(\S*mod\.ts|\S*dist\/src\/runtime\/node\.js|\S+\/release\/chem-mcp)(\s|$)|deno task start$/.test(
    c,
  ) ||
  /^npm start --silent$|^npx -y --package=\S+\.tgz chem-mcp$/.test(c);
const isCurl = (c: string) => c.startsWith("curl ");
const isNpmPack = (c: string) => c === "npm pack";

async function checkInspector(command: string): Promise<void> {
  const { line, cwd } = await localEquivalent(command);
  const result = await run(line, "", {}, 300_000, cwd);
  ok(result, command);
  const printed = JSON.parse(result.stdout) as { tools?: { name: string }[]; content?: { text: string }[] };
  if (command.includes("--method tools/list")) {
    assert.equal(printed.tools?.length, 20, `${command}: 20 tools`);
  } else {
    assert.deepEqual(JSON.parse(printed.content![0]!.text), { smiles: "OCC", canonical_smiles: "CCO" });
  }
}

async function checkStdioServer(command: string): Promise<void> {
  const { line, cwd } = await localEquivalent(command);
  // A command that pipes its own input gets none; otherwise it reads the first conversation's request.
  const result = await run(line, line.includes("|") ? "" : CANONICAL_CALL + "\n", {}, 300_000, cwd);
  ok(result, command);
  assertOneReply(result.stdout, command);
}

/** stdout holds exactly one line, the reply to the first conversation's call: nothing else shares it. */
function assertOneReply(stdout: string, what: string): void {
  const lines = stdout.split("\n").filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `${what}: one line on stdout, the reply\n${stdout}`);
  const reply = JSON.parse(lines[0]!) as { result: { structuredContent: Record<string, string> } };
  assert.deepEqual(reply.result.structuredContent, { smiles: "OCC", canonical_smiles: "CCO" });
}

async function checkHttpServer(command: string): Promise<void> {
  const { line, cwd } = await localEquivalent(command);
  const { match, stop } = await startServer(line, /(?:127\.0\.0\.1|0\.0\.0\.0):(\d+)/, 180_000, cwd);
  try {
    const res = await fetch(`http://127.0.0.1:${match[1]}/mcp`, {
      method: "POST",
      headers: mcpHeaders("tools/call", "canonical_smiles"),
      body: CANONICAL_CALL,
    });
    assert.equal(res.status, 200);
    const reply = await res.json() as { result: { structuredContent: Record<string, string> } };
    assert.deepEqual(reply.result.structuredContent, { smiles: "OCC", canonical_smiles: "CCO" });
  } finally {
    await stop();
  }
}

async function checkWebApp(command: string): Promise<void> {
  const local = await localEquivalent(command);
  let line = local.line;
  if (!line.includes("--port")) line += /npm run webapp$/.test(line) ? " -- --port 0" : " --port 0";
  const { match, stop } = await startServer(
    line,
    /chem-mcp webapp listening on (http:\/\/127\.0\.0\.1:\d+\/)/,
    180_000,
    local.cwd,
  );
  try {
    const page = await fetch(match[1]!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /BOILED-Egg/);
    const egg = await fetch(new URL("/boiled-egg", match[1]!), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ smiles: ["CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"] }),
    });
    const [diazepam] = await egg.json() as { bbb_penetrant: boolean }[];
    assert.equal(diazepam!.bbb_penetrant, true);
  } finally {
    await stop();
  }
}

/** The release target whose binary this test builds, with a local denort or the Deno stand-in, and starts. */
const HOST_TARGET = process.platform === "linux" && process.arch === "x64" ? "x86_64-unknown-linux-gnu" : "";

/** The binary `deno task compile` writes for {@link HOST_TARGET}. */
const HOST_BINARY = "chem-mcp-linux-x86_64";

async function checkTask(command: string): Promise<void> {
  const name = /task (\S+)/.exec(command)?.[1];
  if (name === "compile") {
    // Run only with DENORT_BIN naming a denort (see NOT_RUN_HERE), which builds the host target alone.
    const out = join(copy, ".cache/docs-compile");
    ok(await run(`${command} --target ${HOST_TARGET} --out-dir ${out}`), command);
    const answer = await run(join(out, HOST_BINARY), CANONICAL_CALL + "\n");
    ok(answer, `${command}: ${HOST_BINARY}`);
    assertOneReply(answer.stdout, `${command}: ${HOST_BINARY}`);
    return;
  }
  if (ranByStaticChecks(name ?? "")) return;
  if (name === "validation") return await checkValidation(command);
  // Tasks that regenerate a committed file must leave it as committed.
  const generated = { docs: "docs/tools.md", k8s: "deploy/kubernetes.yaml" }[name ?? ""];
  const before = generated ? readFileSync(join(copy, generated), "utf8") : "";
  const result = await run(command);
  ok(result, command);
  if (name === "build:sea") {
    const answer = await run(`printf '%s\\n' '${CANONICAL_CALL}' | ${join(copy, "release/chem-mcp")}`);
    assert.match(answer.stdout, /"canonical_smiles":"CCO"/);
  }
  if (name === "bundle") {
    // A zip (local file header first) holding the manifest; tests/artifacts/mcpb_bundle.ts serves from it.
    const bundle = readFileSync(join(copy, `release/chem-mcp-${VERSION}.mcpb`));
    assert.equal(bundle.subarray(0, 4).toString("latin1"), "PK\x03\x04");
    assert.ok(bundle.includes("manifest.json"), "the bundle holds manifest.json");
  }
  if (generated) {
    assert.equal(readFileSync(join(copy, generated), "utf8"), before, `${generated} is current`);
  }
}

/**
 * Whether the task `name` runs only commands that the test command's static checks run on this tree in the same
 * run (STATIC_CHECKS_ENV, set by its full plan), such as `deno task check` and `deno task lint`: they are not run
 * a second time on a copy of the same files, and what is left to prove is that the task runs exactly them.
 */
function ranByStaticChecks(name: string): boolean {
  const ran = JSON.parse(process.env[STATIC_CHECKS_ENV] ?? "[]") as string[];
  const { tasks } = JSON.parse(readFileSync(join(copy, "deno.json"), "utf8")) as {
    tasks: Record<string, string>;
  };
  const parts = (tasks[name] ?? "").split("&&").map((part) => part.trim().replace(/^env /, ""));
  return ran.length > 0 && parts.every((part) => ran.includes(part));
}

/**
 * `deno task validation` runs every comparison suite again (some 4 minutes on two cores), which the reference
 * suites of the same run assert row by row. Here it runs as written with `--suites moljson_suite.ts` (about
 * 3 s of comparisons): the task, its script, the suites' loading and the writing of docs/validation.md are what
 * it proves.
 */
async function checkValidation(command: string): Promise<void> {
  const result = await run(`${command} --suites moljson_suite.ts`);
  ok(result, command);
  const written = readFileSync(join(copy, "docs/validation.md"), "utf8");
  assert.match(written, /^# Validation against RDKit$/m);
  assert.match(written, /\(`tests\/reference\/moljson_suite\.ts`\)/, "the suite's section is written");
  assert.match(written, /^\| `[a-z_0-9]+\.json` \| 2022\.09/m, "the fixtures' provenance is written");
}

async function checkNpmPack(command: string): Promise<void> {
  ok(await run(command), command);
  assert.ok(existsSync(join(copy, `chem-mcp-${VERSION}.tgz`)), `${command} writes chem-mcp-${VERSION}.tgz`);
}

/**
 * The curl example against a live HTTP server: as written it gets the call's answer, and without any one of
 * its headers except `Accept` it gets a refusal, so the README's "four headers" are exactly what is required.
 */
async function checkCurl(command: string): Promise<void> {
  const { match, stop } = await startServer(
    "npx deno run -A mod.ts --transport streamable-http --port 0",
    /127\.0\.0\.1:(\d+)/,
  );
  try {
    const line = command.replace("127.0.0.1:3000", `127.0.0.1:${match[1]}`);
    assert.notEqual(line, command, "the curl example calls the server on 127.0.0.1:3000");
    const answer = await run(line);
    ok(answer, command);
    assertOneReply(answer.stdout, command);
    const headers = [...command.matchAll(/ -H '([^':]+): [^']*'/g)];
    assert.deepEqual(headers.map((h) => h[1]).sort(), [
      "Accept",
      "Content-Type",
      "MCP-Protocol-Version",
      "Mcp-Method",
      "Mcp-Name",
    ]);
    for (const header of headers.filter((h) => h[1] !== "Accept")) {
      const without = await run(line.replace(header[0], ""));
      assert.doesNotMatch(without.stdout, /"canonical_smiles":"CCO"/, `without ${header[1]}`);
      assert.match(without.stdout, /"error"/, `without ${header[1]}: ${without.stdout}`);
    }
  } finally {
    await stop();
  }
}

async function checkNpmRun(command: string): Promise<void> {
  ok(await run(command), command);
  if (command === "npm run build") assert.ok(existsSync(join(copy, "dist/src/runtime/node.js")));
}

const isDeployCheck = (c: string) => /^(npx )?deno task deploy:check$|^npm run deploy:check$/.test(c);
const isImageBuild = (c: string) => /^(npx )?deno task image$/.test(c);
const isBalancer = (c: string) => /(^|\s)haproxy -f deploy\/haproxy\.cfg$/.test(c);
const isCompile = (c: string) => /^(npx )?deno task compile$/.test(c);
/**
 * Commands this test does not run, each with the reason it gives when reporting them skipped. What it can check
 * about them without running them (that `.ci/run` and the scripts run the same thing) is checked by the test
 * "documented commands: the commands not run here are wired to what runs them".
 */
const NOT_RUN_HERE: readonly [(c: string) => boolean, string][] = [
  [isTestCommand, "the test command, which runs this test"],
  [isDeployCheck, "needs root, buildah and haproxy; .ci/run runs it after the test command"],
  [isImageBuild, "needs root and buildah; deploy:check builds the image with the same script"],
  [isBalancer, "needs haproxy and running replicas; deploy:check starts it on deploy/haproxy.cfg"],
  [
    (c) => /^buildah push localhost\/chem-mcp:\S+ docker:\/\/\S+$/.test(c),
    "needs a remote registry to push to",
  ],
  [
    (c) => /^kubectl apply -f deploy\/kubernetes\.yaml$/.test(c),
    "needs a cluster; tests/unit/deploy_test.ts validates the manifests",
  ],
  [
    (c) => isCompile(c) && !process.env.DENORT_BIN,
    "needs denort, which deno compile downloads from Deno's servers; set DENORT_BIN to a local denort to run it",
  ],
  [
    (c) => isCompile(c) && !HOST_TARGET,
    "with DENORT_BIN it builds the host target only, and this test runs the linux x86_64 binary only",
  ],
];

/** Why a documented command is not run here, or undefined when it is. */
function notRunHere(command: string): string | undefined {
  return NOT_RUN_HERE.find(([applies]) => applies(command))?.[1];
}

/**
 * The deployment check needs root, buildah and haproxy, so the test command (which installs nothing) does not
 * run it; `.ci/run` runs it right after the test command. Checked instead: `.ci/run`, the task and the npm script
 * run the same script, and that script builds the image with scripts/build_image.ts (`deno task image`) and
 * starts HAProxy with deploy/haproxy.cfg and the environment variables docs/deploy.md shows.
 */
function checkDeployment(command: string): void {
  const ci = readFileSync(join(copy, ".ci/run"), "utf8");
  assert.match(ci, /^npx deno task deploy:check 2>&1/m, ".ci/run runs the deployment check");
  const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const deno = JSON.parse(readFileSync(join(copy, "deno.json"), "utf8")) as { tasks: Record<string, string> };
  assert.equal(deno.tasks["deploy:check"], "env deno run -A scripts/deploy_check.ts");
  assert.equal(pkg.scripts["deploy:check"], "deno run -A scripts/deploy_check.ts");
  assert.equal(deno.tasks.image, "env deno run -A scripts/build_image.ts");
  const script = readFileSync(join(copy, "scripts/deploy_check.ts"), "utf8");
  assert.match(
    script,
    /from "\.\/build_image\.ts"/,
    `${command}: the check builds the image the task builds`,
  );
  if (isBalancer(command)) {
    assert.match(script, /resolve\("deploy\/haproxy\.cfg"\)/, "the check runs HAProxy on deploy/haproxy.cfg");
    for (const name of command.matchAll(/(CHEM_MCP_[A-Z_0-9]+)=/g)) {
      assert.ok(
        readFileSync(join(copy, "deploy/haproxy.cfg"), "utf8").includes(name[1]!),
        `${name[1]} is read`,
      );
    }
  }
}

/** Runs one documented command and checks its effect; fails for a command no check covers. */
async function check(command: string): Promise<void> {
  if (isInspector(command)) return await checkInspector(command);
  if (isCurl(command)) return await checkCurl(command);
  if (isNpmPack(command)) return await checkNpmPack(command);
  if (isHttpServer(command)) return await checkHttpServer(command);
  if (isWebApp(command)) return await checkWebApp(command);
  if (isStdioServer(command)) return await checkStdioServer(command);
  if (/^(npx )?deno task \S+$/.test(command)) return await checkTask(command);
  if (/^npm run \S+$/.test(command)) return await checkNpmRun(command);
  assert.fail(
    `no check knows how to run this documented command: add one to tests/docs/documented_commands.ts`,
  );
}

// -----------------------------------------------------------------------------------------------------------
// The tests

const COMMANDS = documentedCommands(ROOT);

test("documented commands: every deno.json task is documented and starts deno through env", () => {
  const { tasks } = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as {
    tasks: Record<string, string>;
  };
  const documented = COMMANDS.map((d) => d.command);
  for (const [name, script] of Object.entries(tasks)) {
    assert.ok(
      documented.some((c) => c === `npx deno task ${name}` || c === `deno task ${name}`),
      `deno task ${name} is not documented in README.md or docs/*.md`,
    );
    // Inside deno task, a bare `deno` is node_modules/.bin/deno, which the task runner would load as JavaScript.
    for (const part of script.split(/&&|\|\||;|\|/)) {
      assert.doesNotMatch(part.trim(), /^deno /, `task ${name}: start deno as \`env deno\`, not \`deno\``);
    }
  }
});

for (const { command, where } of COMMANDS) {
  const skip = needsRelease(command) ? NEEDS_RELEASE : notRunHere(command);
  // Deno's test runner reports a skip as "ignored" without its reason, so the reason is in the name too.
  test(
    skipName(`documented command (${where}): ${command}`, skip ?? false),
    { skip: skip ?? false },
    async () => await check(command),
  );
}

/** One server entry of a Claude Desktop (`mcpServers`) or VS Code (`servers`) configuration block. */
interface Configured {
  name: string;
  command: string;
  args: string[];
  where: string;
}

/** The server entries of every JSON block of README.md and docs/*.md that configures a client. */
function documentedConfigurations(root: string): Configured[] {
  const found: Configured[] = [];
  for (const file of ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md"))]) {
    const path = file === "README.md" ? file : `docs/${file}`;
    const text = readFileSync(join(root, path), "utf8");
    for (const block of text.matchAll(/^```json\n([\s\S]*?)^```$/gm)) {
      if (!/"(mcpServers|servers)"/.test(block[1]!)) continue;
      const json = JSON.parse(block[1]!) as Record<
        string,
        Record<string, { command: string; args?: string[] }>
      >;
      const servers = json.mcpServers ?? json.servers;
      if (!servers) continue;
      const line = text.slice(0, block.index).split("\n").length;
      for (const [name, entry] of Object.entries(servers)) {
        found.push({ name, command: entry.command, args: entry.args ?? [], where: `${path}:${line}` });
      }
    }
  }
  return found;
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

for (const { name, command, args, where } of documentedConfigurations(ROOT)) {
  const line = [command, ...args].map(quote).join(" ");
  const skip = needsRelease([command, ...args].join(" ")) ? NEEDS_RELEASE : false;
  test(skipName(`documented configuration (${where}): ${name}`, skip), { skip }, async () => {
    // The client starts the command as written, with no shell, from a directory of its own.
    const { line: local, cwd } = await localEquivalent(line);
    assert.equal(cwd, outside, `${name} names the clone by its path, so it runs from anywhere`);
    const result = await run(local, CANONICAL_CALL + "\n", {}, 300_000, cwd);
    ok(result, `${name}: ${line}`);
    assertOneReply(result.stdout, name);
  });
}

test("documented commands: the commands not run here are wired to what runs them", () => {
  const skipped = COMMANDS.map((d) => d.command).filter((c) => notRunHere(c) !== undefined);
  assert.ok(skipped.some(isTestCommand), "the test command is documented");
  checkTestCommand();
  for (const command of skipped.filter((c) => isDeployCheck(c) || isImageBuild(c) || isBalancer(c))) {
    checkDeployment(command);
  }
});

/** The documented compile command, run with a stand-in below whether or not it is run as documented. */
const COMPILE = COMMANDS.find((d) => isCompile(d.command));
const STAND_IN =
  "documented commands: `deno task compile` refuses an unknown target and goes through its script with the " +
  "Deno executable standing in for denort (what it builds starts Deno, not chem-mcp, so it is not run)";

const NO_STAND_IN = HOST_TARGET ? false : "Deno stands in for denort on linux x86_64 only";

test(skipName(STAND_IN, NO_STAND_IN), { skip: NO_STAND_IN }, async () => {
  assert.ok(COMPILE, "`deno task compile` is documented");
  const out = join(copy, ".cache/docs-compile-stand-in");
  const line = `${COMPILE.command} --target ${HOST_TARGET} --out-dir ${out}`;
  const unknown = await run(`${COMPILE.command} --target riscv-unknown-plan9`);
  assert.equal(unknown.code, 2, `an unknown target is refused with exit 2\n${unknown.stderr}`);
  assert.match(unknown.stdout + unknown.stderr, /unknown target\(s\): riscv-unknown-plan9/);
  // The task refuses the Deno executable as a denort unless told it is a stand-in.
  const refused = await run(line, "", { DENORT_BIN: DENO });
  assert.equal(refused.code, 2, `${line} with DENORT_BIN=${DENO}: refused\n${refused.stderr}`);
  assert.match(refused.stderr, /DENORT_BIN must be a denort executable/);
  assert.ok(!existsSync(join(out, HOST_BINARY)), "nothing is built when refused");
  const built = await run(`${line} --denort-stand-in`, "", { DENORT_BIN: DENO });
  ok(built, `${line} --denort-stand-in`);
  const embedded = (statSync(join(out, HOST_BINARY)).size - statSync(DENO).size) / 2 ** 20;
  assert.ok(embedded > 5 && embedded < 32, `${HOST_BINARY}: ${embedded.toFixed(1)} MiB embedded, not 5–32`);
});

test("documented commands: deno task with a global Deno (not through npx) runs the task", async () => {
  const result = await run("deno task start", CANONICAL_CALL + "\n");
  ok(result, "deno task start");
  assert.match(result.stdout, /"canonical_smiles":"CCO"/);
});
