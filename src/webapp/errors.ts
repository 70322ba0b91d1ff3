/**
 * The web app's error answers: one HTTP status and a JSON body `{error: {code, message}}` per failure
 * (docs/webapp.md lists each code's status and meaning).
 *
 * @module
 */
import { MAX_SMILES_LENGTH } from "../chem/rdkit.ts";

/** Stable error codes of the web application (docs/webapp.md lists status and meaning of each). */
export type WebAppErrorCode =
  | "INVALID_JSON"
  | "INVALID_REQUEST"
  | "INVALID_SMILES"
  | "MOLECULE_TOO_LARGE"
  | "LIBRARY_TOO_LARGE"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "METHOD_NOT_ALLOWED"
  | "NOT_FOUND"
  | "FORBIDDEN"
  | "COMPUTATION_TIMEOUT"
  | "SERVER_BUSY"
  | "INTERNAL_ERROR";

/** An error that maps to one HTTP status and a JSON body `{error: {code, message}}`. */
export class WebAppError extends Error {
  /**
   * @param status HTTP status.
   * @param code Stable machine-readable code.
   * @param message What went wrong and what to change.
   * @param headers Extra response headers (e.g. Allow).
   */
  constructor(
    readonly status: number,
    readonly code: WebAppErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "WebAppError";
  }
}

/**
 * A JSON response with the app's common headers.
 *
 * @example
 * ```ts
 * json({ mw: 46.069 }).headers.get("content-type"); // "application/json; charset=utf-8"
 * ```
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}

/**
 * A JSON error response `{error: {code, message}}`.
 *
 * @example
 * ```ts
 * errorResponse(404, "NOT_FOUND", "No route for GET /x.").status; // 404
 * ```
 */
export function errorResponse(
  status: number,
  code: WebAppErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json({ error: { code, message } }, status, headers);
}

/**
 * The 413 sent for an over-limit body, with advice that fits the route.
 *
 * @example
 * ```ts
 * tooLarge(2 * 1024 * 1024, "/descriptors").status; // 413
 * ```
 */
export function tooLarge(limit: number, path = ""): Response {
  return errorResponse(
    413,
    "PAYLOAD_TOO_LARGE",
    `Request body is over ${limit} bytes (${limit / 1024 / 1024} MiB); ${ADVICE[path] ?? ADVICE[""]}`,
  );
}

/** What to send instead of an oversized body, by path: only the list routes can be split. */
const ADVICE: Readonly<Record<string, string>> = {
  "/descriptors": `send one molecule: a SMILES of at most ${MAX_SMILES_LENGTH} characters.`,
  "/similarity": "send a smaller library or split it into several requests.",
  "/boiled-egg": "send fewer molecules or split them into several requests.",
  "": "send a smaller request.",
};
