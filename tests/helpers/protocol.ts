/** Helpers for driving the sans-I/O protocol core in tests. */
import type { Connection } from "../../src/protocol/server.ts";

/** The modern `_meta` envelope. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "0.0.1" },
} as const;

/** A JSON-RPC response as parsed in tests. */
export interface Response {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: Record<string, unknown> & {
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    content?: { type: string; text: string }[];
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** Sends one message (object or raw text) and parses the reply; `undefined` when nothing was sent back. */
export async function send(conn: Connection, message: unknown): Promise<Response | undefined> {
  const reply = await conn.handle(typeof message === "string" ? message : JSON.stringify(message));
  return reply === undefined ? undefined : (JSON.parse(reply.text) as Response);
}

let nextId = 1;

/** A request object with a fresh id. */
export function request(method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) };
}

/** A modern request: params with the `_meta` envelope merged in. */
export function modern(method: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return request(method, { ...params, _meta: MODERN_META });
}

/** The notification that withdraws request `requestId` (either dialect; it has no `_meta` to carry). */
export function cancelled(requestId: unknown, reason?: string): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId, ...(reason === undefined ? {} : { reason }) },
  };
}

/** The legacy handshake request. */
export function initialize(): Record<string, unknown> {
  return request("initialize", {
    protocolVersion: "2024-11-05",
    capabilities: {},
    clientInfo: { name: "test", version: "0.0.1" },
  });
}
