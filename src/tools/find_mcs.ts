import * as v from "valibot";
import {
  findMcs,
  MCS_DEFAULT_TIMEOUT_S,
  MCS_MAX_HEAVY_ATOMS,
  MCS_MAX_MOLECULES,
  MCS_MAX_TIMEOUT_S,
  MCS_MIN_MOLECULES,
} from "../chem/mcs.ts";
import { count, ISOLATION_GRACE_S, smilesString } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

/** Method text echoed in results. */
export const MCS_METHOD = "RDKit FMCS (Dalke & Hastings, J. Cheminform. 2013, 5(Suppl 1), O6, " +
  "doi:10.1186/1758-2946-5-S1-O6) via RDKit MinimalLib get_mcs_as_json";

/** `find_mcs`: maximum common substructure of a list of molecules. */
export const findMcsTool = defineTool({
  name: "find_mcs",
  title: "Maximum common substructure",
  annotations: LOCAL_COMPUTATION,
  description:
    `Maximum common substructure of ${MCS_MIN_MOLECULES}–${MCS_MAX_MOLECULES} molecules (RDKit FMCS; Dalke ` +
    "& Hastings 2013) as SMARTS, with atom and bond counts and one match per molecule (atom indices). " +
    "Defaults: atoms by element, bonds by order, ring bonds only to ring bonds. For a similarity score use " +
    "tanimoto. " +
    `Errors: INVALID_SMILES, MOLECULE_TOO_LARGE (> ${MCS_MAX_HEAVY_ATOMS} heavy atoms), ` +
    "NO_COMMON_SUBSTRUCTURE, COMPUTATION_TIMEOUT.",
  input: v.strictObject({
    smiles_list: v.pipe(
      v.array(smilesString),
      v.minLength(MCS_MIN_MOLECULES),
      v.maxLength(MCS_MAX_MOLECULES),
      v.examples([["c1ccccc1O", "c1ccccc1N"]]),
      v.description(
        "Molecules to compare, as SMILES.",
      ),
    ),
    timeout_seconds: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MCS_MAX_TIMEOUT_S),
        v.description(
          "Wall-clock limit, s.",
        ),
      ),
      MCS_DEFAULT_TIMEOUT_S,
    ),
    atom_compare: v.optional(
      v.pipe(
        v.picklist(["elements", "any", "any_heavy", "isotopes"]),
        v.description(
          "Atoms match when of the same element, any atoms, any heavy atoms, or the same isotope label.",
        ),
      ),
      "elements",
    ),
    bond_compare: v.optional(
      v.pipe(
        v.picklist(["order", "order_exact", "any"]),
        v.description(
          "Bonds match by order (aromatic also matches single), exact order, or any bond.",
        ),
      ),
      "order",
    ),
    ring_matches_ring_only: v.optional(
      v.pipe(
        v.boolean(),
        v.description("Ring atoms and bonds only match ring atoms and bonds."),
      ),
      true,
    ),
    complete_rings_only: v.optional(
      v.pipe(v.boolean(), v.description("Only whole rings may be part of the MCS.")),
      false,
    ),
    match_chiral_tag: v.optional(
      v.pipe(v.boolean(), v.description("Tetrahedral chirality tags must match.")),
      false,
    ),
    threshold: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0.01),
        v.maxValue(1),
        v.description("Fraction of the molecules that must contain the MCS."),
      ),
      1,
    ),
  }),
  output: v.object({
    smarts: v.pipe(v.string(), v.description("SMARTS of the maximum common substructure (RDKit FMCS).")),
    atom_count: count("Atoms in the MCS."),
    bond_count: count("Bonds in the MCS."),
    timed_out: v.pipe(
      v.boolean(),
      v.description("True when FMCS stopped at timeout_seconds; the SMARTS may then not be maximal."),
    ),
    molecule_count: count("Number of molecules compared."),
    matches: v.pipe(
      v.array(v.nullable(v.array(count("Atom index.")))),
      v.description(
        "Per input molecule (same order), atom indices (0-based, SMILES order) of one MCS match, listed in " +
          "SMARTS atom order; null when that molecule does not contain it (possible when threshold < 1).",
      ),
    ),
    timeout_seconds: count("Time limit used (s)."),
    method: v.pipe(v.string(), v.description("Method and reference.")),
  }),
  // FMCS stops itself at timeout_seconds; the worker deadline only catches what comes after the search.
  placement: {
    where: "pool",
    deadlineMs: ({ timeout_seconds }) => (timeout_seconds + ISOLATION_GRACE_S) * 1000,
    cost: ({ smiles_list }) => textsCost(smiles_list),
    warmUp: [{ smiles_list: [WARM_UP_SMILES.paracetamol, WARM_UP_SMILES.atenolol] }],
  },
  run: (args) => {
    const result = findMcs(args.smiles_list, {
      timeoutSeconds: args.timeout_seconds,
      atomCompare: args.atom_compare,
      bondCompare: args.bond_compare,
      ringMatchesRingOnly: args.ring_matches_ring_only,
      completeRingsOnly: args.complete_rings_only,
      matchChiralTag: args.match_chiral_tag,
      threshold: args.threshold,
    });
    return {
      ...result,
      molecule_count: args.smiles_list.length,
      timeout_seconds: args.timeout_seconds,
      method: MCS_METHOD,
    };
  },
});
