/**
 * Rules for the modern (2026-07-28) per-request `params._meta` envelope.
 *
 * @module
 */
import { preview, ProtocolError } from "../errors.ts";

/** The modern protocol revision this server speaks. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** Every modern revision this server accepts, newest first. */
export const SUPPORTED_MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];
/** The legacy handshake revision. */
export const LEGACY_PROTOCOL_VERSION = "2024-11-05";

/** `_meta` key names of the modern envelope. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
} as const;

/** `_meta` key under which modern results carry the server's name and version. */
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

const MODERN_PREFIX = "io.modelcontextprotocol/";

/** Validated modern request metadata. */
export interface ModernMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True when `params._meta` carries any key of the modern envelope (the mark of a modern request). */
export function hasModernMeta(params: Record<string, unknown>): boolean {
  const meta = params._meta;
  return isRecord(meta) && Object.keys(meta).some((key) => key.startsWith(MODERN_PREFIX));
}

function invalidMeta(message: string): ProtocolError {
  return new ProtocolError("invalid_params", message);
}

/**
 * The error for a modern protocol version this server does not speak, in the body's `_meta` or in the
 * `MCP-Protocol-Version` header alike; the client's text is shortened, as in every error.
 */
export function unsupportedProtocolVersion(version: string): ProtocolError {
  return new ProtocolError(
    "unsupported_protocol_version",
    `Unsupported protocol version '${preview(version)}'; supported: ${SUPPORTED_MODERN_VERSIONS.join(", ")}.`,
    { supported: [...SUPPORTED_MODERN_VERSIONS], requested: preview(version) },
  );
}

/**
 * Checks the modern `_meta` envelope: -32602 for a missing or wrong-typed `protocolVersion` or
 * `clientCapabilities` or a malformed `clientInfo`; -32022 for an unsupported version.
 *
 * @example
 * ```ts
 * validateModernMeta({ _meta: {
 *   "io.modelcontextprotocol/protocolVersion": "2026-07-28",
 *   "io.modelcontextprotocol/clientCapabilities": {},
 * } });
 * ```
 */
export function validateModernMeta(params: Record<string, unknown>): ModernMeta {
  const meta = params._meta;
  if (!isRecord(meta)) {
    throw invalidMeta(
      `Missing params._meta: every ${MODERN_PROTOCOL_VERSION} request must carry ` +
        `"${META_KEYS.protocolVersion}" and "${META_KEYS.clientCapabilities}" in params._meta.`,
    );
  }
  const version = meta[META_KEYS.protocolVersion];
  if (typeof version !== "string") {
    throw invalidMeta(`params._meta["${META_KEYS.protocolVersion}"] is required and must be a string.`);
  }
  if (!SUPPORTED_MODERN_VERSIONS.includes(version)) throw unsupportedProtocolVersion(version);
  const capabilities = meta[META_KEYS.clientCapabilities];
  if (!isRecord(capabilities)) {
    throw invalidMeta(`params._meta["${META_KEYS.clientCapabilities}"] is required and must be an object.`);
  }
  const info = meta[META_KEYS.clientInfo];
  if (info === undefined) return { protocolVersion: version, clientCapabilities: capabilities };
  if (!isRecord(info) || typeof info.name !== "string" || typeof info.version !== "string") {
    throw invalidMeta(
      `params._meta["${META_KEYS.clientInfo}"] must be an object with string "name" and "version".`,
    );
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    clientInfo: { name: info.name, version: info.version },
  };
}
