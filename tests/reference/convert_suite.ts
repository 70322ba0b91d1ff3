/**
 * convert against RDKit's Python (fixture `tests/data/reference/convert.json`, written by
 * `scripts/reference/convert_oracle.py` with RDKit 2022.09): 1,000 held-out molecules of the validation set taken
 * from SMILES to a MOL block (V2000 and V3000) and back to SMILES must give RDKit's canonical SMILES, stereo
 * included; the V2000 and V3000 blocks RDKit's Python writes for 250 of them must read back to the SMILES RDKit
 * reads from them; the blocks convert writes for those 250 must read, in RDKit's Python, as the molecule they were
 * written from; and the InChI read from the MOL block must equal the InChI of the SMILES (InChI is our own
 * RDKit's on both sides: a check that the MOL block carries what InChI needs). RDKit 2022's SMILES
 * are canonicalised by our RDKit before comparing (the two versions write some canonical SMILES differently).
 *
 * @module
 */
import { convertOne } from "../../src/chem/convert.ts";
import { ChemError } from "../../src/errors.ts";
import { type Comparison, type ComparisonSuite, readFixture } from "./comparison.ts";
import { ourCanonical } from "./known.ts";

/** One molecule of the fixture. */
export interface ConvertReference {
  readonly id: string;
  readonly smiles: string;
  readonly canonical: string;
  readonly v2000?: string;
  readonly v3000?: string;
  readonly v2000_read?: string;
  readonly v3000_read?: string;
  /** What RDKit's Python reads from the blocks the tool wrote (scripts/convert_blocks.ts), and their hashes. */
  readonly ours_v2000_read?: string;
  readonly ours_v3000_read?: string;
  readonly ours_v2000_fnv?: number;
  readonly ours_v3000_fnv?: number;
}

/** The fixture file. */
export interface ConvertFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string; readonly calls: readonly string[] };
  readonly molecules: readonly ConvertReference[];
}

/** What convert answers, or the error code it gave. */
function attempt(call: () => string): string {
  try {
    return call();
  } catch (error) {
    if (error instanceof ChemError) return `error ${error.code}`;
    throw error;
  }
}

interface Checked {
  readonly id: string;
  readonly ours: string;
  readonly theirs: string;
}

const noGeometry = (smiles: string) => ourCanonical(smiles.replace(/[/\\]/g, ""));
const noBLayer = (inchi: string) => inchi.replace(/\/b[^/]*/, "");

/**
 * A MOL block carries double-bond geometry only in its 2D coordinates. RDKit's layout of a macrocycle cannot
 * draw a trans ring double bond as trans, so that geometry is lost (RDKit's Python loses it the same way:
 * `v2000_read` of CHEMBL3628313); an iminium C=N the SMILES leaves open is written without the "either" mark and
 * read back with the drawing's geometry. Checked per molecule: the two SMILES are equal without double-bond
 * geometry.
 */
const LAYOUT_GEOMETRY: Known = {
  reason:
    "a MOL block carries double-bond geometry only in its 2D coordinates: RDKit's layout of a macrocycle " +
    "cannot draw its trans ring double bond as trans, so the geometry is lost (RDKit's Python loses it too), and " +
    "an iminium C=N the SMILES leaves open is written without the 'either' mark and read back with the drawing's " +
    "geometry; the check: the two SMILES are equal without double-bond geometry",
  explained: (c) => !c.ours.startsWith("error") && noGeometry(c.ours) === noGeometry(c.theirs),
};

/**
 * InChI reads double-bond geometry from a MOL block's coordinates where the coordinate-free SMILES route has none
 * (a chelate ring's C=N, acyclic once InChI disconnects the metal; a porphyrin's Kekulé double bonds), and loses
 * the trans ring double bond of a macrocycle the layout cannot draw (above). Checked per molecule: the two
 * InChIs differ in the /b layer alone.
 */
const COORDINATE_GEOMETRY: Known = {
  reason:
    "InChI takes double-bond geometry from the MOL block's 2D coordinates: it gains a /b layer where the " +
    "SMILES route has no geometry (a chelate ring's C=N, acyclic once InChI disconnects the metal; a porphyrin's " +
    "Kekulé double bonds) and loses a macrocycle's trans ring double bond the layout cannot draw; the check: the " +
    "two InChIs differ in the /b layer alone",
  explained: (c) => noBLayer(c.ours) === noBLayer(c.theirs),
};

interface Known {
  readonly reason: string;
  readonly explained: (c: Checked) => boolean;
}

function row(
  field: string,
  checked: readonly Checked[],
  tolerance: string,
  known?: Known,
): Comparison {
  const left = known ? checked.filter((c) => c.ours !== c.theirs && known.explained(c)) : [];
  const compared = checked.filter((c) => !left.includes(c));
  const bad = compared.find((c) => c.ours !== c.theirs);
  return {
    tool: "convert",
    field,
    molecules: compared.length,
    agreed: compared.filter((c) => c.ours === c.theirs).length,
    tolerance,
    worst: bad ? `${bad.id}: ours ${bad.ours}, RDKit ${bad.theirs}` : "none",
    ...(left.length > 0
      ? {
        known_difference: `${left.length} left out (${left.map((c) => c.id).join(", ")}): ${known!.reason}`,
      }
      : {}),
  };
}

/** SMILES → our MOL block of `to` → SMILES, against RDKit's canonical SMILES of the molecule. */
function roundTrip(m: ConvertReference, to: "molblock" | "molblock_v3000"): Checked {
  const ours = attempt(() => convertOne(convertOne(m.smiles, "smiles", to), "molblock", "smiles"));
  return { id: m.id, ours, theirs: ourCanonical(m.canonical) };
}

/** 32-bit FNV-1a of the text's code units, as scripts/reference/convert_oracle.py computes it. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The tool's block of `version` read by RDKit's Python, against RDKit's canonical SMILES; when the tool's block
 * is no longer the one the oracle read (hash), the fixture is stale and the row says so.
 */
function readByRdkit(m: ConvertReference, version: "v2000" | "v3000"): Checked {
  const block = convertOne(m.smiles, "smiles", version === "v2000" ? "molblock" : "molblock_v3000");
  const read = version === "v2000" ? m.ours_v2000_read : m.ours_v3000_read;
  const hash = version === "v2000" ? m.ours_v2000_fnv : m.ours_v3000_fnv;
  const ours = fnv1a(block) !== hash
    ? "stale fixture: re-run scripts/convert_blocks.ts and convert_oracle.py"
    : read === undefined
    ? "RDKit's Python could not read the block"
    : ourCanonical(read);
  return { id: m.id, ours, theirs: ourCanonical(m.canonical) };
}

let rows: Comparison[] | undefined;

function compare(): Comparison[] {
  const molecules = readFixture<ConvertFixture>("convert.json").molecules;
  const withBlocks = molecules.filter((m) => m.v2000 !== undefined);
  const read = (m: ConvertReference, block: string, theirs: string): Checked => ({
    id: m.id,
    ours: attempt(() => convertOne(block, "molblock", "smiles")),
    theirs: ourCanonical(theirs),
  });
  const inchi = (m: ConvertReference): Checked => ({
    id: m.id,
    ours: attempt(() => convertOne(convertOne(m.smiles, "smiles", "molblock"), "molblock", "inchi")),
    theirs: attempt(() => convertOne(m.smiles, "smiles", "inchi")),
  });
  const exact = "exact (canonical SMILES, stereo included)";
  return [
    row(
      "SMILES → MOL V2000 → SMILES",
      molecules.map((m) => roundTrip(m, "molblock")),
      exact,
      LAYOUT_GEOMETRY,
    ),
    row(
      "SMILES → MOL V3000 → SMILES",
      molecules.map((m) => roundTrip(m, "molblock_v3000")),
      exact,
      LAYOUT_GEOMETRY,
    ),
    row("RDKit's V2000 blocks read", withBlocks.map((m) => read(m, m.v2000!, m.v2000_read!)), exact),
    row("RDKit's V3000 blocks read", withBlocks.map((m) => read(m, m.v3000!, m.v3000_read!)), exact),
    row(
      "our V2000 blocks read by RDKit's Python",
      withBlocks.map((m) => readByRdkit(m, "v2000")),
      exact,
      LAYOUT_GEOMETRY,
    ),
    row(
      "our V3000 blocks read by RDKit's Python",
      withBlocks.map((m) => readByRdkit(m, "v3000")),
      exact,
      LAYOUT_GEOMETRY,
    ),
    row(
      "InChI of the MOL block = InChI of the SMILES",
      molecules.map(inchi),
      "exact (standard InChI)",
      COORDINATE_GEOMETRY,
    ),
  ];
}

/** The convert comparison rows. */
export const convertSuite: ComparisonSuite = {
  name: "convert",
  run() {
    rows ??= compare();
    return Promise.resolve(rows);
  },
};
