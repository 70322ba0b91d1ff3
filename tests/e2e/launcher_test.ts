/**
 * A Streamable HTTP server started through `npx` stops when npx is stopped (src/runtime/launcher.ts): npm's shell
 * does not pass SIGTERM on, so without the check the server kept its port.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import assert from "node:assert/strict";
import { followLauncher } from "../../src/runtime/launcher.ts";
import { IS_DENO, ROOT } from "../helpers/process.ts";

test("followLauncher: only under npm exec, and exits 143 once the parent changes", async () => {
  let parent = 41;
  const exits: number[] = [];
  const watch = {
    parentPid: () => parent,
    exit: (code: number) => exits.push(code),
    unref: (timer: ReturnType<typeof setInterval>) => clearInterval(timer),
  };
  assert.equal(followLauncher({ ...watch, env: {} }), false);
  const timers: ReturnType<typeof setInterval>[] = [];
  assert.equal(
    followLauncher({ ...watch, env: { npm_command: "exec" }, unref: (t) => timers.push(t) }, 5),
    true,
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(exits, [], "the launcher is still there");
    parent = 1;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(exits[0], 143);
  } finally {
    timers.forEach(clearInterval);
  }
});

/** Whether something accepts connections on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

test("a Streamable HTTP server started by npx stops with npx", { timeout: 120_000 }, async () => {
  const server = IS_DENO
    ? ["deno", "run", "-A", join(ROOT, "mod.ts")]
    : ["node", join(ROOT, "dist/src/runtime/node.js")];
  // Its own process group, so the finally below can end whatever is left whatever happens.
  const npx = spawn("npm", [
    "exec",
    "--yes",
    "--",
    ...server,
    "--transport",
    "streamable-http",
    "--port",
    "0",
  ], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = "";
      npx.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        err += chunk;
        const found = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
        if (found) resolve(Number(found[1]));
      });
      npx.once("exit", (code) => reject(new Error(`npx exited (${code}) before listening: ${err}`)));
    });
    assert.equal(await accepts(port), true);
    npx.kill("SIGTERM");
    let open = true;
    for (let waited = 0; open && waited < 30_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      open = await accepts(port);
    }
    assert.equal(open, false, `port ${port} still accepts connections after npx was stopped`);
  } finally {
    try {
      process.kill(-npx.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});
