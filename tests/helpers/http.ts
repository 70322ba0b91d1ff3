/** Real-socket helpers for the HTTP suites: start the server on a free port and speak raw HTTP/1.1 to it. */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { connect } from "node:net";
import { startServer, stopGroup } from "./process.ts";

/** A running HTTP server process. */
export interface HttpServer {
  readonly port: number;
  readonly child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
}

/** Starts `chem-mcp --transport streamable-http --port 0 …` and waits for the port on stderr. */
export function startHttpServer(args: string[] = [], env: Record<string, string> = {}): Promise<HttpServer> {
  const child = startServer(["--transport", "streamable-http", "--port", "0", ...args], env, true);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`no port announced; stderr: ${stderr}`)), 30_000);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        port: Number(match[1]),
        child,
        stop: () => stopGroup(child),
      });
    });
    child.once("close", (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/** A parsed HTTP response read until the server closed the connection. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: string;
  /** True when the server closed the connection after answering. */
  readonly closed: boolean;
}

/** Sends raw bytes (optionally in timed pieces) and reads the whole response until the server closes. */
export function rawRequest(port: number, ...pieces: (string | Uint8Array | number)[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Uint8Array[] = [];
    socket.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = new TextDecoder().decode(Buffer.concat(chunks));
      const split = text.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({
        status: Number(statusLine?.split(" ")[1]),
        headers,
        body: text.slice(split + 4),
        closed: true,
      });
    });
    (async () => {
      for (const piece of pieces) {
        if (typeof piece === "number") await new Promise((r) => setTimeout(r, piece));
        else if (!socket.destroyed) socket.write(piece);
      }
    })();
  });
}

/** Headers the official client sends for a modern request. */
export function mcpHeaders(method: string, name?: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": method,
    ...(name === undefined ? {} : { "Mcp-Name": name }),
  };
}

/** Builds a POST request with a body and exact Content-Length. */
export function post(
  body: string,
  headers: Record<string, string>,
  path = "/mcp",
  host = "127.0.0.1",
): string {
  const bytes = new TextEncoder().encode(body).length;
  const lines = [
    `POST ${path} HTTP/1.1`,
    `Host: ${host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (!Object.keys(headers).some((k) => k.toLowerCase() === "content-length")) {
    lines.push(`Content-Length: ${bytes}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}
