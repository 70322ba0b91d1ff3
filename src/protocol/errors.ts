/**
 * The single place where errors become JSON-RPC error objects and numeric codes.
 *
 * @module
 */
import { ChemError, ProtocolError, type ProtocolErrorKind } from "../errors.ts";
import type { JsonRpcErrorObject } from "./jsonrpc.ts";

/**
 * JSON-RPC code of each protocol error kind. -32010 (dialect switch on a pinned connection) is our choice in the
 * implementation-defined server range; see docs/decisions/dialect-pinning.md.
 */
export const JSON_RPC_CODES: Readonly<Record<ProtocolErrorKind, number>> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  tool_failure: -32000,
  dialect_mismatch: -32010,
  header_mismatch: -32020,
  unsupported_protocol_version: -32022,
};

/**
 * Converts anything thrown while serving a request into a JSON-RPC error object. Unknown exceptions become
 * -32603 with a generic message (details stay in the server log, not on the wire).
 *
 * @example
 * ```ts
 * toErrorObject(new ProtocolError("method_not_found", "Unknown method 'x'")).code; // -32601
 * ```
 */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof ProtocolError) {
    return {
      code: JSON_RPC_CODES[error.kind],
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  if (error instanceof ChemError) {
    // Only the legacy dialect reports chemistry failures as JSON-RPC errors.
    return {
      code: JSON_RPC_CODES.tool_failure,
      message: error.message,
      data: { code: error.code, ...(error.details ? { details: error.details } : {}) },
    };
  }
  return { code: JSON_RPC_CODES.internal_error, message: "Internal error" };
}
