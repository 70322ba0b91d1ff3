/**
 * Known definitional differences between RDKit 2022.09 (the Python oracle) and RDKit 2026.09 (MinimalLib, what the
 * tools run on) that more than one suite meets, each with a check that a molecule's difference is that one.
 *
 * @module
 */
import { ChemError } from "../../src/errors.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import type { KnownDifference } from "./rows.ts";

export type { KnownDifference } from "./rows.ts";
import { validationSet } from "./comparison.ts";

/**
 * Runs one tool call; a molecule our RDKit refuses to parse (INVALID_SMILES) gives undefined, any other error
 * propagates.
 */
export async function attempt<T>(call: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ChemError && error.code === "INVALID_SMILES") return undefined;
    throw error;
  }
}

/** Al, Si and P: the elements whose allowed valences RDKit narrowed after 2022.09. */
const NARROWED = new Set([13, 14, 15]);

/**
 * True when the molecule parses without sanitisation and has an Al, Si or P atom with six or more bonds: a
 * valence RDKit 2022.09's periodic table allowed (Al 3/6, Si 4/6, P 3/5/7, as
 * `Chem.GetPeriodicTable().GetValenceList` reports and properties.json's provenance records) and 2026.09's
 * sanitisation refuses.
 */
export function hypervalentAlSiP(smiles: string): boolean {
  const mol = rdkit().get_mol(smiles, JSON.stringify({ sanitize: false }));
  if (!mol) return false;
  try {
    const doc = JSON.parse(mol.get_json()) as {
      molecules: { atoms: { z?: number }[]; bonds?: { atoms: [number, number]; bo?: number }[] }[];
    };
    const m = doc.molecules[0]!;
    const valence = new Map<number, number>();
    for (const b of m.bonds ?? []) {
      for (const a of b.atoms) valence.set(a, (valence.get(a) ?? 0) + (b.bo ?? 1));
    }
    return m.atoms.some((a, i) => NARROWED.has(a.z ?? 6) && (valence.get(i) ?? 0) >= 6);
  } finally {
    mol.delete();
  }
}

let refused: Set<string> | undefined;

/** Ids of the validation molecules our RDKit refuses and that {@link hypervalentAlSiP} explains. */
export function valenceRefusedIds(): ReadonlySet<string> {
  refused ??= new Set(
    validationSet()
      .filter((m) => {
        const mol = rdkit().get_mol(m.smiles);
        const valid = !!mol && mol.is_valid();
        mol?.delete();
        return !valid && hypervalentAlSiP(m.smiles);
      })
      .map((m) => m.id),
  );
  return refused;
}

/** {@link VALENCE_REFUSED}'s reason, shared by suites that check it on molecules outside the validation set. */
export const VALENCE_REFUSED_REASON =
  "RDKit 2026.09 refuses these structures at parsing (INVALID_SMILES): each has an Al, Si or P atom with " +
  "six bonds (hexafluorosilicate, hexafluorophosphate, a tris(acetylacetonate)-like Al complex). RDKit " +
  "2022.09's periodic table allowed those valences (Al 3/6, Si 4/6, P 3/5/7, recorded in properties.json's " +
  "provenance); RDKit 2024.09.1 removed valence 6 for Al and Si and 7 for P, As, Sb and Bi (release notes, " +
  "backwards-incompatible changes; rdkit/rdkit#7491). The test checks each one parses unsanitised and has such " +
  "an atom.";

/** RDKit 2026.09 refuses hexa-coordinate Al, Si and P that RDKit 2022.09 accepted, so the tools answer INVALID_SMILES. */
export const VALENCE_REFUSED: KnownDifference = {
  reason: VALENCE_REFUSED_REASON,
  explained: (id) => valenceRefusedIds().has(id),
};

/** RDKit 2022.09's periodic-table data as the oracle recorded it: symbol → [atomic weight, most common isotope mass]. */
export type ElementTable = Readonly<Record<string, readonly [number, number]>>;

/** Our RDKit's [atomic weight, most common isotope mass] of one element, from a one-atom molecule. */
function elementNow(symbol: string): [number, number] {
  const mol = rdkit().get_mol(`[${symbol}]`);
  if (!mol) throw new Error(`cannot parse [${symbol}]`);
  try {
    const d = JSON.parse(mol.get_descriptors()) as Record<string, number>;
    return [d.amw!, d.exactmw!];
  } finally {
    mol.delete();
  }
}

/**
 * How much our RDKit's masses of `smiles` should differ from RDKit 2022.09's through changed periodic-table data
 * alone: Σ over heavy atoms of (weight now − weight then), for average and monoisotopic mass.
 */
export function periodicTableShift(table: ElementTable, smiles: string): { mw: number; exact: number } {
  const mol = rdkit().get_mol(smiles);
  if (!mol) return { mw: 0, exact: 0 };
  try {
    const doc = JSON.parse(mol.get_json()) as { molecules: { atoms: { z?: number }[] }[] };
    let mw = 0;
    let exact = 0;
    for (const atom of doc.molecules[0]!.atoms) {
      const symbol = Object.keys(table).find((s) => atomicNumber(s) === (atom.z ?? 6));
      const then = symbol ? table[symbol] : undefined;
      if (!symbol || !then) continue;
      const now = elementNow(symbol);
      mw += now[0] - then[0];
      exact += now[1] - then[1];
    }
    return { mw, exact };
  } finally {
    mol.delete();
  }
}

const Z = new Map<string, number>();
function atomicNumber(symbol: string): number {
  if (!Z.has(symbol)) {
    const mol = rdkit().get_mol(`[${symbol}]`);
    const doc = JSON.parse(mol!.get_json()) as { molecules: { atoms: { z?: number }[] }[] };
    mol!.delete();
    Z.set(symbol, doc.molecules[0]!.atoms[0]!.z ?? 6);
  }
  return Z.get(symbol)!;
}

/**
 * Molecules whose mass differs only by the periodic-table data: `delta(id)` is our value minus RDKit's, `shift(id)`
 * the part the element data explain; `within` the reporting precision.
 */
export function elementDataDifference(
  field: "average" | "monoisotopic",
  delta: (id: string) => number | undefined,
  shift: (id: string) => number,
  within: number,
): KnownDifference {
  return {
    reason: field === "average"
      ? "RDKit 2022.09's periodic table gives vanadium an atomic weight of 50.942; our RDKit uses 50.944 " +
        "(`Chem.GetPeriodicTable().GetAtomicWeight`, recorded in properties.json's provenance); the test checks " +
        "the whole difference is that of the element data."
      : "RDKit 2022.09's periodic table names ⁵⁰V (49.9472 Da) as vanadium's most common isotope; natural vanadium " +
        "is 99.75 % ⁵¹V (50.9440 Da), which our RDKit uses (`GetMostCommonIsotopeMass`, recorded in " +
        "properties.json's provenance); the test checks the whole difference is that of the element data.",
    explained: (id) => {
      const d = delta(id);
      const s = shift(id);
      return d !== undefined && s !== 0 && Math.abs(d - s) <= within + 1e-9;
    },
  };
}

const recanonicalised = new Map<string, string>();

/**
 * RDKit 2022.09's canonical SMILES canonicalised by our RDKit (memoised: several rows of a suite ask for the same
 * molecule). Two canonical SMILES from different RDKit versions name the same molecule when this maps the older
 * one onto the newer.
 */
export function ourCanonical(theirs: string): string {
  let ours = recanonicalised.get(theirs);
  if (ours === undefined) {
    ours = canonicalSmiles(theirs);
    recanonicalised.set(theirs, ours);
  }
  return ours;
}
