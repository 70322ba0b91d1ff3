/**
 * Runs every check and test under both runtimes and prints one closing line `N passed, N failed`.
 *
 *   1. static checks: deno fmt --check, deno lint, deno check, tsc (the Node build)
 *   2. the whole suite under Deno (`deno test`)
 *   3. the same suite under Node (`node --test` on the tsc output)
 *
 * Usage: deno run -A scripts/test.ts [--only deno|node] [extra test paths]
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import process from "node:process";

interface Outcome {
  passed: number;
  failed: number;
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let out = "";
    const tee = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      out += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on("data", tee(process.stdout));
    child.stderr.on("data", tee(process.stderr));
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
    child.on("error", (error) => resolve({ code: 1, out: String(error) }));
  });
}

const deno = process.execPath;

async function check(name: string, cmd: string, args: string[]): Promise<Outcome> {
  console.log(`\n== ${name}: ${[cmd, ...args].join(" ")}`);
  const { code } = await run(cmd, args);
  console.log(`== ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}`);
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

async function denoTests(): Promise<Outcome> {
  console.log("\n== deno test");
  const { code, out } = await run(deno, ["test", "-A", "tests/"]);
  const m = /(\d+) passed(?: \((\d+) steps\))? \| (\d+) failed/.exec(
    stripAnsi(out).split("\n").reverse().join("\n"),
  );
  if (!m) return { passed: 0, failed: 1 };
  const outcome = { passed: Number(m[1]) + Number(m[2] ?? 0), failed: Number(m[3]) };
  return code !== 0 && outcome.failed === 0 ? { ...outcome, failed: 1 } : outcome;
}

async function nodeTests(): Promise<Outcome> {
  console.log("\n== node --test (dist/)");
  const { code, out } = await run("node", ["--test", "--test-concurrency=1", "dist/tests/"]);
  const pass = /^# pass (\d+)$/m.exec(out);
  const fail = /^# fail (\d+)$/m.exec(out);
  if (!pass || !fail) return { passed: 0, failed: 1 };
  const outcome = { passed: Number(pass[1]), failed: Number(fail[1]) };
  return code !== 0 && outcome.failed === 0 ? { ...outcome, failed: 1 } : outcome;
}

const results: Outcome[] = [];
results.push(await check("format", deno, ["fmt", "--check"]));
results.push(await check("lint", deno, ["lint"]));
results.push(await check("deno check", deno, ["check", "."]));
rmSync("dist", { recursive: true, force: true });
results.push(
  await check("tsc (Node build)", "node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"]),
);
if (only !== "node") results.push(await denoTests());
if (only !== "deno") results.push(await nodeTests());

const total = results.reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed }));
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exitCode = total.failed === 0 ? 0 : 1;
