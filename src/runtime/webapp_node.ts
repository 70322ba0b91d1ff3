/**
 * Node entry of the sample web application: `node dist/src/runtime/webapp_node.js [--port N] [--bind IP]`
 * (`npm run webapp`). The server's Node bindings (RDKit's WebAssembly as src/runtime/wasm_node.ts compiles it,
 * tool workers as threads) with node:http adapted to web-standard Request/Response: the body streams into the
 * Request, so the handler's counted read (src/bytes.ts) is the one body limit, as under Deno.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import process from "node:process";
import { compileRDKitWasm } from "./wasm_node.ts";
import { spawnToolWorker } from "./node_main.ts";
import { prepareWebApp } from "./webapp_main.ts";

/** Upload bytes still read (and dropped) after an answer that did not read the body, so the client reads it. */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 5_000;

/**
 * After an answer given before the whole body arrived (a 413, a 415, a 404), the rest of the upload is read and
 * dropped, bounded in bytes and time, then the socket is destroyed: closing at once would make a client that is
 * still writing see ECONNRESET/EPIPE instead of the answer.
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
  req.resume();
}

/** The request body as a web stream, read as the handler pulls it; `stop` (or a cancel) ends the reading. */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; stop: () => void } {
  let open = true;
  const stop = () => {
    open = false;
    req.pause();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on("end", () => open && (open = false, controller.close()));
      req.on("error", (error) => open && (open = false, controller.error(error)));
    },
    pull: () => void (open && req.resume()),
    cancel: stop,
  }, { highWaterMark: 4 });
  return { stream, stop };
}

function toRequest(
  req: IncomingMessage,
  body: ReadableStream<Uint8Array> | undefined,
  origin: string,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // `duplex` is required by Node's fetch for a streamed body and unknown to the DOM typings.
  const init = { method: req.method ?? "GET", headers, signal, ...(body ? { body, duplex: "half" } : {}) };
  return new Request(new URL(req.url ?? "/", origin), init as RequestInit);
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
  // A client that goes away cancels its computation, as Deno.serve's request.signal does.
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : bodyStream(req);
  const response = await app(toRequest(req, body?.stream, origin, gone.signal));
  if (!req.complete) {
    body?.stop();
    lingerThenClose(req);
  }
  await send(res, response);
}

const wasm = compileRDKitWasm();
wasm.catch(() => {}); // awaited below; a failed read is reported there, once
const prepared = await prepareWebApp(process.argv.slice(2), {
  stderr: (text) => void process.stderr.write(text),
  loadWasm: () => wasm,
  env: process.env,
  parallelism: availableParallelism(),
  spawnToolWorker,
}).catch((error: unknown) => {
  console.error("webapp: could not load RDKit:", error);
  return process.exit(1);
});
if (prepared === 2) process.exit(2);

const { app, options } = prepared;
const origin = `http://${options.bind.includes(":") ? `[${options.bind}]` : options.bind}`;
const server = createServer((req, res) => {
  handle(app, req, res, origin).catch((error: unknown) => {
    console.error("webapp: request failed:", error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end('{"error":{"code":"INTERNAL_ERROR","message":"Unexpected server error."}}');
  });
});
server.listen(options.port, options.bind, () => {
  process.stderr.write(`${prepared.listening((server.address() as AddressInfo).port)}\n`);
});
