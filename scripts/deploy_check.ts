/**
 * The deployment check (`deno task deploy:check`, `npm run deploy:check`), on loopback only, in bounded time:
 *
 *   1. the OCI image: built by scripts/build_image.ts, then its root file system is mounted (`buildah mount`) and
 *      the image's own entrypoint runs in it with `chroot` as the image's user, with an empty environment; it
 *      must answer `server/discover` and `tools/call` (one tool in place, one in a tool worker) over HTTP;
 *   2. replicas behind HAProxy (deploy/haproxy.cfg): throughput through the balancer with 1 and 2 replicas,
 *      RSS per replica at start, after the load and after its tool workers computed;
 *   3. failover: one replica is killed with SIGKILL under autocannon load; no request may fail at the client;
 *      p99 before, during and after; the replica is restarted and must be marked up and serve again.
 *
 * Ends with `N passed, N failed`. Needs root (buildah's store, chroot), `buildah` and `haproxy`.
 * Usage: deno run -A scripts/deploy_check.ts [--seconds 5] [--skip-image]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { resolve } from "node:path";
import process from "node:process";
import autocannon from "autocannon";
import { buildImage, compressedSize, IMAGE_BINARY, IMAGE_UID } from "./build_image.ts";
import { VERSION } from "../src/version.ts";

const SECONDS = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 5;
const SKIP_IMAGE = process.argv.includes("--skip-image");
const WORK = resolve(".cache/deploy");
const BINARY = resolve(".cache/image/chem-mcp");
const CONNECTIONS = 16;
const MiB = 2 ** 20;
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

let passed = 0;
let failed = 0;
/** Records one check and prints it. */
function check(name: string, ok: boolean, detail = ""): boolean {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"}  ${name}${detail ? `: ${detail}` : ""}`);
  return ok;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Headers and body of a modern request, as the official client sends them. */
function mcpRequest(method: string, params: Record<string, unknown> = {}, name?: string) {
  return {
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  };
}

const toolCall = (name: string, args: Record<string, unknown>) =>
  mcpRequest("tools/call", { name, arguments: args }, name);

/** POSTs to /mcp; resolves with status and parsed body. */
async function post(
  port: number,
  request: { headers: Record<string, string>; body: string },
  extra: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { ...request.headers, ...extra },
    body: request.body,
  });
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) };
  } catch {
    return { status: response.status, json: undefined };
  }
}

function structured(json: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return (json?.result as { structuredContent?: Record<string, unknown> } | undefined)?.structuredContent;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** User plus system CPU time of a process (all its threads), in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** True when the process sees its root file system mounted read-only. */
function rootReadOnly(pid: number): boolean {
  const root = readFileSync(`/proc/${pid}/mounts`, "utf8").split("\n").map((line) => line.split(" "))
    .findLast((fields) => fields[1] === "/");
  return root?.[3]?.split(",").includes("ro") ?? false;
}

function uid(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("Uid:"))!;
  return Number(line.split(/\s+/)[1]);
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `test` every `everyMs` until it is true or `limitMs` has passed; resolves with the last outcome. */
async function until(
  test: () => Promise<boolean> | boolean,
  limitMs: number,
  everyMs = 100,
): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await test()) return true;
    await sleep(everyMs);
  }
  return await test();
}

/** A started server process and the port it announced. */
interface Started {
  readonly child: ChildProcess;
  readonly port: number;
}

/** Spawns a server and waits (at most 30 s) for `listening on http://…:<port>/mcp` on stderr. */
function startListening(cmd: string, args: string[], env?: Record<string, string>): Promise<Started> {
  const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], ...(env ? { env } : {}) });
  return new Promise((done, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`no port announced: ${stderr}`)), 30_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const port = /listening on http:\/\/\S+:(\d+)\/mcp/.exec(stderr)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      done({ child, port: Number(port) });
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((done) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

function buildah(...args: string[]): string {
  return execFileSync("buildah", args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

// ---------------------------------------------------------------------------------------------------------
// 1. The image
// ---------------------------------------------------------------------------------------------------------

async function imageChecks(): Promise<void> {
  console.log("\n== OCI image (deploy/Containerfile, buildah)");
  let image;
  try {
    image = buildImage();
  } catch (error) {
    check("image builds", false, String(error));
    return;
  }
  const compressed = compressedSize(image.tag, `${WORK}/oci`);
  check(
    "image builds",
    image.sizeBytes > 0,
    `${image.tag}, ${(image.sizeBytes / MiB).toFixed(1)} MiB (layer, uncompressed; the binary is ` +
      `${(image.binaryBytes / MiB).toFixed(1)} MiB), ${(compressed / MiB).toFixed(1)} MiB gzip-compressed`,
  );
  const config = JSON.parse(buildah("inspect", "--type", "image", image.tag)) as {
    OCIv1: { config: { User: string; Entrypoint: string[]; Labels: Record<string, string> } };
  };
  const { User, Entrypoint, Labels } = config.OCIv1.config;
  check(
    "image runs as a non-root user, labelled with version and licence",
    User === `${IMAGE_UID}:${IMAGE_UID}` && Labels["org.opencontainers.image.version"] === VERSION &&
      (Labels["org.opencontainers.image.licenses"] ?? "").startsWith("MIT"),
    `User ${User}, version ${Labels["org.opencontainers.image.version"]}, ` +
      `licenses ${Labels["org.opencontainers.image.licenses"]}`,
  );
  const name = `chem-mcp-deploy-check-${process.pid}`;
  buildah("from", "--quiet", "--name", name, image.tag);
  let server: Started | undefined;
  try {
    const root = buildah("mount", name);
    // The image's own entrypoint, with port 0 instead of 3000 so a busy port on this machine cannot interfere.
    const args = Entrypoint.map((arg, i) => (Entrypoint[i - 1] === "--port" ? "0" : arg));
    // In a PID namespace of its own the server is process 1, as in a container; in a mount namespace of its own
    // the root file system is read-only, as the Deployment's readOnlyRootFilesystem makes it.
    const readOnly = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec /usr/sbin/chroot "$@"';
    server = await startListening("/usr/bin/unshare", [
      "--pid",
      "--fork",
      "--kill-child",
      "--mount",
      "--propagation",
      "private",
      "/usr/bin/sh",
      "-c",
      `PATH=/usr/bin:/bin; ${readOnly}`,
      root,
      `--userspec=${User}`,
      root,
      ...args,
    ], {});
    // sh and chroot exec, so the namespace's first process is the server itself.
    const pid = Number(execFileSync("pgrep", ["-P", String(server.child.pid)], { encoding: "utf8" }).trim());
    await imageAnswers(server.port, pid, Entrypoint);
    const exited = new Promise<boolean>((done) => server!.child.once("exit", () => done(true)));
    process.kill(pid, "SIGTERM");
    check(
      "as a container's first process the server exits on SIGTERM",
      await Promise.race([exited, sleep(5000).then(() => false)]),
    );
  } catch (error) {
    check("binary runs from the image's root file system", false, String(error));
  } finally {
    await stop(server?.child);
    buildah("umount", name);
    buildah("rm", name);
  }
}

async function imageAnswers(port: number, pid: number, entrypoint: string[]): Promise<void> {
  check(
    "entrypoint serves Streamable HTTP on 0.0.0.0 as the image's user (chroot, read-only root, empty environment)",
    entrypoint[0] === IMAGE_BINARY && entrypoint.includes("0.0.0.0") && uid(pid) === IMAGE_UID &&
      rootReadOnly(pid),
    `${entrypoint.join(" ")}; uid ${uid(pid)}, root mounted ${
      rootReadOnly(pid) ? "read-only" : "read-write"
    }`,
  );
  const discover = await post(port, mcpRequest("server/discover"));
  const versions = (discover.json?.result as { supportedVersions?: string[] } | undefined)?.supportedVersions;
  check("image answers server/discover", discover.status === 200 && versions?.[0] === "2026-07-28");
  const canonical = await post(port, toolCall("canonical_smiles", { smiles: "OCC" }));
  check(
    "image answers tools/call canonical_smiles",
    structured(canonical.json)?.canonical_smiles === "CCO",
    `OCC -> ${structured(canonical.json)?.canonical_smiles}`,
  );
  const threeD = await post(port, toolCall("generate_3d", { smiles: "CCO" }));
  const xyz = String(structured(threeD.json)?.xyz ?? "");
  check(
    "image answers tools/call generate_3d (in a tool worker)",
    threeD.status === 200 && xyz.startsWith("9\n"),
    `${xyz.split("\n")[0]} atoms, RSS ${rssMiB(pid).toFixed(0)} MiB`,
  );
  // On a non-loopback bind the DNS-rebinding Host check is off; the Origin check stays.
  const foreignHost = await post(port, mcpRequest("server/discover"), { host: "chem-mcp.internal" });
  const foreignOrigin = await post(port, mcpRequest("server/discover"), {
    origin: "https://elsewhere.example",
  });
  check(
    "on 0.0.0.0 any Host is served and a foreign Origin is refused",
    foreignHost.status === 200 && foreignOrigin.status === 403,
    `Host chem-mcp.internal -> ${foreignHost.status}, Origin https://elsewhere.example -> ${foreignOrigin.status}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// 2 and 3. Replicas behind HAProxy
// ---------------------------------------------------------------------------------------------------------

/** Sends one command to HAProxy's admin socket and returns its answer. */
function haproxy(socket: string, command: string): Promise<string> {
  return new Promise((done, reject) => {
    const client = connect({ path: socket }, () => client.write(`${command}\n`));
    let out = "";
    client.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    client.on("end", () => done(out));
    client.on("error", reject);
  });
}

/** One replica's row of `show stat`. */
interface ServerStat {
  readonly status: string;
  /** Connections (sessions) sent to it in total. */
  readonly stot: number;
  readonly hrsp2xx: number;
  /** Requests retried on it, and redispatched away from it. */
  readonly retries: number;
  readonly redispatches: number;
}

async function serverStats(socket: string): Promise<Map<string, ServerStat>> {
  const [header, ...rows] = (await haproxy(socket, "show stat")).trim().split("\n");
  const names = header!.replace(/^# /, "").split(",");
  const column = (row: string[], name: string) => row[names.indexOf(name)] ?? "";
  const stats = new Map<string, ServerStat>();
  for (const line of rows) {
    const row = line.split(",");
    const frontend = column(row, "pxname") === "mcp" && column(row, "svname") === "FRONTEND";
    if (!frontend && (column(row, "pxname") !== "replicas" || !/^r\d+$/.test(column(row, "svname")))) {
      continue;
    }
    stats.set(frontend ? "frontend" : column(row, "svname"), {
      status: column(row, "status"),
      stot: Number(column(row, "stot")),
      hrsp2xx: Number(column(row, "hrsp_2xx")),
      retries: Number(column(row, "wretr")),
      redispatches: Number(column(row, "wredis")),
    });
  }
  return stats;
}

/** One timed response seen by autocannon. */
interface Sample {
  readonly at: number;
  readonly ms: number;
  readonly status: number;
}

/** Expected answer to the load request, so a wrong body counts as a failure (autocannon `mismatches`). */
const LOAD = toolCall("canonical_smiles", { smiles: "CC(=O)Oc1ccccc1C(=O)O" });

/** Starts autocannon through the balancer; samples every response. */
function load(port: number, seconds: number, expectBody: string, samples: Sample[]) {
  const instance = autocannon({
    url: `http://127.0.0.1:${port}/mcp`,
    method: "POST",
    connections: CONNECTIONS,
    duration: seconds,
    // The name clients use for the service, not the replicas' loopback address.
    headers: { ...LOAD.headers, host: "chem-mcp.example.org" },
    body: LOAD.body,
    expectBody,
    timeout: 40,
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    samples.push({ at: performance.now(), ms, status });
  });
  return instance;
}

type LoadResult = {
  requests: { average: number };
  "2xx": number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  resets: number;
};

function p99(samples: Sample[], from: number, to: number): { p99: number; count: number } {
  const times = samples.filter((s) => s.at >= from && s.at < to).map((s) => s.ms).sort((a, b) => a - b);
  return {
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? NaN,
    count: times.length,
  };
}

const failures = (r: LoadResult) => r.non2xx + r.errors + r.timeouts + r.mismatches;

async function replicaChecks(): Promise<void> {
  console.log("\n== Replicas behind HAProxy (deploy/haproxy.cfg), loopback");
  if (!existsSync(BINARY)) {
    execFileSync(process.execPath, ["run", "-A", "scripts/build_sea.ts", "--out", BINARY]);
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const replicaArgs = ["--transport", "streamable-http", "--port", "0"];
  const replicas: Started[] = [];
  let balancer: ChildProcess | undefined;
  try {
    replicas.push(await startListening(BINARY, replicaArgs), await startListening(BINARY, replicaArgs));
    const lbPort = await freePort();
    const socket = `${WORK}/haproxy.sock`;
    const env = {
      ...process.env,
      CHEM_MCP_LB_BIND: `127.0.0.1:${lbPort}`,
      CHEM_MCP_LB_SOCKET: socket,
      CHEM_MCP_REPLICA_1: `127.0.0.1:${replicas[0]!.port}`,
      CHEM_MCP_REPLICA_2: `127.0.0.1:${replicas[1]!.port}`,
    } as Record<string, string>;
    balancer = spawn("haproxy", ["-db", "-f", resolve("deploy/haproxy.cfg")], { env, stdio: "ignore" });
    const up = (names: string[]) => async () => {
      try {
        const stats = await serverStats(socket);
        return names.every((name) => stats.get(name)?.status === "UP");
      } catch {
        return false;
      }
    };
    if (!check("HAProxy marks both replicas up", await until(up(["r1", "r2"]), 15_000))) return;
    const expected = await post(lbPort, LOAD);
    const expectBody = JSON.stringify(expected.json);
    await throughput(lbPort, socket, expectBody, up, replicas, balancer.pid!);
    await failover(lbPort, socket, expectBody, replicas, up);
  } finally {
    await stop(balancer);
    for (const replica of replicas) await stop(replica.child);
  }
}

async function throughput(
  lbPort: number,
  socket: string,
  expectBody: string,
  up: (names: string[]) => () => Promise<boolean>,
  replicas: Started[],
  balancerPid: number,
): Promise<void> {
  const fresh = replicas.map((r) => rssMiB(r.child.pid!));
  const replicaCpu = () => replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid!), 0);
  let cpu = { replicas: 0, balancer: 0 };
  // Warm both replicas (JIT, heap growth) so the 1-replica figure is not also the cold-start figure.
  await load(lbPort, 2, expectBody, []);
  // Two rounds of 1 then 2 replicas, so a change in the machine's other load falls on both figures alike.
  const answered = { 1: 0, 2: 0 };
  const failedAt = { 1: 0, 2: 0 };
  for (const count of [1, 2, 1, 2] as const) {
    if (count === 1) await haproxy(socket, "disable server replicas/r2");
    else {
      await haproxy(socket, "enable server replicas/r2");
      await until(up(["r1", "r2"]), 10_000);
    }
    const before = { replicas: replicaCpu(), balancer: cpuSeconds(balancerPid) };
    const result = await load(lbPort, SECONDS, expectBody, []) as unknown as LoadResult;
    cpu = {
      replicas: cpu.replicas + replicaCpu() - before.replicas,
      balancer: cpu.balancer + cpuSeconds(balancerPid) - before.balancer,
    };
    answered[count] += result["2xx"];
    failedAt[count] += failures(result);
  }
  for (const count of [1, 2] as const) {
    check(
      `${count} replica${count > 1 ? "s" : ""} behind HAProxy: every request answered correctly`,
      failedAt[count] === 0 && answered[count] > 0,
      `${
        (answered[count] / (2 * SECONDS)).toFixed(0)
      } req/s (${CONNECTIONS} connections, 2 × ${SECONDS} s); ` +
        `failed ${failedAt[count]}`,
    );
  }
  // CPU time per request does not depend on how much of the machine other work takes, unlike req/s.
  const requests = answered[1] + answered[2];
  const replicaMs = (1000 * cpu.replicas) / requests;
  console.log(
    `      CPU per request: replica ${replicaMs.toFixed(2)} ms (${(1000 / replicaMs).toFixed(0)} req/s per ` +
      `core), HAProxy ${((1000 * cpu.balancer) / requests).toFixed(2)} ms`,
  );
  const direct = await directRps(replicas[0]!.port, CONNECTIONS, 150);
  console.log(
    `      1 replica without the proxy (a fresh connection per request, ${CONNECTIONS} at once): ` +
      `${direct.toFixed(0)} req/s`,
  );
  console.log(
    `      throughput 2 replicas / 1 replica: ${(answered[2] / answered[1]).toFixed(2)}x on ${cores()} cores`,
  );
  const idle = replicas.map((r) => rssMiB(r.child.pid!));
  // Calls of pooled tools, two at a time, put both of a replica's (already warm) tool workers to work.
  for (const replica of replicas) {
    for (let i = 0; i < 4; i++) {
      await Promise.all([
        post(replica.port, toolCall("generate_3d", { smiles: "c1ccccc1O" })),
        post(replica.port, toolCall("smarts_match", { smiles: "c1ccccc1O", smarts: "[OX2H]" })),
      ]);
    }
  }
  const withWorkers = replicas.map((r) => rssMiB(r.child.pid!));
  const mib = (figures: number[]) => `${figures.map((m) => m.toFixed(0)).join(", ")} MiB`;
  console.log(
    `      RSS per replica (${cores()} tool workers each, warmed up after the first answer): started ` +
      `${mib(fresh)}; after the load ${mib(idle)}; after pooled tool calls ${mib(withWorkers)}`,
  );
}

async function failover(
  lbPort: number,
  socket: string,
  expectBody: string,
  replicas: Started[],
  up: (names: string[]) => () => Promise<boolean>,
): Promise<void> {
  const samples: Sample[] = [];
  const before = await serverStats(socket);
  const start = performance.now();
  const instance = load(lbPort, 10 * SECONDS + 60, expectBody, samples);
  const finished = new Promise<LoadResult>((done) =>
    instance.on("done", (r: unknown) => done(r as LoadResult))
  );
  await sleep(SECONDS * 1000);
  const victim = replicas[1]!;
  const killedAt = performance.now();
  victim.child.kill("SIGKILL");
  const markedDown = await until(
    async () => (await serverStats(socket)).get("r2")?.status.startsWith("DOWN") ?? false,
    10_000,
    50,
  );
  const downAfterMs = performance.now() - killedAt;
  await sleep(SECONDS * 1000);
  // Restart on the same port (the balancer's configuration names it), and time the first accepted connection.
  const restartedAt = performance.now();
  const restarted = spawn(BINARY, ["--transport", "streamable-http", "--port", String(victim.port)], {
    stdio: "ignore",
  });
  replicas[1] = { child: restarted, port: victim.port };
  const accepting = await until(() => accepts(victim.port), 30_000, 20);
  const firstAnswer = accepting ? await post(victim.port, mcpRequest("server/discover")) : undefined;
  check(
    "a restarted replica answers its first accepted connection (what a tcpSocket readiness probe sees)",
    firstAnswer?.status === 200,
    `accepting ${
      ((performance.now() - restartedAt) / 1000).toFixed(2)
    } s after start, status ${firstAnswer?.status}`,
  );
  const rejoined = await until(up(["r1", "r2"]), 15_000, 50);
  const rejoinedAt = performance.now();
  const rejoinStats = await serverStats(socket);
  const atRejoin = rejoinStats.get("r2")!;
  const atRejoin1 = rejoinStats.get("r1");
  await sleep(SECONDS * 1000);
  instance.stop();
  const result = await finished;
  const end = performance.now();
  const after = await serverStats(socket);
  const phases = [
    ["before", p99(samples, start + 1000, killedAt)],
    ["during (one replica dead)", p99(samples, killedAt, restartedAt)],
    ["after (rejoined)", p99(samples, rejoinedAt, end)],
  ] as const;
  for (const [name, figure] of phases) {
    console.log(`      p99 ${name}: ${figure.p99.toFixed(1)} ms over ${figure.count} requests`);
  }
  const retried = [...after.values()].reduce((n, s) => n + s.retries, 0) -
    [...before.values()].reduce((n, s) => n + s.retries, 0);
  const redispatched = [...after.values()].reduce((n, s) => n + s.redispatches, 0) -
    [...before.values()].reduce((n, s) => n + s.redispatches, 0);
  check(
    "failover: SIGKILL of one replica under load, no request failed at the client",
    failures(result) === 0 && result["2xx"] > 0 && markedDown,
    `${result["2xx"]} answered 200 with the expected body, ${failures(result)} failed ` +
      `(non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, ` +
      `wrong body ${result.mismatches}); marked down ${downAfterMs.toFixed(0)} ms after the kill; ` +
      `HAProxy retried ${retried}, redispatched ${redispatched}`,
  );
  const upstream = ["r1", "r2"].reduce((n, r) => n + after.get(r)!.stot - (before.get(r)?.stot ?? 0), 0);
  console.log(
    `      connections: autocannon opened ${after.get("frontend")!.stot - before.get("frontend")!.stot} to ` +
      `HAProxy for its ${result["2xx"]} requests (kept alive); HAProxy opened ${upstream} to the replicas ` +
      `(one per request and retry: the server closes after each answer)`,
  );
  const served = after.get("r2")!.hrsp2xx - atRejoin.hrsp2xx;
  check(
    "the restarted replica rejoins and serves",
    rejoined && served > 0,
    `up again ${
      ((rejoinedAt - restartedAt) / 1000).toFixed(2)
    } s after restart; requests served after that: ` +
      `r2 ${served}, r1 ${after.get("r1")!.hrsp2xx - (atRejoin1?.hrsp2xx ?? 0)}`,
  );
}

/**
 * Requests/s straight to one replica, `concurrency` clients each sending `each` requests on fresh connections
 * (the server closes after every answer; autocannon's figures on such a server count its reconnect bookkeeping).
 */
async function directRps(port: number, concurrency: number, each: number): Promise<number> {
  const payload = new TextEncoder().encode(LOAD.body);
  const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    Object.entries(LOAD.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") +
    `Content-Length: ${payload.length}\r\n\r\n`;
  let ok = 0;
  const one = () =>
    new Promise<void>((done) => {
      let answer = "";
      const socket = connect(port, "127.0.0.1", () => socket.write(head + LOAD.body));
      socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
      socket.on("error", () => {});
      socket.on("close", () => {
        if (answer.startsWith("HTTP/1.1 200")) ok++;
        done();
      });
    });
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = 0; i < each; i++) await one();
  }));
  const seconds = (performance.now() - start) / 1000;
  check(
    "1 replica without the proxy: every request answered",
    ok === concurrency * each,
    `${ok} answered 200`,
  );
  return ok / seconds;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      done(true);
    });
    socket.on("error", () => done(false));
  });
}

function cores(): number {
  return Number(execFileSync("nproc", { encoding: "utf8" }).trim());
}

console.log(
  `deploy check, chem-mcp ${VERSION}; load average ${
    readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
  }`,
);
if (!SKIP_IMAGE) await imageChecks();
await replicaChecks();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
