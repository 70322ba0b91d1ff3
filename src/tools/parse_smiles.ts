import * as v from "valibot";
import { summarize } from "../chem/identity.ts";
import { canonicalSmilesField, count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `parse_smiles`: validate a SMILES string and report its size. */
export const parseSmilesTool = defineTool({
  name: "parse_smiles",
  title: "Parse SMILES",
  description:
    "Parse a SMILES string with RDKit and report its canonical SMILES, atom count, bond count and " +
    "average molecular weight (g/mol). Counts exclude hydrogens (atom_count = heavy atoms, bond_count = bonds " +
    "between heavy atoms); atom_count_with_hydrogens includes implicit and explicit H. Use it to check that a " +
    "SMILES is valid before other tools. Fails with INVALID_SMILES if RDKit cannot parse it.",
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
  run: ({ smiles }) => ({ smiles, ...summarize(smiles) }),
});
