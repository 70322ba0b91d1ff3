/**
 * Dialect pinning: the only protocol state. A stdio connection starts unpinned; its first accepted request pins
 * it to the legacy (2024-11-05 `initialize`) or the modern (2026-07-28, inline `_meta`) dialect, and a later
 * request in the other dialect is refused with a typed error instead of switching.
 *
 * @module
 */
import { preview, ProtocolError } from "../errors.ts";
import { hasModernMeta, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from "./meta.ts";

/** The two protocol eras. */
export type Dialect = "legacy" | "modern";

/** Methods each dialect serves. */
export const METHODS: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  legacy: new Set(["initialize", "ping", "tools/list", "tools/call"]),
  modern: new Set(["server/discover", "tools/list", "tools/call"]),
};

/** The dialect a request announces by itself, or `null` when it could belong to either. */
export function announcedDialect(method: string, params: Record<string, unknown>): Dialect | null {
  if (method === "initialize") return "legacy";
  if (method === "server/discover" || hasModernMeta(params)) return "modern";
  return null;
}

/** Connection state: `null` until the first request pins a dialect. */
export type PinState = Dialect | null;

/**
 * Decides which dialect serves a request, given the connection's pin. Pure: returns the dialect or throws the
 * protocol error to send; the caller stores the pin once the request is accepted.
 *
 * @example
 * ```ts
 * resolveDialect(null, "initialize", {}); // "legacy"
 * resolveDialect("legacy", "server/discover", {}); // throws ProtocolError("dialect_mismatch")
 * ```
 */
export function resolveDialect(pin: PinState, method: string, params: Record<string, unknown>): Dialect {
  const announced = announcedDialect(method, params);
  if (pin !== null) {
    if (announced !== null && announced !== pin) throw mismatch(pin, announced, method);
    return pin;
  }
  if (announced === null) {
    throw new ProtocolError(
      "invalid_params",
      `No protocol dialect yet: send "initialize" first (legacy ${LEGACY_PROTOCOL_VERSION}) or include ` +
        `params._meta["io.modelcontextprotocol/protocolVersion"] = "${MODERN_PROTOCOL_VERSION}" (modern).`,
    );
  }
  return announced;
}

function mismatch(pin: Dialect, announced: Dialect, method: string): ProtocolError {
  const hint = pin === "legacy"
    ? "send requests without the io.modelcontextprotocol/* _meta keys, or open a new connection for the modern dialect"
    : `keep sending params._meta with protocolVersion ${MODERN_PROTOCOL_VERSION}, or open a new connection for ` +
      `the legacy handshake`;
  return new ProtocolError(
    "dialect_mismatch",
    `This connection is pinned to the ${pin} dialect; '${
      preview(method)
    }' is a ${announced}-dialect request: ${hint}.`,
    { pinned: pin, requested: announced },
  );
}
