/**
 * R-group decomposition of a series over one or several cores, by RDKit's RGroupDecomposition (MinimalLib
 * `get_rgd`) with its default parameters, as RDKit's Python `RGroupDecompose(cores, mols, asSmiles=True,
 * asRows=True)` gives it: per matched molecule the core with its attachment points labelled and each R group
 * as SMILES with RDKit's attachment labels (`[*:1]`). Without a core, the core is the series' maximum common
 * substructure (FMCS, as find_mcs finds it, with complete rings only so that no ring is cut open).
 *
 * @module
 */
import { ChemError, preview } from "../errors.ts";
import { findMcs } from "./mcs.ts";
import { MAX_HEAVY_ATOMS, type Mol, parseSmiles, rdkit, rdkitReason } from "./rdkit.ts";

/** Most molecules one decomposition takes (training series and molecules to predict together). */
export const MAX_RGROUP_MOLECULES = 1_100;
/** Most cores one decomposition tries. */
export const MAX_CORES = 10;
/** Most atoms of a core: RDKit enumerates the core's matches in each molecule, which grow with its size. */
export const MAX_CORE_ATOMS = 60;
/**
 * Most wildcard atoms (`*`, atomic number 0) in a core. RDKit reads each as a possible attachment point and tries
 * every atom of the molecule, or none, at each: six unlabelled wildcards in a chain take a second per branched
 * molecule, forty would not end. Real cores label a handful of R positions.
 */
export const MAX_CORE_WILDCARDS = 10;
/**
 * Most ways (ununiquified) one core may match one molecule. RDKit weighs every match of every molecule when it
 * assigns the labels; a symmetric core (a neopentyl, an any-atom ring) on a molecule holding many copies of it
 * matches thousands of ways, each costing a full decomposition. A phenyl core on a molecule with four phenyls
 * matches 48 ways.
 */
export const MAX_CORE_MATCHES = 1_000;
/** Molecules the MCS is taken over when no core is given, spread evenly over the series (find_mcs's limit). */
export const MCS_SAMPLE = 20;

/** A decomposition. */
export interface Decomposition {
  /** The cores as used: given, or the MCS SMARTS. */
  readonly cores: readonly string[];
  /** True when the core is the series' MCS. */
  readonly mcs: boolean;
  /** Column names in RDKit's order: `Core`, then `R1`, `R2`, … */
  readonly columns: readonly string[];
  /** Matched molecules in input order: their index and one SMILES per column (null where RDKit gave none). */
  readonly rows: readonly { readonly index: number; readonly groups: readonly (string | null)[] }[];
  /** Indices of the molecules no core matched. */
  readonly unmatched: readonly number[];
}

/** A core is read as SMARTS when it holds what only SMARTS writes (lists, logic, atomic numbers) or is no SMILES. */
const SMARTS_ONLY = /[;&,!~$]|\[#\d/;

function parseCore(text: string, position: number): Mol {
  const smarts = SMARTS_ONLY.test(text) || !isSmiles(text);
  rdkitReason();
  const mol = smarts ? rdkit().get_qmol(text) : parseSmiles(text, MAX_CORE_ATOMS);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    const reason = rdkitReason();
    throw new ChemError(
      "INVALID_SMARTS",
      `Core ${position} '${preview(text)}' is neither SMILES nor SMARTS RDKit reads${
        reason ? `: ${reason}` : ""
      }.`,
      { core: position },
    );
  }
  const wildcards = wildcardCount(mol);
  if (wildcards > MAX_CORE_WILDCARDS) {
    mol.delete();
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `Core ${position} has ${wildcards} wildcard atoms; a core has at most ${MAX_CORE_WILDCARDS} (label the ` +
        "R positions, e.g. [*:1], and write the rest as atoms).",
      { core: position, wildcards, limit: MAX_CORE_WILDCARDS, limit_name: "core_wildcards" },
    );
  }
  if (mol.get_num_atoms() > MAX_CORE_ATOMS) {
    const atoms = mol.get_num_atoms();
    mol.delete();
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `Core ${position} has ${atoms} atoms; a core has at most ${MAX_CORE_ATOMS}.`,
      { core: position, atoms, limit: MAX_CORE_ATOMS },
    );
  }
  return mol;
}

function wildcardCount(mol: Mol): number {
  const doc = JSON.parse(mol.get_json()) as { molecules?: { atoms?: { z?: number }[] }[] };
  return (doc.molecules?.[0]?.atoms ?? []).filter((a) => a.z === 0).length;
}

/** Refuses a molecule that a core matches more than {@link MAX_CORE_MATCHES} ways, before RDKit weighs them all. */
function checkMatches(mol: Mol, cores: readonly Mol[], index: number): void {
  const details = JSON.stringify({ uniquify: false, maxMatches: MAX_CORE_MATCHES + 1 });
  cores.forEach((core, position) => {
    const matches = (JSON.parse(mol.get_substruct_matches(core, details) || "[]") as unknown[]).length;
    if (matches > MAX_CORE_MATCHES) {
      throw new ChemError(
        "MOLECULE_TOO_LARGE",
        `Core ${position} matches molecule ${index} (0-based) more than ${MAX_CORE_MATCHES} ways; use a more ` +
          "specific core (label its R positions, or write atoms for wildcards).",
        { core: position, index, limit: MAX_CORE_MATCHES, limit_name: "core_matches" },
      );
    }
  });
}

function isSmiles(text: string): boolean {
  const mol = rdkit().get_mol(text);
  const ok = !!mol && mol.is_valid();
  mol?.delete();
  return ok;
}

/** The MCS of up to {@link MCS_SAMPLE} molecules spread over the series, complete rings only. */
function seriesMcs(smiles: readonly string[]): string {
  const step = Math.max(1, Math.ceil(smiles.length / MCS_SAMPLE));
  const sample = smiles.filter((_, i) => i % step === 0).slice(0, MCS_SAMPLE);
  return findMcs(sample.length >= 2 ? sample : [...sample, ...sample], { completeRingsOnly: true }).smarts;
}

/** What RDKit's rows hold: column name → molecule. */
type RdkitRow = Record<string, Mol>;

/**
 * Decomposes `smiles` (input order kept) over `cores`, or over the MCS of the series' first `mcsOver` molecules
 * when none are given. RDKit's own timeout stops matching at `deadline` (COMPUTATION_TIMEOUT).
 *
 * @example
 * ```ts
 * decompose(["c1ccccc1C", "c1ccccc1CC", "CCC"], ["c1ccccc1"], { deadline: Date.now() + 10_000 }).rows[1];
 * // { index: 1, groups: ["c1ccc([*:1])cc1", "CC[*:1]"] }
 * ```
 */
export function decompose(
  smiles: readonly string[],
  cores: readonly string[] | undefined,
  options: { readonly deadline: number; readonly mcsOver?: number },
): Decomposition {
  if (smiles.length > MAX_RGROUP_MOLECULES) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `At most ${MAX_RGROUP_MOLECULES} molecules; got ${smiles.length}.`,
      {
        count: smiles.length,
        limit: MAX_RGROUP_MOLECULES,
      },
    );
  }
  const mcs = !cores || cores.length === 0;
  const used = mcs ? [seriesMcs(smiles.slice(0, options.mcsOver ?? smiles.length))] : [...cores];
  const coreMols: Mol[] = [];
  const list = new (rdkit().MolList)();
  try {
    used.forEach((text, i) => coreMols.push(parseCore(text, i)));
    for (const core of coreMols) list.append(core);
    const seconds = Math.max(0.1, (options.deadline - Date.now()) / 1000);
    const rgd = rdkit().get_rgd(
      coreMols.length === 1 ? coreMols[0] : list,
      JSON.stringify({ timeout: seconds }),
    );
    if (!rgd) throw new Error("RDKit refused the R-group decomposition parameters");
    try {
      return { cores: used, mcs, ...run(rgd, coreMols, smiles, options.deadline) };
    } finally {
      rgd.delete();
    }
  } finally {
    list.delete();
    for (const core of coreMols) core.delete();
  }
}

/** How much earlier than ours RDKit's clock may run out (it is set from ours, a moment later). */
const TIMER_SLACK_MS = 100;

const WasmException = (WebAssembly as unknown as { Exception?: abstract new (...args: never[]) => object })
  .Exception;

function isWasmException(error: unknown): boolean {
  return WasmException !== undefined && error instanceof WasmException;
}

type Rgd = NonNullable<ReturnType<ReturnType<typeof rdkit>["get_rgd"]>>;

function run(rgd: Rgd, cores: readonly Mol[], smiles: readonly string[], deadline: number) {
  const matched: number[] = [];
  const unmatched: number[] = [];
  const timeout = () =>
    new ChemError(
      "COMPUTATION_TIMEOUT",
      `R-group matching reached its time limit after ${
        matched.length + unmatched.length
      } of ${smiles.length} ` +
        "molecules; use a more specific core or fewer molecules.",
      { molecules_done: matched.length + unmatched.length },
    );
  try {
    smiles.forEach((text, index) => {
      // RDKit checks its own timeout only now and then; one molecule at a time is checked here.
      if (Date.now() > deadline) throw timeout();
      const mol = moleculeAt(text, index);
      try {
        checkMatches(mol, cores, index);
        (rgd.add(mol) >= 0 ? matched : unmatched).push(index);
      } finally {
        mol.delete();
      }
    });
    rgd.process();
  } catch (error) {
    // RDKit's own timeout arrives as a C++ exception (a WebAssembly.Exception) once its time, ours, is up.
    throw isWasmException(error) && Date.now() >= deadline - TIMER_SLACK_MS ? timeout() : error;
  }
  const raw = rgd.get_rgroups_as_rows() as RdkitRow[];
  const columns: string[] = [];
  const texts = raw.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, mol]) => {
        if (!columns.includes(column)) columns.push(column);
        const text = mol.get_smiles();
        mol.delete();
        return [column, text];
      }),
    )
  );
  const rows = texts.map((row, i) => ({ index: matched[i]!, groups: columns.map((c) => row[c] ?? null) }));
  return { columns, rows, unmatched };
}

function moleculeAt(text: string, index: number): Mol {
  try {
    return parseSmiles(text, MAX_HEAVY_ATOMS);
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    throw new ChemError(error.code, `Molecule ${index} (0-based): ${error.message}`, {
      ...error.details,
      index,
    });
  }
}
