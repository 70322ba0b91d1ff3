/**
 * parse_smiles, canonical_smiles, the InChI of representation_router and the identifiers of molecule_context_pack
 * against RDKit 2022.09 (tests/data/reference/identity.json, written by scripts/reference/oracle.py).
 *
 * Canonical SMILES are compared by identity, not text: the fixture's RDKit 2022.09 SMILES is canonicalised by our
 * RDKit and must equal the tool's output. RDKit's canonical atom ranking has changed between releases, so equal
 * text is not what "the same canonical molecule" means across versions; a second row reports how often the text is
 * identical anyway, and which molecules' text differs.
 *
 * @module
 */
import { type ComparisonSuite, readFixture, validationSet } from "./comparison.ts";
import { exactRow, type Pair, roundingTolerance, rowBuilder } from "./rows.ts";
import {
  attempt,
  elementDataDifference,
  type ElementTable,
  type KnownDifference,
  ourCanonical,
  periodicTableShift,
  VALENCE_REFUSED,
} from "./known.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { identifiers } from "../../src/chem/represent.ts";
import { parseSmilesTool } from "../../src/tools/parse_smiles.ts";
import { canonicalSmilesTool } from "../../src/tools/canonical_smiles.ts";
import { representationRouterTool } from "../../src/tools/representation_router.ts";

/** One molecule of identity.json. */
export interface IdentityRecord {
  readonly id: string;
  readonly atoms: number;
  readonly atoms_h: number;
  readonly bonds: number;
  readonly mw: number;
  readonly fragments: number;
  readonly canonical: string;
  readonly formula: string;
  readonly inchi: string;
  readonly inchikey: string;
}

interface Computed {
  readonly ref: IdentityRecord;
  readonly smiles: string;
  readonly parsed?: Awaited<ReturnType<typeof parseSmilesTool.run>>;
  readonly canonical?: string;
  readonly router?: Awaited<ReturnType<typeof representationRouterTool.run>>;
  readonly ids?: ReturnType<typeof identifiers>;
}

async function compute(): Promise<Computed[]> {
  await loadTestRDKit();
  const fixture = readFixture<{ molecules: IdentityRecord[] }>("identity.json");
  const out: Computed[] = [];
  for (const [i, m] of validationSet().entries()) {
    const ref = fixture.molecules[i]!;
    if (ref.id !== m.id) throw new Error(`identity.json out of step with molecules.smi at ${m.id}`);
    const args = { smiles: m.smiles };
    out.push({
      ref,
      smiles: m.smiles,
      parsed: await attempt(() => parseSmilesTool.run(args)),
      canonical: (await attempt(() => canonicalSmilesTool.run(args)))?.canonical_smiles,
      router: await attempt(() => representationRouterTool.run({ ...args, task_kind: "identity_dedup" })),
      // molecule_context_pack's identifiers section is exactly this call (src/tools/molecule_context_pack.ts);
      // running the whole pack would repeat every tool the other suites already compare.
      ids: await attempt(() => identifiers(m.smiles)),
    });
  }
  return out;
}

const R = rowBuilder([VALENCE_REFUSED]);

function pairs<T>(
  rows: readonly Computed[],
  ours: (c: Computed) => T | undefined,
  theirs: (r: IdentityRecord) => T,
): Pair<T>[] {
  return rows.map((c) => ({ id: c.ref.id, ours: ours(c), theirs: theirs(c.ref) }));
}

/** The identity suite. */
export const identitySuite: ComparisonSuite = {
  name: "identity",
  async run() {
    const rows = await compute();
    const table =
      readFixture<{ provenance: { elements: ElementTable } }>("properties.json").provenance.elements;
    const byId = new Map(rows.map((c) => [c.ref.id, c]));
    const mwKnown = elementDataDifference(
      "average",
      (id) => {
        const c = byId.get(id)!;
        return c.parsed ? c.parsed.molecular_weight - c.ref.mw : undefined;
      },
      (id) => periodicTableShift(table, byId.get(id)!.smiles).mw,
      roundingTolerance(3).tolerance,
    );
    const sameMolecule = (ours: string, theirs: string) => ours === ourCanonical(theirs);
    const r3 = roundingTolerance(3);
    return [
      R.exact("parse_smiles", "atom_count", pairs(rows, (c) => c.parsed?.atom_count, (r) => r.atoms)),
      R.exact(
        "parse_smiles",
        "atom_count_with_hydrogens",
        pairs(rows, (c) => c.parsed?.atom_count_with_hydrogens, (r) => r.atoms_h),
      ),
      R.exact("parse_smiles", "bond_count", pairs(rows, (c) => c.parsed?.bond_count, (r) => r.bonds)),
      R.near(
        "parse_smiles",
        "molecular_weight",
        pairs(rows, (c) => c.parsed?.molecular_weight, (r) => r.mw),
        r3.tolerance,
        r3.text,
        { known: [mwKnown] },
      ),
      R.exact(
        "parse_smiles",
        "fragment_count",
        pairs(rows, (c) => c.parsed?.fragment_count, (r) => r.fragments),
      ),
      R.exact(
        "parse_smiles",
        "canonical_smiles (same molecule)",
        pairs(rows, (c) => c.parsed?.canonical_smiles, (r) => r.canonical),
        { same: sameMolecule, tolerance: "exact (RDKit 2022's SMILES re-canonicalised by our RDKit)" },
      ),
      R.exact(
        "canonical_smiles",
        "canonical_smiles (same molecule)",
        pairs(rows, (c) => c.canonical, (r) => r.canonical),
        {
          same: sameMolecule,
          tolerance: "exact (RDKit 2022's SMILES re-canonicalised by our RDKit)",
        },
      ),
      canonicalTextRow(rows),
      R.exact(
        "representation_router",
        "text (standard InChI, task_kind identity_dedup)",
        pairs(rows, (c) => c.router?.text, (r) => r.inchi),
        { known: inchiKnown(byId) },
      ),
      R.exact(
        "molecule_context_pack",
        "identifiers.inchi",
        pairs(rows, (c) => c.ids?.inchi, (r) => r.inchi),
        {
          known: inchiKnown(byId),
        },
      ),
      R.exact(
        "molecule_context_pack",
        "identifiers.inchikey",
        pairs(rows, (c) => c.ids?.inchikey, (r) => r.inchikey),
        { known: inchiKnown(byId) },
      ),
      R.exact(
        "molecule_context_pack",
        "identifiers.formula",
        pairs(rows, (c) => c.ids?.formula, (r) => r.formula),
        { known: [hillWithoutCarbon(byId)] },
      ),
    ];
  },
};

/**
 * The canonical SMILES text itself. Where it differs from RDKit 2022.09's, the difference must be the canonical
 * atom order only: both strings are the same molecule to our RDKit (checked per molecule).
 */
function canonicalTextRow(rows: readonly Computed[]) {
  const byId = new Map(rows.map((c) => [c.ref.id, c]));
  return exactRow(
    "canonical_smiles",
    "canonical_smiles (identical text)",
    rows.map((c) => ({ id: c.ref.id, ours: c.canonical, theirs: c.ref.canonical })),
    {
      known: [VALENCE_REFUSED, {
        reason:
          "RDKit's canonical SMILES are comparable only within one RDKit version: the algorithm (Schneider, " +
          "Sayle & Landrum 2015) is unchanged, but fixes elsewhere in the toolkit since 2022.09 (chirality in the " +
          "ranking, stereo perception, valence handling) change the atom order of some molecules (rdkit/rdkit " +
          "discussion #8964; 2022.09.1 release notes). For each molecule left out, our RDKit canonicalises RDKit " +
          "2022.09's text to our text, so both name the same molecule.",
        explained: (id) => {
          const c = byId.get(id)!;
          return c.canonical !== undefined && ourCanonical(c.ref.canonical) === c.canonical;
        },
      }],
    },
  );
}

/** Element symbols with their counts, and the charge suffix, of a formula such as "H12CoN7O3+2". */
function formulaParts(formula: string): { counts: string[]; charge: string } {
  const m = /^(.*?)([+-]\d*)?$/.exec(formula)!;
  return {
    counts: [...m[1]!.matchAll(/([A-Z][a-z]?)(\d*)/g)].map((x) => `${x[1]}${x[2]}`),
    charge: m[2] ?? "",
  };
}

/** RDKit's CalcMolFormula puts H first in carbon-free formulas; the Hill system puts every symbol in alphabetical order. */
function hillWithoutCarbon(byId: ReadonlyMap<string, Computed>): KnownDifference {
  return {
    reason:
      "For a formula without carbon, RDKit's CalcMolFormula writes H first (H6B4N2O7); the Hill system " +
      "(Hill, J. Am. Chem. Soc. 1900, 22, 478) that the tool documents orders every symbol alphabetically when there " +
      "is no carbon (B4H6N2O7). For each molecule left out the formula has no C, the element counts and charge are " +
      "equal, and ours is alphabetical.",
    explained: (id) => {
      const c = byId.get(id)!;
      if (!c.ids) return false;
      const ours = formulaParts(c.ids.formula);
      const theirs = formulaParts(c.ref.formula);
      const symbols = ours.counts.map((x) => x.replace(/\d+$/, ""));
      return !symbols.includes("C") && ours.charge === theirs.charge &&
        JSON.stringify([...ours.counts].sort()) === JSON.stringify([...theirs.counts].sort()) &&
        JSON.stringify(symbols) === JSON.stringify([...symbols].sort());
    },
  };
}

/** The InChI differences, each checked on the molecule. */
function inchiKnown(byId: ReadonlyMap<string, Computed>): KnownDifference[] {
  const perchlorate = (smiles: string) => smiles.includes("Cl(=O)(=O)=O");
  return [
    {
      reason:
        "Perchlorate (Cl bonded to four O): the IUPAC InChI 1.03 program the oracle runs (Debian's RDKit " +
        "2022.09 is built without InChI) and the InChI library bundled with our RDKit write its hydrogen and " +
        "charge layers differently (1.03: `/q;-1/p+1` or a fixed `2H`; ours: the mobile-H group `(H,2,3,4,5)`). " +
        "The test checks that the molecule has a perchlorate group and that the two InChIs agree everywhere else: " +
        "formula without the ClO4 component, connections, the other component's hydrogens, stereo.",
      explained: (id) => {
        const c = byId.get(id)!;
        return perchlorate(c.smiles) && c.ids !== undefined &&
          JSON.stringify(inchiOutsidePerchlorate(c.ids.inchi)) ===
            JSON.stringify(inchiOutsidePerchlorate(c.ref.inchi));
      },
    },
    {
      reason:
        "The oracle's MOL-block route let InChI 1.03 read double-bond geometry from 2D coordinates for a " +
        "porphyrin macrocycle's Kekulé bonds that the SMILES leaves unspecified (a `/b` layer); ours has none, " +
        "which is right for this input. The test checks that the two InChIs differ only by that `/b` layer.",
      explained: (id) => {
        const c = byId.get(id)!;
        return c.ids !== undefined && c.ids.inchi === c.ref.inchi.replace(/\/b[^/]*/, "") &&
          !c.smiles.includes("/") && !c.smiles.includes("\\");
      },
    },
  ];
}

/**
 * An InChI's layers with the perchlorate component's share taken out: the formula without `ClO4`/`ClHO4`, the
 * hydrogen layer's first component only, and no charge or proton layers; every other layer whole.
 */
function inchiOutsidePerchlorate(inchi: string): string[] {
  const [, formula = "", ...layers] = inchi.split("/");
  return [
    formula.split(".").filter((part) => !/^ClH?O4$/.test(part)).join("."),
    ...layers.filter((layer) => !/^[qp]/.test(layer)).map((layer) =>
      layer.startsWith("h") ? layer.split(";")[0]! : layer
    ),
  ];
}
