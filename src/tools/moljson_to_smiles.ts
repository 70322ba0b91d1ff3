import * as v from "valibot";
import { type MolJson, MOLJSON_VERSION, MolJsonSchema } from "../chem/moljson/schema.ts";
import { fromMolJson } from "../chem/moljson/reader.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { count } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { molJsonCost } from "./placement.ts";

const ETHANOL: MolJson = {
  format: "moljson",
  version: 1,
  atoms: [
    { index: 0, element: "C", hydrogens: 3 },
    { index: 1, element: "C", hydrogens: 2 },
    { index: 2, element: "O", hydrogens: 1 },
  ],
  bonds: [{ begin: 0, end: 1 }, { begin: 1, end: 2 }],
};

/** `moljson_to_smiles`: MolJSON back to canonical SMILES. */
export const moljsonToSmilesTool = defineTool({
  name: "moljson_to_smiles",
  title: "MolJSON to SMILES",
  annotations: LOCAL_COMPUTATION,
  description:
    `MolJSON v${MOLJSON_VERSION} (from smiles_to_moljson, possibly edited) to RDKit canonical isomeric ` +
    "SMILES. hydrogens is taken literally (none are added): set it on every atom you change. CIP labels are " +
    "ignored; chirality is read from neighbors and winding. Errors: INVALID_MOLJSON (names the atom or bond " +
    `and the problem), MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({
    // Ethanol as smiles_to_moljson writes it: a client filling arguments from the schema needs one document.
    moljson: v.pipe(MolJsonSchema, v.examples([ETHANOL])),
  }),
  output: v.object({
    smiles: v.pipe(v.string(), v.description("RDKit canonical isomeric SMILES of the MolJSON molecule.")),
    atom_count: count("Heavy (non-hydrogen) atoms of the molecule."),
    bond_count: count(
      "Bonds of RDKit's molecule graph (hydrogen atoms stay in the graph only when isotopic).",
    ),
  }),
  placement: { where: "by_cost", cost: ({ moljson }) => molJsonCost(moljson) },
  run: ({ moljson }) => fromMolJson(moljson),
});
