/**
 * The sample web application of chem-mcp: a page plus small JSON endpoints (descriptors, similarity search,
 * BOILED-Egg points, 2D depiction) on the same chemistry as the tool server, and nothing of the MCP protocol.
 * This is its HTTP side; what each route computes is src/tools/webapp_jobs.ts. Runtime-neutral: web-standard
 * Request/Response only, so the runtime entries (src/runtime/webapp_deno.ts, webapp_node.ts) are thin adapters
 * and tests can call the handler in process.
 *
 * Routes, errors and limits are documented in docs/webapp.md.
 *
 * @module
 */
import { CancelledError, ChemError } from "../errors.ts";
import { WEBAPP_JOBS, type WebAppJob } from "../tools/webapp_jobs.ts";
import { isLoopbackHost, isLoopbackOrigin } from "../transport/streamable.ts";
import { errorResponse, json, tooLarge, WebAppError } from "./errors.ts";
import { COSTLY_WAIT_MS } from "./gate.ts";
import { EggRequest, parseWith, readJson, SimilarityRequest, SmilesRequest } from "./request.ts";
import { PAGE_CSP, PAGE_HTML } from "./page.ts";

/** Largest request body accepted, bytes (2 MiB); a longer body gets 413. */
export const MAX_BODY_BYTES: number = 2 * 1024 * 1024;
/** Most library entries one similarity search accepts; more gets 413 LIBRARY_TOO_LARGE. */
export const MAX_LIBRARY_SIZE = 10_000;

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

/** Seconds a 503 asks the client to wait: the longest wait for a worker or a place (src/webapp/gate.ts). */
const RETRY_AFTER_S = String(COSTLY_WAIT_MS / 1000);

/** The HTTP answer to a computation's ChemError: 400 for the input, 503 when busy, 422 past the deadline. */
function chemErrorResponse(error: ChemError): Response | undefined {
  if (error.code === "INVALID_SMILES" || error.code === "MOLECULE_TOO_LARGE") {
    return errorResponse(400, error.code, error.message);
  }
  if (error.code === "SERVER_BUSY") {
    return errorResponse(503, "SERVER_BUSY", error.message, { "retry-after": RETRY_AFTER_S });
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

interface RouteContext {
  readonly maxBodyBytes: number;
  readonly maxLibrarySize: number;
  readonly compute: ComputeJob;
}

type Route = {
  methods: readonly string[];
  run: (request: Request, ctx: RouteContext) => Promise<Response>;
};

/** 413 LIBRARY_TOO_LARGE for a list over the limit: the body limit alone lets 10,001 short SMILES through. */
function checkListSize(field: string, length: number, limit: number, verb: string): void {
  if (length <= limit) return;
  throw new WebAppError(
    413,
    "LIBRARY_TOO_LARGE",
    `${field} has ${length} entries; at most ${limit} are ${verb} per request. Split it into several requests.`,
  );
}

const page = (request: Request) =>
  Promise.resolve(
    new Response(request.method === "HEAD" ? null : PAGE_HTML, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": PAGE_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      },
    }),
  );

const ROUTES: Readonly<Record<string, Route>> = {
  "/": { methods: ["GET", "HEAD"], run: page },
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
      checkListSize("library", body.library.length, ctx.maxLibrarySize, "searched");
      const args = { smiles: body.query, smiles_list: body.library, threshold: body.threshold };
      return json(await ctx.compute("webapp_similarity", args, request.signal));
    },
  },
  "/boiled-egg": {
    methods: ["POST"],
    run: async (request, ctx) => {
      const { smiles } = parseWith(EggRequest, await readJson(request, ctx.maxBodyBytes));
      checkListSize("smiles", smiles.length, ctx.maxLibrarySize, "plotted");
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

/** The route of `path` and `method`, or the 404 or 405 that answers instead. */
function routeOf(path: string, method: string): Route | Response {
  const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (!route) {
    return errorResponse(
      404,
      "NOT_FOUND",
      `No such path '${path}'. Paths: GET /, POST /descriptors, POST /similarity, POST /boiled-egg, ` +
        `POST /depict.`,
    );
  }
  if (route.methods.includes(method)) return route;
  const allow = route.methods.join(", ");
  return errorResponse(405, "METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; use ${allow}.`, {
    allow,
  });
}

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
    const route = routeOf(path, request.method);
    if (route instanceof Response) return route;
    try {
      return await route.run(request, ctx);
    } catch (error) {
      if (error instanceof WebAppError) {
        if (error.code === "PAYLOAD_TOO_LARGE") return tooLarge(ctx.maxBodyBytes, path);
        return errorResponse(error.status, error.code, error.message, error.headers);
      }
      // The visitor left: nobody reads this answer, and it is not the server's fault.
      if (error instanceof CancelledError) return new Response(null, { status: 499 });
      const answer = error instanceof ChemError ? chemErrorResponse(error) : undefined;
      if (answer) return answer;
      onError(error);
      return errorResponse(500, "INTERNAL_ERROR", "Unexpected server error; the request was not processed.");
    }
  };
}
