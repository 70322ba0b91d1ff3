import * as v from "valibot";
import { MOLJSON_VERSION, MolJsonSchema, toMolJson } from "../chem/moljson.ts";
import { MAX_HEAVY_ATOMS, withMol } from "../chem/rdkit.ts";
import { canonicalSmilesField, count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `smiles_to_moljson`: SMILES to the explicit MolJSON atom/bond form. */
export const smilesToMoljsonTool = defineTool({
  name: "smiles_to_moljson",
  title: "SMILES to MolJSON",
  description:
    `Convert SMILES to MolJSON version ${MOLJSON_VERSION}, an explicit JSON graph (format 'moljson'): atoms ` +
    "with index, element, formal charge, isotope, hydrogen count, radical electrons, aromatic flag and " +
    "tetrahedral chirality as a winding (CW/CCW, as SMILES @@/@) around named neighbour atoms (implicit H as " +
    '"H") plus the informational CIP label; bonds with begin/end atom, order (1, 2, 3, 1.5 = aromatic) and ' +
    "double-bond cis/trans relative to two named neighbour atoms. Atom indices follow the SMILES order. " +
    "Parsing, aromaticity and CIP labels are RDKit's (CIP labeller: Hanson et al., J. Chem. Inf. Model. 2018, " +
    "58, 1755). Use it when atoms or bonds must be addressed or edited individually; moljson_to_smiles " +
    `converts back. Limit: ${MAX_HEAVY_ATOMS} heavy atoms. Fails with INVALID_SMILES, MOLECULE_TOO_LARGE, or ` +
    "UNSUPPORTED_MOLECULE (dative or zero-order bonds, or an atom outside MolJSON's ranges: charge -8..8, mass " +
    "number 1..300, hydrogens 0..8, radical electrons 0..4).",
  input: v.strictObject({
    smiles: smilesArg(
      `Molecule as SMILES (at most ${MAX_HEAVY_ATOMS} heavy atoms), e.g. 'N[C@@H](C)C(=O)O'.`,
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    canonical_smiles: canonicalSmilesField,
    atom_count: count("Atoms in the MolJSON (heavy atoms plus any hydrogens written as atoms)."),
    bond_count: count("Bonds in the MolJSON."),
    moljson: MolJsonSchema,
  }),
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
