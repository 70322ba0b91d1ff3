/**
 * canonical_smiles over stdio: requests/s and p50/p99 latency, one request at a time and 64 in flight, for
 * chem-mcp under Deno and Node and for the official SDK v2 server, plus the raw RDKit call in one process.
 * Prints ratios. Run: deno run -A bench/stdio_bench.ts [--n 2000]
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { loadRDKit, rdkit } from "../src/chem/rdkit.ts";
import { RDKIT_WASM_PATH } from "../tests/helpers/rdkit.ts";
import { loadPrevious } from "./previous.ts";

const N = Number(process.argv[process.argv.indexOf("--n") + 1]) || 2000;
const SMILES = ["CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "CC(C)Cc1ccc(cc1)C(C)C(=O)O", "OCC"];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};

interface Latency {
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function figures(latencies: number[], elapsedMs: number): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rps: (latencies.length / elapsedMs) * 1000,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

function rawRdkit(): Latency {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < N * 5; i++) {
    const t = performance.now();
    const mol = rdkit().get_mol(SMILES[i % SMILES.length]!)!;
    mol.get_smiles();
    mol.delete();
    latencies.push(performance.now() - t);
  }
  return figures(latencies, performance.now() - start);
}

async function overStdio(cmd: string, args: string[], inFlight: number): Promise<Latency> {
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let buffer = "";
  let nextId = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const sendOne = () => {
    const id = nextId++;
    const smiles = SMILES[id % SMILES.length]!;
    sentAt.set(id, performance.now());
    const params = { name: "canonical_smiles", arguments: { smiles }, _meta: META };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`);
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) !== -1) {
      const message = JSON.parse(buffer.slice(0, nl)) as {
        id: number;
        result?: { structuredContent?: unknown };
      };
      buffer = buffer.slice(nl + 1);
      if (message.id === -1) continue;
      if (!message.result?.structuredContent) throw new Error(`bad answer: ${JSON.stringify(message)}`);
      latencies.push(performance.now() - sentAt.get(message.id)!);
      if (latencies.length === N) done();
      else if (nextId < N) sendOne();
    }
  });
  // Warm up (WASM load, JIT) with a discover round trip before timing.
  const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: -1, method: "server/discover", params: { _meta: META } })}\n`,
  );
  await ready;
  const start = performance.now();
  for (let i = 0; i < inFlight; i++) sendOne();
  await finished;
  const elapsed = performance.now() - start;
  child.stdin.end();
  await new Promise((resolve) => child.on("close", resolve));
  return figures(latencies, elapsed);
}

await loadRDKit(readFileSync(RDKIT_WASM_PATH));
const deno = process.execPath;
const servers: [string, string, string[]][] = [
  ["chem-mcp (Deno)", deno, ["run", "-A", "mod.ts"]],
  ["official SDK v2 server (Deno)", deno, ["run", "-A", "bench/sdk_server.ts"]],
];
if (existsSync("dist/src/runtime/node.js")) {
  servers.push(["chem-mcp (Node)", "node", ["dist/src/runtime/node.js"]]);
}

const raw = rawRdkit();
const rows: Record<string, Latency> = { "raw RDKit call (in process)": raw };
for (const [name, cmd, args] of servers) {
  for (const inFlight of [1, 64]) {
    rows[`${name}, ${inFlight} in flight`] = await overStdio(cmd, args, inFlight);
  }
}

const previous = loadPrevious("stdio");
const sdk1 = rows["official SDK v2 server (Deno), 1 in flight"]!;
const sdk64 = rows["official SDK v2 server (Deno), 64 in flight"]!;
console.log(`canonical_smiles over stdio, ${N} requests per row\n`);
console.log("| row | req/s | p50 ms | p99 ms | vs raw RDKit | vs SDK (same in-flight) | vs previous run |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, f] of Object.entries(rows)) {
  const sdk = name.endsWith("64 in flight") ? sdk64 : name.endsWith("1 in flight") ? sdk1 : undefined;
  console.log(
    `| ${name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(3)} | ${f.p99.toFixed(3)} | ${
      (f.rps / raw.rps).toFixed(3)
    }× | ` +
      `${sdk ? (f.rps / sdk.rps).toFixed(2) + "×" : "–"} | ${previous.speedup(name, f.rps)} |`,
  );
}
previous.save(Object.fromEntries(Object.entries(rows).map(([name, f]) => [name, f.rps])));
