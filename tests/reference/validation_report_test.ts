/**
 * scripts/validation_report.ts renders docs/validation.md, and the committed file is current with the suites and
 * fixtures it reports (cheap checks: the suites themselves run in the *_test.ts files beside this one).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { IS_DENO, ROOT } from "../helpers/process.ts";
import {
  fixtureProvenance,
  leftOutParts,
  renderValidation,
  suiteFiles,
} from "../../scripts/validation_report.ts";
import { exactRow, toleranceRow } from "./rows.ts";

const doc = readFileSync(join(ROOT, "docs/validation.md"), "utf8");

test("renderValidation writes each row and lists each known difference once with its molecules", () => {
  const known = { reason: "a stated reason.", explained: (id: string) => id === "m2" };
  const rows = [
    exactRow("tool_a", "count", [
      { id: "m1", ours: 1, theirs: 1 },
      { id: "m2", ours: 2, theirs: 3 },
    ], { known: [known] }),
    toleranceRow("tool_a", "mass", [{ id: "m1", ours: 1.0004, theirs: 1 }], 5e-4, "|Δ| ≤ 0.0005"),
  ];
  assert.deepEqual(leftOutParts(rows[0]!.known_difference), [{
    count: 1,
    ids: "m2",
    reason: "a stated reason.",
  }]);
  const text = renderValidation([{ file: "a_suite.ts", name: "a", rows }], [], "2026.09.1");
  assert.match(text, /\| tool_a \| count \| 1 \| 1 \| exact \| none differ \| 1 \[D1\] \|/);
  // A "|" inside a cell is escaped so the Markdown table keeps its columns.
  assert.ok(
    text.includes(
      "| tool_a | mass | 1 | 1 | \\|Δ\\| ≤ 0.0005 | m1: ours 1.0004, RDKit 1 (\\|Δ\\| 0.0004) | – |",
    ),
    text,
  );
  assert.match(text, /\*\*D1\.\*\* a stated reason\.\n\n- 1: m2 — tool_a \(count\)/);
});

test("docs/validation.md reports every reference suite (regenerate with `deno task validation`)", () => {
  const files = suiteFiles();
  assert.ok(files.length >= 5, `suites found: ${files.join(", ")}`);
  for (const file of files) {
    assert.ok(doc.includes(`(\`tests/reference/${file}\`)`), `docs/validation.md lacks ${file}`);
  }
});

test("docs/validation.md carries the provenance of the current fixtures", () => {
  const dated = fixtureProvenance().filter((p) => p.rdkit && p.date);
  assert.ok(dated.length >= 8, `fixtures with provenance: ${dated.map((p) => p.file).join(", ")}`);
  for (const p of dated) {
    assert.ok(
      doc.includes(`| \`${p.file}\` | ${p.rdkit} | ${p.date} |`),
      `docs/validation.md does not list ${p.file} written ${p.date}: regenerate it`,
    );
  }
});

test("`scripts/validation_report.ts --list` runs and names every suite and fixture it reports", () => {
  const [cmd, args] = IS_DENO
    ? [process.execPath, ["run", "-A", join(ROOT, "scripts/validation_report.ts"), "--list"]]
    : [process.execPath, [join(ROOT, "dist/scripts/validation_report.js"), "--list"]];
  const out = execFileSync(cmd, args, { cwd: ROOT, encoding: "utf8" });
  for (const file of suiteFiles()) assert.ok(out.includes(`suite tests/reference/${file}\n`), out);
  for (const p of fixtureProvenance()) assert.ok(out.includes(`fixture ${p.file} `), out);
});
