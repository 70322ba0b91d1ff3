/**
 * depict's highlights against RDKit 2022.09 (tests/data/reference/depict_matches.json): for 500 molecules of the
 * validation set and 8 SMARTS patterns held out from smarts_match's fixture, the groups the tool reports are
 * RDKit Python's `GetSubstructMatches` (atoms in query order, and the bonds of each match), and the atoms and
 * bonds the SVG itself draws highlighted are their union. Every molecule is drawn once per pattern.
 *
 * @module
 */
import * as v from "valibot";
import { type ComparisonSuite, readFixture } from "./comparison.ts";
import { type Pair, rowBuilder } from "./rows.ts";
import { attempt, VALENCE_REFUSED } from "./known.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { drawnAtoms, drawnBonds } from "../helpers/depiction.ts";
import { depictTool } from "../../src/tools/depict.ts";

/** One SMARTS's answer for one molecule. */
interface PatternRecord {
  readonly atoms: number[][];
  /** Per match, its bonds ascending. */
  readonly bonds: number[][];
}

/** One molecule of depict_matches.json: its answers in `provenance.smarts` order. */
export interface DepictRecord {
  readonly id: string;
  readonly smiles: string;
  readonly smarts: readonly PatternRecord[];
}

interface Fixture {
  readonly provenance: { readonly smarts: readonly string[] };
  readonly molecules: readonly DepictRecord[];
}

/** Molecules the fixture holds (and every row must cover). */
export const DEPICT_MOLECULES = 500;

const R = rowBuilder([VALENCE_REFUSED]);
const union = (lists: readonly number[][]) => [...new Set(lists.flat())].sort((a, b) => a - b);

/** The depict suite. */
export const depictSuite: ComparisonSuite = {
  name: "depict",
  async run() {
    await loadTestRDKit();
    const fixture = readFixture<Fixture>("depict_matches.json");
    const patterns = fixture.provenance.smarts;
    const atoms: Pair<number[][][]>[] = [];
    const bonds: Pair<number[][][]>[] = [];
    const drawnA: Pair<number[][]>[] = [];
    const drawnB: Pair<number[][]>[] = [];
    for (const m of fixture.molecules) {
      const drawings = await attempt(() =>
        Promise.all(patterns.map(async (smarts) => {
          const args = v.parse(depictTool.input, { smiles: m.smiles, smarts, format: "svg" });
          const r = await depictTool.run(args);
          // The facts list what fits in 1,000 characters and count the rest: RDKit's first matches, in order.
          return {
            groups: r.molecules[0]!.highlights ?? [],
            leftOut: r.left_out?.highlights ?? 0,
            svg: r.picture,
          };
        }))
      );
      atoms.push({
        id: m.id,
        ours: drawings?.map((d) => d.groups.map((g) => g.atoms)),
        theirs: m.smarts.map((p, k) => p.atoms.slice(0, p.atoms.length - (drawings?.[k]?.leftOut ?? 0))),
      });
      bonds.push({
        id: m.id,
        ours: drawings?.map((d) => d.groups.map((g) => [...g.bonds].sort((a, b) => a - b))),
        theirs: m.smarts.map((p, k) => p.bonds.slice(0, p.bonds.length - (drawings?.[k]?.leftOut ?? 0))),
      });
      drawnA.push({
        id: m.id,
        ours: drawings?.map((d) => drawnAtoms(d.svg)),
        theirs: m.smarts.map((p) => union(p.atoms)),
      });
      drawnB.push({
        id: m.id,
        ours: drawings?.map((d) => drawnBonds(d.svg)),
        theirs: m.smarts.map((p) => union(p.bonds)),
      });
    }
    const field = (what: string) => `${what} (${patterns.length} SMARTS per molecule)`;
    return [
      R.exact("depict", field("highlights[].atoms: each match, in query-atom order"), atoms),
      R.exact("depict", field("highlights[].bonds: each match's query bonds"), bonds),
      R.exact("depict", field("atoms drawn highlighted in the SVG"), drawnA),
      R.exact("depict", field("bonds drawn highlighted in the SVG"), drawnB),
    ];
  },
};
