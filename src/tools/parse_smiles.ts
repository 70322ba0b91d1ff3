import * as v from "valibot";
import { summarize } from "../chem/identity.ts";
import { canonicalSmilesField, count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";

/** `parse_smiles`: validate a SMILES string and report its size. */
export const parseSmilesTool = defineTool({
  name: "parse_smiles",
  title: "Parse SMILES",
  annotations: LOCAL_COMPUTATION,
  description:
    "Check that a SMILES parses (RDKit) and report its size: canonical SMILES, heavy atoms, atoms with " +
    "hydrogens, bonds between heavy atoms, fragments and average molecular weight (g/mol). Use it to validate " +
    "input first; for properties use calc_properties. Error: " +
    "INVALID_SMILES.",
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
    atom_count: count("Heavy (non-hydrogen) atoms."),
    atom_count_with_hydrogens: count("All atoms including implicit and explicit hydrogens."),
    bond_count: count("Bonds between heavy atoms; bonds to hydrogen are not counted."),
    molecular_weight: num("Average molecular weight in g/mol (standard atomic weights), 3 decimals."),
    fragment_count: count("Disconnected components, e.g. 2 for '[Na+].[Cl-]'."),
  }),
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
  run: ({ smiles }) => ({ smiles, ...summarize(smiles) }),
});
