/**
 * One valid example call per tool, used by the end-to-end suites that call every tool. A tool missing here makes
 * those suites fail, so a new tool cannot ship without an end-to-end call.
 */
export const TOOL_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  // Served by the local lookup stub the suites start (tests/helpers/lookup_stub.ts), never the internet.
  name_to_smiles: { name: "aspirin" },
  parse_smiles: { smiles: "CC(=O)Oc1ccccc1C(=O)O" },
  canonical_smiles: { smiles: "OCC" },
  ecfp4: { smiles: "c1ccccc1O" },
  tanimoto: { smiles_a: "CC(=O)Oc1ccccc1C(=O)O", smiles_b: "OC(=O)c1ccccc1O" },
  smarts_match: { smiles: "OC(=O)c1ccccc1O", smarts: "[OX2H]" },
  calc_properties: { smiles: "CC(=O)Oc1ccccc1C(=O)O" },
  lipinski_check: { smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C" },
  admet_profile: { smiles: "CC(C)Cc1ccc(cc1)C(C)C(=O)O" },
  boiled_egg: { smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21" },
  find_mcs: { smiles_list: ["CC(C)NCC(O)COc1ccccc1", "CC(C)NCC(O)COc1ccc(CC(N)=O)cc1"] },
  retrosynthesis: { smiles: "CC(=O)Nc1ccc(O)cc1" },
  smiles_to_moljson: { smiles: "C[C@H](N)C(=O)O" },
  moljson_to_smiles: {
    moljson: {
      format: "moljson",
      version: 1,
      atoms: [
        {
          index: 0,
          element: "C",
          charge: 0,
          isotope: null,
          hydrogens: 3,
          radical_electrons: 0,
          aromatic: false,
          chirality: null,
        },
        {
          index: 1,
          element: "O",
          charge: 0,
          isotope: null,
          hydrogens: 1,
          radical_electrons: 0,
          aromatic: false,
          chirality: null,
        },
      ],
      bonds: [{ index: 0, begin: 0, end: 1, order: 1, stereo: null }],
    },
  },
  representation_router: { smiles: "CCO", task: "deduplicate a compound list by identity" },
  molecule_context_pack: { smiles: "CC(=O)Oc1ccccc1C(=O)O", format: "markdown" },
  generate_3d: { smiles: "CC(=O)Oc1ccccc1C(=O)O" },
  sa_score: { smiles: "CC(C)Cc1ccc(cc1)C(C)C(=O)O" },
  pains_check: { smiles: "S=C1SC(=Cc2ccccc2)C(=O)N1" },
  brenk_check: { smiles: "O=Cc1ccccc1" },
};

/** The example arguments of `name`, or a thrown error naming the missing tool. */
export function exampleFor(name: string): Record<string, unknown> {
  const args = TOOL_EXAMPLES[name];
  if (!args) throw new Error(`no example arguments for tool '${name}' in tests/helpers/examples.ts`);
  return args;
}
