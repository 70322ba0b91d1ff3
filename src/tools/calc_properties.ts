import * as v from "valibot";
import { calcProperties } from "../chem/properties.ts";
import { MAX_HEAVY_ATOMS } from "../chem/rdkit.ts";
import { componentFields, count, givenSmiles, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

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
  "RDKit descriptors; largest component of multi-component input. logP: " +
  "Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, doi:10.1021/ci990307l. TPSA (N and O only): Ertl et al., " +
  "J. Med. Chem. 2000, doi:10.1021/jm000942e. QED (mean weights): Bickerton et al., Nat. Chem. 2012, " +
  "doi:10.1038/nchem.1243.";

/** `calc_properties`: physicochemical properties and QED. */
export const calcPropertiesTool = defineTool({
  name: "calc_properties",
  title: "Molecular properties and QED",
  annotations: LOCAL_COMPUTATION,
  description:
    "Physicochemical properties (RDKit): average MW (g/mol), exact mass (Da), Wildman–Crippen logP " +
    "(1999), TPSA (Ertl et al. 2000; Å², N and O only), H-bond donors/acceptors (Lipinski's counts as " +
    "lipinski_hbd/hba), strict rotatable bonds, rings (SSSR) and aromatic rings, heavy atoms, Hill formula, and QED 0–1 (Bickerton et al. " +
    "2012) with its inputs and alerts. Salts: largest component. " +
    `Errors: INVALID_SMILES, MOLECULE_TOO_LARGE (> ${MAX_HEAVY_ATOMS} heavy atoms).`,
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    ...componentFields("the values describe"),
    removed_fragments: v.pipe(
      v.array(v.string()),
      v.description("Canonical SMILES of components left out (counter-ions, solvents)."),
    ),
    formula: v.pipe(v.string(), v.description("Molecular formula, Hill order, charge appended ('C4H12N+').")),
    molecular_weight: num("Average molecular weight, g/mol (3 decimals)."),
    exact_mass: num("Monoisotopic mass, Da (4 decimals)."),
    logp: num("Wildman–Crippen logP (RDKit CrippenClogP), 4 decimals."),
    tpsa: num("Topological polar surface area, Å², N and O contributions only (2 decimals)."),
    hbd: count("H-bond donors, RDKit NumHBD."),
    hba: count("H-bond acceptors, RDKit NumHBA."),
    lipinski_hbd: count("Lipinski donors: H atoms on N and O."),
    lipinski_hba: count("Lipinski acceptors: N and O atoms."),
    rotatable_bonds: count("Rotatable bonds, RDKit NumRotatableBonds (strict)."),
    rings: count("Rings (SSSR), RDKit CalcNumRings."),
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
        properties: v.pipe(
          v.object({
            HBA: v.pipe(v.number(), v.description("H-bond acceptors by QED's acceptor SMARTS.")),
            AROM: v.pipe(
              v.number(),
              v.description(
                "Aromatic rings after deleting aliphatic ring atoms with non-aromatic neighbours.",
              ),
            ),
            ALERTS: v.pipe(v.number(), v.description("Count of QED structural alerts matched.")),
          }),
          v.description(
            "The QED inputs of its own; the other five are molecular_weight (MW), logp (ALOGP), hbd (HBD), " +
              "tpsa (PSA) and rotatable_bonds (ROTB) above.",
          ),
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
        "How QED was reached: its inputs, the desirability of all eight and the alerts that matched.",
      ),
    ),
    method: v.pipe(v.string(), v.description("Definitions and references.")),
  }),
  placement: { where: "pool", cost: ({ smiles }) => textsCost(smiles) },
  list: {
    cap: 1000,
    columns: [
      "molecular_weight",
      "exact_mass",
      "logp",
      "tpsa",
      "hbd",
      "hba",
      "lipinski_hbd",
      "lipinski_hba",
      "rotatable_bonds",
      "rings",
      "aromatic_rings",
      "heavy_atoms",
      "qed",
      "formula",
      "fragment_count",
      // Which component a salt's row describes (null for one component), as the single answer says.
      "parent_smiles",
    ],
  },
  run: ({ smiles }) => {
    const { qed_details: q, ...p } = calcProperties(smiles);
    // QED's MW, ALOGP, HBD, PSA and ROTB are the same descriptors as the top-level fields: given once.
    const { HBA, AROM, ALERTS } = q.properties;
    const qed_details = { properties: { HBA, AROM, ALERTS }, desirability: q.desirability, alerts: q.alerts };
    return { smiles, ...p, qed_details, method: CALC_PROPERTIES_METHOD };
  },
});
