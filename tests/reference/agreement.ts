/**
 * The assertion every reference test makes: each row of a suite agrees on every molecule it compares, and the
 * compared molecules plus those a checked known difference leaves out are the whole set.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Comparison, ComparisonSuite } from "./comparison.ts";

/** Molecules a row leaves out by known differences (the `N left out` counts rows.ts writes). */
export function leftOut(row: Comparison): number {
  return [...(row.known_difference ?? "").matchAll(/(\d+) left out \(/g)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

/**
 * Runs `suite` and asserts full agreement. `expected(row)` gives how many items the row must cover (molecules of the
 * validation set, pairs or groups).
 */
export async function assertAgreement(
  suite: ComparisonSuite,
  expected: (row: Comparison) => number,
): Promise<readonly Comparison[]> {
  const rows = await suite.run();
  assert.ok(rows.length > 0, `${suite.name}: no rows`);
  const problems = rows.flatMap((row) => {
    const where = `${row.tool} ${row.field}`;
    const out: string[] = [];
    if (row.agreed !== row.molecules) {
      out.push(`${where}: ${row.agreed}/${row.molecules} agree (${row.tolerance}); worst ${row.worst}`);
    }
    if (row.molecules + leftOut(row) !== expected(row)) {
      out.push(`${where}: covers ${row.molecules} + ${leftOut(row)} left out, expected ${expected(row)}`);
    }
    return out;
  });
  assert.deepEqual(problems, [], `${suite.name}: disagreements with RDKit 2022.09:\n${problems.join("\n")}`);
  return rows;
}
