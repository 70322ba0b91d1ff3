/**
 * The static tool registry: every tool module, and its published descriptor (name, title, description, JSON
 * Schema 2020-12 `inputSchema`/`outputSchema` generated from the tool's valibot schemas, and annotations).
 *
 * @module
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool, ToolAnnotations } from "./tool.ts";
import { chunkToolOf } from "./list.ts";
import { SPEC_TOOLS } from "./spec_tools.ts";
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

/** The specification's twenty tools: what `tools/list` shows by default. */
export const TOOLS: readonly Tool[] = SPEC_TOOLS;

/** Every tool this release can serve, in the order `tools/list` shows them: the twenty, then the extras. */
export const ALL_TOOLS: readonly Tool[] = [...SPEC_TOOLS, ...EXTRA_TOOLS];

/** What a tool worker serves: every tool, the chunk runners of the list forms, and the parts of fan-outs. */
export const WORKER_TOOLS: readonly Tool[] = [
  ...ALL_TOOLS,
  ...ALL_TOOLS.flatMap((tool) => chunkToolOf(tool) ?? []),
  ...ALL_TOOLS.flatMap((tool) => tool.workerTools ?? []),
];

/**
 * Names `--tools` accepts besides tool names: `spec` (the default), `extra` (every tool of src/tools/extras.ts)
 * and `all`.
 */
export const TOOL_GROUPS: Readonly<Record<string, readonly Tool[]>> = {
  all: ALL_TOOLS,
  spec: SPEC_TOOLS,
  extra: EXTRA_TOOLS,
};

/** The outcome of {@link selectTools}. */
export type ToolSelection =
  | { readonly ok: true; readonly tools: readonly Tool[] }
  | { readonly ok: false; readonly message: string };

/**
 * The tools a comma-separated list of tool and group names selects, in registry order, each once.
 *
 * @example
 * ```ts
 * selectTools("spec,batch"); // the twenty and batch
 * selectTools("calc_properties,lipinski_check"); // those two
 * selectTools("calc_propertise").ok; // false: the message lists every name
 * selectTools(""); // the twenty, as ",spec," is
 * ```
 */
export function selectTools(text: string): ToolSelection {
  // Empty entries are ignored and an empty list means the default: an MCP Bundle passes `--tools ${field}` from
  // an optional field, and a cleared field must not stop the server.
  const given = text.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const names = given.length > 0 ? given : ["spec"];
  const wanted = new Set<Tool>();
  for (const name of names) {
    const group = Object.hasOwn(TOOL_GROUPS, name) ? TOOL_GROUPS[name] : undefined;
    const tools = group ?? ALL_TOOLS.filter((tool) => tool.name === name);
    if (tools.length === 0) {
      const known = [...Object.keys(TOOL_GROUPS), ...ALL_TOOLS.map((tool) => tool.name)].join(", ");
      return { ok: false, message: `no tool or group '${name}'; names: ${known}` };
    }
    tools.forEach((tool) => wanted.add(tool));
  }
  return { ok: true, tools: ALL_TOOLS.filter((tool) => wanted.has(tool)) };
}

/**
 * Converts a valibot schema to JSON Schema 2020-12 (self-contained: no `$ref` leaves the document). The
 * `$schema` keyword is left out: 2020-12 is MCP's default dialect for tool schemas (SEP-1613), and the URI would
 * cost every tool 52 characters of the model's context (docs/decisions/published-schemas.md).
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
   * that a first `tools/call` does not need (docs/decisions/cold-start.md).
   */
  get descriptors(): readonly ToolDescriptor[] {
    this.#descriptors ??= [...this.#byName.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.input, "input"),
      outputSchema: jsonSchemaOf(tool.output, "output"),
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
