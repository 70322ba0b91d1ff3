/**
 * Writes docs/validation.md: every comparison of a tool with RDKit's own (Python) implementation, from every
 * `tests/reference/*_suite.ts` it finds, with the fixtures' provenance and the known definitional differences.
 *
 * Usage: `deno task validation` (`npx deno run -A scripts/validation_report.ts`); `--stdout` prints instead of
 * writing; `--list` only names the suites and fixtures it would report (cheap: runs no suite); `--suites a,b` runs
 * only those suite files (a partial report, to try the command quickly). The fixtures come
 * from scripts/reference/oracle.py (see scripts/reference/README.md).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import process from "node:process";
import type { Comparison, ComparisonSuite } from "../tests/reference/comparison.ts";
import { ROOT } from "../tests/helpers/process.ts";

/** One suite's rows. */
export interface SuiteResult {
  /** Suite module file, e.g. `properties_suite.ts`. */
  readonly file: string;
  readonly name: string;
  /** The suite's own paragraph, when it has one. */
  readonly description?: string;
  readonly rows: readonly Comparison[];
}

/** Provenance block of one fixture file. */
export interface FixtureProvenance {
  readonly file: string;
  readonly rdkit?: string;
  readonly date?: string;
  readonly script?: string;
  readonly inchi_program?: string;
}

/** Suite modules under tests/reference, sorted. */
export function suiteFiles(root = ROOT): string[] {
  return readdirSync(join(root, "tests/reference")).filter((f) => f.endsWith("_suite.ts")).sort();
}

/** Every exported ComparisonSuite of a module. */
function suitesOf(module: Record<string, unknown>): ComparisonSuite[] {
  return Object.values(module).filter((x): x is ComparisonSuite =>
    typeof x === "object" && x !== null && typeof (x as ComparisonSuite).run === "function" &&
    typeof (x as ComparisonSuite).name === "string"
  );
}

/**
 * Imports and runs every suite: those on the validation set first, then those on molecules outside it, so the
 * known differences are numbered in that order too.
 */
export async function runSuites(root = ROOT, only?: readonly string[]): Promise<SuiteResult[]> {
  const out: SuiteResult[] = [];
  const later: SuiteResult[] = [];
  for (const file of suiteFiles(root).filter((f) => !only || only.includes(f))) {
    const module = await import(pathToFileURL(join(root, "tests/reference", file)).href) as Record<
      string,
      unknown
    >;
    for (const suite of suitesOf(module)) {
      const rows = await suite.run();
      (suite.heldOut ? later : out).push({
        file,
        name: suite.name,
        rows,
        ...(suite.description ? { description: suite.description() } : {}),
      });
    }
  }
  return [...out, ...later];
}

/** The provenance of every JSON fixture in tests/data/reference. */
export function fixtureProvenance(root = ROOT): FixtureProvenance[] {
  const dir = join(root, "tests/data/reference");
  return readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((file) => {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as { provenance?: Record<string, unknown> };
    const p = doc.provenance ?? {};
    const text = (key: string) => (typeof p[key] === "string" ? p[key] as string : undefined);
    return {
      file,
      rdkit: text("rdkit"),
      date: text("date"),
      script: text("script"),
      inchi_program: text("inchi_program"),
    };
  });
}

/** One "N left out (ids): reason" part of a row's known_difference. */
interface LeftOut {
  readonly count: number;
  readonly ids: string;
  readonly reason: string;
}

/** Splits a known_difference written by tests/reference/rows.ts into its parts. */
export function leftOutParts(text: string | undefined): LeftOut[] {
  if (!text) return [];
  const marks = [...text.matchAll(/(\d+) left out \(([^)]*)\): /g)];
  return marks.map((m, i) => ({
    count: Number(m[1]),
    ids: m[2]!,
    reason: text.slice(m.index! + m[0].length, marks[i + 1]?.index ?? text.length).trim(),
  }));
}

function cell(text: string, max = 140): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return short.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/**
 * Renders docs/validation.md.
 *
 * @example
 * ```ts
 * renderValidation([{ file: "x_suite.ts", name: "x", rows: [] }], [], "2026.09.1").startsWith("# Validation"); // true
 * ```
 */
export function renderValidation(
  results: readonly SuiteResult[],
  provenance: readonly FixtureProvenance[],
  ourRDKit: string,
): string {
  // Each reason once; under it, each set of molecules with the rows (grouped by tool) that left them out.
  const reasons: { reason: string; groups: Map<string, Map<string, string[]>> }[] = [];
  const reasonIndex = (part: LeftOut, row: Comparison) => {
    let i = reasons.findIndex((r) => r.reason === part.reason);
    if (i < 0) i = reasons.push({ reason: part.reason, groups: new Map() }) - 1;
    const key = `${part.count}: ${part.ids}`;
    const byTool = reasons[i]!.groups.get(key) ?? new Map<string, string[]>();
    byTool.set(row.tool, [...(byTool.get(row.tool) ?? []), row.field]);
    reasons[i]!.groups.set(key, byTool);
    return i + 1;
  };
  const lines: string[] = [
    "# Validation against RDKit",
    "",
    "<!-- Generated by scripts/validation_report.ts (`deno task validation`); do not edit by hand. -->",
    "",
    "Every tool with an RDKit counterpart is compared, molecule by molecule, with RDKit's own Python " +
    "implementation on the validation set `tests/data/reference/molecules.smi` (1,301 structures; sources and " +
    "licences in [data/validation_set.md](data/validation_set.md)). The reference answers are fixtures written by " +
    "`scripts/reference/oracle.py` (how to re-run it: `scripts/reference/README.md`); the tests in " +
    "`tests/reference/*_test.ts` assert every row below under Deno and Node. The held-out section compares the " +
    "fields where the two RDKit versions were seen to differ on molecules outside the set.",
    "",
    "Agreement is exact for integers, booleans, strings, bit sets and alert sets; floats agree within half a unit of " +
    "the decimal the tool reports. Where RDKit 2022.09 and the RDKit our tools run on differ by definition, the " +
    "molecules concerned are left out of a row only after the suite has checked, molecule by molecule, that the " +
    "difference is the stated one; they are listed under [Known differences](#known-differences).",
    "",
    "## Provenance",
    "",
    `- Tools: RDKit MinimalLib ${ourRDKit} (WebAssembly, \`@rdkit/rdkit\`).`,
    "- Reference: the fixtures below, each carrying the exact RDKit calls in its `provenance`.",
    "",
    "| Fixture | RDKit | Written | By | Other programs |",
    "| ------- | ----- | ------- | -- | -------------- |",
    ...provenance.map((p) =>
      `| \`${p.file}\` | ${p.rdkit ?? "–"} | ${p.date ?? "–"} | \`${p.script ?? "–"}\` | ${
        cell(p.inchi_program ?? "–")
      } |`
    ),
    "",
  ];
  for (const result of results) {
    lines.push(
      `## ${result.name} (\`tests/reference/${result.file}\`)`,
      "",
      ...(result.description ? [result.description, ""] : []),
      "| Tool | Field | Compared | Agreed | Tolerance | Worst case | Left out |",
      "| ---- | ----- | -------: | -----: | --------- | ---------- | -------- |",
    );
    for (const row of result.rows) {
      const parts = leftOutParts(row.known_difference);
      const left = parts.length === 0
        ? "–"
        : parts.map((p) => `${p.count} [D${reasonIndex(p, row)}]`).join(", ");
      lines.push(
        `| ${row.tool} | ${cell(row.field)} | ${row.molecules} | ${row.agreed} | ${cell(row.tolerance)} | ${
          cell(row.worst)
        } | ${left} |`,
      );
    }
    lines.push("");
  }
  lines.push("## Known differences", "");
  if (reasons.length === 0) lines.push("None.", "");
  reasons.forEach((r, i) => {
    lines.push(`**D${i + 1}.** ${r.reason}`, "");
    for (const [molecules, byTool] of r.groups) {
      const rows = [...byTool].map(([tool, fields]) => `${tool} (${fields.join("; ")})`).join(", ");
      lines.push(`- ${molecules} — ${rows}`);
    }
    lines.push("");
  });
  return lines.join("\n");
}

/** True when this file is the program being run (under Deno or Node). */
function isMain(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(resolve(entry)).href === import.meta.url;
}

if (isMain()) {
  if (process.argv.includes("--list")) {
    for (const file of suiteFiles()) console.log(`suite tests/reference/${file}`);
    for (const p of fixtureProvenance()) console.log(`fixture ${p.file} ${p.rdkit ?? "-"} ${p.date ?? "-"}`);
  } else {
    const { loadTestRDKit } = await import("../tests/helpers/rdkit.ts");
    const { rdkit } = await import("../src/chem/rdkit.ts");
    await loadTestRDKit();
    const at = process.argv.indexOf("--suites");
    const only = at < 0 ? undefined : process.argv[at + 1]?.split(",");
    const text = renderValidation(await runSuites(ROOT, only), fixtureProvenance(), rdkit().version());
    if (process.argv.includes("--stdout")) console.log(text);
    else {
      writeFileSync(join(ROOT, "docs/validation.md"), text);
      console.error("wrote docs/validation.md");
    }
  }
}
