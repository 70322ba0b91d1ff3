/**
 * calc_properties, lipinski_check, boiled_egg and admet_profile against RDKit 2022.09's descriptor calls on the
 * largest component (tests/data/reference/properties.json, written by scripts/reference/oracle.py).
 *
 * @module
 */
import { type Comparison, type ComparisonSuite, readFixture, validationSet } from "./comparison.ts";
import { type Pair, roundingTolerance, rowBuilder } from "./rows.ts";
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
import { boiledEggZones } from "../../src/chem/boiled_egg.ts";
import { LIPINSKI_THRESHOLDS } from "../../src/chem/properties.ts";
import { calcPropertiesTool } from "../../src/tools/calc_properties.ts";
import { lipinskiCheckTool } from "../../src/tools/lipinski_check.ts";
import { boiledEggTool } from "../../src/tools/boiled_egg.ts";
import { admetProfileTool } from "../../src/tools/admet_profile.ts";

/** One molecule of properties.json. */
export interface PropertiesRecord {
  readonly id: string;
  readonly parent: string;
  readonly fragments: number;
  readonly mw: number;
  readonly exact_mass: number;
  readonly logp: number;
  readonly tpsa: number;
  readonly tpsa_sp: number;
  readonly hbd: number;
  readonly hba: number;
  /** CalcNumHBA's SMARTS with aromatic N restricted to two connections, counted by RDKit 2022.09. */
  readonly hba_x2: number;
  readonly lipinski_hbd: number;
  readonly lipinski_hba: number;
  readonly rotb: number;
  readonly aromatic_rings: number;
  readonly heavy: number;
  readonly qed: number;
  /** QED.properties: MW, ALOGP, HBA, HBD, PSA, ROTB, AROM, ALERTS. */
  readonly qed_props: readonly number[];
}

/** Row builders leaving out the molecules RDKit 2026.09 refuses (see known.ts). */
const R = rowBuilder([VALENCE_REFUSED]);

const QED_KEYS = ["MW", "ALOGP", "HBA", "HBD", "PSA", "ROTB", "AROM", "ALERTS"] as const;

/** One molecule: RDKit's record and each tool's result (undefined when the tool refused the molecule). */
interface Computed {
  readonly ref: PropertiesRecord;
  /** The input SMILES. */
  readonly smiles: string;
  readonly props?: Awaited<ReturnType<typeof calcPropertiesTool.run>>;
  readonly lipinski?: Awaited<ReturnType<typeof lipinskiCheckTool.run>>;
  readonly egg?: Awaited<ReturnType<typeof boiledEggTool.run>>;
  readonly admet?: Awaited<ReturnType<typeof admetProfileTool.run>>;
}

/** properties.json. */
interface PropertiesFixture {
  readonly provenance: { readonly elements: ElementTable };
  readonly molecules: PropertiesRecord[];
}

async function compute(fixture: PropertiesFixture): Promise<Computed[]> {
  await loadTestRDKit();
  const set = validationSet();
  const out: Computed[] = [];
  for (const [i, m] of set.entries()) {
    const ref = fixture.molecules[i]!;
    if (ref.id !== m.id) throw new Error(`properties.json out of step with molecules.smi at ${m.id}`);
    const args = { smiles: m.smiles };
    out.push({
      ref,
      smiles: m.smiles,
      props: await attempt(() => calcPropertiesTool.run(args)),
      lipinski: await attempt(() => lipinskiCheckTool.run(args)),
      egg: await attempt(() => boiledEggTool.run(args)),
      admet: await attempt(() => admetProfileTool.run(args)),
    });
  }
  return out;
}

/**
 * The component a tool described: results name it (`parent_smiles`) only for multi-component input, so for one
 * component it is the input itself, and a `parent_smiles` on a one-component input is a difference too.
 */
function described(
  c: Computed,
  result: { parent_smiles?: string; fragment_count: number } | undefined,
  smiles: string,
): string | undefined {
  if (result === undefined) return undefined;
  if (result.fragment_count > 1) return result.parent_smiles;
  return result.parent_smiles === undefined ? ourCanonical(smiles) : `unexpected parent_smiles ${c.ref.id}`;
}

function pairs<T>(
  rows: readonly Computed[],
  ours: (c: Computed) => T | undefined,
  theirs: (r: PropertiesRecord) => T,
): Pair<T>[] {
  return rows.map((c) => ({ id: c.ref.id, ours: ours(c), theirs: theirs(c.ref) }));
}

function calcRows(
  rows: readonly Computed[],
  masses: { mw: KnownDifference; exact: KnownDifference },
  hba: KnownDifference,
): Comparison[] {
  const tool = "calc_properties";
  const r3 = roundingTolerance(3);
  const r4 = roundingTolerance(4);
  const r2 = roundingTolerance(2);
  const exact = <T>(field: string, ours: (c: Computed) => T, theirs: (r: PropertiesRecord) => T) =>
    R.exact(tool, field, pairs(rows, ours, theirs));
  const near = (
    field: string,
    ours: (c: Computed) => number | undefined,
    theirs: (r: PropertiesRecord) => number,
    tol: { tolerance: number; text: string },
    known: KnownDifference[] = [],
  ) => R.near(tool, field, pairs(rows, ours, theirs), tol.tolerance, tol.text, { known });
  return [
    R.exact(
      tool,
      "parent_smiles (same molecule)",
      pairs(rows, (c) => described(c, c.props, c.smiles), (r) => r.parent),
      {
        same: (ours, theirs) => ours === ourCanonical(theirs),
        tolerance: "exact (RDKit 2022's SMILES re-canonicalised by our RDKit)",
      },
    ),
    exact("fragment_count", (c) => c.props?.fragment_count, (r) => r.fragments),
    near("molecular_weight", (c) => c.props?.molecular_weight, (r) => r.mw, r3, [masses.mw]),
    near("exact_mass", (c) => c.props?.exact_mass, (r) => r.exact_mass, r4, [masses.exact]),
    near("logp", (c) => c.props?.logp, (r) => r.logp, r4),
    near("tpsa", (c) => c.props?.tpsa, (r) => r.tpsa, r2),
    exact("hbd", (c) => c.props?.hbd, (r) => r.hbd),
    R.exact(tool, "hba", pairs(rows, (c) => c.props?.hba, (r) => r.hba), { known: [hba] }),
    exact("lipinski_hbd", (c) => c.props?.lipinski_hbd, (r) => r.lipinski_hbd),
    exact("lipinski_hba", (c) => c.props?.lipinski_hba, (r) => r.lipinski_hba),
    exact("rotatable_bonds", (c) => c.props?.rotatable_bonds, (r) => r.rotb),
    exact("aromatic_rings", (c) => c.props?.aromatic_rings, (r) => r.aromatic_rings),
    exact("heavy_atoms", (c) => c.props?.heavy_atoms, (r) => r.heavy),
    near("qed", (c) => c.props?.qed, (r) => r.qed, r4),
    ...QED_KEYS.map((key, k) =>
      key === "MW" || key === "ALOGP" || key === "PSA"
        ? near(
          `qed_details.properties.${key}`,
          (c) => qedInput(c, key),
          (r) => r.qed_props[k]!,
          r4,
          key === "MW" ? [masses.mw] : [],
        )
        : exact(
          `qed_details.properties.${key}`,
          (c) => qedInput(c, key),
          (r) => r.qed_props[k]!,
        )
    ),
  ];
}

function lipinskiRows(rows: readonly Computed[], masses: { mw: KnownDifference }): Comparison[] {
  const tool = "lipinski_check";
  // Lipinski's verdict from RDKit 2022's own four values and the thresholds of src/chem/properties.ts.
  const violations = (r: PropertiesRecord) =>
    [
      r.mw > LIPINSKI_THRESHOLDS.molecular_weight,
      r.logp > LIPINSKI_THRESHOLDS.logp,
      r.lipinski_hbd > LIPINSKI_THRESHOLDS.hbd,
      r.lipinski_hba > LIPINSKI_THRESHOLDS.hba,
    ].filter(Boolean).length;
  const rule = (c: Computed, name: string) => c.lipinski?.rules.find((x) => x.rule === name)?.value;
  return [
    R.near(
      tool,
      "rules.molecular_weight",
      pairs(rows, (c) => rule(c, "molecular_weight"), (r) => r.mw),
      roundingTolerance(3).tolerance,
      roundingTolerance(3).text,
      { known: [masses.mw] },
    ),
    R.near(
      tool,
      "rules.logp",
      pairs(rows, (c) => rule(c, "logp"), (r) => r.logp),
      roundingTolerance(4).tolerance,
      roundingTolerance(4).text,
    ),
    R.exact(tool, "rules.hbd", pairs(rows, (c) => rule(c, "hbd"), (r) => r.lipinski_hbd)),
    R.exact(tool, "rules.hba", pairs(rows, (c) => rule(c, "hba"), (r) => r.lipinski_hba)),
    R.exact(tool, "violations", pairs(rows, (c) => c.lipinski?.violations, violations)),
    R.exact(tool, "passes", pairs(rows, (c) => c.lipinski?.passes, (r) => violations(r) <= 1)),
  ];
}

function eggRows(rows: readonly Computed[]): Comparison[] {
  const tool = "boiled_egg";
  return [
    R.near(
      tool,
      "logp (WLOGP)",
      pairs(rows, (c) => c.egg?.logp, (r) => r.logp),
      roundingTolerance(4).tolerance,
      roundingTolerance(4).text,
    ),
    R.near(
      tool,
      "tpsa (with S and P)",
      pairs(rows, (c) => c.egg?.tpsa, (r) => r.tpsa_sp),
      roundingTolerance(2).tolerance,
      roundingTolerance(2).text,
    ),
    R.exact(
      tool,
      "gi_absorbed, bbb_penetrant (ellipses applied to RDKit's inputs)",
      pairs(
        rows,
        (c) => c.egg && [c.egg.gi_absorbed, c.egg.bbb_penetrant],
        (r) => {
          const z = boiledEggZones(r.logp, r.tpsa_sp);
          return [z.gi_absorbed, z.bbb_penetrant];
        },
      ),
    ),
  ];
}

/**
 * One of QED's eight inputs as the result gives it: MW, ALOGP, PSA, HBD and ROTB are the top-level fields
 * (QED reads exactly those descriptors), HBA, AROM and ALERTS sit in `qed_details.properties`.
 */
function qedInput(c: Computed, key: string): number | undefined {
  const p = c.props;
  if (p === undefined) return undefined;
  const top: Record<string, number> = {
    MW: p.molecular_weight,
    ALOGP: p.logp,
    PSA: p.tpsa,
    HBD: p.hbd,
    ROTB: p.rotatable_bonds,
  };
  return top[key] ?? (p.qed_details.properties as Record<string, number>)[key];
}

function admetRows(rows: readonly Computed[], masses: { mw: KnownDifference }): Comparison[] {
  const tool = "admet_profile";
  // The descriptors every rule reads are given once, in `inputs`.
  const inputs = (c: Computed) => c.admet?.inputs;
  const r2 = roundingTolerance(2);
  const r3 = roundingTolerance(3);
  const r4 = roundingTolerance(4);
  return [
    R.exact(
      tool,
      "parent_smiles (same molecule)",
      pairs(rows, (c) => described(c, c.admet, c.smiles), (r) => r.parent),
      {
        same: (ours, theirs) => ours === ourCanonical(theirs),
        tolerance: "exact (RDKit 2022's SMILES re-canonicalised by our RDKit)",
      },
    ),
    R.near(
      tool,
      "inputs.tpsa (with S and P; read by bbb, caco2)",
      pairs(
        rows,
        (c) => inputs(c)?.tpsa,
        (r) => r.tpsa_sp,
      ),
      r2.tolerance,
      r2.text,
    ),
    R.near(
      tool,
      "inputs.logp (read by bbb, caco2, herg, cyp3a4, ppb)",
      pairs(
        rows,
        (c) => inputs(c)?.logp,
        (r) => r.logp,
      ),
      r4.tolerance,
      r4.text,
    ),
    R.near(
      tool,
      "inputs.molecular_weight (read by herg, cyp3a4, ppb)",
      pairs(
        rows,
        (c) => inputs(c)?.molecular_weight,
        (r) => r.mw,
      ),
      r3.tolerance,
      r3.text,
      { known: [masses.mw] },
    ),
  ];
}

/** The masses' known difference (periodic-table data), checked per molecule on the parent component. */
function massDifferences(
  rows: readonly Computed[],
  table: ElementTable,
): { mw: KnownDifference; exact: KnownDifference } {
  const byId = new Map(rows.map((c) => [c.ref.id, c]));
  const shifts = new Map<string, { mw: number; exact: number }>();
  const shift = (id: string) => {
    if (!shifts.has(id)) shifts.set(id, periodicTableShift(table, byId.get(id)!.ref.parent));
    return shifts.get(id)!;
  };
  const delta = (
    id: string,
    ours: (c: Computed) => number | undefined,
    theirs: (r: PropertiesRecord) => number,
  ) => {
    const c = byId.get(id)!;
    const value = ours(c);
    return value === undefined ? undefined : value - theirs(c.ref);
  };
  return {
    mw: elementDataDifference(
      "average",
      (id) => delta(id, (c) => c.props?.molecular_weight, (r) => r.mw),
      (id) => shift(id).mw,
      roundingTolerance(3).tolerance,
    ),
    exact: elementDataDifference(
      "monoisotopic",
      (id) => delta(id, (c) => c.props?.exact_mass, (r) => r.exact_mass),
      (id) => shift(id).exact,
      roundingTolerance(4).tolerance,
    ),
  };
}

/** NumHBA: RDKit 2026 no longer counts aromatic N with three connections (checked against RDKit 2022's count). */
function hbaDifference(rows: readonly Computed[]): KnownDifference {
  const byId = new Map(rows.map((c) => [c.ref.id, c]));
  return {
    reason:
      "RDKit changed NumHBA's acceptor SMARTS in 2026 (rdkit/rdkit#8997, fixed by #9060): `[nH0,o,s;+0]` " +
      "became `[nH0X2,o,s;+0]`, so aromatic N with three connections (N-substituted pyrrole, indolizine, " +
      "pyridone, fused-ring bridgehead N) no longer counts; for each molecule left out, RDKit 2022.09 counting " +
      "the revised SMARTS gives our value.",
    explained: (id) => {
      const c = byId.get(id)!;
      return c.props !== undefined && c.props.hba === c.ref.hba_x2;
    },
  };
}

/** The properties suite. */
export const propertiesSuite: ComparisonSuite = {
  name: "properties",
  async run() {
    const fixture = readFixture<PropertiesFixture>("properties.json");
    const rows = await compute(fixture);
    const masses = massDifferences(rows, fixture.provenance.elements);
    return [
      ...calcRows(rows, masses, hbaDifference(rows)),
      ...lipinskiRows(rows, masses),
      ...eggRows(rows),
      ...admetRows(rows, masses),
    ];
  },
};
