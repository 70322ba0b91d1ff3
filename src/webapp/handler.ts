/**
 * The sample web application of chem-mcp: a page plus three small JSON endpoints (descriptors, similarity
 * search, 2D depiction) built on the same chemistry layer as the tool server (src/chem/), and nothing of the MCP
 * protocol. Runtime-neutral: only web-standard Request/Response, so src/webapp/serve_deno.ts and
 * src/webapp/serve_node.ts are thin adapters and tests can call the handler in process.
 *
 * Routes, errors and limits are documented in docs/webapp.md.
 *
 * @module
 */
import * as v from "valibot";
import { ChemError } from "../errors.ts";
import { readAtMost } from "../bytes.ts";
import { boiledEggZones, eggDescriptors } from "../chem/boiled_egg.ts";
import { similaritySearch } from "../chem/similarity.ts";
import { coreProperties, LIPINSKI_THRESHOLDS, withParentMol } from "../chem/properties.ts";
import { descriptors, MAX_SMILES_LENGTH, withMol } from "../chem/rdkit.ts";
import { round } from "../chem/identity.ts";
import { isLoopbackHost, isLoopbackOrigin } from "../transport/streamable.ts";
import { PAGE_CSP, PAGE_HTML } from "./page.ts";

/** Largest request body accepted, bytes (2 MiB); a longer body gets 413. */
export const MAX_BODY_BYTES: number = 2 * 1024 * 1024;
/** Most library entries one similarity search accepts; more gets 413 LIBRARY_TOO_LARGE. */
export const MAX_LIBRARY_SIZE = 10_000;
/** Depiction size in pixels (RDKit `get_svg(width, height)`). */
export const DEPICTION_SIZE = { width: 300, height: 220 } as const;

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

/** The chemistry each POST route runs, by name: what a tool worker runs for the web app (src/webapp/jobs.ts). */
export const WEBAPP_JOBS = {
  webapp_descriptors: (args: { smiles: string }): unknown => chem("smiles", () => descriptorsOf(args.smiles)),
  webapp_similarity: (args: { smiles: string; smiles_list: string[]; threshold: number }): unknown =>
    similaritySearch(args.smiles, args.smiles_list, args.threshold),
  webapp_boiled_egg: (args: { smiles_list: string[] }): unknown => eggPoints(args.smiles_list),
  webapp_depict: (args: { smiles: string }): unknown => depict(args.smiles),
} as const;

/** Name of a web-app computation. */
export type WebAppJob = keyof typeof WEBAPP_JOBS;

/**
 * Runs a web-app computation. The served app passes one that runs it in a tool worker (src/webapp/jobs.ts), so
 * no RDKit work holds the request thread; the default runs it in process, for in-process tests. Throws
 * `ChemError` (invalid or refused input, `COMPUTATION_TIMEOUT`, `SERVER_BUSY`).
 */
export type ComputeJob = (
  job: WebAppJob,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<unknown>;

const computeInProcess: ComputeJob = (job, args) =>
  Promise.resolve().then(() => (WEBAPP_JOBS[job] as (a: Record<string, unknown>) => unknown)(args));

/** Options of {@link createWebApp}. */
export interface WebAppOptions {
  /** Body limit in bytes; default {@link MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Library limit of POST /similarity; default {@link MAX_LIBRARY_SIZE}. */
  maxLibrarySize?: number;
  /** Receives unexpected errors (500s); default: ignored. */
  onError?: (error: unknown) => void;
  /** Runs the chemistry; default: in process (see {@link ComputeJob}). */
  compute?: ComputeJob;
  /**
   * Served on a loopback address: then the Host header must name a loopback host (403 otherwise), so a
   * DNS-rebinding page cannot reach the app. Default false (in-process use).
   */
  loopbackBind?: boolean;
}

/** Body of POST /descriptors. */
export interface DescriptorsResult {
  /** Average molecular weight, g/mol (RDKit amw), 3 decimals. */
  mw: number;
  /** Wildman–Crippen logP, 4 decimals. */
  logp: number;
  /** Ertl TPSA from N and O, Å², 2 decimals. */
  tpsa: number;
  /** Lipinski donors: H on N and O (RDKit lipinskiHBD). */
  hbd: number;
  /** Lipinski acceptors: N + O atoms (RDKit lipinskiHBA). */
  hba: number;
  /** mw <= 500 && hbd <= 5 && hba <= 10 && logp <= 5. */
  lipinski_passes: boolean;
}

/** One hit of POST /similarity. */
export interface SimilarityHit {
  /** Position in the request's library (0-based). */
  index: number;
  /** The library entry as sent. */
  smiles: string;
  /** Tanimoto coefficient on ECFP4 (2048 bits), unrounded. */
  score: number;
}

/** One molecule's point on the BOILED-Egg plot (POST /boiled-egg). */
export interface EggPoint {
  /** The SMILES as sent. */
  smiles: string;
  /** WLOGP (Wildman–Crippen logP), 4 decimals. */
  wlogp: number;
  /** TPSA including S and P (as in the BOILED-Egg paper), Å², 2 decimals. */
  tpsa: number;
  /** Inside the white ellipse: passive gastrointestinal absorption predicted. */
  gi_absorbed: boolean;
  /** Inside the yolk ellipse: blood–brain barrier permeation predicted. */
  bbb_penetrant: boolean;
}

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

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
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
 * The 413 every layer (handler and runtime adapters) sends for an over-limit body.
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

// -----------------------------------------------------------------------------------------------------------
// Input schemas

const smilesField = (name: string) =>
  v.pipe(
    v.string(`'${name}' must be a string holding a SMILES, such as "CCO".`),
    v.maxLength(MAX_SMILES_LENGTH, `'${name}' is longer than ${MAX_SMILES_LENGTH} characters.`),
  );

const SmilesRequest = v.strictObject(
  { smiles: smilesField("smiles") },
  'Send a JSON object with exactly one field, e.g. {"smiles": "CCO"}.',
);

const SimilarityRequest = v.strictObject(
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

const EggRequest = v.strictObject(
  {
    smiles: v.array(
      smilesField("smiles[i]"),
      '\'smiles\' must be an array of SMILES strings, e.g. ["CCO", "c1ccccc1"].',
    ),
  },
  'Send a JSON object with exactly one field, e.g. {"smiles": ["CCO", "c1ccccc1"]}.',
);

function parseWith<TSchema extends v.GenericSchema>(schema: TSchema, body: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, body);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const where = path ? ` (at ${path})` : "";
  throw new WebAppError(400, "INVALID_REQUEST", `${issue.message}${where}`);
}

// -----------------------------------------------------------------------------------------------------------
// Chemistry

/**
 * Descriptors and the rule-of-five verdict of the SMILES' largest component (salts and solvates are reduced to
 * their parent, as in calc_properties). HBD/HBA are Lipinski's counts (NH + OH, N + O).
 *
 * @example
 * ```ts
 * descriptorsOf("CC(=O)Oc1ccccc1C(=O)O"); // { mw: 180.159, logp: 1.3101, tpsa: 63.6, hbd: 1, hba: 4, lipinski_passes: true }
 * ```
 */
export function descriptorsOf(smiles: string): DescriptorsResult {
  const p = withParentMol(smiles, (mol) => coreProperties(descriptors(mol)));
  const t = LIPINSKI_THRESHOLDS;
  return {
    mw: round(p.molecular_weight, 3),
    logp: round(p.logp, 4),
    tpsa: round(p.tpsa, 2),
    hbd: p.lipinski_hbd,
    hba: p.lipinski_hba,
    // Decided on unrounded values so the verdict does not depend on display precision.
    lipinski_passes: p.molecular_weight <= t.molecular_weight && p.lipinski_hbd <= t.hbd &&
      p.lipinski_hba <= t.hba && p.logp <= t.logp,
  };
}

/**
 * BOILED-Egg points (Daina & Zoete 2016, src/chem/boiled_egg.ts) of each SMILES' largest component, in the order
 * sent. Throws WebAppError 400 naming the first entry RDKit cannot parse.
 *
 * @example
 * ```ts
 * eggPoints(["CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"]); // diazepam: wlogp 3.1538, tpsa 32.67, both true
 * ```
 */
export function eggPoints(smiles: readonly string[]): EggPoint[] {
  return smiles.map((entry, index) =>
    chem(`smiles[${index}]`, () =>
      withParentMol(entry, (mol) => {
        const { wlogp, tpsa } = eggDescriptors(mol);
        return {
          smiles: entry,
          wlogp: round(wlogp, 4),
          tpsa: round(tpsa, 2),
          ...boiledEggZones(wlogp, tpsa),
        };
      }))
  );
}

/**
 * RDKit 2D depiction (SVG, {@link DEPICTION_SIZE}) of a SMILES.
 *
 * @example
 * ```ts
 * depict("CCO").startsWith("<?xml"); // true
 * ```
 */
export function depict(smiles: string): string {
  return chem(
    "smiles",
    () => withMol(smiles, (mol) => mol.get_svg(DEPICTION_SIZE.width, DEPICTION_SIZE.height)),
  );
}

/** Runs chemistry; an input's ChemError comes out naming the field that failed. */
function chem<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (
      error instanceof ChemError && (error.code === "INVALID_SMILES" || error.code === "MOLECULE_TOO_LARGE")
    ) {
      throw new ChemError(error.code, field ? `${field}: ${error.message}` : error.message, error.details);
    }
    throw error;
  }
}

/** The HTTP answer to a computation's ChemError: 400 for the input, 503 when busy, 422 past the deadline. */
function chemErrorResponse(error: ChemError): Response | undefined {
  if (error.code === "INVALID_SMILES" || error.code === "MOLECULE_TOO_LARGE") {
    return errorResponse(400, error.code, error.message);
  }
  if (error.code === "SERVER_BUSY") {
    return errorResponse(503, "SERVER_BUSY", error.message, { "retry-after": "4" });
  }
  if (error.code === "COMPUTATION_TIMEOUT") return errorResponse(422, "COMPUTATION_TIMEOUT", error.message);
  return undefined;
}

/**
 * 403 for a request a DNS-rebinding or cross-site page could send, checked as the MCP endpoint checks its own:
 * on a loopback bind the Host must be loopback, and an Origin must be loopback or the app's own (same host).
 */
function forbidden(request: Request, loopbackBind: boolean): Response | undefined {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (loopbackBind && !isLoopbackHost(host)) {
    return errorResponse(
      403,
      "FORBIDDEN",
      "Host must be a loopback name (localhost, 127.0.0.1 or [::1]): the app is served on a loopback address.",
    );
  }
  const origin = request.headers.get("origin");
  if (origin === null || isLoopbackOrigin(origin)) return undefined;
  const own = [`http://${host}`, `https://${host}`].map((o) => o.toLowerCase());
  if (own.includes(origin.toLowerCase())) return undefined;
  return errorResponse(403, "FORBIDDEN", "Cross-origin requests are not served; open the app's own page.");
}

// -----------------------------------------------------------------------------------------------------------
// HTTP

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

async function readJson(request: Request, limit: number): Promise<unknown> {
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

interface RouteContext {
  readonly maxBodyBytes: number;
  readonly maxLibrarySize: number;
  readonly compute: ComputeJob;
}

type Route = {
  methods: readonly string[];
  run: (request: Request, ctx: RouteContext) => Promise<Response>;
};

const ROUTES: Readonly<Record<string, Route>> = {
  "/": {
    methods: ["GET", "HEAD"],
    run: (request) =>
      Promise.resolve(
        new Response(request.method === "HEAD" ? null : PAGE_HTML, {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": PAGE_CSP,
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
          },
        }),
      ),
  },
  "/descriptors": {
    methods: ["POST"],
    run: async (request, ctx) => {
      const { smiles } = parseWith(SmilesRequest, await readJson(request, ctx.maxBodyBytes));
      return json(await ctx.compute("webapp_descriptors", { smiles }, request.signal));
    },
  },
  "/similarity": {
    methods: ["POST"],
    run: async (request, ctx) => {
      const body = parseWith(SimilarityRequest, await readJson(request, ctx.maxBodyBytes));
      if (body.library.length > ctx.maxLibrarySize) {
        throw new WebAppError(
          413,
          "LIBRARY_TOO_LARGE",
          `library has ${body.library.length} entries; at most ${ctx.maxLibrarySize} are searched per request. ` +
            `Split it into several requests.`,
        );
      }
      const args = { smiles: body.query, smiles_list: body.library, threshold: body.threshold };
      return json(await ctx.compute("webapp_similarity", args, request.signal));
    },
  },
  "/boiled-egg": {
    methods: ["POST"],
    run: async (request, ctx) => {
      const { smiles } = parseWith(EggRequest, await readJson(request, ctx.maxBodyBytes));
      if (smiles.length > ctx.maxLibrarySize) {
        throw new WebAppError(
          413,
          "LIBRARY_TOO_LARGE",
          `smiles has ${smiles.length} entries; at most ${ctx.maxLibrarySize} are plotted per request. ` +
            `Split it into several requests.`,
        );
      }
      return json(await ctx.compute("webapp_boiled_egg", { smiles_list: smiles }, request.signal));
    },
  },
  "/depict": {
    methods: ["POST"],
    run: async (request, ctx) => {
      const { smiles } = parseWith(SmilesRequest, await readJson(request, ctx.maxBodyBytes));
      return new Response(String(await ctx.compute("webapp_depict", { smiles }, request.signal)), {
        headers: {
          "content-type": "image/svg+xml",
          "x-content-type-options": "nosniff",
          // The SVG is an image, never a document: no scripts even if opened directly.
          "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        },
      });
    },
  },
};

/**
 * Creates the web application's request handler (web-standard Request → Response), RDKit must be loaded
 * (`loadRDKit`) before the first chemistry request.
 *
 * @example
 * ```ts
 * const app = createWebApp();
 * const res = await app(new Request("http://x/descriptors", {
 *   method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ smiles: "CCO" }),
 * }));
 * await res.json(); // { mw: 46.069, logp: -0.0014, tpsa: 20.23, hbd: 1, hba: 1, lipinski_passes: true }
 * ```
 */
export function createWebApp(options: WebAppOptions = {}): (request: Request) => Promise<Response> {
  const ctx: RouteContext = {
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    maxLibrarySize: options.maxLibrarySize ?? MAX_LIBRARY_SIZE,
    compute: options.compute ?? computeInProcess,
  };
  const loopbackBind = options.loopbackBind ?? false;
  const onError = options.onError ?? (() => {});
  return async (request) => {
    const refused = forbidden(request, loopbackBind);
    if (refused) return refused;
    const path = new URL(request.url).pathname;
    const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    if (!route) {
      return errorResponse(
        404,
        "NOT_FOUND",
        `No such path '${path}'. Paths: GET /, POST /descriptors, POST /similarity, POST /boiled-egg, ` +
          `POST /depict.`,
      );
    }
    if (!route.methods.includes(request.method)) {
      const allow = route.methods.join(", ");
      return errorResponse(
        405,
        "METHOD_NOT_ALLOWED",
        `${request.method} is not allowed on ${path}; use ${allow}.`,
        { allow },
      );
    }
    try {
      return await route.run(request, ctx);
    } catch (error) {
      if (error instanceof WebAppError) {
        if (error.code === "PAYLOAD_TOO_LARGE") return tooLarge(ctx.maxBodyBytes, path);
        return errorResponse(error.status, error.code, error.message, error.headers);
      }
      const answer = error instanceof ChemError ? chemErrorResponse(error) : undefined;
      if (answer) return answer;
      onError(error);
      return errorResponse(500, "INTERNAL_ERROR", "Unexpected server error; the request was not processed.");
    }
  };
}
