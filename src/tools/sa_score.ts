import * as v from "valibot";
import { round } from "../chem/identity.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { loadSaFragmentTable, SA_METHOD, SA_SYNTHESIZABLE_BELOW, saScore } from "../chem/sascore.ts";
import { count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

const r4 = (x: number) => round(x, 4);

/** `sa_score`: Ertl–Schuffenhauer synthetic accessibility. */
export const saScoreTool = defineTool({
  name: "sa_score",
  title: "Synthetic accessibility score",
  annotations: LOCAL_COMPUTATION,
  description:
    "Synthetic accessibility score (Ertl & Schuffenhauer 2009, as RDKit's SA_Score), 1 (easy) to 10 (very " +
    `hard), with its terms; synthesizable = score < ${SA_SYNTHESIZABLE_BELOW}. Drugs mostly score 2–4, complex ` +
    "natural products 5+; aspirin 1.58. Ranks ease of making, not a route: for disconnections use " +
    "retrosynthesis. Errors: " +
    `INVALID_SMILES, MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms), UNSUPPORTED_MOLECULE.`,
  input: v.strictObject({
    smiles: smilesArg(),
  }),
  output: v.object({
    smiles: givenSmiles,
    sa_score: v.pipe(
      v.number(),
      v.minValue(1),
      v.maxValue(10),
      v.description("SA score, dimensionless, 1 (easy) to 10 (hard), 4 decimals."),
    ),
    synthesizable: v.pipe(v.boolean(), v.description(`True when sa_score < ${SA_SYNTHESIZABLE_BELOW}.`)),
    components: v.pipe(
      v.object({
        fragment_score: num(
          "Count-weighted mean fragment contribution (log-frequency units; higher = more common).",
        ),
        complexity_penalty: num("Sum of the five penalties below (subtracted)."),
        size_penalty: num("nAtoms^1.005 - nAtoms."),
        stereo_penalty: num("log10(stereocentres + 1)."),
        spiro_penalty: num("log10(spiro atoms + 1)."),
        bridgehead_penalty: num("log10(bridgehead atoms + 1)."),
        macrocycle_penalty: num("log10(2) if any ring has more than 8 atoms, else 0."),
        symmetry_correction: num("0.5 ln(nAtoms / distinct Morgan ids) when positive (added)."),
        raw_score: num(
          "fragment_score - complexity_penalty + symmetry_correction, before rescaling to 1-10.",
        ),
      }),
      v.description("Terms of the score, 4 decimals."),
    ),
    counts: v.pipe(
      v.object({
        atoms: count("Atoms in the graph (heavy atoms plus any explicit H atoms)."),
        stereo_centers: count("Tetrahedral stereocentres, specified or not."),
        spiro_atoms: count("Spiro atoms."),
        bridgehead_atoms: count("Bridgehead atoms."),
        macrocycles: count("Rings (smallest set) with more than 8 atoms."),
        environments: count("Morgan radius-2 environments, with multiplicity."),
        distinct_environments: count("Distinct Morgan environment ids."),
        unknown_environments: count("Environments absent from the fragment table (each scored -4)."),
      }),
      v.description("Structure counts the terms are built from."),
    ),
    method: v.pipe(v.string(), v.description("Method and reference.")),
  }),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 1000, columns: ["sa_score", "synthesizable"] },
  run: async ({ smiles }) => {
    await loadSaFragmentTable();
    const s = saScore(smiles);
    return {
      smiles,
      sa_score: r4(s.score),
      synthesizable: r4(s.score) < SA_SYNTHESIZABLE_BELOW,
      components: {
        fragment_score: r4(s.fragment_score),
        complexity_penalty: r4(s.complexity_penalty),
        size_penalty: r4(s.size_penalty),
        stereo_penalty: r4(s.stereo_penalty),
        spiro_penalty: r4(s.spiro_penalty),
        bridgehead_penalty: r4(s.bridgehead_penalty),
        macrocycle_penalty: r4(s.macrocycle_penalty),
        symmetry_correction: r4(s.symmetry_correction),
        raw_score: r4(s.raw_score),
      },
      counts: {
        atoms: s.atom_count,
        stereo_centers: s.stereo_centers,
        spiro_atoms: s.spiro_atoms,
        bridgehead_atoms: s.bridgehead_atoms,
        macrocycles: s.macrocycles,
        environments: s.environments,
        distinct_environments: s.distinct_environments,
        unknown_environments: s.unknown_environments,
      },
      method: SA_METHOD,
    };
  },
});
