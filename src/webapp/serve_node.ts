/**
 * Node entry of the sample web application: `node dist/src/webapp/serve_node.js [--port N] [--bind IP]`.
 * Adapts node:http to web-standard Request/Response for the app of {@link pooledWebApp}; the body limit is enforced while
 * reading, so an oversized upload is cut off at 2 MiB instead of being buffered.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import process from "node:process";
import { loadRDKit } from "../chem/rdkit.ts";
import { isLoopbackAddress } from "../cli.ts";
import { toolWorkerCount } from "../main.ts";
import { spawnToolWorker } from "../runtime/node_main.ts";
import { MAX_BODY_BYTES, tooLarge } from "./handler.ts";
import { pooledWebApp } from "./jobs.ts";
import { listeningLine, parseServeArgs, type ServeOptions, webAppWorkers } from "./args.ts";

/** Reads the request body up to `limit` bytes; resolves undefined when the body is over the limit. */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) return resolve(undefined);
    const chunks: Buffer[] = [];
    let total = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      total += chunk.length;
      if (total > limit) {
        over = true;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

/** Upload bytes still read (and dropped) after a 413, so the client can read the answer before the close. */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 5_000;

/**
 * After a 413 the rest of the upload is read and dropped, bounded in bytes and time (then the socket is
 * destroyed): closing at once would make a client that is still writing see ECONNRESET/EPIPE instead of the 413.
 */
function lingerThenClose(req: IncomingMessage): void {
  let dropped = 0;
  const close = () => req.socket.destroy();
  const timer = setTimeout(close, LINGER_MS);
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.on("end", () => clearTimeout(timer));
  req.socket.on("close", () => clearTimeout(timer));
}

function toRequest(
  req: IncomingMessage,
  body: Buffer | undefined,
  origin: string,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    signal,
    ...(hasBody ? { body: new Uint8Array(body ?? new Uint8Array(0)) } : {}),
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function handle(
  app: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const method = req.method ?? "GET";
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD") {
    body = await readLimited(req, MAX_BODY_BYTES);
    if (body === undefined) {
      lingerThenClose(req);
      await send(res, tooLarge(MAX_BODY_BYTES, new URL(req.url ?? "/", "http://localhost").pathname));
      return;
    }
  }
  // A client that goes away cancels its computation, as Deno.serve's request.signal does.
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  await send(res, await app(toRequest(req, body, origin, gone.signal)));
}

function main(): void {
  let options: ServeOptions;
  let workers: number;
  try {
    options = parseServeArgs(process.argv.slice(2));
    workers = webAppWorkers(toolWorkerCount(process.env, availableParallelism()));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const wasm = readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm"));
  WebAssembly.compile(wasm).then(async (module) => {
    await loadRDKit(module);
    const app = pooledWebApp({
      spawn: spawnToolWorker,
      wasm: module,
      workers,
      loopbackBind: isLoopbackAddress(options.bind),
    });
    const origin = `http://${options.bind.includes(":") ? `[${options.bind}]` : options.bind}`;
    const server = createServer((req, res) => {
      handle(app, req, res, origin).catch((error: unknown) => {
        console.error("webapp: request failed:", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end('{"error":{"code":"INTERNAL_ERROR","message":"Unexpected server error."}}');
      });
    });
    server.listen(options.port, options.bind, () => {
      console.error(listeningLine(options.bind, (server.address() as AddressInfo).port));
    });
  }).catch((error: unknown) => {
    console.error("webapp: could not load RDKit:", error);
    process.exit(1);
  });
}

main();
