/**
 * The test command's machinery: a plan's stages run in the order their dependencies give (scripts/test_stages.ts),
 * its run directory goes with everything in it on SIGTERM, taking the processes it started along
 * (scripts/test_run_dir.ts), and the Node build is reused only while no source is newer
 * (scripts/node_build_stamp.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { commandStage, runPlan, type Stage } from "../../scripts/test_stages.ts";
import { sum } from "../../scripts/test_report.ts";
import { nodeBuildCurrent, STAMP } from "../../scripts/node_build_stamp.ts";
import { IS_DENO } from "../helpers/process.ts";

const quietContext = { env: { PATH: process.env.PATH ?? "" }, reportPath: () => "", verbose: false };

test("a plan runs each stage after those it waits for; a stage that needs a failed one does not run", async () => {
  const order: string[] = [];
  const step = (name: string, ok: boolean, more: Partial<Stage> = {}): Stage => ({
    name,
    ...more,
    run: async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(`${name} end`);
      return sum([{
        passed: ok ? 1 : 0,
        failed: ok ? 0 : 1,
        skipped: 0,
        failures: ok ? [] : [name],
        skips: [],
      }]);
    },
  });
  const { outcome } = await runPlan([
    step("build", false),
    step("beside", true),
    step("after build", true, { after: ["build"] }),
    step("needs build", true, { needs: ["build"] }),
    { name: "throws", run: () => Promise.reject(new Error("no such file")) },
  ], quietContext);
  assert.deepEqual(outcome.failures, ["build", "throws: no such file"]);
  assert.equal(outcome.passed, 2);
  assert.ok(!order.includes("needs build start"), "a stage whose need failed is not run");
  assert.ok(order.indexOf("after build start") > order.indexOf("build end"), order.join(", "));
  assert.ok(
    order.indexOf("beside start") < order.indexOf("build end"),
    "stages with nothing to wait for overlap",
  );
});

test("a command stage names each command that failed, with its exit status", async () => {
  const { outcome } = await runPlan([
    commandStage("checks", [
      { label: "passes", cmd: "node", args: ["-e", ""] },
      { label: "fails", cmd: "node", args: ["-e", "process.exit(3)"] },
    ]),
  ], quietContext);
  assert.deepEqual(outcome.failures, ["checks › fails (exit 3)"]);
  assert.equal(outcome.passed, 1);
});

test("SIGTERM ends the run's processes and removes its directory, with what they wrote there", async () => {
  const outer = mkdtempSync(join(tmpdir(), "chem-mcp-run-dir-test-"));
  const module = new URL(`../../scripts/test_run_dir.${IS_DENO ? "ts" : "js"}`, import.meta.url).href;
  const nap = (300 + Math.random()).toFixed(6);
  const program = `
    const { startRun, trackGroup } = await import(${JSON.stringify(module)});
    const { spawn } = await import("node:child_process");
    const { writeFileSync } = await import("node:fs");
    const process = (await import("node:process")).default;
    const run = startRun();
    writeFileSync(process.env.TMPDIR + "/left_behind.txt", "x");
    const child = spawn("sleep", ["${nap}"], { detached: true, stdio: "ignore" });
    trackGroup(child.pid);
    console.log(JSON.stringify({ root: run.root, tmp: process.env.TMPDIR, pid: child.pid }));
    setInterval(() => {}, 1000);`;
  const args = IS_DENO ? ["eval", program] : ["--input-type=module", "-e", program];
  try {
    const child = spawn(process.execPath, args, { env: { ...process.env, TMPDIR: outer }, stdio: "pipe" });
    const exited = new Promise<number | string | null>((resolve) =>
      child.on("exit", (code, signal) => resolve(code ?? signal))
    );
    const said = await new Promise<{ root: string; tmp: string; pid: number }>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
      });
      child.on("exit", (code) => reject(new Error(`exited with ${code} before starting its run`)));
    });
    assert.ok(said.root.startsWith(join(outer, "chem-mcp-test-")), said.root);
    assert.equal(said.tmp, join(said.root, "tmp"), "children get the run directory as TMPDIR");
    assert.ok(existsSync(join(said.tmp, "left_behind.txt")));
    child.kill("SIGTERM");
    // Node reports the handler's exit status, 143; Deno's child_process reports a status above 128 as the signal.
    assert.ok([143, "SIGTERM"].includes((await exited) ?? ""), "exit status 143");
    assert.ok(!existsSync(said.root), "the run directory is gone");
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      alive = existsSync(`/proc/${said.pid}`);
      if (alive) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (existsSync("/proc")) assert.ok(!alive, "the process the run started was ended");
  } finally {
    rmSync(outer, { recursive: true, force: true });
  }
});

test("the Node build is current only while no source, and no directory of them, is newer than its stamp", () => {
  const root = mkdtempSync(join(tmpdir(), "chem-mcp-node-build-test-"));
  try {
    mkdirSync(join(root, "src"));
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "src/a.ts"), "");
    assert.equal(nodeBuildCurrent(root), false, "no stamp, no build");
    const past = new Date(Date.now() - 60_000);
    for (const path of ["src/a.ts", "src"]) utimesSync(join(root, path), past, past);
    writeFileSync(join(root, STAMP), "");
    assert.equal(nodeBuildCurrent(root), true);
    writeFileSync(join(root, "src/a.ts"), "export {};");
    assert.equal(nodeBuildCurrent(root), false, "an edited source");
    utimesSync(join(root, "src/a.ts"), past, past);
    rmSync(join(root, "src/a.ts"));
    assert.equal(nodeBuildCurrent(root), false, "a removed source");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
