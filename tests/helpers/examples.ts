/**
 * One valid example call per tool, used by the end-to-end suites that call every tool. A tool missing here makes
 * those suites fail, so a new tool cannot ship without an end-to-end call.
 */
export const TOOL_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  parse_smiles: { smiles: "CC(=O)Oc1ccccc1C(=O)O" },
  canonical_smiles: { smiles: "OCC" },
  ecfp4: { smiles: "c1ccccc1O" },
  tanimoto: { smiles_a: "CC(=O)Oc1ccccc1C(=O)O", smiles_b: "OC(=O)c1ccccc1O" },
  smarts_match: { smiles: "OC(=O)c1ccccc1O", smarts: "[OX2H]" },
  calc_properties: { smiles: "CC(=O)Oc1ccccc1C(=O)O" },
  lipinski_check: { smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C" },
  admet_profile: { smiles: "CC(C)Cc1ccc(cc1)C(C)C(=O)O" },
  boiled_egg: { smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21" },
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
