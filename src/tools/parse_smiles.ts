import * as v from "valibot";
import { topologicalDistance } from "../chem/graph_distance.ts";
import { summarize } from "../chem/identity.ts";
import { withMol } from "../chem/rdkit.ts";
import { canonicalSmilesField, count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

/** An atom index; past the molecule's atoms it is refused by the chemistry, which knows their number. */
const atomIndex = v.pipe(v.number(), v.integer(), v.minValue(0));

/** `parse_smiles`: validate a SMILES string and report its size. */
export const parseSmilesTool = defineTool({
  name: "parse_smiles",
  title: "Parse SMILES",
  annotations: LOCAL_COMPUTATION,
  description:
    "Check that a SMILES parses (RDKit) and report its size: canonical SMILES, heavy atoms, atoms with " +
    "hydrogens, bonds between heavy atoms, fragments and average molecular weight (g/mol); with `atoms`, the bonds on a shortest path between two " +
    "atoms. Use it to validate input first; for properties use calc_properties. Errors: INVALID_SMILES, " +
    "UNSUPPORTED_MOLECULE (no such atom).",
  input: v.strictObject({
    smiles: smilesArg(),
    atoms: v.optional(v.pipe(
      v.tuple([atomIndex, atomIndex]),
      v.description("Two atom indices (0-based, SMILES order) for `distance`."),
    )),
  }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
    atom_count: count("Heavy (non-hydrogen) atoms."),
    atom_count_with_hydrogens: count("All atoms including implicit and explicit hydrogens."),
    bond_count: count("Bonds between heavy atoms; bonds to hydrogen are not counted."),
    molecular_weight: num("Average molecular weight in g/mol (standard atomic weights), 3 decimals."),
    fragment_count: count("Disconnected components, e.g. 2 for '[Na+].[Cl-]'."),
    distance: v.optional(v.pipe(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.description("Bonds on a shortest path between `atoms`; null in different components."),
    )),
  }),
  placement: {
    where: "pool",
    cost: ({ smiles }) => textsCost(smiles),
    warmUp: [{ smiles: WARM_UP_SMILES.paracetamol }],
  },
  list: {
    cap: 1000,
    columns: [
      "atom_count",
      "atom_count_with_hydrogens",
      "bond_count",
      "molecular_weight",
      "fragment_count",
    ],
  },
  run: ({ smiles, atoms }) => ({
    smiles,
    ...summarize(smiles),
    ...(atoms ? { distance: withMol(smiles, (mol) => topologicalDistance(mol, atoms[0], atoms[1])) } : {}),
  }),
});
