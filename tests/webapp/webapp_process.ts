/**
 * Starts the real sample web application for the webapp tests, under the runtime running them:
 * `deno run -A src/runtime/webapp_deno.ts --port 0` under Deno, `node <build>/src/runtime/webapp_node.js --port 0`
 * under Node, from the tsc build these tests were compiled into (dist/ for the test command). Resolves once the server prints its listening line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { IS_DENO, owned, ROOT } from "../helpers/process.ts";

/** A running web application. */
export interface WebAppServer {
  /** Base URL with trailing slash, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** Port it listens on. */
  port: number;
  /** Everything printed on stderr so far. */
  stderr: () => string;
  /** Stops the process and waits for it to exit. */
  stop: () => Promise<void>;
}

/** The command line that runs the web application entry for this runtime. */
export function webAppCommand(): [string, string[]] {
  return IS_DENO
    ? [process.execPath, ["run", "-A", join(ROOT, "src/runtime/webapp_deno.ts")]]
    // The build these tests were compiled into (dist/ for the test command): this file is its tests/webapp/.
    : [process.execPath, [fileURLToPath(new URL("../../src/runtime/webapp_node.js", import.meta.url))]];
}

/**
 * Spawns the server with `args` (default `--port 0`) and `env` added to this process's environment, and waits up
 * to `timeoutMs` for it to listen.
 */
export function startWebApp(
  args: string[] = ["--port", "0"],
  timeoutMs = 60_000,
  env: Record<string, string> = {},
): Promise<WebAppServer> {
  const [cmd, base] = webAppCommand();
  const child: ChildProcessWithoutNullStreams = owned(
    spawn(cmd, [...base, ...args], { stdio: "pipe", cwd: ROOT, env: { ...process.env, ...env } }),
  );
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`web app did not start within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.resume();
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const m = /chem-mcp webapp listening on (http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          port: Number(m[2]),
          stderr: () => stderr,
          stop: () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`web app exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}
