import * as v from "valibot";
import { BRICS_MAX_HEAVY_ATOMS, bricsDisconnections } from "../chem/brics.ts";
import { round } from "../chem/identity.ts";
import { loadSaFragmentTable, saScore } from "../chem/sascore.ts";
import { count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

/** Method text echoed in results. */
export const RETRO_METHOD = "One-step BRICS disconnection with RDKit's BRICS rules: Degen et al. 2008 " +
  "(ChemMedChem 2008, 3, 1503, doi:10.1002/cmdc.200800178) plus RDKit's additions (rdkit/Chem/BRICS.py, " +
  "RDKit 2022.09: the paper's L2 folded into L5; L9-L13, L9-L14, L14-L14, L16-L16 and the L7=L7 double bond " +
  "added); bonds, labels and fragments as RDKit's FindBRICSBonds and BreakBRICSBonds give them, a stereocentre " +
  "on the cut bond kept. Ranked by the larger fragment SA score (Ertl & Schuffenhauer, J. Cheminform. 2009, " +
  "1, 8, doi:10.1186/1758-2946-1-8); a heuristic, not a validated synthesis route";

const r4 = (x: number) => round(x, 4);

/**
 * Disconnections returned by default: the best four keep the result of a large drug (paclitaxel,
 * erythromycin) within 2,500 characters; disconnection_count and truncated say when there are more.
 */
export const RETRO_DEFAULT_RESULTS = 4;

const fragmentSchema = v.object({
  smiles: v.pipe(
    v.string(),
    v.description(
      "Fragment as canonical SMILES; the attachment point is a dummy atom labelled with its " +
        "BRICS environment, e.g. [1*]C(C)=O.",
    ),
  ),
  sa_score: v.pipe(
    v.number(),
    v.minValue(1),
    v.maxValue(10),
    v.description("SA score of the fragment SMILES as written (1 easy - 10 hard, 4 decimals)."),
  ),
});

/** `retrosynthesis`: one-step BRICS disconnections ranked by fragment SA score. */
export const retrosynthesisTool = defineTool({
  name: "retrosynthesis",
  title: "One-step BRICS retrosynthesis",
  annotations: LOCAL_COMPUTATION,
  description:
    "One-step retrosynthetic disconnections: each bond matching RDKit's BRICS rules (Degen et al. 2008 " +
    "plus RDKit's additions) is cut on its own into two fragments with [n*] attachment dummies, ranked by " +
    "the larger fragment SA score (Ertl & Schuffenhauer 2009), easiest first. A heuristic, not a validated " +
    "route. Errors: INVALID_SMILES, MOLECULE_TOO_LARGE (> " +
    `${BRICS_MAX_HEAVY_ATOMS} heavy atoms); no BRICS bond gives an empty list.`,
  input: v.strictObject({
    smiles: smilesArg(),
    max_results: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(200),
        v.description("Disconnections to return, best first."),
      ),
      RETRO_DEFAULT_RESULTS,
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: v.pipe(
      v.string(),
      v.description("RDKit canonical SMILES; atom indices refer to the input SMILES order."),
    ),
    component_count: count(
      "Disconnected parts of the input (2 for a salt); fragments hold only the cut part.",
    ),
    disconnection_count: count("Breakable BRICS bonds found (before max_results)."),
    truncated: v.pipe(v.boolean(), v.description("True when more disconnections exist than were returned.")),
    disconnections: v.pipe(
      v.array(v.object({
        rank: count("1 = easiest (lowest max_sa_score)."),
        bond_index: count("Index of the cut bond (RDKit bond order of the input SMILES)."),
        atoms: v.pipe(
          v.tuple([count("Atom index."), count("Atom index.")]),
          v.description(
            "Atoms of the cut bond (0-based, input SMILES order) in RDKit's FindBRICSBonds order: the " +
              "matching pair's first environment first.",
          ),
        ),
        environments: v.pipe(
          v.tuple([count("Environment number."), count("Environment number.")]),
          v.description("BRICS link environments (1-16) of atoms[0] and atoms[1]."),
        ),
        fragments: v.pipe(
          v.tuple([fragmentSchema, fragmentSchema]),
          v.description(
            "Fragment containing atoms[0] (dummy labelled environments[0]), then the one with atoms[1].",
          ),
        ),
        max_sa_score: num("Larger of the two fragment SA scores: the ranking key (4 decimals)."),
      })),
      v.description("Disconnections ranked by max_sa_score ascending; ties by bond_index."),
    ),
    heuristic: v.pipe(
      v.literal(true),
      v.description("Always true: a ranking heuristic, not a synthesis plan."),
    ),
    method: v.pipe(v.string(), v.description("Method and references.")),
  }),
  // Rows keep each disconnection's fragments and their SA scores, best first; the cut bond's atoms and BRICS
  // environments are workings (the environments are also the [n*] labels of the fragments).
  placement: {
    where: "pool",
    cost: ({ smiles }) => textsCost(smiles),
    warmUp: [{ smiles: WARM_UP_SMILES.atenolol }],
  },
  list: {
    cap: 50,
    columns: [
      "component_count",
      "disconnection_count",
      "truncated",
      "disconnections.fragments.smiles",
      "disconnections.fragments.sa_score",
    ],
  },
  run: async ({ smiles, max_results }) => {
    await loadSaFragmentTable();
    const result = bricsDisconnections(smiles, (s) => saScore(s).score);
    const all = result.disconnections;
    return {
      smiles,
      canonical_smiles: result.canonical_smiles,
      component_count: result.component_count,
      disconnection_count: all.length,
      truncated: all.length > max_results,
      disconnections: all.slice(0, max_results).map((d, i) => ({
        rank: i + 1,
        bond_index: d.bond_index,
        atoms: d.atoms,
        environments: d.environments,
        fragments: [
          { smiles: d.fragments[0].smiles, sa_score: r4(d.fragments[0].sa_score) },
          { smiles: d.fragments[1].smiles, sa_score: r4(d.fragments[1].sa_score) },
        ] as [{ smiles: string; sa_score: number }, { smiles: string; sa_score: number }],
        max_sa_score: r4(d.max_sa_score),
      })),
      heuristic: true as const,
      method: RETRO_METHOD,
    };
  },
});
