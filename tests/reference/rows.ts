/**
 * Builders for {@link Comparison} rows: one for fields that must be equal, one for floats within a stated
 * tolerance. A known definitional difference leaves out exactly the molecules it names, and only after the
 * suite has shown, molecule by molecule, that the difference is the stated one (see {@link KnownDifference}).
 *
 * @module
 */
import type { Comparison } from "./comparison.ts";

/** One molecule's value from the tool and from RDKit's Python implementation. */
export interface Pair<T> {
  /** Molecule id of the validation set (or a group/pair label). */
  readonly id: string;
  /** The tool's value; undefined when the tool refused the molecule. */
  readonly ours: T | undefined;
  readonly theirs: T;
}

/**
 * Molecules whose values differ for a stated reason. `explained(id)` must be true for every left-out molecule: it
 * checks the reason on that molecule (e.g. RDKit 2022's own alternative call gives our value), so an unexplained
 * disagreement is never hidden.
 */
export interface KnownDifference {
  /** Why the two implementations differ, with the evidence. */
  readonly reason: string;
  /** True when this molecule's disagreement is the stated one. */
  readonly explained: (id: string) => boolean;
}

/** Shows a value in the report (strings quoted, arrays compact). */
export function show(value: unknown): string {
  return value === undefined ? "(refused the molecule)" : JSON.stringify(value);
}

/** Splits off the disagreeing molecules a known difference explains (the first reason that explains one wins). */
function leaveOut<T>(
  pairs: readonly Pair<T>[],
  agree: (p: Pair<T>) => boolean,
  known: readonly KnownDifference[],
): { compared: Pair<T>[]; left: Map<KnownDifference, Pair<T>[]> } {
  const left = new Map<KnownDifference, Pair<T>[]>();
  const compared: Pair<T>[] = [];
  for (const p of pairs) {
    const reason = agree(p) ? undefined : known.find((k) => k.explained(p.id));
    if (reason) left.set(reason, [...(left.get(reason) ?? []), p]);
    else compared.push(p);
  }
  return { compared, left };
}

function knownText<T>(left: ReadonlyMap<KnownDifference, Pair<T>[]>): string | undefined {
  const parts = [...left].map(([known, pairs]) => {
    const ids = pairs.map((p) => p.id);
    const list = ids.length <= 6
      ? ids.join(", ")
      : `${ids.slice(0, 6).join(", ")} and ${ids.length - 6} more`;
    return `${pairs.length} left out (${list}): ${known.reason}`;
  });
  return parts.length > 0 ? parts.join(" ") : undefined;
}

/**
 * A field that must agree exactly (integers, booleans, strings, bit or alert sets). `same` defaults to equal JSON.
 *
 * @example
 * ```ts
 * exactRow("parse_smiles", "atom_count", [{ id: "NCI-3", ours: 13, theirs: 13 }]).agreed; // 1
 * ```
 */
export function exactRow<T>(
  tool: string,
  field: string,
  pairs: readonly Pair<T>[],
  options: { known?: readonly KnownDifference[]; same?: (a: T, b: T) => boolean; tolerance?: string } = {},
): Comparison {
  const same = options.same ?? ((a: T, b: T) => JSON.stringify(a) === JSON.stringify(b));
  const agree = (p: Pair<T>) => p.ours !== undefined && same(p.ours, p.theirs);
  const { compared, left } = leaveOut(pairs, agree, options.known ?? []);
  const bad = compared.filter((p) => !agree(p));
  const first = bad[0];
  const known_difference = knownText(left);
  return {
    tool,
    field,
    molecules: compared.length,
    agreed: compared.length - bad.length,
    tolerance: options.tolerance ?? "exact",
    worst: first ? `${first.id}: ours ${show(first.ours)}, RDKit ${show(first.theirs)}` : "none differ",
    ...(known_difference ? { known_difference } : {}),
  };
}

/**
 * A float within `tolerance` (absolute). The worst case is the largest |Δ| among the compared molecules.
 *
 * @example
 * ```ts
 * toleranceRow("calc_properties", "logp", [{ id: "NCI-3", ours: 1.5, theirs: 1.50004 }], 5e-5, "|Δ| ≤ 0.00005").agreed; // 1
 * ```
 */
export function toleranceRow(
  tool: string,
  field: string,
  pairs: readonly Pair<number>[],
  tolerance: number,
  toleranceText: string,
  options: { known?: readonly KnownDifference[] } = {},
): Comparison {
  const delta = (p: Pair<number>) =>
    p.ours === undefined ? Number.POSITIVE_INFINITY : Math.abs(p.ours - p.theirs);
  // 1e-9 absorbs binary floating point in the rounding of reported values, far below any stated tolerance.
  const agree = (p: Pair<number>) => delta(p) <= tolerance + 1e-9;
  const { compared, left } = leaveOut(pairs, agree, options.known ?? []);
  let worst: Pair<number> | undefined;
  for (const p of compared) if (!worst || delta(p) > delta(worst)) worst = p;
  const known_difference = knownText(left);
  return {
    tool,
    field,
    molecules: compared.length,
    agreed: compared.filter(agree).length,
    tolerance: toleranceText,
    worst: worst
      ? `${worst.id}: ours ${show(worst.ours)}, RDKit ${worst.theirs} (|Δ| ${deltaText(delta(worst))})`
      : "none compared",
    ...(known_difference ? { known_difference } : {}),
  };
}

function deltaText(delta: number): string {
  return Number.isFinite(delta) ? String(Number(delta.toPrecision(2))) : "∞";
}

/** Half a unit in the last reported decimal: the tolerance of a value the tool rounds to `digits` decimals. */
export function roundingTolerance(digits: number): { tolerance: number; text: string } {
  const tolerance = 0.5 * 10 ** -digits;
  return { tolerance, text: `|Δ| ≤ ${tolerance.toFixed(digits + 1)} (tool rounds to ${digits} decimals)` };
}

/** Row builders that leave out the given known differences in every row they make (one list per suite). */
export function rowBuilder(known: readonly KnownDifference[]) {
  return {
    /** {@link exactRow} with the suite's known differences. */
    exact<T>(
      tool: string,
      field: string,
      pairs: readonly Pair<T>[],
      options: { known?: readonly KnownDifference[]; same?: (a: T, b: T) => boolean; tolerance?: string } =
        {},
    ): Comparison {
      return exactRow(tool, field, pairs, { ...options, known: [...known, ...(options.known ?? [])] });
    },
    /** {@link toleranceRow} with the suite's known differences. */
    near(
      tool: string,
      field: string,
      pairs: readonly Pair<number>[],
      tolerance: number,
      toleranceText: string,
      options: { known?: readonly KnownDifference[] } = {},
    ): Comparison {
      return toleranceRow(tool, field, pairs, tolerance, toleranceText, {
        known: [...known, ...(options.known ?? [])],
      });
    },
  };
}
