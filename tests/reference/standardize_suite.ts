/**
 * standardize against RDKit 2022.09's rdMolStandardize (fixture `tests/data/reference/standardize.json`, written by
 * `scripts/reference/standardize_oracle.py`): every SMILES literal of RDKit's own MolStandardize tests, the NCI
 * sample of Debian's rdkit-data and the validation set, 5,810 molecules. Each step's canonical SMILES (stereo
 * included) must equal RDKit's: `cleanup` Cleanup's, `fragment_parent` FragmentParent's, `uncharge`
 * ChargeParent's. RDKit 2022's SMILES are canonicalised by our RDKit before comparing.
 *
 * @module
 */
import {
  STANDARDIZE_STEPS,
  type StandardizeStep,
  standardizeTrace,
  TAUTOMER_TIMEOUT_S,
} from "../../src/chem/standardize/pipeline.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import { rdkit } from "../../src/chem/rdkit.ts";
import type { Comparison, ComparisonSuite } from "./comparison.ts";
import { readFixture } from "./comparison.ts";
import { hypervalentAlSiP, ourCanonical, VALENCE_REFUSED_REASON } from "./known.ts";
import { exactRow, type KnownDifference, type Pair } from "./rows.ts";

/** One molecule of the fixture. */
export interface StandardizeReference {
  readonly id: string;
  readonly smiles: string;
  readonly cleanup: string | { readonly error: string };
  readonly fragment_parent: string | { readonly error: string };
  readonly charge_parent: string | { readonly error: string };
  readonly tautomer_parent: string | { readonly error: string };
}

/** The fixture file. */
export interface StandardizeFixture {
  readonly provenance: { readonly rdkit: string; readonly date: string; readonly molecules: string };
  readonly molecules: readonly StandardizeReference[];
}

/** RDKit's field for each step. */
const FIELD: Record<StandardizeStep, "cleanup" | "fragment_parent" | "charge_parent" | "tautomer_parent"> = {
  cleanup: "cleanup",
  fragment_parent: "fragment_parent",
  uncharge: "charge_parent",
  tautomer: "tautomer_parent",
};

/** RDKit's call for each step, for the report. */
const CALL: Record<StandardizeStep, string> = {
  cleanup: "Cleanup",
  fragment_parent: "FragmentParent",
  uncharge: "ChargeParent",
  tautomer: "TautomerParent of ChargeParent",
};

/** One molecule answered: its fixture row (id made unique) and our SMILES per step, undefined where refused. */
export interface StandardizeAnswer {
  readonly ref: StandardizeReference;
  readonly id: string;
  readonly ours: Partial<Record<StandardizeStep, string>> & { readonly error?: string };
}

let answered: StandardizeAnswer[] | undefined;

/** Every fixture molecule through the standardiser (once per process). */
export function standardizeAnswers(): StandardizeAnswer[] {
  if (answered) return answered;
  const fixture = readFixture<StandardizeFixture>("standardize.json");
  answered = fixture.molecules.map((ref, i) => {
    return { ref, id: `${ref.id}#${i}`, ours: standardizeTrace(ref.smiles) };
  });
  return answered;
}

const byId = () => new Map(standardizeAnswers().map((a) => [a.id, a]));

const refused = (a: StandardizeAnswer | undefined) => a?.ours.error === "INVALID_SMILES" && !a.ours.cleanup;

/** Every known difference, with the check that a molecule's difference is that one. */
export function knownDifferences(step: StandardizeStep): KnownDifference[] {
  const answers = byId();
  return [
    {
      reason: VALENCE_REFUSED_REASON,
      explained: (id) => refused(answers.get(id)) && hypervalentAlSiP(answers.get(id)!.ref.smiles),
    },
    {
      reason:
        "Dative bonds written with arrows (`->`, `<-` around a '>'): chem-mcp's SMILES reader refuses every " +
        "'>' (it keeps reaction SMILES out), so these are INVALID_SMILES; RDKit reads them. The test checks each " +
        "is refused and has an arrow.",
      explained: (id) => refused(answers.get(id)) && /->|<-/.test(answers.get(id)!.ref.smiles),
    },
    {
      reason: "Atom map numbers: the standardiser rebuilds molecules from RDKit's JSON, which has no map " +
        "numbers, so they are dropped; RDKit keeps them. The test checks RDKit's answer with its map numbers " +
        "removed is ours.",
      explained: (id) => {
        const a = answers.get(id);
        const theirs = a?.ref[FIELD[step]];
        if (!a || typeof theirs !== "string" || !/:\d+\]/.test(theirs)) return false;
        return withoutMaps(theirs) === a.ours[step];
      },
    },
    {
      reason:
        "RDKit 2026.09 refuses at parsing what RDKit 2022.09 read: N+2 with five bonds ([NH4+2]C, a test of " +
        "RDKit's own). The test checks our RDKit refuses the input.",
      explained: (id) => refused(answers.get(id)) && /\[NH4\+2\]/.test(answers.get(id)!.ref.smiles),
    },
    {
      reason:
        "RDKit 2026.09 reads a tetrahedral [C@H] with two ring bonds as CH2 where RDKit 2022.09 kept a " +
        "radical CH (a test of RDKit's own); standardisation changes neither. The test checks our RDKit's " +
        "canonical SMILES of the input is our answer and RDKit 2022's answer has the radical [CH].",
      explained: (id) => {
        const a = answers.get(id);
        const theirs = a?.ref[FIELD[step]];
        return !!a && typeof theirs === "string" && theirs.includes("[CH]") &&
          canonicalSmiles(a.ref.smiles) === a.ours[step];
      },
    },
    {
      reason:
        "RDKit's 'Sulfone to S(=O)(=O)' on a three-connected [S+2]: RDKit's Normalizer keeps the product " +
        "with S of valence 5 (it skips the valence check); MinimalLib has no partial sanitisation, so the " +
        "product is re-read and S takes the hydrogen that makes valence 6. The test checks the two answers " +
        "differ by that hydrogen alone.",
      explained: (id) => {
        const a = answers.get(id);
        const theirs = a?.ref[FIELD[step]];
        return !!a && typeof theirs === "string" && theirs.includes("[S](=O)=O") &&
          canonicalSmiles(theirs.replace("[S](=O)=O", "[SH](=O)=O")) === a.ours[step];
      },
    },
    {
      reason:
        `Tautomer enumeration stopped by its ${TAUTOMER_TIMEOUT_S} s limit (COMPUTATION_TIMEOUT): RDKit bounds ` +
        "it only by 1,000 tautomers and 1,000 transforms, which RDKit's C++ reaches in seconds and ours, " +
        "rebuilding each tautomer through MinimalLib, may not on a loaded machine. The test checks ours timed out.",
      explained: (id) => step === "tautomer" && answers.get(id)?.ours.error === "COMPUTATION_TIMEOUT",
    },
    {
      reason:
        "RDKit 2022.09 raised where we answer: its TautomerParent of `[2H]OC=C` (a test of RDKit's own) fails " +
        "sanitising an O of valence 3 made by moving the deuterium. The test checks RDKit's answer is an error.",
      explained: (id) => step === "tautomer" && typeof answers.get(id)?.ref.tautomer_parent === "object",
    },
    {
      reason:
        "Another tautomer of the same compound chosen (same heavy-atom graph, hydrogens and charge): on " +
        "large conjugated systems (porphyrin-, anthraquinone-like, azo dyes), where RDKit " +
        "2026.09's aromaticity perception or the Kekulé form the enumeration starts from differ from 2022.09's, " +
        "and where RDKit drops a stereocentre next to a tautomeric amidine that we keep. Not yet traced one by " +
        "one; the test checks the two answers are tautomers of one skeleton.",
      explained: (id) => {
        const a = answers.get(id);
        const theirs = a?.ref.tautomer_parent;
        if (step !== "tautomer" || !a?.ours.tautomer || typeof theirs !== "string") return false;
        return sameSkeleton(a.ours.tautomer, theirs.replace(/:\d+\]/g, "]"));
      },
    },
    {
      reason:
        "Ferrocene written with ten Fe–C bonds (NCI 2033): RDKit 2022.09's MetalDisconnector leaves one " +
        "ring a neutral cyclopentadiene and the other a dianion; ours gives two cyclopentadienides, as the " +
        "charges RDKit's code sets would suggest. Not yet traced to its cause; the test checks the molecule.",
      explained: (id) => id.startsWith("NCI:2033#"),
    },
  ];
}

/**
 * Whether two molecules are tautomers in RDKit's sense: the same heavy-atom graph (all bonds made single,
 * charges and hydrogens dropped) and the same number of hydrogens and net charge.
 */
function sameSkeleton(a: string, b: string): boolean {
  const key = (smiles: string): string | undefined => {
    const mol = rdkit().get_mol(smiles);
    if (!mol) return undefined;
    try {
      const doc = JSON.parse(mol.get_json()) as {
        molecules: { atoms: { z?: number; impHs?: number; chg?: number }[]; bonds?: { atoms: number[] }[] }[];
      };
      const m = doc.molecules[0]!;
      const hs = m.atoms.reduce((n, x) => n + (x.impHs ?? 0), 0);
      const chg = m.atoms.reduce((n, x) => n + (x.chg ?? 0), 0);
      const bare = {
        rdkitjson: { version: 12 },
        defaults: {
          atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
          bond: { bo: 1, stereo: "unspecified" },
        },
        molecules: [{
          atoms: m.atoms.map((x) => ({ z: x.z ?? 6 })),
          bonds: (m.bonds ?? []).map((x) => ({ atoms: x.atoms })),
        }],
      };
      const skeleton = rdkit().get_mol(JSON.stringify(bare), JSON.stringify({ sanitize: false }));
      if (!skeleton) return undefined;
      try {
        return `${skeleton.get_smiles()} H${hs} ${chg}`;
      } finally {
        skeleton.delete();
      }
    } finally {
      mol.delete();
    }
  };
  const ka = key(a);
  return ka !== undefined && ka === key(b);
}

function withoutMaps(smiles: string): string | undefined {
  try {
    return canonicalSmiles(smiles.replace(/:\d+\]/g, "]"));
  } catch {
    return undefined;
  }
}

/** RDKit's answer for a step, canonicalised by our RDKit; an error as its text. */
function theirs(ref: StandardizeReference, step: StandardizeStep): string {
  const value = ref[FIELD[step]];
  if (typeof value !== "string") return `error: ${value.error}`;
  try {
    return ourCanonical(value);
  } catch {
    return value;
  }
}

/** One step compared over every molecule. */
export function stepPairs(step: StandardizeStep): Pair<string>[] {
  return standardizeAnswers().map((a) => ({ id: a.id, ours: a.ours[step], theirs: theirs(a.ref, step) }));
}

/** The standardize comparison rows, one per step. */
export const standardizeSuite: ComparisonSuite = {
  name: "standardize",
  heldOut: true,
  description: () =>
    "standardize's steps against RDKit 2022.09's rdMolStandardize (Cleanup, FragmentParent, ChargeParent, " +
    `TautomerParent of ChargeParent) on ${standardizeAnswers().length} molecules: every SMILES of ` +
    "RDKit's own MolStandardize tests, the NCI sample of Debian's rdkit-data (salts, metals, nitro and " +
    "charged forms) and the validation set; canonical SMILES with stereo must be identical.",
  run() {
    return Promise.resolve(
      STANDARDIZE_STEPS.map((step): Comparison =>
        exactRow(
          "standardize",
          `${step} (RDKit ${CALL[step]})`,
          stepPairs(step),
          {
            known: knownDifferences(step),
            tolerance: "exact (canonical SMILES with stereo)",
          },
        )
      ),
    );
  },
};
