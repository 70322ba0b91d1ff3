/**
 * Spawns the real server process for end-to-end tests, under the runtime running the tests: `deno run -A mod.ts`
 * under Deno, `node dist/src/runtime/node.js` under Node. `CHEM_MCP_SERVER_CMD` (a JSON array) overrides the
 * command, so the same suite runs against a compiled binary or an installed npm package; `CHEM_MCP_SERVER_CWD`
 * sets its working directory (e.g. one with no node_modules).
 *
 * Every process started here is owned by the test file that started it ({@link owned}): stopped when its tests
 * end, passed or failed, so a failed assertion never leaves a server holding the test runner open.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { after } from "node:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cpuMsOf, statCpuMs, statFields } from "../../src/runtime/cpu_time.ts";

/** True when the tests run under Deno. */
export const IS_DENO: boolean = "Deno" in globalThis;

function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("package.json not found above the test helpers");
    dir = parent;
  }
  return dir;
}

/** The project's root directory. */
export const ROOT: string = projectRoot();

/** The command line that starts the server (before its own options). */
export function serverCommand(): [string, string[]] {
  const override = process.env.CHEM_MCP_SERVER_CMD;
  if (override) {
    const [cmd, ...args] = JSON.parse(override) as string[];
    return [cmd!, args];
  }
  return IS_DENO
    ? [process.execPath, ["run", "-A", join(ROOT, "mod.ts")]]
    : [process.execPath, [join(ROOT, "dist/src/runtime/node.js")]];
}

/**
 * Whether this process runs tests: `deno test`, or a file process of `node --test` (which sets
 * `NODE_TEST_CONTEXT`). Elsewhere (a bench, a script) `after` would start Node's test harness of its own.
 */
const IN_TEST_RUNNER = IS_DENO || process.env.NODE_TEST_CONTEXT !== undefined;

/** How long a process asked to stop with SIGTERM gets before SIGKILL. */
const STOP_GRACE_MS = 2_000;

/**
 * Stops `child` (with its process group when it leads one) and waits for it to exit: SIGTERM, then SIGKILL after
 * {@link STOP_GRACE_MS}. A process already ended is left as it is.
 */
export function stopProcess(child: ChildProcess, group = false): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const signal = (name: NodeJS.Signals) => {
      try {
        if (group) process.kill(-child.pid!, name);
        else child.kill(name);
      } catch {
        child.kill(name);
      }
    };
    const force = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(force);
      // A process it started may hold the other ends (npx's server shares npx's stdio): closed here, so they
      // never keep the test process waiting.
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      done();
    });
    signal("SIGTERM");
  });
}

/** Processes started through {@link owned} that have not exited yet, with whether each leads its own group. */
const running = new Map<ChildProcess, boolean>();

// Registered when this module loads, at the top of a test file, so the hook is the file's: it runs when the
// file's tests have ended, after failures too. (Registered inside a test instead, Node would run it as soon as
// a `before` hook that started a server returned.)
if (IN_TEST_RUNNER) {
  after(() => Promise.all([...running].map(([child, group]) => stopProcess(child, group))).then(() => {}));
}

/**
 * Makes the test file own `child`: whatever is still running when the file's tests end, passed or failed, is
 * stopped then, so a test that failed before its own `close()` cannot keep the test runner waiting. Outside a
 * test runner it is returned as it is.
 */
export function owned<T extends ChildProcess>(child: T, group = false): T {
  if (!IN_TEST_RUNNER) return child;
  running.set(child, group);
  child.once("exit", () => running.delete(child));
  return child;
}

/**
 * Starts the server with extra options. `group` puts it in its own process group so {@link stopGroup} also ends
 * grandchildren (a launcher such as `npx` does not pass signals on to the server it starts).
 */
export function startServer(
  args: string[] = [],
  env: Record<string, string> = {},
  group = false,
): ChildProcessWithoutNullStreams {
  const [cmd, base] = serverCommand();
  const cwd = process.env.CHEM_MCP_SERVER_CWD;
  return owned(
    spawn(cmd, [...base, ...args], {
      env: { ...process.env, ...env },
      stdio: "pipe",
      detached: group,
      ...(cwd ? { cwd } : {}),
    }),
    group,
  );
}

/** Ends a server started with `group = true`, with everything it started, and waits for it to exit. */
export function stopGroup(child: ChildProcessWithoutNullStreams): Promise<void> {
  return stopProcess(child, true);
}

/** Output and exit status of a finished process. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the server with `args`, writes `input` to its stdin, closes stdin and waits for it to exit. */
export function runServer(args: string[], input = "", timeoutMs = 60_000): Promise<Finished> {
  const child = startServer(args);
  return collect(child, input, timeoutMs);
}

/** Feeds `input`, ends stdin, and collects everything until exit. */
export function collect(
  child: ChildProcessWithoutNullStreams,
  input: string | Uint8Array,
  timeoutMs = 60_000,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/**
 * A line-oriented JSON-RPC client over a child's stdio, for tests that need request/response interleaving.
 */
export class LineClient {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<string, (message: Record<string, unknown>) => void>();
  /** Every parsed line received, in order. */
  readonly received: Record<string, unknown>[] = [];
  /** Lines on stdout that were not valid JSON (must stay empty). */
  readonly garbage: string[] = [];
  #buffer = "";

  /** @param child A spawned server. */
  constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.#onData(chunk));
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        this.garbage.push(line);
        continue;
      }
      this.received.push(message);
      const key = JSON.stringify(message.id ?? null);
      const waiter = this.#waiting.get(key);
      if (waiter) {
        this.#waiting.delete(key);
        waiter(message);
      }
    }
  }

  /** Writes raw text (a newline is not added). */
  write(text: string | Uint8Array): void {
    this.#child.stdin.write(text);
  }

  /** Sends a request object and resolves with the response carrying its id. */
  request(message: Record<string, unknown>, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const key = JSON.stringify(message.id);
    const answer = this.waitFor(key, timeoutMs);
    this.write(`${JSON.stringify(message)}\n`);
    return answer;
  }

  /** Resolves with the next response whose id serialises to `key` (e.g. `null` or `"7"`). */
  waitFor(key: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response for id ${key}`)), timeoutMs);
      this.#waiting.set(key, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  /** Ends stdin and resolves with the exit code. */
  close(): Promise<number | null> {
    return new Promise((resolve) => {
      this.#child.on("close", (code) => resolve(code));
      this.#child.stdin.end();
    });
  }
}

/** CPU time and resident memory of a process and all its descendants (Deno's tool workers are processes). */
export interface TreeUsage {
  /** CPU time used so far, ms (user and system, clock ticks of 10 ms). */
  readonly cpuMs: number;
  /** Resident memory now, KiB. */
  readonly rssKiB: number;
}

/** `pid` and its descendants with their parents, from Linux /proc; empty where there is no /proc. */
export function processTree(pid: number): { pid: number; ppid: number }[] {
  const parents = new Map<number, number>();
  for (const entry of existsSync("/proc") ? readdirSync("/proc").filter((name) => /^\d+$/.test(name)) : []) {
    const fields = statFields(`/proc/${entry}/stat`); // undefined: ended meanwhile
    if (fields) parents.set(Number(entry), Number(fields[1]));
  }
  const inTree = (p: number): boolean => p === pid || (parents.has(p) && p > 1 && inTree(parents.get(p)!));
  return [...parents].filter(([p]) => inTree(p)).map(([p, ppid]) => ({ pid: p, ppid }));
}

/** {@link TreeUsage} of `pid` and its descendants, from Linux /proc; NaN for both where there is no /proc. */
export function treeUsage(pid: number): TreeUsage {
  if (!existsSync(`/proc/${pid}/stat`)) return { cpuMs: NaN, rssKiB: NaN };
  let cpuMs = 0;
  let rssKiB = 0;
  for (const { pid: p } of processTree(pid)) {
    try {
      const cpu = statCpuMs(`/proc/${p}/stat`);
      if (cpu === undefined) continue; // ended meanwhile
      rssKiB += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
      cpuMs += cpu;
    } catch {
      // Ended meanwhile.
    }
  }
  return { cpuMs, rssKiB };
}

/** One thread of a process tree: its process, thread id, nice value and CPU time so far. */
export interface ThreadInfo {
  readonly pid: number;
  /** The process's parent. */
  readonly ppid: number;
  readonly tid: number;
  readonly nice: number;
  /** CPU time used so far, ms (clock ticks of 10 ms). */
  readonly cpuMs: number;
}

/** Every thread of `pid` and its descendants, from Linux /proc; empty where there is no /proc. */
export function treeThreads(pid: number): ThreadInfo[] {
  const threads: ThreadInfo[] = [];
  for (const { pid: p, ppid } of processTree(pid)) {
    try {
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        const fields = statFields(`/proc/${p}/task/${tid}/stat`);
        if (!fields) continue; // ended meanwhile
        threads.push({ pid: p, ppid, tid: Number(tid), nice: Number(fields[16]), cpuMs: cpuMsOf(fields) });
      }
    } catch {
      // Ended meanwhile.
    }
  }
  return threads;
}
