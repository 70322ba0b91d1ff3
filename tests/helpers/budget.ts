/**
 * What the model reads from chem-mcp, measured in characters: the `tools/list` result (whole, and the part clients
 * pass to the model) and the text content of each tool's result for a set of varied drugs. Shared by the budget
 * test (tests/unit/budget_test.ts) and the token benchmark (bench/tokens.ts), so both measure the same thing.
 */
import { configureNameLookup, nameLookupConfig } from "../../src/chem/lookup.ts";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { createServer } from "../../src/create_server.ts";
import { ALL_TOOLS, TOOLS } from "../../src/tools/registry.ts";
import type { Tool } from "../../src/tools/tool.ts";
import type { Connection } from "../../src/protocol/server.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { MOLJSON_SET } from "../data/moljson_set.ts";
import { modern, send } from "./protocol.ts";

/** Atorvastatin, the molecule the budgets are stated for. */
export const ATORVASTATIN =
  "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O";

/**
 * Ten varied drugs: small and large, neutral, acidic, basic and a salt, macrocycles, halogens and iodine.
 * Atorvastatin is written as in the issue that set the budgets; the others come from tests/data/drugs50.ts.
 */
export const BUDGET_DRUGS: readonly { readonly name: string; readonly smiles: string }[] = [
  { name: "atorvastatin", smiles: ATORVASTATIN },
  ...[
    "aspirin",
    "caffeine",
    "sodium benzoate",
    "sildenafil",
    "imatinib",
    "levothyroxine",
    "(Z)-tamoxifen",
    "paclitaxel",
    "erythromycin",
  ].map((name) => {
    const entry = DRUGS50.find((d) => d.name === name);
    if (!entry) throw new Error(`no drug '${name}' in tests/data/drugs50.ts`);
    return { name, smiles: entry.smiles };
  }),
];

/** Character budgets of a result's text content, per tool (issue 14). */
export const RESULT_BUDGETS: Readonly<Record<string, number>> = {
  admet_profile: 2_000,
  retrosynthesis: 2_500,
};
/** Budget of every tool not named in {@link RESULT_BUDGETS} nor exempt. */
export const DEFAULT_RESULT_BUDGET = 1_200;
/** Tools whose results carry one entry per atom (coordinates, the atom graph): measured per atom, no budget. */
export const PER_ATOM_TOOLS: readonly string[] = ["generate_3d", "smiles_to_moljson"];
/** Context pack budgets for atorvastatin, per format. */
export const PACK_BUDGETS = { json: 8_000, markdown: 10_000, prompt: 6_000 } as const;
/** representation_router's MolJSON route for atorvastatin (issue 24). */
export const ROUTER_MOLJSON_BUDGET = 5_000;
/**
 * `tools/list` budgets of the default listing (the specification's twenty): the model-facing part and the whole
 * result. Output schemas are for clients' validators, not passed to the model.
 */
export const LIST_BUDGETS = { modelFacing: 20_000, whole: 60_000 } as const;

/** A list call's text at most this fraction of the text of single calls of the same molecules (issue 24). */
export const LIST_BUDGET_RATIO = 0.25;

/** 100 drug-like molecules: the drug set, then the MolJSON set's molecules not in it. */
export const HUNDRED_MOLECULES: readonly string[] = [
  ...new Set([...DRUGS50.map((d) => d.smiles), ...MOLJSON_SET.map((m) => m.smiles)]),
].slice(0, 100);

/**
 * The tools whose list answer keeps within the budget, with the arguments besides the molecules (measured over
 * `HUNDRED_MOLECULES`, or the first `cap` of them for a tool whose cap is lower).
 */
export const LIST_BUDGET_TOOLS: Readonly<Record<string, Record<string, unknown>>> = {
  parse_smiles: {},
  tanimoto: { smiles_a: "CC(=O)Oc1ccccc1C(=O)O" },
  smarts_match: { smarts: "[#6]=,:[#8,#7]" },
  calc_properties: {},
  lipinski_check: {},
  sa_score: {},
  pains_check: {},
  brenk_check: {},
  admet_profile: {},
  boiled_egg: {},
  retrosynthesis: {},
  representation_router: { task: "look the compound up in a database" },
};

/**
 * The tools whose answer per molecule is itself the payload (a SMILES, 512 hex digits, MolJSON, XYZ, a context
 * pack), so no list form can reach the budget: their arguments and the list/single ratio each is held to, the
 * measured ratio rounded up (docs/decisions/lists-of-molecules.md).
 */
export const LIST_EXEMPT_TOOLS: Readonly<Record<string, { args: Record<string, unknown>; ratio: number }>> = {
  canonical_smiles: { args: {}, ratio: 0.38 },
  ecfp4: { args: {}, ratio: 0.71 },
  smiles_to_moljson: { args: {}, ratio: 0.96 },
  generate_3d: { args: {}, ratio: 0.59 },
  molecule_context_pack: { args: { format: "json" }, ratio: 0.64 },
};

/** The molecules a list of `tool` is measured on: {@link HUNDRED_MOLECULES} up to the tool's cap. */
export function listMolecules(tool: string): readonly string[] {
  const cap = TOOLS.find((t) => t.name === tool)?.list?.cap;
  if (cap === undefined) throw new Error(`tool '${tool}' has no list form`);
  return HUNDRED_MOLECULES.slice(0, cap);
}

/** Characters of one `batch` call of `tool` over `molecules` and of the single calls of the same molecules (successes). */
export async function listAndSingles(
  conn: Connection,
  tool: string,
  args: Record<string, unknown>,
  molecules: readonly string[],
): Promise<{ list: number; singles: number; failed: number }> {
  const item = tool === "tanimoto" ? "smiles_b" : "smiles";
  const list = await resultText(conn, {
    tool: "batch",
    label: tool,
    args: { tool, smiles_list: molecules, arguments: args },
  });
  let singles = 0;
  let failed = 0;
  for (const smiles of molecules) {
    const reply = await send(
      conn,
      modern("tools/call", { name: tool, arguments: { ...args, [item]: smiles } }),
    );
    if (reply?.result?.isError) failed++;
    singles += reply?.result?.content?.[0]?.text.length ?? 0;
  }
  return { list: list.length, singles, failed };
}

/** One tool call made for the measurements. */
export interface Call {
  readonly tool: string;
  /** What the call is about (drug name, format). */
  readonly label: string;
  readonly args: Record<string, unknown>;
}

/**
 * The calls measured for one drug: every tool once (the context pack once per format), with the arguments an
 * agent would typically send. `skip` leaves tools out (the budget test leaves out generate_3d, which is slow).
 */
export function callsFor(
  drug: { name: string; smiles: string },
  skip: ReadonlySet<string> = new Set(),
): Call[] {
  const smiles = drug.smiles;
  const calls: Call[] = [
    { tool: "name_to_smiles", label: drug.name, args: { name: drug.name } },
    { tool: "parse_smiles", label: drug.name, args: { smiles } },
    { tool: "canonical_smiles", label: drug.name, args: { smiles } },
    { tool: "ecfp4", label: drug.name, args: { smiles } },
    { tool: "tanimoto", label: drug.name, args: { smiles_a: smiles, smiles_b: "CC(=O)Oc1ccccc1C(=O)O" } },
    { tool: "smarts_match", label: drug.name, args: { smiles, smarts: "[#6]=,:[#8,#7]" } },
    { tool: "calc_properties", label: drug.name, args: { smiles } },
    { tool: "lipinski_check", label: drug.name, args: { smiles } },
    { tool: "sa_score", label: drug.name, args: { smiles } },
    { tool: "pains_check", label: drug.name, args: { smiles } },
    { tool: "brenk_check", label: drug.name, args: { smiles } },
    { tool: "admet_profile", label: drug.name, args: { smiles } },
    { tool: "boiled_egg", label: drug.name, args: { smiles } },
    { tool: "find_mcs", label: drug.name, args: { smiles_list: [smiles, "O=C(O)c1ccccc1"] } },
    { tool: "generate_3d", label: drug.name, args: { smiles } },
    { tool: "retrosynthesis", label: drug.name, args: { smiles } },
    { tool: "smiles_to_moljson", label: drug.name, args: { smiles } },
    { tool: "moljson_to_smiles", label: drug.name, args: { moljson: toMolJson(smiles) } },
    {
      tool: "representation_router",
      label: drug.name,
      args: { smiles, task: "look the compound up in a database" },
    },
    ...(["json", "markdown", "prompt"] as const).map((format) => ({
      tool: "molecule_context_pack",
      label: `${drug.name} (${format})`,
      args: { smiles, format },
    })),
  ];
  return calls.filter((c) => !skip.has(c.tool));
}

/**
 * Answers name lookups in-process as PubChem PUG REST would, with the drug's SMILES, so `name_to_smiles` is
 * measured without the network (the answer's size is what matters here; CIDs are stand-ins). Returns a function
 * that restores the previous lookup configuration.
 */
export function useLocalNameLookup(): () => void {
  const before = nameLookupConfig();
  const byName = new Map(BUDGET_DRUGS.map((d, i) => [d.name.toLowerCase(), { cid: 100_000 + i, ...d }]));
  configureNameLookup({
    urlTemplate: "http://127.0.0.1:9/compound/name/{name}/property/SMILES/JSON",
    fetch: (input) => {
      const name = decodeURIComponent(/\/name\/([^/]+)\//.exec(String(input))?.[1] ?? "").toLowerCase();
      const hit = byName.get(name);
      const body = hit
        ? { PropertyTable: { Properties: [{ CID: hit.cid, SMILES: hit.smiles }] } }
        : { Fault: { Code: "PUGREST.NotFound" } };
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: hit ? 200 : 404,
          headers: { "Content-Type": "application/json" },
        }),
      );
    },
  });
  return () => configureNameLookup(before);
}

/** The `tools/list` result as a client receives it (modern dialect) and the part it passes to the model. */
export interface ToolsListText {
  /** The whole `result` of `tools/list`, as JSON text. */
  readonly whole: string;
  /** name, title, description and inputSchema of every tool, as JSON text. */
  readonly modelFacing: string;
}

/**
 * A connection to an in-process server (tools run in place, without workers) serving `tools`: by default every
 * tool, so `batch` answers; the default listing is measured on `connection(TOOLS)`.
 */
export function connection(tools: readonly Tool[] = ALL_TOOLS): Connection {
  return createServer({ tools }).connect();
}

/** Measures `tools/list` over `conn`. */
export async function toolsListText(conn: Connection): Promise<ToolsListText> {
  const reply = await send(conn, modern("tools/list"));
  const result = reply?.result as { tools: Record<string, unknown>[] };
  const modelFacing = result.tools.map(({ name, title, description, inputSchema }) => ({
    name,
    title,
    description,
    inputSchema,
  }));
  return { whole: JSON.stringify(result), modelFacing: JSON.stringify(modelFacing) };
}

/** Calls a tool over `conn` and returns the text content the model reads; throws on any error. */
export async function resultText(conn: Connection, call: Call): Promise<string> {
  const reply = await send(conn, modern("tools/call", { name: call.tool, arguments: call.args }));
  const result = reply?.result;
  if (!result || result.isError) {
    throw new Error(`${call.tool} (${call.label}) failed: ${JSON.stringify(reply?.error ?? result)}`);
  }
  return result.content![0]!.text;
}

/** Top-level fields that echo the caller's own arguments, so a result can be matched to its call. */
const ECHOES = new Set(["smiles", "smiles_a", "smiles_b", "smarts", "name"]);
/** Shortest string counted as content when looking for repeats (shorter ones are labels and values). */
const MIN_STRING = 32;
/** Shortest object or array (as JSON) counted as content when looking for repeats. */
const MIN_SUBTREE = 64;

/**
 * Content that occurs more than once in a result: every string of at least 32 characters and every object or
 * array of at least 64 characters of JSON, wherever it sits. The caller's own arguments echoed at the top level
 * are left out (a canonical SMILES may equal the SMILES given). Strings inside a rendering (the context pack's
 * `rendered`) count too: a section rendered beside its object is found as the object's values repeated.
 */
export function repeatedContent(result: unknown): string[] {
  const seen = new Map<string, number>();
  const add = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
  const walk = (value: unknown, top: boolean) => {
    if (typeof value === "string") {
      if (value.length >= MIN_STRING) add(value);
      return;
    }
    if (value === null || typeof value !== "object") return;
    if (!top) {
      const text = JSON.stringify(value);
      if (text.length >= MIN_SUBTREE) add(text);
    }
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, child] of entries) if (!(top && ECHOES.has(key))) walk(child, false);
  };
  walk(result, true);
  const rendered = (result as { rendered?: unknown }).rendered;
  const repeats = [...seen].filter(([, n]) => n > 1).map(([text]) => text);
  if (typeof rendered === "string") {
    for (const text of seen.keys()) {
      if (text !== rendered && !text.startsWith("{") && !text.startsWith("[") && rendered.includes(text)) {
        repeats.push(`rendered repeats ${text}`);
      }
    }
  }
  return repeats.map((text) => text.length > 120 ? `${text.slice(0, 117)}...` : text);
}
