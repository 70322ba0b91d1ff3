/**
 * generate_3d's SDF records read back by RDKit's Python (fixture tests/data/reference/sdf_roundtrip.json, written
 * by scripts/reference/sdf_roundtrip.py from the records scripts/sdf_records.ts writes): same connectivity,
 * formal charges, radicals, hydrogen counts and stereo as the SMILES, for every molecule of the validation set
 * generate_3d builds, the drugs, a few radicals, and every molecule of the stereo set
 * (tests/data/reference/stereo_orders.json) as written and in each of its random atom orders.
 *
 * @module
 */
import type { Comparison, ComparisonSuite } from "./comparison.ts";
import { readFixture } from "./comparison.ts";

/** One record of sdf_roundtrip.json: generated and compared, or refused with an error code. */
export interface RoundTripRecord {
  readonly id: string;
  /**
   * validation and drugs (geometry.json), no-mmff94 (the rest of the validation set), extra (written in
   * scripts/reference/stereo_orders.py), radical (scripts/sdf_records.ts) or orders.
   */
  readonly set: string;
  readonly smiles: string;
  readonly error?: string;
  readonly connectivity?: boolean;
  readonly charges?: boolean;
  readonly radicals?: boolean;
  readonly hydrogens?: boolean;
  readonly stereo?: boolean;
}

/** What RDKit compares in each record, in the order of the report's rows. */
export const ROUND_TRIP_FIELDS = ["connectivity", "charges", "radicals", "hydrogens", "stereo"] as const;

/** generate_3d's refusals by design, met only among the validation molecules outside geometry.json. */
export const REFUSALS: ReadonlySet<string> = new Set(["UNSUPPORTED_MOLECULE", "INVALID_SMILES"]);

/** The group whose molecules generate_3d may refuse: validation molecules without MMFF94 parameters. */
export const NO_MMFF94 =
  "validation molecules without MMFF94 parameters; the rest refused: elements, valences";

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
 * Rows: structures written, then connectivity, charges, radicals, hydrogens and stereo as RDKit reads them, for
 * the validation and drug molecules of geometry.json, the other validation molecules, the molecules written
 * outside the validation set, and the random orders apart.
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
    [NO_MMFF94, records.filter((r) => r.set === "no-mmff94")],
    [
      "stereo-dense molecules and radicals outside the validation set, as written",
      records.filter((r) => r.set === "extra" || r.set === "radical"),
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
    for (const key of ROUND_TRIP_FIELDS) {
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
