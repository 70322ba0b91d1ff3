/**
 * The shape every comparison with the reference implementation (RDKit's Python, via the fixtures that
 * `scripts/reference/` writes into `tests/data/reference/`) reports. Each `tests/reference/*_suite.ts` module
 * exports a {@link ComparisonSuite}; its `*_test.ts` asserts on the rows and `scripts/validation_report.ts`
 * collects every suite's rows into `docs/validation.md`.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.ts";

/** One compared quantity of one tool over the validation set. */
export interface Comparison {
  /** Tool name, e.g. `calc_properties`. */
  readonly tool: string;
  /** The compared field or aspect, e.g. `logp` or `bond set and labels`. */
  readonly field: string;
  /** Molecules compared. */
  readonly molecules: number;
  /** Molecules within the tolerance. */
  readonly agreed: number;
  /** The tolerance in words with units, e.g. `exact` or `|Δ| ≤ 0.01`. */
  readonly tolerance: string;
  /** The worst case: molecule id, our value and RDKit's. */
  readonly worst: string;
  /** Molecules left out by a known definitional difference, with the reason; absent when none. */
  readonly known_difference?: string;
}

/** A group of comparisons that share a fixture. */
export interface ComparisonSuite {
  /** Short name, e.g. `properties`. */
  readonly name: string;
  /** What the suite compares on, when the heading and the validation set do not say it (one paragraph). */
  readonly description?: () => string;
  /** True for a suite on molecules outside the validation set: the report puts it after the others. */
  readonly heldOut?: boolean;
  /** Computes every row (no assertions). */
  run(): Promise<readonly Comparison[]>;
}

/** Reads a fixture written by `scripts/reference/`, from `tests/data/reference/<file>`. */
export function readFixture<T>(file: string): T {
  return JSON.parse(readFileSync(join(ROOT, "tests/data/reference", file), "utf8")) as T;
}

/** One line of `tests/data/reference/molecules.smi`. */
export interface ValidationMolecule {
  readonly smiles: string;
  readonly id: string;
  readonly source: "nci" | "pubchem" | "chembl24";
}

/** The validation set, in file order. */
export function validationSet(): ValidationMolecule[] {
  return readFileSync(join(ROOT, "tests/data/reference/molecules.smi"), "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [smiles, id, source] = line.split("\t");
      return { smiles: smiles!, id: id!, source: source as ValidationMolecule["source"] };
    });
}
