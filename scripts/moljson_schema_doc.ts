/**
 * Rewrites the JSON Schema block of docs/moljson.md from the valibot schema in src/chem/moljson/schema.ts (the
 * single source); tests/unit/moljson_test.ts fails when the two differ.
 * Run: deno run -A scripts/moljson_schema_doc.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { moljsonJsonSchema } from "../src/chem/moljson/schema.ts";

const path = "docs/moljson.md";
const doc = readFileSync(path, "utf8");
const block = /(## JSON Schema[\s\S]*?```json\n)[\s\S]*?(\n```)/;
if (!block.test(doc)) throw new Error(`${path} needs a \`\`\`json block under '## JSON Schema'`);
writeFileSync(path, doc.replace(block, `$1${JSON.stringify(moljsonJsonSchema(), null, 2)}$2`));
console.error(`wrote the JSON Schema block of ${path}`);
