/**
 * admet_profile: seven ADMET endpoints, each a transparent published rule of thumb applied to computed
 * properties. Every endpoint is a heuristic estimate (not a trained model, not a measurement) and reports its
 * rule's author and year and a one-sentence rationale with the values it read; the full references are in the
 * result's `method` text.
 *
 * | Endpoint          | Rule                                                                              |
 * | ----------------- | --------------------------------------------------------------------------------- |
 * | bbb               | BOILED-Egg yolk (Daina & Zoete, ChemMedChem 2016, 11, 1117)                       |
 * | caco2             | Egan bounds TPSA ≤ 131.6 Å², logP ≤ 5.88 (Egan, Merz & Baldwin, JMC 2000)         |
 * | herg              | Gleeson 4/400 rule + ionisation class (Gleeson, J. Med. Chem. 2008, 51, 817)      |
 * | cyp3a4            | Gleeson 4/400 rule (ibid.)                                                        |
 * | ames              | Kazius specific toxicophores (Kazius, McGuire & Bursi, J. Med. Chem. 2005)        |
 * | ppb               | Gleeson: binding rises with clogP; acids bind most (ibid.)                        |
 * | hepatic_clearance | ECCS class → predominant clearance route (Varma et al., Pharm. Res. 2015)         |
 *
 * The ionisation class (acid, base, zwitterion, neutral at pH 7.4) comes from a small documented SMARTS set
 * ({@link IONISABLE_GROUPS}); it is an approximation without pKa prediction.
 *
 * @module
 */
import { round } from "./identity.ts";
import { BOILED_EGG_YOLK, eggDescriptors, ellipseDistance } from "./boiled_egg.ts";
import { type CoreProperties, coreProperties, parentSmiles, withParentMol } from "./properties.ts";
import { hasMatch, lazyQueries } from "./qed.ts";
import { descriptors, type Mol } from "./rdkit.ts";

/** One endpoint's estimate. */
export interface AdmetEndpoint {
  /** Categorical estimate, e.g. "penetrant" or "higher_risk". */
  prediction: string;
  /** Author and year of the rule; the full reference and DOI are in the result's `method`. */
  reference: string;
  /** One sentence: the rule, the values it read and why this molecule got this estimate. */
  rationale: string;
}

/** A Kazius toxicophore found in the molecule. */
export interface ToxicophoreHit {
  /** Toxicophore name as in Kazius et al. 2005. */
  name: string;
  /** The SMARTS that matched. */
  smarts: string;
}

/** Ionisation class at pH 7.4 (approximate). */
export type IonisationClass = "acid" | "base" | "zwitterion" | "neutral";

/** The admet_profile result. */
export interface AdmetProfile {
  /** Canonical SMILES of the component profiled; only for input of several components. */
  parent_smiles?: string;
  /** Components in the input. */
  fragment_count: number;
  /** The descriptors the rules read. */
  inputs: { molecular_weight: number; logp: number; tpsa: number };
  /** Ionisation class and the groups that set it. */
  ionisation: { class: IonisationClass; acidic_groups: string[]; basic_groups: string[] };
  /** The seven endpoints. */
  endpoints: {
    bbb: AdmetEndpoint;
    caco2: AdmetEndpoint;
    herg: AdmetEndpoint;
    cyp3a4: AdmetEndpoint;
    ames: AdmetEndpoint & { toxicophores: ToxicophoreHit[] };
    ppb: AdmetEndpoint;
    hepatic_clearance: AdmetEndpoint;
  };
  /** Always true. */
  heuristic: true;
  /** What the estimates are, how ionisation is assigned, and the full references with DOIs. */
  method: string;
}

// -----------------------------------------------------------------------------------------------------------
// Ionisation class

/**
 * Groups treated as ionised at pH 7.4. Approximate by design: typical carboxylic/sulfonic/phosphonic acids,
 * tetrazoles and acyl sulfonamides (pKa ≲ 5) are acids; aliphatic amines not attached to aryl, carbonyl,
 * sulfonyl or heteroatoms, amidines/guanidines without electron-withdrawing N-substituents, and quaternary
 * ammonium are bases. Weak bases (anilines, pyridines, imidazoles) and weak acids (phenols, N-aryl
 * sulfonamides, imides) count as neutral.
 */
export const IONISABLE_GROUPS: readonly { name: string; kind: "acid" | "base"; smarts: string }[] = [
  { name: "carboxylic acid", kind: "acid", smarts: "[CX3](=O)[OX2H1,OX1-]" },
  { name: "sulfonic/sulfuric acid", kind: "acid", smarts: "[SX4](=O)(=O)[OX2H1,OX1-]" },
  { name: "phosphonic/phosphoric acid", kind: "acid", smarts: "[PX4](=O)[OX2H1,OX1-]" },
  { name: "tetrazole", kind: "acid", smarts: "[#6]1:[#7]:[#7]:[#7;H1,-1]:[#7]:1" },
  { name: "tetrazole", kind: "acid", smarts: "[#6]1:[#7]:[#7;H1,-1]:[#7]:[#7]:1" },
  { name: "acyl sulfonamide", kind: "acid", smarts: "[CX3](=O)[NX3;H1,-1][SX4](=O)=O" },
  {
    name: "aliphatic amine",
    kind: "base",
    smarts: "[N;X3;+0;!$(N~[!#6;!#1]);!$(N-a);!$(N-[#6]=[!#6]);!$(N-[#6]#*);!$(N-[#6]=[#6])]",
  },
  { name: "protonated amine", kind: "base", smarts: "[N;X4;+1;!H0;!$(N~[!#6;!#1])]" },
  { name: "quaternary ammonium", kind: "base", smarts: "[N;X4;+1;H0;!$(N~[!#6;!#1])]" },
  {
    name: "amidine/guanidine",
    kind: "base",
    smarts: "[CX3;!a;!$(C~[#7]~[$(C#N),$([#6]=[#8,#16]),$([#16](=O)=O),$([#7]=O),$([#7+][O-]),$([#8])])]" +
      "(=[NX2;!a;!$(N-a);!$(N~[!#6;!#1])])[NX3;!a;!$(N-a)]",
  },
];

const ionisableQueries = lazyQueries(IONISABLE_GROUPS.map((g) => g.smarts));

/**
 * Approximate ionisation class of `mol` at pH 7.4.
 *
 * @example
 * ```ts
 * withMol("CC(C)Cc1ccc(C(C)C(=O)O)cc1", ionisationClass).class; // "acid" (ibuprofen)
 * ```
 */
export function ionisationClass(
  mol: Mol,
): { class: IonisationClass; acidic_groups: string[]; basic_groups: string[] } {
  const acidic = new Set<string>();
  const basic = new Set<string>();
  ionisableQueries().forEach((q, i) => {
    const group = IONISABLE_GROUPS[i];
    if (group && hasMatch(mol, q)) (group.kind === "acid" ? acidic : basic).add(group.name);
  });
  const cls: IonisationClass = acidic.size && basic.size
    ? "zwitterion"
    : acidic.size
    ? "acid"
    : basic.size
    ? "base"
    : "neutral";
  return { class: cls, acidic_groups: [...acidic], basic_groups: [...basic] };
}

// -----------------------------------------------------------------------------------------------------------
// Kazius 2005 toxicophores (AMES)

/**
 * The specific toxicophores of Kazius, McGuire & Bursi (J. Med. Chem. 2005, 48, 312, Table 3) as SMARTS. The
 * SMARTS follow the public transcription used by pkCSM (Pires et al., J. Med. Chem. 2015, 58, 4066) and
 * Exscientia's molflux (`toxicophores.py`, MIT); "polycyclic planar system" is one toxicophore written as nine
 * ring-fusion patterns. Provenance and the one deliberate change: docs/tools/admet_profile.md.
 */
export const KAZIUS_TOXICOPHORES: readonly { name: string; smarts: readonly string[] }[] = [
  { name: "specific aromatic nitro", smarts: ["O=N(~O)a"] },
  { name: "specific aromatic amine", smarts: ["a[NH2]"] },
  { name: "aromatic nitroso", smarts: ["a[N;X2]=O"] },
  { name: "alkyl nitrite", smarts: ["CO[N;X2]=O"] },
  { name: "nitrosamine", smarts: ["N[N;X2]=O"] },
  { name: "epoxide", smarts: ["O1[c,C]-[c,C]1"] },
  { name: "aziridine", smarts: ["C1NC1"] },
  { name: "azide", smarts: ["N=[N+]=[N-]"] },
  { name: "diazo", smarts: ["C=[N+]=[N-]"] },
  { name: "triazene", smarts: ["N=N-N"] },
  { name: "aromatic azo", smarts: ["c[N;X2]!@;=[N;X2]c"] },
  { name: "unsubstituted heteroatom-bonded heteroatom", smarts: ["[OH,NH2][N,O]"] },
  { name: "aromatic hydroxylamine", smarts: ["[OH]Na"] },
  { name: "aliphatic halide", smarts: ["[Cl,Br,I]C"] },
  { name: "carboxylic acid halide", smarts: ["[Cl,Br,I]C=O"] },
  { name: "nitrogen or sulphur mustard", smarts: ["[N,S]!@[C;X4]!@[CH2][Cl,Br,I]"] },
  { name: "bay-region in polycyclic aromatic hydrocarbons", smarts: ["[cH]1[cH]ccc2c1c3c(cc2)cc[cH][cH]3"] },
  { name: "K-region in polycyclic aromatic hydrocarbons", smarts: ["[cH]1cccc2c1[cH][cH]c3c2ccc[cH]3"] },
  {
    name: "sulphonate-bonded carbon (alkyl alkane sulphonate or dialkyl sulphate)",
    smarts: ["[$([C,c]OS(=O)(=O)O!@[c,C]),$([c,C]S(=O)(=O)O!@[c,C])]"],
  },
  { name: "aliphatic N-nitro", smarts: ["O=N(~O)N"] },
  {
    name: "α,β-unsaturated aldehyde (including α-carbonyl aldehyde)",
    smarts: ["[$(O=[CH]C=C),$(O=[CH]C=O)]"],
  },
  { name: "diazonium", smarts: ["[N;v4]#N"] },
  { name: "β-propiolactone", smarts: ["O=C1CCO1"] },
  { name: "α,β-unsaturated alkoxy group", smarts: ["[CH]=[CH]O"] },
  { name: "1-aryl-2-monoalkyl hydrazine", smarts: ["[NH;!R][NH;!R]a"] },
  { name: "aromatic methylamine", smarts: ["[CH3][NH]a"] },
  {
    name: "ester derivative of aromatic hydroxylamine",
    smarts: ["aN([$([OH]),$(O*=O)])[$([#1]),$(C(=O)[CH3]),$([CH3]),$([OH]),$(O*=O)]"],
  },
  {
    name: "polycyclic planar system",
    smarts: [
      "a13~a~a~a~a2~a1~a(~a~a~a~3)~a~a~a~2",
      "a1~a~a~a2~a~1~a~a3~a(~a~2)~a~a~a~3",
      "a1~a~a~a2~a~1~a~a~a3~a~2~a~a~a~3",
      "a1~a~a~a~a2~a~1~a3~a(~a~2)~a~a~a~a~3",
      "a1~a~a~a~a2~a~1~a~a3~a(~a~2)~a~a~a~3",
      "a1~a~a~a~a2~a~1~a~a3~a(~a~2)~a~a~a~a~3",
      "a1~a~a~a~a2~a~1~a~a~a3~a~2~a~a~a~3",
      "a1~a~a~a~a2~a~1~a~a~a3~a~2~a~a~a~a~3",
      "a13~a~a~a~a2~a1~a(~a~a~a~3)~a~a~2",
    ],
  },
];

const toxicophoreQueries = lazyQueries(KAZIUS_TOXICOPHORES.flatMap((t) => t.smarts));

/**
 * Kazius 2005 toxicophores present in `mol` (first matching SMARTS per toxicophore).
 *
 * @example
 * ```ts
 * withMol("CN(C)N=O", kaziusToxicophores); // [{ name: "nitrosamine", smarts: "N[N;X2]=O" }]
 * ```
 */
export function kaziusToxicophores(mol: Mol): ToxicophoreHit[] {
  const queries = toxicophoreQueries();
  const hits: ToxicophoreHit[] = [];
  let k = 0;
  for (const tox of KAZIUS_TOXICOPHORES) {
    const first = tox.smarts.findIndex((_, j) => hasMatch(mol, queries[k + j] as Mol));
    if (first >= 0) hits.push({ name: tox.name, smarts: tox.smarts[first] as string });
    k += tox.smarts.length;
  }
  return hits;
}

// -----------------------------------------------------------------------------------------------------------
// Endpoint rules

/** Author–year of each rule's paper, as endpoints cite it; the full references are in {@link ADMET_METHOD}. */
const REF = {
  egg: "Daina & Zoete 2016",
  egan: "Egan et al. 2000",
  gleeson: "Gleeson 2008",
  kazius: "Kazius et al. 2005",
  eccs: "Varma et al. 2015",
} as const;

/** Egan egg bounds as used by SwissADME's Egan filter. */
export const EGAN_MAX_TPSA = 131.6;
/** Egan egg logP bound (AlogP98 in the paper; Wildman–Crippen here). */
export const EGAN_MAX_LOGP = 5.88;
/** Gleeson's favourable-space bounds: MW < 400 and clogP < 4. */
export const GLEESON_MW = 400;
/** See {@link GLEESON_MW}. */
export const GLEESON_LOGP = 4;
/** ECCS molecular-weight split between classes A and B. */
export const ECCS_MW = 400;

/** Inputs every rule may read. */
interface RuleInputs {
  core: CoreProperties;
  wlogp: number;
  tpsaSP: number;
  ionisation: IonisationClass;
}

function endpoint(reference: string, prediction: string, rationale: string): AdmetEndpoint {
  return { prediction, reference, rationale };
}

function bbbRule(x: RuleInputs): AdmetEndpoint {
  const inside = ellipseDistance(BOILED_EGG_YOLK, x.tpsaSP, x.wlogp) <= 1;
  return endpoint(
    REF.egg,
    inside ? "penetrant" : "non_penetrant",
    `${inside ? "Inside" : "Outside"} the BOILED-Egg yolk; P-gp efflux not modelled.`,
  );
}

/** Whether the Egan bounds hold (also the permeability class ECCS reads). */
function eganPermeable(x: RuleInputs): boolean {
  return x.tpsaSP <= EGAN_MAX_TPSA && x.wlogp <= EGAN_MAX_LOGP;
}

function caco2Rule(x: RuleInputs): AdmetEndpoint {
  const ok = eganPermeable(x);
  return endpoint(
    REF.egan,
    ok ? "high" : "low",
    `${ok ? "Within" : "Outside"} Egan's TPSA ≤ ${EGAN_MAX_TPSA} Å², logP ≤ ${EGAN_MAX_LOGP}; passive only.`,
  );
}

function gleesonFavourable(core: CoreProperties): boolean {
  return core.molecular_weight < GLEESON_MW && core.logp < GLEESON_LOGP;
}

function space(core: CoreProperties): string {
  return `${gleesonFavourable(core) ? "Inside" : "Outside"} the 4/400 space (MW < ${GLEESON_MW}, logP < ` +
    `${GLEESON_LOGP})`;
}

function hergRule(x: RuleInputs): AdmetEndpoint {
  const base = x.ionisation === "base";
  const favourable = gleesonFavourable(x.core);
  const prediction = base && !favourable
    ? "higher_risk"
    : !base && favourable
    ? "lower_risk"
    : "moderate_risk";
  return endpoint(
    REF.gleeson,
    prediction,
    `${space(x.core)}; ${base ? "a base" : "not a base"}.`,
  );
}

function cyp3a4Rule(x: RuleInputs): AdmetEndpoint {
  const favourable = gleesonFavourable(x.core);
  return endpoint(
    REF.gleeson,
    favourable ? "inhibition_less_likely" : "inhibition_more_likely",
    `${space(x.core)}.`,
  );
}

function ppbRule(x: RuleInputs): AdmetEndpoint {
  const lipophilic = x.core.logp >= GLEESON_LOGP;
  const acid = x.ionisation === "acid";
  return endpoint(
    REF.gleeson,
    lipophilic || acid ? "high_binding_likely" : "lower_binding_likely",
    lipophilic || acid
      ? `logP ≥ ${GLEESON_LOGP} or acidic: binding rises with logP, acids bind most.`
      : `logP < ${GLEESON_LOGP} and not acidic.`,
  );
}

/**
 * ECCS class (Varma et al. 2015) and the predominant clearance route it predicts: acids/zwitterions vs
 * bases/neutrals, high vs low permeability, MW ≤ 400 vs > 400 (the MW split applies to acids/zwitterions only).
 *
 * @example
 * ```ts
 * eccsClass("base", 350, true); // { eccs_class: "2", route: "hepatic_metabolism" }
 * ```
 */
export function eccsClass(
  ionisation: IonisationClass,
  molecularWeight: number,
  highPermeability: boolean,
): { eccs_class: string; route: string } {
  const acidLike = ionisation === "acid" || ionisation === "zwitterion";
  const heavy = molecularWeight > ECCS_MW;
  if (!acidLike) {
    return highPermeability
      ? { eccs_class: "2", route: "hepatic_metabolism" }
      : { eccs_class: "4", route: "renal" };
  }
  if (highPermeability) {
    return heavy
      ? { eccs_class: "1B", route: "hepatic_uptake" }
      : { eccs_class: "1A", route: "hepatic_metabolism" };
  }
  return heavy
    ? { eccs_class: "3B", route: "hepatic_uptake_or_renal" }
    : { eccs_class: "3A", route: "renal" };
}

function clearanceRule(x: RuleInputs): AdmetEndpoint {
  const permeable = eganPermeable(x);
  const { eccs_class, route } = eccsClass(x.ionisation, x.core.molecular_weight, permeable);
  return endpoint(
    REF.eccs,
    route,
    `ECCS class ${eccs_class}: ${x.ionisation}, MW ${
      x.core.molecular_weight > ECCS_MW ? ">" : "≤"
    } ${ECCS_MW}, ` +
      `${permeable ? "high" : "low"} permeability (Egan bounds, not a measurement).`,
  );
}

function amesRule(mol: Mol): AdmetEndpoint & { toxicophores: ToxicophoreHit[] } {
  const hits = kaziusToxicophores(mol);
  return {
    ...endpoint(
      REF.kazius,
      hits.length > 0 ? "alert" : "no_alert",
      hits.length > 0
        ? "Toxicophores found: mutagenicity more likely (alerts over-flag; no detoxifying context)."
        : "No Kazius toxicophore (mutagenicity not excluded).",
    ),
    toxicophores: hits,
  };
}

/** Method text of every admet_profile result: what the estimates are, and the full references. */
export const ADMET_METHOD =
  "Rules of thumb on computed descriptors, not measurements; ionisation at pH 7.4 " +
  "by SMARTS, no pKa. Daina & Zoete, ChemMedChem 2016, " +
  "doi:10.1002/cmdc.201600182; Egan et al., J. Med. Chem. 2000, doi:10.1021/jm000292e; Gleeson, J. Med. Chem. " +
  "2008, doi:10.1021/jm701122q; Kazius et al., J. Med. Chem. 2005, doi:10.1021/jm040835a; Varma et al., Pharm. " +
  "Res. 2015, doi:10.1007/s11095-015-1749-4.";

/**
 * ADMET rules for an already-parsed molecule.
 *
 * @example
 * ```ts
 * withMol("Cn1cnc2c1c(=O)n(C)c(=O)n2C", (mol) => admetOfMol(mol).bbb.prediction); // "non_penetrant" (caffeine)
 * ```
 */
export function admetOfMol(mol: Mol): AdmetProfile["endpoints"] & {
  ionisation: ReturnType<typeof ionisationClass>;
  inputs: AdmetProfile["inputs"];
} {
  const d = descriptors(mol);
  const { wlogp, tpsa } = eggDescriptors(mol, d);
  const ionisation = ionisationClass(mol);
  const x: RuleInputs = { core: coreProperties(d), wlogp, tpsaSP: tpsa, ionisation: ionisation.class };
  return {
    ionisation,
    inputs: {
      molecular_weight: round(x.core.molecular_weight, 3),
      logp: round(wlogp, 4),
      tpsa: round(tpsa, 2),
    },
    bbb: bbbRule(x),
    caco2: caco2Rule(x),
    herg: hergRule(x),
    cyp3a4: cyp3a4Rule(x),
    ames: amesRule(mol),
    ppb: ppbRule(x),
    hepatic_clearance: clearanceRule(x),
  };
}

/**
 * admet_profile for a SMILES (largest component of salts and mixtures).
 *
 * @example
 * ```ts
 * admetProfile("CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21").endpoints.bbb.prediction; // "penetrant" (diazepam)
 * ```
 */
export function admetProfile(smiles: string): AdmetProfile {
  return withParentMol(smiles, (mol, info) => {
    const { ionisation, inputs, ...endpoints } = admetOfMol(mol);
    return {
      ...parentSmiles(mol, info),
      fragment_count: info.fragment_count,
      inputs,
      ionisation,
      endpoints,
      heuristic: true as const,
      method: ADMET_METHOD,
    };
  });
}
