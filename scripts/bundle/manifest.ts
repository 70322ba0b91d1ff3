/**
 * The MCP Bundle manifest (`manifest.json`, MCPB manifest version 0.3, the schema `@anthropic-ai/mcpb validate`
 * checks): what Claude Desktop shows before installing, and how it starts the server: its own Node running the
 * compiled entry inside the unpacked bundle (`${__dirname}` is the folder the host unpacked it to).
 *
 * @module
 */
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { SERVER_NAME, VERSION } from "../../src/version.ts";

/** Where the Node entry sits inside the bundle: the npm package's `bin`, at the same path as in the package. */
export const BUNDLE_ENTRY = "dist/src/runtime/node.js";

/** The icon's file name inside the bundle. */
export const BUNDLE_ICON = "icon.png";

/** The bundle's file name for a version, as the release attaches it. */
export function bundleFileName(version = VERSION): string {
  return `${SERVER_NAME}-${version}.mcpb`;
}

/**
 * The first sentence of a tool description: enough for a list a person reads before installing. A sentence ends
 * at a full stop before a capital letter or the end, not at the one of "et al." in a citation.
 */
export function firstSentence(text: string): string {
  const end = /(?<!\bet al)\.(?=\s+[A-Z]|$)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

/**
 * The manifest for this release.
 *
 * @example
 * ```ts
 * writeFileSync("manifest.json", JSON.stringify(bundleManifest(), null, 2));
 * ```
 */
export function bundleManifest(description: string): Record<string, unknown> {
  return {
    manifest_version: "0.3",
    name: SERVER_NAME,
    display_name: "chem-mcp: cheminformatics on RDKit",
    version: VERSION,
    description,
    long_description:
      "Twenty read-only chemistry tools for a model to call: SMILES parsing and canonical forms, " +
      "fingerprints and Tanimoto similarity, SMARTS search, descriptors and drug-likeness rules, synthetic " +
      "accessibility, PAINS and Brenk alerts, ADMET and BOILED-Egg estimates, maximum common substructure, 3D " +
      "conformers, BRICS retrosynthesis, MolJSON, and a compact molecule context pack. Everything runs locally " +
      "on RDKit's WebAssembly build; only name_to_smiles looks a name up on the network.",
    author: { name: "chem-mcp contributors" },
    license: "MIT",
    keywords: ["chemistry", "cheminformatics", "rdkit", "smiles", "molecules", "drug discovery"],
    icon: BUNDLE_ICON,
    server: {
      type: "node",
      entry_point: BUNDLE_ENTRY,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${BUNDLE_ENTRY}`, "--tools", "${user_config.tools}"],
        // An environment variable, not an argument: left blank, it must mean no library, and the server reads an
        // empty (or unsubstituted) CHEM_MCP_LIBRARY as none, where `--library ""` would be refused.
        env: { CHEM_MCP_LIBRARY: "${user_config.library}" },
      },
    },
    // A text field rather than a tick box: the host substitutes a boolean as "true"/"false", which cannot name a
    // group, and names let a user keep only the tools they use.
    user_config: {
      tools: {
        type: "string",
        title: "Tools",
        description: "Tools the model is offered: spec (the twenty, default), all (adds batch over lists, " +
          "similarity_search and the other extra tools), or tool names separated by commas.",
        default: "spec",
        required: false,
      },
      library: {
        type: "file",
        title: "Compound library",
        description:
          "Optional: a SMILES (.smi, one 'SMILES id' per line) or SD (.sdf) file, optionally gzipped, " +
          "that library_search searches by similarity or substructure. Indexed on first start (minutes for 100,000 " +
          "molecules), then read from a cache.",
        default: "",
        required: false,
      },
    },
    tools: ALL_TOOLS.map((tool) => ({ name: tool.name, description: firstSentence(tool.description) })),
    tools_generated: false,
    compatibility: {
      platforms: ["darwin", "win32", "linux"],
      runtimes: { node: ">=20.0.0" },
    },
  };
}
