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
 * Stand-ins for what needs the outside world, each named where it is used:
 *   - a globally installed `deno`: the npm package's binary, on PATH ahead of the rest;
 *   - `npx -y @chem/mcp` (the npm registry): the package packed from the copy and installed into an empty
 *     project; its `chem-mcp` bin is run;
 *   - `deno run -A jsr:@chem/mcp` (JSR): `deno run -A <copy>/mod.ts`, the package's entry;
 *   - `/usr/local/bin/chem-mcp` (the release download): the single-executable binary `deno task build:sea`
 *     builds;
 *   - `deno task compile` downloads `denort` per target: run for the host target with `DENORT_BIN` set to the
 *     Deno executable (as the README says to do offline), and the embedded size is checked;
 *   - servers started with a fixed port get `--port 0`, so the test never collides with a running server.
 *
 * The test command itself (`npm ci && npm test --silent`, `npx deno task test`) is what runs this file: it is
 * checked to be exactly what `.ci/run` and the two manifests run, not run again.
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
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { mcpHeaders } from "../helpers/http.ts";
import { IS_DENO, ROOT } from "../helpers/process.ts";

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
let globalBin = "";
let env: Record<string, string> = {};
/** The Deno executable itself (this file runs under Deno), not an npm launcher script that would start it. */
const DENO = IS_DENO ? process.execPath : realpathSync(join(ROOT, "node_modules/.bin/deno"));

function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "-c", "-o", "--exclude-standard"], { cwd: ROOT });
  return out.toString().split("\0").filter((f) => f && existsSync(join(ROOT, f)));
}

before(() => {
  copy = mkdtempSync(join(tmpdir(), "chem-mcp-docs-"));
  for (const file of repositoryFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
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

after(() => {
  rmSync(copy, { recursive: true, force: true });
  rmSync(globalBin, { recursive: true, force: true });
});

// -----------------------------------------------------------------------------------------------------------
// Running commands

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a shell command line in the copy to completion (stdin from `input`, or closed). */
function run(command: string, input = "", extraEnv: Record<string, string> = {}, timeoutMs = 300_000) {
  return new Promise<Finished>((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd: copy, env: { ...env, ...extraEnv }, detached: true });
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
function startServer(command: string, ready: RegExp, timeoutMs = 180_000) {
  const child = spawn("sh", ["-c", command], { cwd: copy, env, detached: true, stdio: "pipe" });
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

let packageBin: string | undefined;
/** `npx -y @chem/mcp` without the registry: the package packed from the copy, installed into an empty project. */
async function installedPackageBin(): Promise<string> {
  if (packageBin) return packageBin;
  if (!existsSync(join(copy, "dist/src/runtime/node.js"))) ok(await run("npm run build"), "npm run build");
  const project = join(copy, ".cache/docs-npm");
  mkdirSync(project, { recursive: true });
  const packed = await run(`npm pack --ignore-scripts --silent --pack-destination ${project}`);
  ok(packed, "npm pack");
  const tarball = packed.stdout.trim().split("\n").pop()!;
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "docs-install", private: true }));
  ok(
    await run(`npm install --prefix ${project} --no-audit --no-fund --silent ${project}/${tarball}`),
    "npm install <tarball>",
  );
  packageBin = join(project, "node_modules/.bin/chem-mcp");
  return packageBin;
}

/** `/usr/local/bin/chem-mcp` without the release download: the single-executable binary of `deno task build:sea`. */
async function releaseBinary(): Promise<string> {
  const binary = join(copy, "dist/bin/chem-mcp");
  if (!existsSync(binary)) ok(await run("npx deno task build:sea"), "npx deno task build:sea");
  return binary;
}

/** Replaces the parts of a command that need the outside world by their local stand-ins. */
async function localEquivalent(command: string): Promise<string> {
  let local = command.replace(/^npm ci && /, "");
  if (local.includes("npx -y @chem/mcp")) {
    local = local.replace("npx -y @chem/mcp", await installedPackageBin());
  }
  local = local.replace("deno run -A jsr:@chem/mcp", `deno run -A ${copy}/mod.ts`);
  if (local.includes("/usr/local/bin/chem-mcp")) {
    local = local.replace("/usr/local/bin/chem-mcp", await releaseBinary());
  }
  // A bare `chem-mcp` is the release binary installed on PATH; `&` (run in the background) is the test's job.
  if (/^chem-mcp /.test(local)) local = local.replace(/^chem-mcp /, `${await releaseBinary()} `);
  local = local.replace(/\s*&$/, "");
  return local.replace(/--port \d+/, "--port 0");
}

// -----------------------------------------------------------------------------------------------------------
// Checks, one per kind of command

const isTestCommand = (c: string) =>
  c === "npm ci && npm test --silent" || /^(npx )?deno task test$/.test(c) || c === "npm test";

function checkTestCommand(): void {
  // The command running this file: CI runs exactly it, and both ways run the same script.
  const ci = readFileSync(join(copy, ".ci/run"), "utf8");
  assert.match(ci, /^\(npm ci && npm test --silent\) 2>&1/m, ".ci/run runs the README's test command");
  const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const deno = JSON.parse(readFileSync(join(copy, "deno.json"), "utf8")) as { tasks: Record<string, string> };
  assert.equal(pkg.scripts.test, "deno run -A scripts/test.ts");
  assert.equal(deno.tasks.test, "env deno run -A scripts/test.ts");
}

const isInspector = (c: string) => c.startsWith("npx @modelcontextprotocol/inspector-cli@");
const isHttpServer = (c: string) => c.includes("--transport streamable-http");
const isWebApp = (c: string) => /deno task webapp|npm run webapp|serve_deno\.ts|serve_node\.js/.test(c);
const isStdioServer = (c: string) =>
  /(^|\s)(mod\.ts|dist\/src\/runtime\/node\.js)(\s|$)|deno task start$|^npm start$/.test(c);

async function checkInspector(command: string): Promise<void> {
  const result = await run(await localEquivalent(command));
  ok(result, command);
  const printed = JSON.parse(result.stdout) as { tools?: { name: string }[]; content?: { text: string }[] };
  if (command.includes("--method tools/list")) {
    assert.equal(printed.tools?.length, 20, `${command}: 20 tools`);
  } else {
    assert.deepEqual(JSON.parse(printed.content![0]!.text), { smiles: "OCC", canonical_smiles: "CCO" });
  }
}

async function checkStdioServer(command: string): Promise<void> {
  const local = await localEquivalent(command);
  // A command that pipes its own input gets none; otherwise it reads the first conversation's request.
  const result = await run(local, local.includes("|") ? "" : CANONICAL_CALL + "\n");
  ok(result, command);
  const replies = result.stdout.trim().split("\n").filter((l) => l.startsWith("{"));
  assert.equal(replies.length, 1, `${command}: one reply\n${result.stdout}`);
  const reply = JSON.parse(replies[0]!) as { result: { structuredContent: Record<string, string> } };
  assert.deepEqual(reply.result.structuredContent, { smiles: "OCC", canonical_smiles: "CCO" });
}

async function checkHttpServer(command: string): Promise<void> {
  const { match, stop } = await startServer(
    await localEquivalent(command),
    /(?:127\.0\.0\.1|0\.0\.0\.0):(\d+)/,
  );
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
  let local = await localEquivalent(command);
  if (!local.includes("--port")) local += /npm run webapp$/.test(local) ? " -- --port 0" : " --port 0";
  const { match, stop } = await startServer(
    local,
    /chem-mcp webapp listening on (http:\/\/127\.0\.0\.1:\d+\/)/,
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

/** The release target a stand-in base binary can build here (see scripts/test.ts). */
const HOST_TARGET = process.platform === "linux" && process.arch === "x64" ? "x86_64-unknown-linux-gnu" : "";

async function checkTask(command: string): Promise<void> {
  const name = /task (\S+)/.exec(command)?.[1];
  if (name === "compile") {
    // Offline there is no denort to download: the host target, with Deno as the base binary.
    assert.ok(HOST_TARGET, "deno task compile is checked on linux x86_64 only");
    const out = join(copy, ".cache/docs-compile");
    const result = await run(`${command} --target ${HOST_TARGET} --out-dir ${out} --denort-stand-in`, "", {
      DENORT_BIN: DENO,
    });
    ok(result, command);
    const embedded = (statSync(join(out, "chem-mcp-linux-x86_64")).size - statSync(DENO).size) / 2 ** 20;
    assert.ok(embedded > 5 && embedded < 32, `${command}: ${embedded.toFixed(1)} MiB embedded`);
    return;
  }
  // Tasks that regenerate a committed file must leave it as committed.
  const generated = { docs: "docs/tools.md", k8s: "deploy/kubernetes.yaml" }[name ?? ""];
  const before = generated ? readFileSync(join(copy, generated), "utf8") : "";
  const result = await run(command);
  ok(result, command);
  if (name === "build:sea") {
    const answer = await run(`printf '%s\\n' '${CANONICAL_CALL}' | ${join(copy, "dist/bin/chem-mcp")}`);
    assert.match(answer.stdout, /"canonical_smiles":"CCO"/);
  }
  if (generated) {
    assert.equal(readFileSync(join(copy, generated), "utf8"), before, `${generated} is current`);
  }
}

async function checkNpmRun(command: string): Promise<void> {
  ok(await run(command), command);
  if (command === "npm run build") assert.ok(existsSync(join(copy, "dist/src/runtime/node.js")));
}

const isDeployCheck = (c: string) => /^(npx )?deno task deploy:check$|^npm run deploy:check$/.test(c);
const isImageBuild = (c: string) => /^(npx )?deno task image$/.test(c);
const isBalancer = (c: string) => /(^|\s)haproxy -f deploy\/haproxy\.cfg$/.test(c);
/** Commands that need the outside world (a registry to push to, a cluster), with what checks their input here. */
const OUTSIDE_WORLD: readonly [RegExp, string][] = [
  [
    /^buildah push localhost\/chem-mcp:\S+ docker:\/\/\S+$/,
    "a remote registry (the image it pushes is built by deploy:check)",
  ],
  [
    /^kubectl apply -f deploy\/kubernetes\.yaml$/,
    "a cluster (tests/unit/deploy_test.ts validates the manifests)",
  ],
];

/**
 * The deployment check needs root, buildah and haproxy, so the test command (which installs nothing) does not
 * run it; `.ci/run` runs it right after the test command. Checked here: `.ci/run`, the task and the npm script
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
  if (isTestCommand(command)) return checkTestCommand();
  if (isDeployCheck(command) || isImageBuild(command) || isBalancer(command)) return checkDeployment(command);
  const outside = OUTSIDE_WORLD.find(([pattern]) => pattern.test(command));
  if (outside) return assert.ok(outside[1], `${command} needs ${outside[1]}`);
  if (isInspector(command)) return await checkInspector(command);
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
  test(`documented command (${where}): ${command}`, async () => await check(command));
}

test("documented commands: deno task with a global Deno (not through npx) runs the task", async () => {
  const result = await run("deno task start", CANONICAL_CALL + "\n");
  ok(result, "deno task start");
  assert.match(result.stdout, /"canonical_smiles":"CCO"/);
});
