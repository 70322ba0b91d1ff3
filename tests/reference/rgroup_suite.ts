/**
 * rgroup_decompose against RDKit's Python (fixture `tests/data/reference/rgroup.json`, written by
 * `scripts/reference/rgroup_oracle.py` with RDKit 2022.09, numpy and scikit-learn): the rows and unmatched
 * molecules of four held-out series (CHEMBL2321810 on its scaffold, cdk2 on purine, bzr on the benzodiazepine
 * ring, 100 ChEMBL actives on benzene) as `RGroupDecompose(cores, mols, asSmiles=True, asRows=True)` gives
 * them, and on CHEMBL2321810 the Free–Wilson fits: ridge as Contrib's FWDecompose (R² 0.81) and the minimum-norm
 * least squares of numpy's lstsq, contributions within 1e-6. R-group SMILES RDKit 2022 wrote are
 * canonicalised by our RDKit before comparing (the two versions write some canonical SMILES differently).
 *
 * @module
 */
import { fitFreeWilson } from "../../src/chem/free_wilson.ts";
import { decompose } from "../../src/chem/rgroup.ts";
import type { Comparison, ComparisonSuite } from "./comparison.ts";
import { readFixture } from "./comparison.ts";
import { ourCanonical } from "./known.ts";
import { exactRow, type Pair, toleranceRow } from "./rows.ts";

/** A fit as the fixture records it. */
export interface FitReference {
  readonly intercept: number;
  readonly r2: number;
  readonly contributions: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** One series of the fixture. */
export interface SeriesReference {
  readonly name: string;
  readonly source: string;
  readonly cores: readonly string[];
  readonly smiles: readonly string[];
  readonly values?: readonly number[];
  readonly columns: readonly string[];
  /** `[index, ...one SMILES per column]`. */
  readonly rows: readonly (readonly [number, ...(string | null)[]])[];
  readonly unmatched: readonly number[];
  readonly fit?: { readonly ridge: FitReference & { readonly alpha: number }; readonly ols: FitReference };
}

/** The fixture file. */
export interface RgroupFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string };
  readonly series: readonly SeriesReference[];
}

/** The same SMILES, or RDKit 2022's canonicalised by ours. */
const sameSmiles = (ours: string | null, theirs: string | null) =>
  ours === theirs || (ours !== null && theirs !== null && ours === ourCanonical(theirs));

/** Fit tolerance: the 1e-6 on every contribution, the intercept and r². */
const FIT_TOLERANCE = 1e-6;

function fitRows(s: SeriesReference, ours: ReturnType<typeof decompose>): Comparison[] {
  if (!s.fit || !s.values) return [];
  const values = s.values;
  // Our SMILES for each of RDKit's, read off the rows (which agree), so contributions are matched by substituent.
  const ourText = new Map<string, string>();
  const theirsByIndex = new Map(s.rows.map((r) => [r[0], r]));
  for (const row of ours.rows) {
    const theirs = theirsByIndex.get(row.index);
    s.columns.forEach((c, k) => {
      const t = theirs?.[k + 1];
      const o = row.groups[ours.columns.indexOf(c)];
      if (t != null && o != null) ourText.set(`${c} ${t}`, o);
    });
  }
  const table = ours.rows.map((r) => r.groups);
  const y = ours.rows.map((r) => values[r.index]!);
  return (["ridge", "ols"] as const).flatMap((method) => {
    const reference = s.fit![method];
    const fit = fitFreeWilson(ours.columns, table, y, method, 1);
    const pairs: Pair<number>[] = [
      { id: "intercept", ours: fit.intercept, theirs: reference.intercept },
      { id: "r2", ours: fit.r2, theirs: reference.r2 },
    ];
    for (const [column, subs] of Object.entries(reference.contributions)) {
      for (const [smiles, value] of Object.entries(subs)) {
        const mine = ourText.get(`${column} ${smiles}`);
        pairs.push({
          id: `${column} ${smiles}`,
          ours: mine === undefined ? undefined : fit.contributions[column]?.[mine],
          theirs: value,
        });
      }
    }
    const label = method === "ridge" ? "FWDecompose (Ridge alpha 1)" : "numpy lstsq (minimum norm)";
    return [
      toleranceRow(
        "rgroup_decompose",
        `${s.name}: ${method} fit vs ${label}, intercept, r² and every contribution`,
        pairs,
        FIT_TOLERANCE,
        "|Δ| ≤ 1e-6",
      ),
    ];
  });
}

/** The suite. */
export const rgroupSuite: ComparisonSuite = {
  name: "rgroup",
  description: () =>
    "R-group decomposition and Free–Wilson fits of four held-out series that Debian's rdkit-data ships " +
    "(scripts/reference/rgroup_oracle.py); each row compares one matched molecule's core and R groups.",
  heldOut: true,
  run() {
    const fixture = readFixture<RgroupFixture>("rgroup.json");
    const rows: Comparison[] = [];
    for (const s of fixture.series) {
      const ours = decompose(s.smiles, s.cores, { deadline: Date.now() + 120_000 });
      const byIndex = new Map(ours.rows.map((r) => [r.index, r]));
      const pairs: Pair<readonly (string | null)[]>[] = s.rows.map(([index, ...groups]) => {
        const mine = byIndex.get(index);
        return {
          id: `${s.name} #${index}`,
          ours: mine ? s.columns.map((c) => mine.groups[ours.columns.indexOf(c)] ?? null) : undefined,
          theirs: groups,
        };
      });
      rows.push(
        exactRow("rgroup_decompose", `${s.name}: rows (core and R groups as SMILES)`, pairs, {
          same: (a, b) => a.length === b.length && a.every((x, i) => sameSmiles(x, b[i] ?? null)),
          tolerance: "equal SMILES (RDKit 2022's recanonicalised by ours)",
        }),
        exactRow("rgroup_decompose", `${s.name}: unmatched molecules`, [
          { id: s.name, ours: [...ours.unmatched], theirs: [...s.unmatched] },
        ]),
        ...fitRows(s, ours),
      );
    }
    return Promise.resolve(rows);
  },
};
