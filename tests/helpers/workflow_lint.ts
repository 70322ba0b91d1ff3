/**
 * GitHub's own workflow parser (@actions/workflow-parser, from the GitHub Actions language services that editors
 * use), as a linter: it parses a workflow against GitHub's workflow schema, then converts it to its model, which
 * checks what a schema cannot (job `needs` that name no job, expressions, contexts). The package imports its
 * schema as JSON without an import attribute, which only a bundler resolves, so it is bundled once with esbuild
 * into .cache/ and loaded from there, the same way under Deno and Node.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { ROOT } from "./process.ts";

interface ErrorList {
  getErrors(): { message: string }[];
}
interface Parser {
  parseWorkflow(
    file: { name: string; content: string },
    trace: unknown,
  ): { context: { errors: ErrorList }; value: unknown };
  convertWorkflowTemplate(context: unknown, value: unknown): Promise<{ errors?: { Message: string }[] }>;
  NoOperationTraceWriter: new () => unknown;
}

let parser: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  const dir = join(ROOT, ".cache/workflow-parser");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, "workflow-parser.mjs");
  try {
    await esbuild.build({
      stdin: {
        contents: 'export * from "@actions/workflow-parser";',
        resolveDir: ROOT,
        loader: "js",
      },
      bundle: true,
      format: "esm",
      platform: "node",
      // Its CommonJS dependencies require Node built-ins, which an ES module bundle reaches through this.
      banner: {
        js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      },
      outfile,
      logLevel: "error",
    });
  } finally {
    await esbuild.stop();
  }
  return await import(pathToFileURL(outfile).href) as Parser;
}

/** Every problem GitHub's parser finds in a workflow file's text; empty when it is valid. */
export async function workflowErrors(name: string, content: string): Promise<string[]> {
  parser ??= load();
  const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await parser;
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || parsed.value === undefined) return errors;
  const model = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (model.errors ?? []).map((e) => e.Message);
}
