/**
 * The static tool registry: every tool module, and its published descriptor (name, title, description, JSON
 * Schema 2020-12 `inputSchema`/`outputSchema` generated from the tool's valibot schemas, and annotations).
 *
 * @module
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool, ToolAnnotations } from "./tool.ts";
import { chunkToolOf, withList } from "../pool/list.ts";
import { canonicalSmilesTool } from "./canonical_smiles.ts";
import { ecfp4Tool } from "./ecfp4.ts";
import { parseSmilesTool } from "./parse_smiles.ts";
import { smartsMatchTool } from "./smarts_match.ts";
import { tanimotoTool } from "./tanimoto.ts";
import { saScoreTool } from "./sa_score.ts";
import { calcPropertiesTool } from "./calc_properties.ts";
import { lipinskiCheckTool } from "./lipinski_check.ts";
import { boiledEggTool } from "./boiled_egg.ts";
import { admetProfileTool } from "./admet_profile.ts";
import { generate3dTool } from "./generate_3d.ts";
import { nameToSmilesTool } from "./name_to_smiles.ts";
import { findMcsTool } from "./find_mcs.ts";
import { retrosynthesisTool } from "./retrosynthesis.ts";
import { smilesToMoljsonTool } from "./smiles_to_moljson.ts";
import { moljsonToSmilesTool } from "./moljson_to_smiles.ts";
import { representationRouterTool } from "./representation_router.ts";
import { moleculeContextPackTool } from "./molecule_context_pack.ts";
import { painsCheckTool } from "./pains_check.ts";
import { brenkCheckTool } from "./brenk_check.ts";
import { EXTRA_TOOLS } from "./extras.ts";

/** A tool as `tools/list` publishes it. */
export interface ToolDescriptor {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
}

/** Every tool this release serves, in the order `tools/list` shows them, with its list form where it has one. */
export const TOOLS: readonly Tool[] = ([
  nameToSmilesTool,
  parseSmilesTool,
  canonicalSmilesTool,
  ecfp4Tool,
  tanimotoTool,
  smartsMatchTool,
  calcPropertiesTool,
  lipinskiCheckTool,
  saScoreTool,
  painsCheckTool,
  brenkCheckTool,
  admetProfileTool,
  boiledEggTool,
  findMcsTool,
  generate3dTool,
  retrosynthesisTool,
  smilesToMoljsonTool,
  moljsonToSmilesTool,
  representationRouterTool,
  moleculeContextPackTool,
] as unknown as readonly Tool[]).map(withList);

/** What a tool worker serves: every tool, and the chunk runners of the list forms. */
export const WORKER_TOOLS: readonly Tool[] = [
  ...TOOLS,
  ...EXTRA_TOOLS,
  ...TOOLS.flatMap((tool) => chunkToolOf(tool) ?? []),
];

/**
 * Converts a valibot schema to JSON Schema 2020-12 (self-contained: no `$ref` leaves the document). The
 * `$schema` keyword is left out: 2020-12 is MCP's default dialect for tool schemas (SEP-1613), and the URI would
 * cost every tool 52 characters of the model's context (docs/decisions.md).
 */
export function jsonSchemaOf(schema: Tool["input"], typeMode: "input" | "output"): Record<string, unknown> {
  // "finite" has no JSON Schema keyword; JSON cannot carry non-finite numbers anyway.
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode,
    errorMode: "ignore",
  }) as Record<string, unknown>;
  return rest;
}

/**
 * A tool's published `inputSchema`. With a list form, the molecule and `smiles_list` are each optional (the
 * server requires exactly one). JSON Schema could say so with a top-level `oneOf`, but several model APIs refuse
 * `oneOf`/`anyOf` at the top of a tool's input schema (docs/decisions.md, "Lists of molecules").
 */
function inputSchemaOf(tool: Tool): Record<string, unknown> {
  const { required, ...schema } = jsonSchemaOf(tool.input, "input") as { required?: string[] };
  return required?.length ? { ...schema, required } : schema;
}

/**
 * A tool's published `outputSchema`. A list form's answer is one of two objects (`anyOf`); MCP wants an object
 * schema at the root, so `type: "object"` is said there as well.
 */
function outputSchemaOf(tool: Tool): Record<string, unknown> {
  const schema = jsonSchemaOf(tool.output, "output");
  return tool.list ? { type: "object", ...schema } : schema;
}

/**
 * Tools by name with their descriptors computed once.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry(TOOLS);
 * registry.get("canonical_smiles")?.run({ smiles: "OCC" });
 * ```
 */
export class ToolRegistry {
  readonly #byName: ReadonlyMap<string, Tool>;
  #descriptors: readonly ToolDescriptor[] | undefined;

  /** @param tools The tools to serve; names must be unique. */
  constructor(tools: readonly Tool[]) {
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) throw new Error(`Duplicate tool name '${tool.name}'`);
      byName.set(tool.name, tool);
    }
    this.#byName = byName;
  }

  /**
   * Descriptors in registry order, converted to JSON Schema when first asked for: 2–3 ms of a process's start
   * that a first `tools/call` does not need (docs/decisions.md, "Cold start and first burst").
   */
  get descriptors(): readonly ToolDescriptor[] {
    this.#descriptors ??= [...this.#byName.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchemaOf(tool),
      outputSchema: outputSchemaOf(tool),
      annotations: tool.annotations,
    }));
    return this.#descriptors;
  }

  /** The tool called `name`, if any. */
  get(name: string): Tool | undefined {
    return this.#byName.get(name);
  }

  /** Names of all tools, in order. */
  get names(): string[] {
    return [...this.#byName.keys()];
  }
}
