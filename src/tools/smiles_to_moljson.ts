import * as v from "valibot";
import { MOLJSON_VERSION, MolJsonSchema } from "../chem/moljson/schema.ts";
import { toMolJson } from "../chem/moljson/writer.ts";
import { MAX_HEAVY_ATOMS, withMol } from "../chem/rdkit.ts";
import { canonicalSmilesField, count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `smiles_to_moljson`: SMILES to the explicit MolJSON atom/bond form. */
export const smilesToMoljsonTool = defineTool({
  name: "smiles_to_moljson",
  title: "SMILES to MolJSON",
  annotations: LOCAL_COMPUTATION,
  description:
    `SMILES to MolJSON v${MOLJSON_VERSION}, an explicit JSON graph: atoms (element, charge, isotope, ` +
    "hydrogens, radicals, aromatic, chirality as a CW/CCW winding around named neighbours) and bonds (order, " +
    "cis/trans) in SMILES order, fields at their default left out. To address or edit single atoms or bonds; " +
    "moljson_to_smiles converts back. About 90 characters per atom. Errors: INVALID_SMILES, " +
    `MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms), UNSUPPORTED_MOLECULE.`,
  input: v.strictObject({
    smiles: smilesArg(),
  }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
    atom_count: count("Atoms in the MolJSON (heavy atoms plus any hydrogens written as atoms)."),
    bond_count: count("Bonds in the MolJSON."),
    moljson: MolJsonSchema,
  }),
  placement: { where: "by_cost", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 50, shared: ["moljson.format", "moljson.version"] },
  run: ({ smiles }) => {
    const moljson = toMolJson(smiles);
    return {
      smiles,
      canonical_smiles: withMol(smiles, (mol) => mol.get_smiles()),
      atom_count: moljson.atoms.length,
      bond_count: moljson.bonds.length,
      moljson,
    };
  },
});
