import * as v from "valibot";
import { calcProperties } from "../chem/properties.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** One number per QED property (Bickerton et al. 2012, Table 1): its value or, with `desirability`, its desirability. */
const qedRecord = (what: string, desirability = false) => {
  const field = (label: string) =>
    v.pipe(v.number(), v.description(desirability ? `Desirability of the ${label}, 0–1.` : `The ${label}.`));
  return v.pipe(
    v.object({
      MW: field("molecular weight, g/mol"),
      ALOGP: field("Crippen logP"),
      HBA: field("H-bond acceptor count (QED's acceptor SMARTS)"),
      HBD: field("H-bond donor count"),
      PSA: field("polar surface area, Å²"),
      ROTB: field("rotatable bond count"),
      AROM: field("aromatic ring count"),
      ALERTS: field("count of structural alerts matched"),
    }),
    v.description(what),
  );
};

/** Method text of calc_properties results. */
export const CALC_PROPERTIES_METHOD =
  "RDKit descriptors: average MW and monoisotopic mass; Wildman–Crippen logP " +
  "(1999); Ertl TPSA (2000) from N and O only; RDKit NumHBD/NumHBA; strict rotatable bonds; QED (Bickerton et al. " +
  "2012, mean weights). Largest component of multi-component input.";

/** `calc_properties`: physicochemical properties and QED. */
export const calcPropertiesTool = defineTool({
  name: "calc_properties",
  title: "Molecular properties and QED",
  description:
    "Compute physicochemical properties of a molecule with RDKit: average molecular weight (g/mol), " +
    "monoisotopic exact mass (Da), Wildman–Crippen logP (Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, " +
    "868, doi:10.1021/ci990307l), TPSA in Å² (Ertl et al., J. Med. Chem. 2000, 43, 3714, doi:10.1021/jm000942e; " +
    "RDKit default: N and O contributions only, S and P excluded), H-bond donors/acceptors (RDKit NumHBD/NumHBA " +
    "SMARTS definitions; Lipinski's NH+OH and N+O counts are given as lipinski_hbd/lipinski_hba), rotatable bonds " +
    "(RDKit strict definition: amide C–N, CF3/t-butyl and terminal bonds not counted) and QED, the quantitative " +
    "estimate of drug-likeness 0–1 (Bickerton et al., Nat. Chem. 2012, 4, 90, doi:10.1038/nchem.1243; 8 " +
    "desirability functions, mean weights, the paper's 116 structural alerts) with its inputs and the alerts hit. " +
    "Salts and mixtures: properties describe the largest component (most heavy atoms); removed components are " +
    "listed. Charges are kept as written. Fails with INVALID_SMILES, or MOLECULE_TOO_LARGE above " +
    `${MAX_HEAVY_ATOMS} heavy atoms.`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    parent_smiles: v.pipe(
      v.string(),
      v.description("Canonical SMILES of the component the values describe."),
    ),
    fragment_count: count("Disconnected components in the input."),
    removed_fragments: v.pipe(
      v.array(v.string()),
      v.description("Canonical SMILES of components left out (counter-ions, solvents)."),
    ),
    molecular_weight: num("Average molecular weight, g/mol (3 decimals)."),
    exact_mass: num("Monoisotopic mass, Da (4 decimals)."),
    logp: num("Wildman–Crippen logP (RDKit CrippenClogP), 4 decimals."),
    tpsa: num("Topological polar surface area, Å², N and O contributions only (2 decimals)."),
    hbd: count("H-bond donors, RDKit NumHBD."),
    hba: count("H-bond acceptors, RDKit NumHBA."),
    lipinski_hbd: count("Lipinski donors: H atoms on N and O."),
    lipinski_hba: count("Lipinski acceptors: N and O atoms."),
    rotatable_bonds: count("Rotatable bonds, RDKit NumRotatableBonds (strict)."),
    aromatic_rings: count("Aromatic rings, RDKit NumAromaticRings."),
    heavy_atoms: count("Heavy (non-hydrogen) atoms."),
    qed: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description("QED, mean weights, 0–1 (4 decimals)."),
    ),
    qed_details: v.pipe(
      v.object({
        properties: qedRecord(
          "QED inputs: MW (g/mol), ALOGP (Crippen), HBA (QED acceptor SMARTS), HBD (NumHBD), PSA (Å²), ROTB, " +
            "AROM (rings after deleting aliphatic ring atoms with non-aromatic neighbours), ALERTS (count).",
        ),
        desirability: qedRecord("Desirability of each QED input, 0–1.", true),
        alerts: v.pipe(
          v.array(v.object({
            index: v.pipe(v.number(), v.description("1-based position in the QED alert list.")),
            smarts: v.pipe(v.string(), v.description("The alert's SMARTS.")),
          })),
          v.description("QED structural alerts that matched: 1-based index in the paper's list and SMARTS."),
        ),
      }),
      v.description(
        "How QED was reached: its eight inputs, their desirabilities and the alerts that matched.",
      ),
    ),
    method: v.pipe(v.string(), v.description("Definitions and references.")),
  }),
  // qed_details.qed duplicates qed; the output schema drops it.
  run: ({ smiles }) => ({ smiles, ...calcProperties(smiles), method: CALC_PROPERTIES_METHOD }),
});
