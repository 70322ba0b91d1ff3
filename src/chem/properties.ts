/**
 * Physicochemical properties shared by calc_properties, lipinski_check, boiled_egg, admet_profile and
 * molecule_context_pack: one RDKit descriptor call per molecule, one code path per number.
 *
 * Definitions (RDKit MinimalLib `get_descriptors`, verified in tests/unit/properties_test.ts):
 * - molecular weight: average MW from IUPAC standard atomic weights (RDKit `amw`), g/mol;
 * - exact mass: monoisotopic mass of the most abundant isotopes (RDKit `exactmw`), Da;
 * - logP: Wildman–Crippen atom-contribution logP (Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, 868,
 *   doi:10.1021/ci990307l; RDKit `CrippenClogP`);
 * - TPSA: Ertl, Rohde & Selzer, J. Med. Chem. 2000, 43, 3714 (doi:10.1021/jm000942e), N and O contributions only
 *   (RDKit default; S and P excluded). {@link tpsaSulfurPhosphorus} adds Ertl's S and P terms where a method
 *   (BOILED-Egg) was built on the S/P-inclusive TPSA;
 * - HBD / HBA: RDKit NumHBD / NumHBA (SMARTS-defined donors and acceptors); Lipinski's counts (NH + OH, N + O) are
 *   RDKit lipinskiHBD / lipinskiHBA;
 * - rotatable bonds: RDKit NumRotatableBonds, the "strict" definition (excludes amide C–N, bonds to CF3/CCl3/
 *   CBr3/tert-butyl and terminal groups) — the definition QED uses.
 *
 * Multi-component input (salts, solvates, mixtures): properties describe the largest component ("parent"),
 * chosen by heavy-atom count, then by canonical SMILES for ties. Charges are kept as written (no neutralisation).
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { countMatches, lazyQueries, type QedDetails, qedDetails } from "./qed.ts";
import { descriptors, type Mol, parseSmiles } from "./rdkit.ts";
import { round } from "./identity.ts";
import { molToMolJson } from "./moljson/writer.ts";
import { hillFormula } from "./represent.ts";
import { largestFragmentIndex } from "./standardize/fragment.ts";

/** Properties read from one RDKit descriptor call. */
export interface CoreProperties {
  /** Average molecular weight, g/mol. */
  molecular_weight: number;
  /** Monoisotopic mass, Da. */
  exact_mass: number;
  /** Wildman–Crippen logP. */
  logp: number;
  /** TPSA from N and O (Ertl 2000, RDKit default), Å². */
  tpsa: number;
  /** RDKit NumHBD. */
  hbd: number;
  /** RDKit NumHBA. */
  hba: number;
  /** Lipinski donors: H on N and O (RDKit lipinskiHBD). */
  lipinski_hbd: number;
  /** Lipinski acceptors: N + O atoms (RDKit lipinskiHBA). */
  lipinski_hba: number;
  /** RDKit NumRotatableBonds (strict). */
  rotatable_bonds: number;
  /** RDKit NumAromaticRings. */
  aromatic_rings: number;
  /** Heavy (non-hydrogen) atoms. */
  heavy_atoms: number;
}

function need(d: Record<string, number>, key: string): number {
  const value = d[key];
  if (value === undefined || !Number.isFinite(value)) {
    throw new Error(`RDKit descriptor '${key}' missing: the RDKit build does not match this code`);
  }
  return value;
}

/**
 * Maps RDKit's descriptor JSON to {@link CoreProperties} (unrounded).
 *
 * @example
 * ```ts
 * withMol("CCO", (mol) => coreProperties(descriptors(mol)).logp); // -0.0014
 * ```
 */
export function coreProperties(d: Record<string, number>): CoreProperties {
  return {
    molecular_weight: need(d, "amw"),
    exact_mass: need(d, "exactmw"),
    logp: need(d, "CrippenClogP"),
    tpsa: need(d, "tpsa"),
    hbd: need(d, "NumHBD"),
    hba: need(d, "NumHBA"),
    lipinski_hbd: need(d, "lipinskiHBD"),
    lipinski_hba: need(d, "lipinskiHBA"),
    rotatable_bonds: need(d, "NumRotatableBonds"),
    aromatic_rings: need(d, "NumAromaticRings"),
    heavy_atoms: need(d, "NumHeavyAtoms"),
  };
}

// -----------------------------------------------------------------------------------------------------------
// TPSA sulfur and phosphorus terms

/**
 * Ertl 2000 (Table 1) surface contributions of S and P atom types, Å², written as SMARTS over the same atom
 * environment (heavy neighbours, H count, charge, single/double/aromatic bonds) RDKit's TPSA uses with
 * `includeSandP`. Any other S or P environment contributes 0.
 */
export const TPSA_SULFUR_PHOSPHORUS: readonly { readonly smarts: string; readonly contribution: number }[] = [
  { smarts: "[#15;+0;H0;D2;$([#15](-*)=*)]", contribution: 34.14 },
  { smarts: "[#15;+0;H0;D3;$([#15](-*)(-*)-*)]", contribution: 13.59 },
  { smarts: "[#15;+0;H1;D3;$([#15](-*)(-*)=*)]", contribution: 23.47 },
  { smarts: "[#15;+0;H0;D4;$([#15](-*)(-*)(-*)=*)]", contribution: 9.81 },
  { smarts: "[#16;+0;H0;D1;$([#16]=*)]", contribution: 32.09 },
  { smarts: "[#16;+0;H1;D1;$([#16]-*)]", contribution: 38.8 },
  { smarts: "[#16;+0;H0;D2;$([#16](-*)-*)]", contribution: 25.3 },
  { smarts: "[#16;+0;H0;D2;$([#16](:*):*)]", contribution: 28.24 },
  { smarts: "[#16;+0;H0;D3;$([#16](:*)(:*)=*)]", contribution: 21.7 },
  { smarts: "[#16;+0;H0;D3;$([#16](-*)(-*)=*)]", contribution: 19.21 },
  { smarts: "[#16;+0;H0;D4;$([#16](-*)(-*)(=*)=*)]", contribution: 8.38 },
];

const sulfurPhosphorusQueries = lazyQueries(TPSA_SULFUR_PHOSPHORUS.map((t) => t.smarts));
const sulfurOrPhosphorus = lazyQueries(["[#15,#16]"]);

/**
 * The S and P part of Ertl's TPSA (Å²); add it to RDKit's N/O TPSA for the S/P-inclusive value SwissADME and
 * BOILED-Egg use.
 *
 * @example
 * ```ts
 * withMol("c1ccsc1", tpsaSulfurPhosphorus); // 28.24 (thiophene)
 * ```
 */
export function tpsaSulfurPhosphorus(mol: Mol): number {
  // Most molecules have neither element: one cheap test skips the eleven patterns.
  if (countMatches(mol, sulfurOrPhosphorus()[0] as Mol) === 0) return 0;
  return sulfurPhosphorusQueries().reduce(
    (sum, q, i) => sum + countMatches(mol, q) * (TPSA_SULFUR_PHOSPHORUS[i]?.contribution ?? 0),
    0,
  );
}

// -----------------------------------------------------------------------------------------------------------
// Parent component of multi-component input

/** How the input was reduced to the molecule whose properties are reported. */
export interface ParentInfo {
  /** Disconnected components in the input (2 for "CCN.Cl"). */
  fragment_count: number;
  /** Canonical SMILES of the components left out (counter-ions, solvents); empty for one-component input. */
  removed_fragments: string[];
}

type FragmentSplit = {
  molList: { size(): number; at(i: number): Mol | null; delete(): void };
  mappings: string;
};

/**
 * `{ parent_smiles }` (canonical SMILES of the component kept) when the input had several components, else
 * nothing: for one component it would only repeat the input in canonical form (canonical_smiles gives that).
 *
 * @example
 * ```ts
 * withParentMol("CCN.Cl", parentSmiles); // { parent_smiles: "CCN" }
 * ```
 */
export function parentSmiles(mol: Mol, info: ParentInfo): { parent_smiles?: string } {
  return info.fragment_count > 1 ? { parent_smiles: mol.get_smiles() } : {};
}

/**
 * Parses `smiles`, keeps its largest component by RDKit's LargestFragmentChooser (the standardize tool's
 * fragment_parent: most atoms with hydrogens, then exact mass, then canonical SMILES; src/chem/standardize/
 * fragment.ts) and passes it to `fn`, the molecule otherwise as given; frees every RDKit object on every path.
 * Throws INVALID_SMILES / MOLECULE_TOO_LARGE as parseSmiles.
 *
 * @example
 * ```ts
 * withParentMol("CCN.Cl", (mol, info) => [mol.get_smiles(), info.removed_fragments]); // ["CCN", ["Cl"]]
 * ```
 */
export function withParentMol<T>(smiles: string, fn: (mol: Mol, info: ParentInfo) => T): T {
  const whole = parseSmiles(smiles);
  try {
    // A SMILES without '.' is one connected molecule: skip the fragment split (the common, fast path).
    if (!smiles.includes(".")) return fn(whole, { fragment_count: 1, removed_fragments: [] });
    const split = whole.get_frags() as FragmentSplit;
    const frags: Mol[] = [];
    try {
      for (let i = 0; i < split.molList.size(); i++) {
        const frag = split.molList.at(i);
        if (frag) frags.push(frag);
      }
      if (frags.length <= 1) return fn(whole, { fragment_count: 1, removed_fragments: [] });
      const keep = largestFragmentIndex(frags);
      const parent = frags[keep];
      if (!parent) throw new ChemError("INVALID_SMILES", "SMILES has no atoms.");
      const removed = frags.filter((_, i) => i !== keep).map((m) => m.get_smiles()).sort();
      return fn(parent, { fragment_count: frags.length, removed_fragments: removed });
    } finally {
      for (const frag of frags) frag.delete();
      split.molList.delete();
    }
  } finally {
    whole.delete();
  }
}

// -----------------------------------------------------------------------------------------------------------
// calc_properties

/** Everything calc_properties reports (rounded for output). */
export interface PropertiesResult extends CoreProperties {
  /** Canonical SMILES of the component the properties describe; only for input of several components. */
  parent_smiles?: string;
  /** Components in the input. */
  fragment_count: number;
  /** Components left out (canonical SMILES). */
  removed_fragments: string[];
  /** Hill-order formula, net charge appended RDKit-style (src/chem/represent.ts). */
  formula: string;
  /** Rings of RDKit's ring perception (SSSR), RDKit CalcNumRings. */
  rings: number;
  /** QED (mean weights), 0–1. */
  qed: number;
  /** QED inputs, desirabilities and alert hits. */
  qed_details: QedDetails;
}

/**
 * Rounds reported values: masses to 4 decimals (3 for average MW), logP to 4 (Crippen contributions have 4),
 * TPSA to 2 (Ertl contributions have 2), QED and desirabilities to 4.
 */
function roundCore(p: CoreProperties): CoreProperties {
  return {
    ...p,
    molecular_weight: round(p.molecular_weight, 3),
    exact_mass: round(p.exact_mass, 4),
    logp: round(p.logp, 4),
    tpsa: round(p.tpsa, 2),
  };
}

function roundQed(q: QedDetails): QedDetails {
  const r4 = (rec: Record<string, number>) =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, round(v, 4)]));
  return {
    qed: round(q.qed, 4),
    properties: r4(q.properties) as QedDetails["properties"],
    desirability: r4(q.desirability) as QedDetails["desirability"],
    alerts: q.alerts,
  };
}

/**
 * Properties of an already-parsed molecule, with QED (unrounded). Use this when you hold a Mol.
 *
 * @example
 * ```ts
 * withMol("CC(=O)Oc1ccccc1C(=O)O", (mol) => molProperties(mol).qed.qed); // ≈ 0.550
 * ```
 */
export function molProperties(mol: Mol): { core: CoreProperties; qed: QedDetails } {
  const d = descriptors(mol);
  return { core: coreProperties(d), qed: qedDetails(mol, d) };
}

/**
 * calc_properties: MW, exact mass, Crippen logP, TPSA, HBD/HBA, rotatable bonds and QED of the parent component.
 *
 * @example
 * ```ts
 * calcProperties("CC(=O)Oc1ccccc1C(=O)O"); // { molecular_weight: 180.159, logp: 1.3101, tpsa: 63.6, qed: 0.5501, … }
 * ```
 */
export function calcProperties(smiles: string): PropertiesResult {
  return withParentMol(smiles, (mol, info) => {
    // One descriptor call serves the core values, the ring count and QED.
    const d = descriptors(mol);
    const details = roundQed(qedDetails(mol, d));
    return {
      ...parentSmiles(mol, info),
      ...info,
      formula: hillFormula(molToMolJson(mol)),
      ...roundCore(coreProperties(d)),
      rings: need(d, "NumRings"),
      qed: details.qed,
      qed_details: details,
    };
  });
}

// -----------------------------------------------------------------------------------------------------------
// lipinski_check

/** One rule of five criterion. */
export interface LipinskiRule {
  /** Which property. */
  rule: "molecular_weight" | "logp" | "hbd" | "hba";
  /** The molecule's value. */
  value: number;
  /** The rule's upper bound (inclusive). */
  threshold: number;
  /** True when value ≤ threshold. */
  passed: boolean;
  /** Definition and unit of the value. */
  definition: string;
}

/** Rule-of-five evaluation. */
export interface LipinskiResult {
  /** Canonical SMILES of the component evaluated; only for input of several components. */
  parent_smiles?: string;
  /** Components in the input. */
  fragment_count: number;
  /** The four criteria. */
  rules: LipinskiRule[];
  /** Number of criteria exceeded, 0–4. */
  violations: number;
  /** True with at most one violation (Lipinski: poor absorption is more likely with more than one). */
  passes: boolean;
}

/** Lipinski's four bounds (Adv. Drug Deliv. Rev. 1997, 23, 3). */
export const LIPINSKI_THRESHOLDS = { molecular_weight: 500, logp: 5, hbd: 5, hba: 10 } as const;

/**
 * Evaluates the rule of five on computed properties.
 *
 * @example
 * ```ts
 * lipinskiRules({ molecular_weight: 180.159, logp: 1.31, lipinski_hbd: 1, lipinski_hba: 4 }).length; // 4
 * ```
 */
export function lipinskiRules(
  p: Pick<CoreProperties, "molecular_weight" | "logp" | "lipinski_hbd" | "lipinski_hba">,
): LipinskiRule[] {
  const rule = (name: LipinskiRule["rule"], value: number, definition: string): LipinskiRule => {
    const threshold = LIPINSKI_THRESHOLDS[name];
    return { rule: name, value, threshold, passed: value <= threshold, definition };
  };
  return [
    rule("molecular_weight", round(p.molecular_weight, 3), "Average molecular weight, g/mol."),
    rule("logp", round(p.logp, 4), "Wildman–Crippen logP (RDKit), standing in for Lipinski's CLogP."),
    rule("hbd", p.lipinski_hbd, "H-bond donors: sum of H on N and O (OH + NH), RDKit lipinskiHBD."),
    rule("hba", p.lipinski_hba, "H-bond acceptors: count of N and O atoms, RDKit lipinskiHBA."),
  ];
}

/**
 * lipinski_check: the rule of five with a per-rule breakdown for the parent component.
 *
 * @example
 * ```ts
 * lipinskiCheck("CC(=O)Oc1ccccc1C(=O)O").passes; // true, 0 violations
 * ```
 */
export function lipinskiCheck(smiles: string): LipinskiResult {
  return withParentMol(smiles, (mol, info) => {
    const rules = lipinskiRules(coreProperties(descriptors(mol)));
    const violations = rules.filter((r) => !r.passed).length;
    return {
      ...parentSmiles(mol, info),
      fragment_count: info.fragment_count,
      rules,
      violations,
      passes: violations <= 1,
    };
  });
}
