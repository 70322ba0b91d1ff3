/**
 * generate_3d against RDKit's ETKDG + MMFF94 geometry of the same molecule (fixture tests/data/reference/
 * geometry.json, written by scripts/reference/geometry.py): bond lengths overall and per bond class (element pair
 * and bond order, aromatic bonds apart), angles overall and per angle class ({@link angleClass}), plus what every
 * structure must keep (convergence, no heavy-atom contact under 2.0 Å).
 *
 * A bond class is written with SMILES bond symbols, `-` single, `=` double, `#` triple, `:` aromatic, `~` zero
 * order (dative), e.g. `C-H`, `C:N`, `S=O`; elements in a fixed order (C, then N, P, S and the other p-block
 * atoms, O, the halogens, H last), so `S=O` and `N=O` read as chemists write them.
 *
 * @module
 */
import { ChemError } from "../../src/errors.ts";
import { generate3d } from "../../src/chem/conformer/index.ts";
import { prepareMolecule } from "../../src/chem/conformer/molecule.ts";
import type { GraphBond, MolGraph } from "../../src/chem/conformer/graph.ts";
import { excludedPairs } from "../../src/chem/conformer/forcefield.ts";
import { pairKey } from "../../src/chem/conformer/graph.ts";
import { angleDegrees, distance } from "../../src/chem/conformer/quality.ts";
import { angleRing } from "../../src/chem/conformer/angles.ts";
import { assignTypes } from "../../src/chem/conformer/typing.ts";
import type { DreidingType } from "../../src/chem/conformer/parameters.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { type Comparison, type ComparisonSuite, readFixture } from "./comparison.ts";

/** One molecule of geometry.json. */
export interface GeometryReference {
  readonly id: string;
  readonly set: "validation" | "drugs";
  readonly smiles: string;
  /** Atoms including hydrogens. */
  readonly atoms: number;
  /** [begin atom, end atom, MMFF94 length in Å]. */
  readonly bonds: readonly (readonly [number, number, number])[];
  /** [end atom, centre, end atom, MMFF94 angle in degrees, MMFF94 reference angle θ0 in degrees]. */
  readonly angles: readonly (readonly [number, number, number, number, number])[];
}

/** geometry.json. */
export interface GeometryFixture {
  readonly provenance: Readonly<Record<string, unknown>>;
  /** Molecules left out by the oracle, by reason. */
  readonly skipped: Readonly<Record<string, readonly string[]>>;
  readonly molecules: readonly GeometryReference[];
}

/** One molecule of geometry_relaxed.json (scripts/reference/geometry_relaxed.py). */
export interface RelaxedReference {
  readonly id: string;
  /** MMFF94 energy, kcal/mol: [of the minimum reached from generate_3d's structure, of ETKDG's]. */
  readonly energy: readonly [number, number];
  /** RMS displacement of the heavy atoms during that minimisation, Å. */
  readonly moved: number;
  /** generate_3d's angles when the fixture was written, geometry.json's order, space-separated degrees. */
  readonly input: string;
  /** MMFF94's angles after minimising from `input`'s structure, same order. */
  readonly relaxed: string;
}

/** geometry_relaxed.json. */
export interface RelaxedFixture {
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly skipped: Readonly<Record<string, readonly string[]>>;
  readonly molecules: readonly RelaxedReference[];
}

/** The fixture tests/data/reference/geometry_relaxed.json, angles parsed, by molecule id. */
export function relaxedFixture(): Map<string, { input: number[]; relaxed: number[] }> {
  const doc = readFixture<RelaxedFixture>("geometry_relaxed.json");
  return new Map(doc.molecules.map((m) => [m.id, {
    input: m.input.split(" ").map(Number),
    relaxed: m.relaxed.split(" ").map(Number),
  }]));
}

/**
 * An angle of ours further than this from the angle geometry_relaxed.json started MMFF94 from means the fixture
 * no longer describes our structure (degrees; its angles are rounded to 0.1° and the SD coordinates to 0.0001 Å).
 */
export const RELAXED_INPUT_TOLERANCE = 0.5;

/** Bounds the issue sets: overall mean |Δ| and the largest bias (mean signed Δ) of any bond class, Å. */
export const MEAN_ABS_BOUND = 0.02;
/** Largest allowed |mean signed Δ| of one bond class, Å. */
export const CLASS_BIAS_BOUND = 0.03;
/**
 * Bond classes whose bias is a known difference, with the reason. None now: C–Si, which MMFF94 stretches
 * 0.04–0.23 Å beyond its own r0 in both silicon compounds, follows MMFF94's structures through the fitted length
 * shifts (src/chem/data/mmff_geometry.ts).
 */
export const KNOWN_CLASS_DIFFERENCES: Readonly<Record<string, string>> = {};
/** Bounds the issue sets for angles: mean |Δ| over all angles, degrees. */
export const ANGLE_MEAN_ABS_BOUND = 1.0;
/** Largest allowed |mean signed Δ| of one angle class, degrees. */
export const ANGLE_CLASS_BIAS_BOUND = 3;
/** Largest allowed |Δ| of any single angle, degrees. */
export const ANGLE_MAX_BOUND = 10;

/** Closest heavy-atom contact allowed (atoms not bonded and not sharing a neighbour), Å. */
export const MIN_HEAVY_CONTACT = 2.0;

/** Bond-length statistics of a set of bonds (Δ = ours − RDKit's, Å). */
export interface BondStats {
  /** Molecules with at least one such bond. */
  molecules: number;
  bonds: number;
  /** Mean Δ, Å. */
  meanSigned: number;
  /** Mean |Δ|, Å. */
  meanAbs: number;
  /** The bond with the largest |Δ|: molecule id, atoms, our length and RDKit's. */
  worst: { id: string; a: number; b: number; ours: number; rdkit: number } | null;
}

/** Everything one comparison run measures. */
export interface GeometryComparison {
  /** Molecules in the fixture that were compared. */
  readonly compared: number;
  /** Molecules generate_3d did not produce, with the error code. */
  readonly failed: readonly { id: string; code: string }[];
  /** Molecules whose bond list differs from the fixture's (atom order differs). */
  readonly orderMismatches: readonly string[];
  /** Molecules not converged (RMS gradient above the tolerance). */
  readonly notConverged: readonly string[];
  /** Molecules with a heavy-atom contact under {@link MIN_HEAVY_CONTACT}. */
  readonly contacts: readonly { id: string; distance: number }[];
  readonly overall: BondStats;
  /** Per bond class, sorted by bond count (largest first). */
  readonly classes: ReadonlyMap<string, BondStats>;
  /** Angles overall (Δ in degrees; `bonds` counts angles, `worst.a`/`b` are the ends). */
  readonly angles: BondStats;
  /** Per angle class ({@link angleClass}), sorted by count. */
  readonly angleClasses: ReadonlyMap<string, BondStats>;
  /** Angles off by more than {@link ANGLE_MAX_BOUND}. */
  readonly anglesOff: number;
  /** Molecules with at least one such angle. */
  readonly moleculesWithAngleOff: number;
  /**
   * Angles against MMFF94's minimum reached from our own structure (geometry_relaxed.json): the same
   * conformation, so what is left is the force field's error, not a different ring pucker or rotamer.
   */
  readonly relaxed: BondStats;
  /** Angles off by more than {@link ANGLE_MAX_BOUND} against that minimum. */
  readonly relaxedOff: number;
  /** Molecules with at least one such angle. */
  readonly moleculesWithRelaxedOff: number;
  /** Of the {@link anglesOff} angles, those within {@link ANGLE_MAX_BOUND} of MMFF94's minimum from ours. */
  readonly offByConformation: number;
  /** Molecules whose structure is no longer the one geometry_relaxed.json relaxed (or that it lacks). */
  readonly relaxedStale: readonly string[];
}

/** Element order inside a class label. */
const ELEMENT_ORDER = "C N P S B Si Se As Ge Sn Sb Te Al Ga In Na Ca Fe Zn O F Cl Br I H".split(" ");
const ORDER_SYMBOL: Readonly<Record<number, string>> = { 0: "~", 1: "-", 2: "=", 3: "#" };

/**
 * The class label of a bond, e.g. `C-H`, `C:C`, `S=O`.
 *
 * @example
 * ```ts
 * bondClass(graph, graph.bonds[0]); // "C-C" for ethane's C–C bond
 * ```
 */
export function bondClass(g: MolGraph, bond: GraphBond): string {
  const rank = (s: string) => {
    const i = ELEMENT_ORDER.indexOf(s);
    return i < 0 ? ELEMENT_ORDER.length : i;
  };
  const [x, y] = [g.atoms[bond.a]!.symbol, g.atoms[bond.b]!.symbol].sort((p, q) =>
    rank(p) - rank(q) || p.localeCompare(q)
  );
  const symbol = bond.aromatic ? ":" : ORDER_SYMBOL[bond.kekule] ?? "?";
  return `${x}${symbol}${y}`;
}

/**
 * The class label of angle i–j–k: the end elements around the centre's DREIDING type, and the ring when the angle
 * lies in a three- or four-membered one, e.g. `C-C_3-H`, `C-C_3-C (3-ring)`.
 *
 * @example
 * ```ts
 * angleClass(graph, types, 0, 1, 2); // "C-C_3-O" for ethanol's C–C–O
 * ```
 */
export function angleClass(
  g: MolGraph,
  types: readonly DreidingType[],
  i: number,
  j: number,
  k: number,
): string {
  const rank = (s: string) => {
    const r = ELEMENT_ORDER.indexOf(s);
    return r < 0 ? ELEMENT_ORDER.length : r;
  };
  const [x, y] = [g.atoms[i]!.symbol, g.atoms[k]!.symbol].sort((p, q) =>
    rank(p) - rank(q) || p.localeCompare(q)
  );
  const ring = angleRing(g, i, j, k);
  return `${x}-${types[j]}-${y}${ring === 3 || ring === 4 ? ` (${ring}-ring)` : ""}`;
}

/** The fixture tests/data/reference/geometry.json. */
export function geometryFixture(): GeometryFixture {
  return readFixture<GeometryFixture>("geometry.json");
}

/**
 * The fixed subset compared in CI: all drugs and every third validation molecule (deterministic, file order).
 * The report script compares the whole fixture.
 */
export function ciSubset(molecules: readonly GeometryReference[]): GeometryReference[] {
  let k = 0;
  return molecules.filter((m) => m.set === "drugs" || k++ % 3 === 0);
}

class Accumulator {
  molecules = new Set<string>();
  bonds = 0;
  signed = 0;
  abs = 0;
  worst: BondStats["worst"] = null;

  add(id: string, a: number, b: number, ours: number, rdkit: number): void {
    const d = ours - rdkit;
    this.molecules.add(id);
    this.bonds++;
    this.signed += d;
    this.abs += Math.abs(d);
    if (!this.worst || Math.abs(d) > Math.abs(this.worst.ours - this.worst.rdkit)) {
      this.worst = { id, a, b, ours, rdkit };
    }
  }

  stats(): BondStats {
    const n = Math.max(this.bonds, 1);
    return {
      molecules: this.molecules.size,
      bonds: this.bonds,
      meanSigned: this.signed / n,
      meanAbs: this.abs / n,
      worst: this.worst,
    };
  }
}

/**
 * Generates every molecule and compares its bond lengths with the fixture's.
 *
 * @example
 * ```ts
 * const result = compareGeometry(ciSubset(geometryFixture().molecules));
 * result.overall.meanAbs; // Å
 * ```
 */
export function compareGeometry(
  molecules: readonly GeometryReference[],
  relaxedAngles: ReadonlyMap<string, { input: number[]; relaxed: number[] }> = relaxedFixture(),
): GeometryComparison {
  const failed: { id: string; code: string }[] = [];
  const orderMismatches: string[] = [];
  const notConverged: string[] = [];
  const contacts: { id: string; distance: number }[] = [];
  const overall = new Accumulator();
  const classes = new Map<string, Accumulator>();
  const angles = new Accumulator();
  const angleClasses = new Map<string, Accumulator>();
  let anglesOff = 0;
  const offMolecules = new Set<string>();
  const relaxed = new Accumulator();
  let relaxedOff = 0;
  let offByConformation = 0;
  const relaxedOffMolecules = new Set<string>();
  const relaxedStale = new Set<string>();
  for (const ref of molecules) {
    let x: Float64Array;
    let graph: MolGraph;
    try {
      const c = generate3d(ref.smiles);
      x = c.coordinates;
      if (!c.converged) notConverged.push(ref.id);
      graph = prepareMolecule(ref.smiles, 200).graph;
    } catch (error) {
      if (!(error instanceof ChemError)) throw error;
      failed.push({ id: ref.id, code: error.code });
      continue;
    }
    if (!sameBonds(graph, ref)) {
      orderMismatches.push(ref.id);
      continue;
    }
    const closest = closestHeavyContact(graph, x);
    if (closest < MIN_HEAVY_CONTACT) contacts.push({ id: ref.id, distance: closest });
    ref.bonds.forEach(([a, b, rdkit], i) => {
      const ours = distance(x, a, b);
      const label = bondClass(graph, graph.bonds[i]!);
      overall.add(ref.id, a, b, ours, rdkit);
      let acc = classes.get(label);
      if (!acc) classes.set(label, acc = new Accumulator());
      acc.add(ref.id, a, b, ours, rdkit);
    });
    const types = assignTypes(graph);
    const mmffFromOurs = relaxedAngles.get(ref.id);
    if (!mmffFromOurs || mmffFromOurs.relaxed.length !== ref.angles.length) relaxedStale.add(ref.id);
    ref.angles.forEach(([i, j, k, rdkit], n) => {
      const ours = angleDegrees(x, i, j, k);
      const fromOurs = mmffFromOurs?.relaxed[n];
      if (fromOurs !== undefined) {
        relaxed.add(ref.id, i, k, ours, fromOurs);
        if (Math.abs(ours - fromOurs) > ANGLE_MAX_BOUND) {
          relaxedOff++;
          relaxedOffMolecules.add(ref.id);
        }
        if (Math.abs(ours - mmffFromOurs!.input[n]!) > RELAXED_INPUT_TOLERANCE) relaxedStale.add(ref.id);
      }
      if (Math.abs(ours - rdkit) > ANGLE_MAX_BOUND) {
        anglesOff++;
        offMolecules.add(ref.id);
        if (fromOurs !== undefined && Math.abs(ours - fromOurs) <= ANGLE_MAX_BOUND) offByConformation++;
      }
      angles.add(ref.id, i, k, ours, rdkit);
      const label = angleClass(graph, types, i, j, k);
      let acc = angleClasses.get(label);
      if (!acc) angleClasses.set(label, acc = new Accumulator());
      acc.add(ref.id, i, k, ours, rdkit);
    });
  }
  const sorted = sortedStats(classes);
  return {
    compared: molecules.length,
    failed,
    orderMismatches,
    notConverged,
    contacts,
    overall: overall.stats(),
    classes: sorted,
    angles: angles.stats(),
    angleClasses: sortedStats(angleClasses),
    anglesOff,
    moleculesWithAngleOff: offMolecules.size,
    relaxed: relaxed.stats(),
    relaxedOff,
    moleculesWithRelaxedOff: relaxedOffMolecules.size,
    offByConformation,
    relaxedStale: [...relaxedStale],
  };
}

function sortedStats(classes: Map<string, Accumulator>): Map<string, BondStats> {
  const sorted = [...classes.entries()].sort((p, q) => q[1].bonds - p[1].bonds || p[0].localeCompare(q[0]));
  return new Map(sorted.map(([label, acc]) => [label, acc.stats()]));
}

/** True when our graph has the fixture's atoms and bonds in the same order (so atom indices mean the same). */
function sameBonds(g: MolGraph, ref: GeometryReference): boolean {
  if (g.atoms.length !== ref.atoms || g.bonds.length !== ref.bonds.length) return false;
  return ref.bonds.every(([a, b], i) => {
    const bond = g.bonds[i]!;
    return pairKey(bond.a, bond.b) === pairKey(a, b);
  });
}

/** Shortest distance between heavy atoms that are neither bonded nor share a neighbour, Å. */
function closestHeavyContact(g: MolGraph, x: Float64Array): number {
  const excluded = excludedPairs(g);
  const heavy = g.atoms.flatMap((atom, i) => (atom.z === 1 ? [] : [i]));
  let closest = Infinity;
  for (let p = 0; p < heavy.length; p++) {
    for (let q = p + 1; q < heavy.length; q++) {
      if (excluded.has(pairKey(heavy[p]!, heavy[q]!))) continue;
      closest = Math.min(closest, distance(x, heavy[p]!, heavy[q]!));
    }
  }
  return closest;
}

const f3 = (v: number) => v.toFixed(3);
const signed3 = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(3);

function worstText(s: BondStats): string {
  const w = s.worst;
  return w ? `${w.id} atoms ${w.a}-${w.b}: ${f3(w.ours)} Å vs ${f3(w.rdkit)} Å` : "–";
}

/**
 * The comparison as report rows: structures generated, convergence, heavy-atom contacts, bond lengths overall
 * and one row per bond class (bonds, mean signed Δ and mean |Δ| in the field text).
 *
 * @example
 * ```ts
 * geometryRows(compareGeometry(geometryFixture().molecules));
 * ```
 */
export function geometryRows(r: GeometryComparison): Comparison[] {
  const tool = "generate_3d";
  const generated = r.compared - r.failed.length;
  const rows: Comparison[] = [
    {
      tool,
      field: "structure generated, atom order as RDKit's AddHs",
      molecules: r.compared,
      agreed: generated - r.orderMismatches.length,
      tolerance: "exact",
      worst: r.failed[0] ? `${r.failed[0].id}: ${r.failed[0].code}` : r.orderMismatches[0] ?? "–",
    },
    {
      tool,
      field: "converged (RMS gradient < 0.01 kcal/mol/Å)",
      molecules: generated,
      agreed: generated - r.notConverged.length,
      tolerance: "exact",
      worst: r.notConverged[0] ?? "–",
    },
    {
      tool,
      field: "closest heavy-atom contact beyond 1-3",
      molecules: generated,
      agreed: generated - r.contacts.length,
      tolerance: `≥ ${MIN_HEAVY_CONTACT} Å`,
      worst: r.contacts[0] ? `${r.contacts[0].id}: ${f3(r.contacts[0].distance)} Å` : "–",
    },
    statsRow("all bonds", r.overall, `mean |Δ| ≤ ${MEAN_ABS_BOUND} Å`, MEAN_ABS_BOUND, (s) => s.meanAbs),
  ];
  rows.push(...angleRows(r));
  for (const [label, s] of r.classes) {
    const row = statsRow(
      label,
      s,
      `|mean Δ| ≤ ${CLASS_BIAS_BOUND} Å`,
      CLASS_BIAS_BOUND,
      (t) => Math.abs(t.meanSigned),
    );
    const known = KNOWN_CLASS_DIFFERENCES[label];
    rows.push(known ? { ...row, known_difference: known } : row);
  }
  return rows;
}

/** Angle classes with at least this many angles get a row of their own; the rest share one. */
export const ANGLE_ROW_MIN = 20;

const signed2 = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(2);

/**
 * The angle rows: all angles (mean |Δ|), single angles off by more than {@link ANGLE_MAX_BOUND} (molecules with
 * none agree), one row per class with at least {@link ANGLE_ROW_MIN} angles and one for the smaller classes
 * (counted in classes, not molecules).
 */
function angleRows(r: GeometryComparison): Comparison[] {
  const tool = "generate_3d";
  const a = r.angles;
  const worstAngle = (s: BondStats) => {
    const w = s.worst;
    return w ? `${w.id} angle ${w.a}-x-${w.b}: ${w.ours.toFixed(1)}° vs ${w.rdkit.toFixed(1)}°` : "–";
  };
  const rows: Comparison[] = [
    {
      tool,
      field: `angle all angles: ${a.bonds} angles, mean Δ ${signed2(a.meanSigned)}°, mean |Δ| ${
        a.meanAbs.toFixed(2)
      }°`,
      molecules: a.molecules,
      agreed: a.meanAbs <= ANGLE_MEAN_ABS_BOUND ? a.molecules : 0,
      tolerance: `mean |Δ| ≤ ${ANGLE_MEAN_ABS_BOUND}°`,
      worst: worstAngle(a),
    },
    {
      tool,
      field: `angle off by more than ${ANGLE_MAX_BOUND}°: ${r.anglesOff} of ${a.bonds} angles (${
        r.anglesOff - r.offByConformation
      } also against MMFF94's minimum from our structure, ${r.offByConformation} not: conformation)`,
      molecules: a.molecules,
      agreed: a.molecules - r.moleculesWithAngleOff,
      tolerance: `every |Δ| ≤ ${ANGLE_MAX_BOUND}°`,
      worst: worstAngle(a),
    },
  ];
  const m = r.relaxed;
  const fromOurs = "against MMFF94's minimum from our own structure";
  rows.push(
    {
      tool,
      field: `angle ${fromOurs} (same conformation): ${m.bonds} angles, mean Δ ${
        signed2(m.meanSigned)
      }°, mean |Δ| ${m.meanAbs.toFixed(2)}°`,
      molecules: m.molecules,
      agreed: m.meanAbs <= ANGLE_MEAN_ABS_BOUND ? m.molecules : 0,
      tolerance: `mean |Δ| ≤ ${ANGLE_MEAN_ABS_BOUND}°`,
      worst: worstAngle(m),
    },
    {
      tool,
      field: `angle off by more than ${ANGLE_MAX_BOUND}° ${fromOurs}: ${r.relaxedOff} of ${m.bonds} angles`,
      molecules: m.molecules,
      agreed: m.molecules - r.moleculesWithRelaxedOff,
      tolerance: `every |Δ| ≤ ${ANGLE_MAX_BOUND}°`,
      worst: worstAngle(m),
    },
    {
      tool,
      field: `structure as geometry_relaxed.json relaxed it (every angle within ${RELAXED_INPUT_TOLERANCE}°)`,
      molecules: r.compared - r.failed.length - r.orderMismatches.length,
      agreed: r.compared - r.failed.length - r.orderMismatches.length - r.relaxedStale.length,
      tolerance: "exact",
      worst: r.relaxedStale[0] ?? "–",
    },
  );
  const small: BondStats[] = [];
  for (const [label, s] of r.angleClasses) {
    if (s.bonds < ANGLE_ROW_MIN) {
      small.push(s);
      continue;
    }
    rows.push({
      tool,
      field: `angle ${label}: ${s.bonds} angles, mean Δ ${signed2(s.meanSigned)}°, mean |Δ| ${
        s.meanAbs.toFixed(2)
      }°`,
      molecules: s.molecules,
      agreed: Math.abs(s.meanSigned) <= ANGLE_CLASS_BIAS_BOUND ? s.molecules : 0,
      tolerance: `|mean Δ| ≤ ${ANGLE_CLASS_BIAS_BOUND}°`,
      worst: worstAngle(s),
    });
  }
  const biased = small.filter((s) => Math.abs(s.meanSigned) > ANGLE_CLASS_BIAS_BOUND);
  const worstSmall = biased.sort((p, q) => Math.abs(q.meanSigned) - Math.abs(p.meanSigned))[0];
  rows.push({
    tool,
    field: `angle classes with fewer than ${ANGLE_ROW_MIN} angles (${
      small.reduce((n, s) => n + s.bonds, 0)
    } angles), counted in classes`,
    molecules: small.length,
    agreed: small.length - biased.length,
    tolerance: `|mean Δ| ≤ ${ANGLE_CLASS_BIAS_BOUND}° per class`,
    worst: worstSmall ? `mean Δ ${signed2(worstSmall.meanSigned)}°: ${worstAngle(worstSmall)}` : "–",
  });
  return rows;
}

/** A bond-length row; the bound applies to the class as a whole, so `agreed` is all or none. */
function statsRow(
  label: string,
  s: BondStats,
  tolerance: string,
  bound: number,
  measure: (s: BondStats) => number,
): Comparison {
  return {
    tool: "generate_3d",
    field: `bond length ${label}: ${s.bonds} bonds, mean Δ ${signed3(s.meanSigned)} Å, mean |Δ| ${
      f3(s.meanAbs)
    } Å`,
    molecules: s.molecules,
    agreed: measure(s) <= bound ? s.molecules : 0,
    tolerance,
    worst: worstText(s),
  };
}

/** The suite over the whole fixture (the test compares {@link ciSubset}). */
export const generate3dSuite: ComparisonSuite = {
  name: "generate_3d geometry",
  run: async () => {
    await loadTestRDKit();
    return geometryRows(compareGeometry(geometryFixture().molecules));
  },
};
