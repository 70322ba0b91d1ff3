/**
 * pains_check, brenk_check and sa_score against RDKit 2022.09: FilterCatalog PAINS_A/B/C and BRENK
 * (tests/data/reference/alerts.json) and Contrib/SA_Score/sascorer.py (tests/data/reference/sa_score.json), both on
 * the whole molecule as the tools screen and score it.
 *
 * @module
 */
import { type ComparisonSuite, readFixture, validationSet } from "./comparison.ts";
import { type Pair, roundingTolerance, rowBuilder } from "./rows.ts";
import { attempt, type KnownDifference, VALENCE_REFUSED } from "./known.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { painsCheckTool } from "../../src/tools/pains_check.ts";
import { brenkCheckTool } from "../../src/tools/brenk_check.ts";
import { saScoreTool } from "../../src/tools/sa_score.ts";

/** One molecule of alerts.json: the descriptions of the entries that matched, sorted. */
export interface AlertsRecord {
  readonly id: string;
  readonly pains: readonly string[];
  readonly brenk: readonly string[];
}

/** One molecule of sa_score.json. */
export interface SaRecord {
  readonly id: string;
  readonly sa: number;
  /** Chem.FindMolChiralCenters(includeUnassigned=True) count. */
  readonly stereo: number;
  /** How many of those centres are aromatic atoms (absent when none). */
  readonly stereo_aromatic?: number;
  /** sascorer's score with aromatic atoms left out of the stereo count (present with stereo_aromatic). */
  readonly sa_planar?: number;
}

/**
 * RDKit 2022.09 counts some three-connected aromatic N atoms as possible stereocentres; the check is that RDKit
 * 2022.09's own score with aromatic atoms left out of that count equals ours.
 */
function aromaticCentres(
  records: ReadonlyMap<string, SaRecord>,
  ours: ReadonlyMap<string, number>,
): KnownDifference {
  return {
    reason:
      "RDKit 2022.09's Chem.FindMolChiralCenters(includeUnassigned=True), which sascorer.py uses for the " +
      "stereo penalty, reports three-connected aromatic N atoms (a pyridinium N bound to Zn or Ni, an indole N " +
      "bridging a macrocycle) as possible tetrahedral centres; RDKit 2026.09 does not (an aromatic atom is " +
      "planar). For each molecule left out, sascorer.py run by RDKit 2022.09 with aromatic atoms removed from that " +
      "count gives our score (sa_score.json `sa_planar`). Near a raw score of 8 sascorer's logarithmic smoothing " +
      "turns one centre into a change of about 2.",
    explained: (id) => {
      const r = records.get(id);
      const value = ours.get(id);
      return r?.sa_planar !== undefined && value !== undefined &&
        Math.abs(value - r.sa_planar) <= 5e-5 + 1e-9;
    },
  };
}

const R = rowBuilder([VALENCE_REFUSED]);

/** The alerts and SA score suite. */
export const alertsSuite: ComparisonSuite = {
  name: "alerts",
  async run() {
    await loadTestRDKit();
    const alerts = readFixture<{ molecules: AlertsRecord[] }>("alerts.json").molecules;
    const sa = readFixture<{ molecules: SaRecord[] }>("sa_score.json").molecules;
    const pains: Pair<string[]>[] = [];
    const brenk: Pair<string[]>[] = [];
    const painsPass: Pair<boolean>[] = [];
    const brenkPass: Pair<boolean>[] = [];
    const score: Pair<number>[] = [];
    const stereo: Pair<number>[] = [];
    const synthesizable: Pair<boolean>[] = [];
    for (const [i, m] of validationSet().entries()) {
      const a = alerts[i]!;
      const s = sa[i]!;
      if (a.id !== m.id || s.id !== m.id) throw new Error(`alerts/sa fixtures out of step at ${m.id}`);
      const args = { smiles: m.smiles };
      const p = await attempt(() => painsCheckTool.run(args));
      const b = await attempt(() => brenkCheckTool.run(args));
      const x = await attempt(() => saScoreTool.run(args));
      pains.push({ id: m.id, ours: p?.alerts.map((h) => h.name).sort(), theirs: [...a.pains] });
      brenk.push({ id: m.id, ours: b?.alerts.map((h) => h.name).sort(), theirs: [...a.brenk] });
      painsPass.push({ id: m.id, ours: p?.passes, theirs: a.pains.length === 0 });
      brenkPass.push({ id: m.id, ours: b?.passes, theirs: a.brenk.length === 0 });
      score.push({ id: m.id, ours: x?.sa_score, theirs: s.sa });
      stereo.push({ id: m.id, ours: x?.counts.stereo_centers, theirs: s.stereo });
      // The tool's verdict is on its 4-decimal score; RDKit's score rounded the same way decides the same.
      synthesizable.push({ id: m.id, ours: x?.synthesizable, theirs: Math.round(s.sa * 1e4) / 1e4 < 6 });
    }
    const r4 = roundingTolerance(4);
    const planar = aromaticCentres(
      new Map(sa.map((r) => [r.id, r])),
      new Map(score.flatMap((p) => (p.ours === undefined ? [] : [[p.id, p.ours] as const]))),
    );
    return [
      R.exact("pains_check", "alerts (set of class names)", pains),
      R.exact("pains_check", "passes", painsPass),
      R.exact("brenk_check", "alerts (set of names)", brenk),
      R.exact("brenk_check", "passes", brenkPass),
      R.near("sa_score", "sa_score", score, r4.tolerance, r4.text, { known: [planar] }),
      R.exact("sa_score", "counts.stereo_centers", stereo, { known: [planar] }),
      R.exact("sa_score", "synthesizable (score < 6)", synthesizable, { known: [planar] }),
    ];
  },
};
