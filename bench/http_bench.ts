/**
 * Load on the Streamable HTTP endpoint with a real load generator (autocannon), `tools/call canonical_smiles` at
 * 16 and 64 concurrent connections for a fixed duration: requests/s, p50/p99 latency, non-2xx and 503 counts,
 * server RSS before and after, and the ratio to the same request over stdio with as many in flight, measured in
 * the same run. Checks that the server still answers correctly afterwards.
 * Run: deno run -A bench/http_bench.ts [--seconds 10]
 */
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import process from "node:process";
import autocannon from "autocannon";
import { mcpHeaders, post, startHttpServer } from "../tests/helpers/http.ts";
import { startServer } from "../tests/helpers/process.ts";
import { type Figures, loadPrevious } from "./previous.ts";

const SECONDS = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 10;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const body = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "canonical_smiles", arguments: { smiles: "CC(=O)Oc1ccccc1C(=O)O" }, _meta: META },
  });

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

async function stdioRps(inFlight: number, total: number): Promise<number> {
  const child = startServer();
  let received = 0;
  let sent = 0;
  let start = 0;
  let buffer = "";
  const done = new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        buffer = buffer.slice(nl + 1);
        if (++received === 1) start = performance.now(); // first answer = warm
        if (received === total) resolve();
        else if (sent < total) child.stdin.write(body(sent++) + "\n");
      }
    });
  });
  for (let i = 0; i < inFlight; i++) child.stdin.write(body(sent++) + "\n");
  await done;
  const rps = (total - 1) / ((performance.now() - start) / 1000);
  child.stdin.end();
  return rps;
}

/**
 * Per-request latency with `concurrency` workers, each sending one request per fresh connection (as the server
 * closes after every answer). autocannon's own latency figures count its reconnect bookkeeping on
 * `Connection: close` servers (seconds where a request takes under a millisecond), so latency is measured here.
 */
async function latency(
  port: number,
  concurrency: number,
  perWorker: number,
): Promise<{ p50: number; p99: number }> {
  const request = post(body(3), mcpHeaders("tools/call", "canonical_smiles"));
  const times: number[] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const socket = connect(port, "127.0.0.1", () => socket.write(request));
      socket.on("data", () => {});
      socket.on("error", () => {});
      socket.on("close", () => {
        times.push(performance.now() - start);
        resolve();
      });
    });
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = 0; i < perWorker; i++) await one();
  }));
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

const server = await startHttpServer();
const rssBefore = rssMiB(server.child.pid!);
console.log(`HTTP load, ${SECONDS} s per row, server RSS before: ${rssBefore.toFixed(1)} MiB\n`);
console.log(
  "| connections | answered req/s | 2xx req/s | p50 ms | p99 ms | non-2xx | 503 | stdio req/s (same in flight) | 2xx HTTP / stdio | 2xx vs previous run |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const previous = loadPrevious("http");
const figures: Figures = {};
for (const connections of [16, 64]) {
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/mcp`,
    method: "POST",
    connections,
    duration: SECONDS,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "canonical_smiles",
    },
    body: body(1),
  });
  const answered = result.requests.average;
  const ok = result["2xx"] / SECONDS;
  const lat = await latency(server.port, connections, Math.ceil(1600 / connections));
  const stdio = await stdioRps(connections, 3000);
  const status503 = (result.statusCodeStats as Record<string, { count: number }>)["503"]?.count ?? 0;
  console.log(
    `| ${connections} | ${answered.toFixed(0)} | ${ok.toFixed(0)} | ${lat.p50.toFixed(2)} | ${
      lat.p99.toFixed(2)
    } | ` +
      `${result.non2xx} | ${status503} | ${stdio.toFixed(0)} | ${(ok / stdio).toFixed(2)}× | ` +
      `${previous.speedup(`${connections} connections, 2xx req/s`, ok)} |`,
  );
  figures[`${connections} connections, 2xx req/s`] = ok;
}
const rssAfter = rssMiB(server.child.pid!);
const check = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "canonical_smiles",
  },
  body: body(7),
});
const answer = await check.json() as { result?: { structuredContent?: { canonical_smiles?: string } } };
console.log(
  `\nserver RSS after: ${rssAfter.toFixed(1)} MiB; still answering correctly: ` +
    `${
      check.status === 200 && answer.result?.structuredContent?.canonical_smiles === "CC(=O)Oc1ccccc1C(=O)O"
    }`,
);
previous.save(figures);
await server.stop();
