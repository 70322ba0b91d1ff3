/**
 * Shared pieces of the adversarial suites (tests/adversarial/): honest MCP calls over raw HTTP, and raw sockets
 * that misbehave on purpose (reset, half-close, drip).
 */
import { connect, type Socket } from "node:net";
import { mcpHeaders, post, rawRequest, type RawResponse } from "./http.ts";
import { MODERN_META } from "./protocol.ts";

let nextId = 1;

/** A modern `tools/call` request body (as text, so tests can also send ids JSON cannot express). */
export function toolCall(name: string, args: Record<string, unknown>, id: string = String(nextId++)): string {
  const params = JSON.stringify({ name, arguments: args, _meta: MODERN_META });
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
}

/** The full request (head and body) of an honest `parse_smiles` call. */
export function honestRequest(smiles = "CCO", host = "127.0.0.1"): string {
  return post(toolCall("parse_smiles", { smiles }), mcpHeaders("tools/call", "parse_smiles"), "/mcp", host);
}

/** Sends an honest `parse_smiles` call and resolves with the response. */
export function honestCall(port: number, smiles = "CCO"): Promise<RawResponse> {
  return rawRequest(port, honestRequest(smiles));
}

/** True when a response is a successful parse_smiles result for ethanol (3 heavy atoms). */
export function isEthanolResult(response: RawResponse): boolean {
  if (response.status !== 200) return false;
  const body = JSON.parse(response.body) as { result?: { structuredContent?: { atom_count?: number } } };
  return body.result?.structuredContent?.atom_count === 3;
}

/** Opens a socket and resolves once connected. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Writes `bytes` (if any), then resets the connection (RST, not FIN). */
export async function sendAndReset(port: number, bytes = "", waitMs = 0): Promise<void> {
  const socket = await open(port);
  socket.on("error", () => {});
  if (bytes) await new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  if (waitMs) await sleep(waitMs);
  socket.resetAndDestroy();
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
