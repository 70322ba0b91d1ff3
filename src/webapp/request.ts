/**
 * Reading a POST body as the web app takes it: JSON by content type, at most a limit of bytes counted while it
 * streams, and checked against the route's valibot schema, each failure a {@link WebAppError} saying what to fix.
 *
 * @module
 */
import * as v from "valibot";
import { readAtMost } from "../bytes.ts";
import { MAX_SMILES_LENGTH } from "../chem/rdkit.ts";
import { WebAppError } from "./errors.ts";

const smilesField = (name: string) =>
  v.pipe(
    v.string(`'${name}' must be a string holding a SMILES, such as "CCO".`),
    v.maxLength(MAX_SMILES_LENGTH, `'${name}' is longer than ${MAX_SMILES_LENGTH} characters.`),
  );

/** Body of POST /descriptors and POST /depict. */
export const SmilesRequest = v.strictObject(
  { smiles: smilesField("smiles") },
  'Send a JSON object with exactly one field, e.g. {"smiles": "CCO"}.',
);

/** Body of POST /similarity. */
export const SimilarityRequest = v.strictObject(
  {
    query: smilesField("query"),
    library: v.array(
      smilesField("library[i]"),
      '\'library\' must be an array of SMILES strings, e.g. ["CCO", "c1ccccc1"].',
    ),
    threshold: v.pipe(
      v.number("'threshold' must be a number between 0 and 1, e.g. 0.4."),
      v.minValue(0, "'threshold' must be at least 0."),
      v.maxValue(1, "'threshold' must be at most 1."),
    ),
  },
  "Send a JSON object with exactly the fields query, library and threshold, e.g. " +
    '{"query": "CCO", "library": ["CCO", "CCN"], "threshold": 0.3}.',
);

/** Body of POST /boiled-egg. */
export const EggRequest = v.strictObject(
  {
    smiles: v.array(
      smilesField("smiles[i]"),
      '\'smiles\' must be an array of SMILES strings, e.g. ["CCO", "c1ccccc1"].',
    ),
  },
  'Send a JSON object with exactly one field, e.g. {"smiles": ["CCO", "c1ccccc1"]}.',
);

/**
 * `body` checked against `schema`; a mismatch is 400 INVALID_REQUEST naming the field.
 *
 * @example
 * ```ts
 * parseWith(SmilesRequest, { smiles: "CCO" }); // { smiles: "CCO" }
 * ```
 */
export function parseWith<TSchema extends v.GenericSchema>(
  schema: TSchema,
  body: unknown,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, body);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const where = path ? ` (at ${path})` : "";
  throw new WebAppError(400, "INVALID_REQUEST", `${issue.message}${where}`);
}

async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new WebAppError(413, "PAYLOAD_TOO_LARGE", "");
  if (!request.body) return new Uint8Array(0);
  const bytes = await readAtMost(request.body, limit);
  if (!bytes) throw new WebAppError(413, "PAYLOAD_TOO_LARGE", "");
  return bytes;
}

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json";
}

/**
 * The request's body parsed as JSON: 415 without a JSON content type, 413 (message filled in by the caller) past
 * `limit` bytes, whether declared or streamed, 400 INVALID_JSON for bytes that are not UTF-8 JSON.
 */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  if (!isJsonType(request.headers.get("content-type"))) {
    throw new WebAppError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type is '${request.headers.get("content-type") ?? "(none)"}'; send the body as JSON with ` +
        `'Content-Type: application/json'.`,
    );
  }
  const bytes = await readBody(request, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WebAppError(400, "INVALID_JSON", "Body is not valid UTF-8; send UTF-8 encoded JSON.");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WebAppError(
      400,
      "INVALID_JSON",
      `Body is not valid JSON (${error instanceof Error ? error.message : String(error)}); check quotes, ` +
        `commas and brackets.`,
    );
  }
}
