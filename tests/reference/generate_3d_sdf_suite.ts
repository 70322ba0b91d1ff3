/**
 * generate_3d's SDF records read back by RDKit's Python (fixture tests/data/reference/sdf_roundtrip.json, written
 * by scripts/reference/sdf_roundtrip.py from the records scripts/sdf_records.ts writes): same connectivity,
 * formal charges and stereo as the SMILES, for every molecule of the geometry fixture, and for every molecule of
 * the stereo set (tests/data/reference/stereo_orders.json) as written and in each of its random atom orders.
 *
 * @module
 */
import type { Comparison, ComparisonSuite } from "./comparison.ts";
import { readFixture } from "./comparison.ts";

/** One record of sdf_roundtrip.json: generated and compared, or refused with an error code. */
export interface RoundTripRecord {
  readonly id: string;
  /** validation, drugs, extra (written in scripts/reference/stereo_orders.py) or orders. */
  readonly set: string;
  readonly smiles: string;
  readonly error?: string;
  readonly connectivity?: boolean;
  readonly charges?: boolean;
  readonly stereo?: boolean;
}

/** sdf_roundtrip.json. */
export interface RoundTripFixture {
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly records: readonly RoundTripRecord[];
}

/** The fixture tests/data/reference/sdf_roundtrip.json. */
export function roundTripFixture(): RoundTripFixture {
  return readFixture<RoundTripFixture>("sdf_roundtrip.json");
}

/** True for the records of the random atom orders (`<id>#<k>`). */
export const isOrder = (r: RoundTripRecord): boolean => r.set === "orders";

/**
 * Rows: structures written, then connectivity, charges and stereo as RDKit reads them, for the validation and
 * drug molecules, the molecules written outside the validation set, and the random orders apart.
 *
 * @example
 * ```ts
 * roundTripRows(roundTripFixture().records);
 * ```
 */
export function roundTripRows(records: readonly RoundTripRecord[]): Comparison[] {
  const rows: Comparison[] = [];
  const groups: [string, RoundTripRecord[]][] = [
    ["validation and drug molecules", records.filter((r) => r.set === "validation" || r.set === "drugs")],
    [
      "stereo-dense molecules outside the validation set, as written",
      records.filter((r) => r.set === "extra"),
    ],
    ["stereo molecules in 3 random atom orders", records.filter(isOrder)],
  ];
  for (const [label, group] of groups) {
    const failed = group.filter((r) => r.error);
    rows.push({
      tool: "generate_3d",
      field: `SDF record written (${label})`,
      molecules: group.length,
      agreed: group.length - failed.length,
      tolerance: "exact",
      worst: failed[0] ? `${failed[0].id}: ${failed[0].error}` : "–",
    });
    for (const key of ["connectivity", "charges", "stereo"] as const) {
      const compared = group.filter((r) => !r.error);
      const wrong = compared.filter((r) => !r[key]);
      rows.push({
        tool: "generate_3d",
        field: `SDF read back by RDKit: ${key} as the SMILES (${label})`,
        molecules: compared.length,
        agreed: compared.length - wrong.length,
        tolerance: "exact",
        worst: wrong[0] ? `${wrong[0].id}: ${wrong[0].smiles}` : "–",
      });
    }
  }
  return rows;
}

/** The suite over the whole fixture. */
export const generate3dSdfSuite: ComparisonSuite = {
  name: "generate_3d SDF read back by RDKit",
  run: () => Promise.resolve(roundTripRows(roundTripFixture().records)),
};
