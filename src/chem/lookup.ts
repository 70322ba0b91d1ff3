/**
 * Chemical name → SMILES through a REST lookup service, by default PubChem PUG REST (Kim et al., "PubChem 2023
 * update", Nucleic Acids Res. 2023, 51, D1373, doi:10.1093/nar/gkac956). This is the only networked code of
 * chem-mcp: one HTTPS GET of the URL-encoded name, bounded by a timeout that covers headers and body.
 *
 * The module reads no environment itself: the runtime entry calls {@link configureNameLookup} (for example
 * with the `CHEM_MCP_NAME_LOOKUP_URL` variable, see {@link nameLookupConfigFromEnv}).
 *
 * @module
 */
import { ChemError, preview } from "../errors.ts";
import { readAtMost } from "../bytes.ts";
import { countSmilesAtoms, MAX_HEAVY_ATOMS, withMol } from "./rdkit.ts";
import { LIGHT_MAX_EXCESS_DEGREE, LIGHT_MAX_RING_CLOSURES, textCost } from "./cost.ts";

/** Default URL template (PubChem PUG REST, property SMILES as JSON). `{name}` is replaced by the encoded name. */
export const DEFAULT_NAME_LOOKUP_URL =
  "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/name/{name}/property/SMILES/JSON";
/** Environment variable the runtime entry may pass to {@link nameLookupConfigFromEnv}. */
export const NAME_LOOKUP_ENV = "CHEM_MCP_NAME_LOOKUP_URL";
/** Default time limit for the whole request, headers and body (ms). */
export const DEFAULT_NAME_LOOKUP_TIMEOUT_MS = 10_000;
/** Longest name accepted (characters). */
export const MAX_NAME_LENGTH = 300;
/** Largest response body read (bytes); PubChem answers are a few hundred bytes. */
export const MAX_LOOKUP_RESPONSE_BYTES = 1_048_576;

/** PubChem's SMILES fields, most specific first (PubChem renamed IsomericSMILES → SMILES and CanonicalSMILES →
 * ConnectivitySMILES in 2025; older servers and mirrors use the old names). */
const SMILES_FIELDS = ["SMILES", "IsomericSMILES", "CanonicalSMILES", "ConnectivitySMILES"] as const;

/** Lookup configuration. */
export interface NameLookupConfig {
  /** URL with a `{name}` placeholder; http(s) only. */
  urlTemplate: string;
  /** Time limit in ms for the whole exchange. */
  timeoutMs: number;
  /** The fetch implementation (web-standard `fetch`). */
  fetch: typeof fetch;
}

let config: NameLookupConfig = {
  urlTemplate: DEFAULT_NAME_LOOKUP_URL,
  timeoutMs: DEFAULT_NAME_LOOKUP_TIMEOUT_MS,
  fetch: (input, init) => globalThis.fetch(input, init),
};

/** Stands for `{name}` while a template is checked: plain letters, so no URL parser changes it. */
const PLACEHOLDER_PROBE = "chemmcpnameplaceholder";

/** A URL with any `user:password@` replaced, for messages (credentials must never reach an answer or a log). */
export function redactUrl(text: string): string {
  return text.replace(/(\w+:\/\/)[^/?#\s]*@/g, "$1***@");
}

/**
 * Refuses a template that could let a name change anything but the path or query of the lookup URL: the
 * placeholder in the host, port, userinfo or fragment, a template that is not an http(s) URL, or credentials
 * (which fetch refuses to send from a URL anyway, and which would then show in error messages).
 */
function checkTemplate(template: string): void {
  const shown = redactUrl(template);
  const refuse = (why: string) => new TypeError(`Name lookup URL template ${why}: ${shown}`);
  if (!template.includes("{name}")) throw refuse("must contain {name}");
  const authority = /^https?:\/\/([^/?#]*)/i.exec(template);
  if (!authority) throw refuse("must be an http(s) URL");
  if (authority[1]!.includes("{name}")) {
    throw refuse("must have {name} in its path or query, not in the host, port or userinfo");
  }
  const hash = template.indexOf("#");
  if (hash !== -1 && hash < template.lastIndexOf("{name}")) {
    throw refuse("must have {name} in its path or query, not in the fragment");
  }
  let url: URL;
  try {
    url = new URL(template.replaceAll("{name}", PLACEHOLDER_PROBE));
  } catch {
    throw refuse("is not a valid URL");
  }
  if (url.username || url.password) throw refuse("must not carry credentials (user:password@)");
}

/**
 * Sets the lookup URL template, timeout and fetch (fields left out keep their current values). Throws a
 * `TypeError` for a template without `{name}` in its path or query, not http(s) or with credentials, or a
 * non-positive timeout: configuration errors, found at start-up.
 *
 * @example
 * ```ts
 * configureNameLookup({ urlTemplate: "http://127.0.0.1:8080/name/{name}/json", timeoutMs: 2000 });
 * ```
 */
export function configureNameLookup(update: Partial<NameLookupConfig>): NameLookupConfig {
  const next = { ...config, ...update };
  checkTemplate(next.urlTemplate);
  if (!(next.timeoutMs > 0 && Number.isFinite(next.timeoutMs))) {
    throw new TypeError(`Name lookup timeout must be a positive number of ms: ${next.timeoutMs}`);
  }
  config = next;
  return { ...config };
}

/**
 * The current lookup configuration (a copy).
 *
 * @example
 * ```ts
 * nameLookupConfig().timeoutMs; // 10000 unless configured
 * ```
 */
export function nameLookupConfig(): NameLookupConfig {
  return { ...config };
}

/**
 * Configuration update from an environment map: `CHEM_MCP_NAME_LOOKUP_URL` when set and non-empty.
 *
 * @example
 * ```ts
 * configureNameLookup(nameLookupConfigFromEnv(Deno.env.toObject()));
 * ```
 */
export function nameLookupConfigFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Partial<NameLookupConfig> {
  const url = env[NAME_LOOKUP_ENV]?.trim();
  return url ? { urlTemplate: url } : {};
}

/** Result of a name lookup. */
export interface NameLookupResult {
  /** The name as looked up (trimmed). */
  name: string;
  /** RDKit canonical isomeric SMILES of the service's answer. */
  smiles: string;
  /** SMILES exactly as the service returned it. */
  source_smiles: string;
  /** Which response field held it (SMILES, IsomericSMILES, CanonicalSMILES or ConnectivitySMILES). */
  source_field: string;
  /** PubChem compound id when the service returned one. */
  cid: number | null;
  /** Records the service returned for the name (the first is used). */
  match_count: number;
  /** Host of the service asked. */
  source: string;
}

/** Percent-encodes a name for any URL component: encodeURIComponent leaves `!'()*`, which some parsers alter. */
function encodeName(name: string): string | undefined {
  try {
    return encodeURIComponent(name).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  } catch {
    return undefined; // a lone surrogate has no UTF-8 form
  }
}

/**
 * The lookup URL for a name, or `undefined` when the name would change more than its own place in it.
 * Percent-encoding does not neutralise dot segments (`.`, `..`, `%2e%2E` are resolved by the URL parser), so the
 * built URL's origin, path and query are compared with the template's, the encoded name standing in for the
 * placeholder.
 */
export function lookupUrl(template: string, name: string): URL | undefined {
  const encoded = encodeName(name);
  if (encoded === undefined) return undefined;
  const expected = new URL(template.replaceAll("{name}", PLACEHOLDER_PROBE));
  let url: URL;
  try {
    url = new URL(template.replaceAll("{name}", encoded));
  } catch {
    return undefined;
  }
  const put = (part: string) => part.replaceAll(PLACEHOLDER_PROBE, encoded);
  const same = url.origin === expected.origin && url.pathname === put(expected.pathname) &&
    url.search === put(expected.search);
  return same ? url : undefined;
}

/** Most same-origin redirects followed; a redirect to another origin is never followed. */
export const MAX_LOOKUP_REDIRECTS = 3;

/**
 * Fetches with redirects handled here: same-origin ones followed up to {@link MAX_LOOKUP_REDIRECTS}, any other
 * refused, so a hostile or compromised service cannot send the request (and what it reveals) elsewhere.
 */
async function fetchSameOrigin(
  doFetch: typeof fetch,
  start: URL,
  signal: AbortSignal,
): Promise<Response> {
  let url = start;
  for (let hop = 0;; hop++) {
    const response = await doFetch(url.href, {
      signal,
      headers: { accept: "application/json" },
      redirect: "manual",
    });
    const location = response.headers.get("location");
    const redirected = response.type === "opaqueredirect" ||
      (response.status >= 300 && response.status < 400 && location !== null);
    if (!redirected) return response;
    await response.body?.cancel();
    const next = location === null ? undefined : resolveLocation(location, url);
    if (!next || next.origin !== url.origin) {
      throw new ChemError(
        "LOOKUP_BAD_RESPONSE",
        `The name lookup service (${url.host}) redirected to another origin; the redirect is not followed.`,
        { status: response.status },
      );
    }
    if (hop >= MAX_LOOKUP_REDIRECTS) {
      throw new ChemError(
        "LOOKUP_BAD_RESPONSE",
        `The name lookup service (${url.host}) redirected more than ${MAX_LOOKUP_REDIRECTS} times.`,
        { status: response.status },
      );
    }
    url = next;
  }
}

/** A Location header resolved against the URL that sent it (no `URL.parse` on Node 20). */
function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** What a fetch failure says, without the URL or anything after it (a URL may hold the name or credentials). */
function failureReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === "string" && /^[A-Z_]{2,32}$/.test(cause.code)) return cause.code;
  const message = error instanceof Error ? error.message : String(error);
  return redactUrl(message).replace(/\b\w+:\/\/\S*/g, "<url>").slice(0, 200);
}

/** Reads the body as text, refusing more than {@link MAX_LOOKUP_RESPONSE_BYTES}. */
async function readBody(response: Response): Promise<string> {
  if (!response.body) return "";
  const bytes = await readAtMost(response.body, MAX_LOOKUP_RESPONSE_BYTES);
  if (!bytes) {
    throw new ChemError(
      "LOOKUP_BAD_RESPONSE",
      `The name lookup service sent more than ${MAX_LOOKUP_RESPONSE_BYTES} bytes; refusing the answer.`,
    );
  }
  return new TextDecoder().decode(bytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** PUG REST fault code of a parsed body, e.g. "PUGREST.NotFound". */
function faultCode(body: unknown): string | undefined {
  const fault = (body as { Fault?: { Code?: unknown } } | undefined)?.Fault;
  // Only a code shaped like PUG REST's is repeated: the remote body is never echoed.
  return typeof fault?.Code === "string" && /^[A-Za-z]{1,16}\.[A-Za-z]{1,40}$/.test(fault.Code)
    ? fault.Code
    : undefined;
}

/** Interprets one HTTP answer; throws the typed error it calls for. */
function interpret(
  name: string,
  status: number,
  text: string,
  source: string,
): Omit<NameLookupResult, "smiles"> {
  const body = parseJson(text);
  const fault = faultCode(body);
  if (status === 404 || fault === "PUGREST.NotFound") {
    throw new ChemError("NAME_NOT_FOUND", `No compound named '${preview(name)}' was found (${source}).`, {
      name: preview(name),
      status,
    });
  }
  if (status < 200 || status >= 300) {
    throw new ChemError(
      "LOOKUP_BAD_RESPONSE",
      `The name lookup service answered HTTP ${status}${
        fault ? ` (${fault})` : ""
      }; retry later or pass a SMILES.`,
      { status, ...(fault ? { fault } : {}) },
    );
  }
  if (body === undefined) {
    throw new ChemError(
      "LOOKUP_BAD_RESPONSE",
      "The name lookup service answered something that is not JSON.",
      { status },
    );
  }
  const records = (body as { PropertyTable?: { Properties?: unknown } }).PropertyTable?.Properties;
  const first = Array.isArray(records) ? records[0] as Record<string, unknown> | undefined : undefined;
  const field = first
    ? SMILES_FIELDS.find((f) => typeof first[f] === "string" && first[f] !== "")
    : undefined;
  if (!first || !field) {
    throw new ChemError(
      "LOOKUP_BAD_RESPONSE",
      `The name lookup answer has no SMILES (expected PropertyTable.Properties[0] with one of ${
        SMILES_FIELDS.join(", ")
      }).`,
      { status },
    );
  }
  const cid = first.CID;
  return {
    name,
    source_smiles: first[field] as string,
    source_field: field,
    cid: typeof cid === "number" && Number.isInteger(cid) ? cid : null,
    match_count: Array.isArray(records) ? records.length : 0,
    source,
  };
}

/**
 * Looks a chemical name up and returns RDKit's canonical SMILES of the answer. Errors: NAME_NOT_FOUND (HTTP
 * 404 or PUGREST.NotFound), LOOKUP_TIMEOUT (no complete answer within the timeout), LOOKUP_UNREACHABLE
 * (network failure), LOOKUP_BAD_RESPONSE (other HTTP status, non-JSON, missing fields, unparsable SMILES),
 * MOLECULE_TOO_LARGE (an answer of more than `maxAtoms` atoms, refused before RDKit parses it: the server passes
 * the pool's large-input size, since its protocol thread's RDKit only ever sees small molecules).
 *
 * @example
 * ```ts
 * (await nameToSmiles("aspirin")).smiles; // "CC(=O)Oc1ccccc1C(=O)O"
 * ```
 */
export async function nameToSmiles(
  rawName: string,
  maxAtoms: number = MAX_HEAVY_ATOMS,
): Promise<NameLookupResult> {
  const name = rawName.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new ChemError(
      "NAME_NOT_FOUND",
      `A name must have 1..${MAX_NAME_LENGTH} characters; got ${name.length}.`,
      { length: name.length },
    );
  }
  const { urlTemplate, timeoutMs, fetch: doFetch } = config;
  const url = lookupUrl(urlTemplate, name);
  if (!url) {
    throw new ChemError(
      "NAME_NOT_FOUND",
      `'${preview(name)}' cannot be looked up: placed in the lookup URL it would change the address asked.`,
      { name: preview(name) },
    );
  }
  const source = url.host;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let status: number;
  let text: string;
  try {
    const response = await fetchSameOrigin(doFetch, url, controller.signal);
    status = response.status;
    text = await readBody(response);
  } catch (error) {
    if (error instanceof ChemError) throw error;
    if (timedOut) {
      throw new ChemError(
        "LOOKUP_TIMEOUT",
        `The name lookup (${source}) gave no complete answer within ${timeoutMs} ms; retry later or pass a SMILES.`,
        { timeout_ms: timeoutMs },
      );
    }
    throw new ChemError(
      "LOOKUP_UNREACHABLE",
      `The name lookup service (${source}) could not be reached: ${failureReason(error)}.`,
      { source },
    );
  } finally {
    clearTimeout(timer);
  }
  const found = interpret(name, status, text, source);
  return { ...found, smiles: canonicalRemote(found.source_smiles, source, status, maxAtoms) };
}

/**
 * The service's SMILES canonicalised by RDKit; an answer over `maxAtoms` is refused by its atom count as written,
 * before RDKit parses it, in words about the service. Only RDKit's typed refusals
 * become LOOKUP_BAD_RESPONSE; anything else (a WebAssembly trap) propagates, so the instance is not trusted again.
 */
function canonicalRemote(sourceSmiles: string, source: string, status: number, maxAtoms: number): string {
  const atoms = countSmilesAtoms(sourceSmiles);
  if (atoms > maxAtoms) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The name lookup service (${source}) answered a molecule of ${atoms} atoms; name_to_smiles takes answers ` +
        `of at most ${maxAtoms}; look its structure up elsewhere and pass the SMILES to the other tools.`,
      { atoms, limit: maxAtoms },
    );
  }
  const cost = textCost(sourceSmiles);
  if (cost.ringClosures > LIGHT_MAX_RING_CLOSURES || cost.excessDegree > LIGHT_MAX_EXCESS_DEGREE) {
    // Parsed on the protocol thread (name_to_smiles waits on the network there), so only what the cost model
    // calls light to parse: src/chem/cost.ts.
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `The name lookup service (${source}) answered a molecule of ${cost.ringClosures} ring closures and excess ` +
        `degree ${cost.excessDegree}; name_to_smiles takes answers of at most ${LIGHT_MAX_RING_CLOSURES} and ` +
        `${LIGHT_MAX_EXCESS_DEGREE}; look its structure up elsewhere and pass the SMILES to the other tools.`,
      {
        limit_name: "lookup_answer_cost",
        ring_closures: cost.ringClosures,
        excess_degree: cost.excessDegree,
      },
    );
  }
  try {
    return withMol(sourceSmiles, (mol) => mol.get_smiles(), maxAtoms);
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    // Neither the remote SMILES nor RDKit's words about it are repeated: both are the remote body's content.
    throw new ChemError(
      "LOOKUP_BAD_RESPONSE",
      `The name lookup service (${source}) answered a SMILES that RDKit cannot parse; retry later or pass a SMILES.`,
      { status },
    );
  }
}
