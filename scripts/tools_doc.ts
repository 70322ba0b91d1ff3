/**
 * Renders docs/tools.md from the tool registry, so the published schemas and descriptions are the single source
 * of the documentation. `deno run -A scripts/tools_doc.ts` rewrites the file; a test fails when it is stale.
 */
import { CHEM_ERROR_DOCS } from "../src/errors.ts";
import type { ToolDescriptor } from "../src/tools/registry.ts";

interface Property {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Property;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  anyOf?: Property[];
}

function typeOf(p: Property): string {
  if (p.const !== undefined) return `\`${JSON.stringify(p.const)}\``;
  if (p.enum) return p.enum.map((e) => `\`${JSON.stringify(e)}\``).join(" \\| ");
  if (p.anyOf) return p.anyOf.map(typeOf).join(" \\| ");
  if (p.type === "array") {
    const item = p.items ? typeOf(p.items) : "any";
    return p.items?.anyOf ? `(${item})[]` : `${item}[]`;
  }
  return Array.isArray(p.type) ? p.type.join(" \\| ") : p.type ?? "any";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function fields(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties).map(([name, p]) => {
    const bounds = [
      p.minimum !== undefined ? `≥ ${p.minimum}` : "",
      p.maximum !== undefined ? `≤ ${p.maximum}` : "",
      p.maxItems !== undefined ? `≤ ${p.maxItems} items` : "",
      p.default !== undefined ? `default ${JSON.stringify(p.default)}` : "",
    ].filter(Boolean).join(", ");
    const note = [p.description ?? "", bounds].filter(Boolean).join(" ");
    return `| \`${name}\` | ${cell(typeOf(p))} | ${required.has(name) ? "yes" : "no"} | ${cell(note)} |`;
  });
  return ["| Field | Type | Required | Description |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The hints as they appear on the wire, `readOnlyHint: true, …`, in the wire's order. */
function annotationsLine(annotations: ToolDescriptor["annotations"]): string {
  return Object.entries(annotations).map(([hint, value]) => `\`${hint}: ${value}\``).join(", ");
}

/** Tools listed by a server option rather than by `--tools`, with what lists them. */
const LISTED_BY_OPTION: Readonly<Record<string, string>> = { library_search: "`--library`" };

/** The "Listed" cell of a tool in the table. */
function listedCell(name: string, extras: ReadonlySet<string>): string {
  const option = LISTED_BY_OPTION[name];
  if (option) return `with ${option}`;
  return extras.has(name) ? "extra: `--tools`" : "by default";
}

/** The line under a tool's heading saying when it is listed, if not by default. */
function listedLine(name: string, extras: ReadonlySet<string>): string[] {
  const option = LISTED_BY_OPTION[name];
  if (option) {
    return [
      `Listed when the server loads a compound library (${option} PATH), whatever \`--tools\` says.`,
      "",
    ];
  }
  return extras.has(name) ? ["Listed when `--tools` selects it (`extra`, `all` or its name).", ""] : [];
}

/**
 * The whole of docs/tools.md for the given descriptors; `extras` names the tools served only when `--tools`
 * selects them.
 */
export function renderToolsDoc(
  tools: readonly ToolDescriptor[],
  detailPages: ReadonlySet<string>,
  extras: ReadonlySet<string> = new Set(),
): string {
  const parts = [
    "# Tools",
    "",
    "Generated from the tool registry by `scripts/tools_doc.ts`; do not edit by hand. Each tool's input and output " +
    "are published as JSON Schema 2020-12 in `tools/list`. A server lists the specification's tools unless " +
    "`--tools` says otherwise: tool names and the groups `spec` (the default), `extra` and `all`, comma-separated " +
    "(`--tools spec,batch`, `--tools calc_properties,lipinski_check`).",
    "",
    "| Tool | Title | Listed |",
    "| --- | --- | --- |",
    ...tools.map((t) => `| [\`${t.name}\`](#${t.name}) | ${t.title} | ${listedCell(t.name, extras)} |`),
    "",
    "## Chemistry error codes",
    "",
    "Modern dialect: a result with `isError: true` and `structuredContent.error.code`. Legacy dialect: JSON-RPC " +
    "error -32000 with `error.data.code`.",
    "",
    "| Code | Meaning | What to do |",
    "| --- | --- | --- |",
    ...Object.entries(CHEM_ERROR_DOCS).map(([code, d]) =>
      `| \`${code}\` | ${cell(d.meaning)} | ${cell(d.fix)} |`
    ),
    "",
    "Calls that never reach the chemistry are JSON-RPC errors in both dialects; the legacy dialect adds a code:",
    "",
    "| Code | Meaning | What to do |",
    "| --- | --- | --- |",
    "| `INVALID_ARGUMENTS` | The arguments fail the tool's input schema (modern: -32602; legacy: -32000 with " +
    "`error.data.code`). The message names each problem (at most 5, then how many more) and, for an unknown or " +
    "missing argument, the arguments the tool takes. | Fix the arguments the message names. |",
    "| `UNKNOWN_TOOL` | No tool has that name (modern: -32602; legacy: -32000 with `error.data.code`); " +
    "`error.data.available` lists the tools. | Use a name from `tools/list`. |",
  ];
  for (const tool of tools) {
    parts.push(
      "",
      `## ${tool.name}`,
      "",
      ...listedLine(tool.name, extras),
      `**${tool.title}.** ${tool.description}`,
      "",
      `Annotations (modern \`tools/list\`): ${annotationsLine(tool.annotations)}.`,
      "",
      "Input:",
      "",
      fields(tool.inputSchema),
      "",
      "Output:",
      "",
      fields(tool.outputSchema),
    );
    if (detailPages.has(tool.name)) {
      parts.push("", `Method, validation and limits: [tools/${tool.name}.md](tools/${tool.name}.md).`);
    }
  }
  return parts.join("\n") + "\n";
}

if ((import.meta as { main?: boolean }).main) {
  const { existsSync, writeFileSync } = await import("node:fs");
  const { toolRegistry } = await import("../src/create_server.ts");
  const { ALL_TOOLS } = await import("../src/tools/registry.ts");
  const { EXTRA_TOOLS } = await import("../src/tools/extras.ts");
  const tools = toolRegistry(ALL_TOOLS).descriptors;
  const pages = new Set(tools.map((t) => t.name).filter((n) => existsSync(`docs/tools/${n}.md`)));
  writeFileSync("docs/tools.md", renderToolsDoc(tools, pages, new Set(EXTRA_TOOLS.map((t) => t.name))));
  console.error(`wrote docs/tools.md (${tools.length} tools)`);
}
