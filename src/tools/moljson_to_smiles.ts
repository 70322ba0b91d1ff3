import * as v from "valibot";
import { fromMolJson, MOLJSON_VERSION, MolJsonSchema } from "../chem/moljson.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { count } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `moljson_to_smiles`: MolJSON back to canonical SMILES. */
export const moljsonToSmilesTool = defineTool({
  name: "moljson_to_smiles",
  title: "MolJSON to SMILES",
  description:
    `Convert a MolJSON version ${MOLJSON_VERSION} document (as produced by smiles_to_moljson, possibly ` +
    "edited) to RDKit canonical isomeric SMILES. The graph is checked first, then built and sanitised by " +
    "RDKit (valences, kekulisation of aromatic bonds) and canonicalised (Schneider, Sayle & Landrum, J. Chem. " +
    "Inf. Model. 2015, 55, 2111). hydrogens is taken literally (no implicit hydrogens are added), so after an " +
    "edit set each changed atom's hydrogens. CIP labels in the input are ignored; chirality is read from " +
    "neighbors + winding. Limit: " +
    `${MAX_HEAVY_ATOMS} heavy atoms. Fails with INVALID_MOLJSON naming the atom or bond (index not equal to ` +
    "position, unknown element, bond to a missing atom, self or duplicate bond, aromatic flags inconsistent, " +
    "chirality or cis/trans not naming the right neighbours, bad valence, aromatic system that cannot be " +
    "kekulised) or MOLECULE_TOO_LARGE.",
  input: v.strictObject({ moljson: MolJsonSchema }),
  output: v.object({
    smiles: v.pipe(v.string(), v.description("RDKit canonical isomeric SMILES of the MolJSON molecule.")),
    atom_count: count("Heavy (non-hydrogen) atoms of the molecule."),
    bond_count: count(
      "Bonds of RDKit's molecule graph (hydrogen atoms stay in the graph only when isotopic).",
    ),
  }),
  run: ({ moljson }) => fromMolJson(moljson),
});
