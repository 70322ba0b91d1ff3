/**
 * ecfp4, tanimoto, smarts_match and find_mcs against RDKit 2022.09 (tests/data/reference/fingerprints.json,
 * substructure.json and mcs.json, written by scripts/reference/oracle.py).
 *
 * @module
 */
import { type Comparison, type ComparisonSuite, readFixture, validationSet } from "./comparison.ts";
import { type Pair, rowBuilder } from "./rows.ts";
import { attempt, type KnownDifference, VALENCE_REFUSED } from "./known.ts";
import { smartsMatch } from "../../src/chem/substructure.ts";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { ecfp4Tool } from "../../src/tools/ecfp4.ts";
import { tanimotoTool } from "../../src/tools/tanimoto.ts";
import { smartsMatchTool } from "../../src/tools/smarts_match.ts";
import { findMcsTool } from "../../src/tools/find_mcs.ts";

/** fingerprints.json. */
interface FingerprintFixture {
  readonly provenance: { readonly pairs: readonly (readonly [number, number, number])[] };
  readonly molecules: readonly { readonly id: string; readonly bits: readonly number[] }[];
}

/** substructure.json: per molecule, the matches of each SMARTS (keyed by its index), absent when none. */
interface SubstructureFixture {
  readonly provenance: { readonly smarts: readonly string[] };
  readonly molecules: readonly { readonly id: string; readonly matches: Record<string, number[][]> }[];
}

/** mcs.json: one FMCS result per group of molecule indices. */
interface McsFixture {
  readonly molecules: readonly {
    readonly molecules: readonly number[];
    readonly ids: readonly string[];
    readonly atoms: number;
    readonly bonds: number;
    readonly smarts: string;
    readonly canceled: boolean;
  }[];
}

const R = rowBuilder([VALENCE_REFUSED]);

/** A pair ("a/b") or group ("a+b+c") with a member RDKit 2026.09 refuses: the tool answers INVALID_SMILES. */
const REFUSED_MEMBER: KnownDifference = {
  reason:
    "one member is among the molecules RDKit 2026.09 refuses at parsing (hexa-coordinate Al, Si or P, " +
    "accepted by RDKit 2022.09; see parse_smiles), so the tool answers INVALID_SMILES; checked per member.",
  explained: (id) => id.split(/[/+]/).some((member) => VALENCE_REFUSED.explained(member)),
};

/** A set of matches written so that the order RDKit lists them in does not matter. */
function matchSet(matches: readonly (readonly number[])[]): string {
  return JSON.stringify(matches.map((m) => m.join(",")).sort());
}

/** The set bits of the result's hex: bit i is `(byte[i >> 3] >> (i & 7)) & 1`, as the output schema says. */
function onBitsOfHex(hex: string): number[] {
  const bits: number[] = [];
  for (let i = 0; i < hex.length * 4; i++) {
    if ((parseInt(hex.slice((i >> 3) * 2, (i >> 3) * 2 + 2), 16) >> (i & 7)) & 1) bits.push(i);
  }
  return bits;
}

async function fingerprintRows(): Promise<Comparison[]> {
  const set = validationSet();
  const fixture = readFixture<FingerprintFixture>("fingerprints.json");
  const bits: Pair<readonly number[]>[] = [];
  const popcount: Pair<number>[] = [];
  for (const [i, m] of set.entries()) {
    const ref = fixture.molecules[i]!;
    if (ref.id !== m.id) throw new Error(`fingerprints.json out of step with molecules.smi at ${m.id}`);
    const fp = await attempt(() => ecfp4Tool.run({ smiles: m.smiles }));
    bits.push({ id: m.id, ours: fp && onBitsOfHex(fp.hex), theirs: ref.bits });
    popcount.push({ id: m.id, ours: fp?.popcount, theirs: ref.bits.length });
  }
  const similarity: Pair<number>[] = [];
  for (const [a, b, value] of fixture.provenance.pairs) {
    const ma = set[a]!;
    const mb = set[b]!;
    const t = await attempt(() => tanimotoTool.run({ smiles_a: ma.smiles, smiles_b: mb.smiles }));
    similarity.push({ id: `${ma.id}/${mb.id}`, ours: t?.similarity, theirs: value });
  }
  return [
    R.exact("ecfp4", "hex (its set bits, of 2048)", bits),
    R.exact("ecfp4", "popcount", popcount),
    R.near(
      "tanimoto",
      `similarity (${similarity.length} pairs)`,
      similarity,
      1e-9,
      "|Δ| ≤ 1e-9 (unrounded)",
      {
        known: [REFUSED_MEMBER],
      },
    ),
  ];
}

async function smartsRows(): Promise<Comparison[]> {
  const set = validationSet();
  const fixture = readFixture<SubstructureFixture>("substructure.json");
  const rows: Comparison[] = [];
  for (const [k, smarts] of fixture.provenance.smarts.entries()) {
    const matches: Pair<string>[] = [];
    for (const [i, m] of set.entries()) {
      const ref = fixture.molecules[i]!;
      const found = await attempt(() =>
        smartsMatchTool.run({ smiles: m.smiles, smarts, max_matches: 1000, timeout_seconds: 10 })
      );
      matches.push({
        id: m.id,
        ours: found && matchSet(found.matches),
        theirs: matchSet(ref.matches[k] ?? []),
      });
    }
    rows.push(R.exact("smarts_match", `matches of ${smarts} (set of atom tuples)`, matches));
  }
  return rows;
}

async function mcsRows(): Promise<Comparison[]> {
  const set = validationSet();
  const fixture = readFixture<McsFixture>("mcs.json");
  const size: Pair<readonly [number, number]>[] = [];
  const matches: Pair<string>[] = [];
  for (const group of fixture.molecules) {
    const id = group.ids.join("+");
    const smilesList = group.molecules.map((i) => set[i]!.smiles);
    const result = await attempt(() =>
      findMcsTool.run({
        smiles_list: smilesList,
        timeout_seconds: 10,
        atom_compare: "elements",
        bond_compare: "order",
        ring_matches_ring_only: true,
        complete_rings_only: false,
        match_chiral_tag: false,
        threshold: 1,
      })
    );
    size.push({
      id,
      ours: result && [result.atom_count, result.bond_count],
      theirs: [group.atoms, group.bonds],
    });
    // RDKit's SMARTS writer has changed since 2022.09 (ring-membership primitives are written differently), so the
    // two SMARTS are compared by what they match: the same atom sets in every member of the group.
    const hits = (smarts: string) =>
      smilesList.map((smiles) => matchSet(smartsMatch(smiles, smarts).matches)).join(";");
    matches.push({
      id,
      ours: result && hits(result.smarts),
      theirs: result ? hits(group.smarts) : group.smarts,
    });
  }
  return [
    R.exact("find_mcs", `atom_count, bond_count (${size.length} groups of 2-3)`, size, {
      known: [REFUSED_MEMBER],
    }),
    R.exact(
      "find_mcs",
      `smarts (${matches.length} groups: matches the same atom sets in every member as RDKit's SMARTS)`,
      matches,
      { known: [REFUSED_MEMBER] },
    ),
  ];
}

/** The fingerprint, substructure and MCS suite. */
export const graphSuite: ComparisonSuite = {
  name: "graph",
  async run() {
    await loadTestRDKit();
    return [...(await fingerprintRows()), ...(await smartsRows()), ...(await mcsRows())];
  },
};
