/**
 * Writes the example renderings of `molecule_context_pack` for atorvastatin, exactly as the tool returns them in
 * `rendered`: docs/examples/atorvastatin_context.md (format 'markdown') and
 * docs/examples/atorvastatin_context_prompt.txt (format 'prompt'). tests/unit/context_pack_test.ts fails when
 * they are stale. Run: npx deno run -A scripts/context_pack_doc.ts
 */
import { moleculeContextPackTool } from "../src/tools/molecule_context_pack.ts";

/** Atorvastatin, as in the issue that set the context pack's budgets. */
export const EXAMPLE_SMILES =
  "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O";

/** The example files and their contents (RDKit must be loaded). */
export async function contextPackExamples(): Promise<Record<string, string>> {
  const render = async (format: "markdown" | "prompt") =>
    (await moleculeContextPackTool.run({ smiles: EXAMPLE_SMILES, format })).rendered ?? "";
  return {
    "docs/examples/atorvastatin_context.md": await render("markdown"),
    "docs/examples/atorvastatin_context_prompt.txt": `${await render("prompt")}\n`,
  };
}

if ((import.meta as { main?: boolean }).main) {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const { createRequire } = await import("node:module");
  const { loadRDKit } = await import("../src/chem/rdkit.ts");
  await loadRDKit(readFileSync(createRequire(import.meta.url).resolve("@rdkit/rdkit/RDKit_minimal.wasm")));
  for (const [path, text] of Object.entries(await contextPackExamples())) {
    writeFileSync(path, text);
    console.error(`wrote ${path} (${text.length} characters)`);
  }
}
