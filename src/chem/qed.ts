/**
 * QED, the quantitative estimate of drug-likeness (Bickerton, Paolini, Besnard, Muresan & Hopkins, Nat. Chem.
 * 2012, 4, 90, doi:10.1038/nchem.1243): eight asymmetric double-sigmoid (ADS) desirability functions of MW,
 * ALOGP, HBA, HBD, PSA, ROTB, AROM and ALERTS, combined as a weighted geometric mean.
 *
 * The ADS parameters, weights, acceptor SMARTS and the 116 structural-alert SMARTS are data from the paper's SI
 * as distributed in RDKit's `rdkit/Chem/QED.py` (BSD-3-Clause); provenance and conversion: docs/data/qed_alerts.md
 * and scripts/convert_qed_alerts.ts. The property definitions follow RDKit's QED: average MW, Wildman–Crippen
 * logP, acceptors by the 11 SMARTS below, RDKit NumHBD, TPSA (N and O only), strict rotatable bonds, and AROM as
 * the ring count left after deleting aliphatic ring atoms that carry a non-aromatic neighbour.
 *
 * The module also holds the SMARTS helpers (compile once, count, test) shared by properties.ts and admet.ts.
 *
 * @module
 */
import { descriptors, type Mol, rdkit } from "./rdkit.ts";

// -----------------------------------------------------------------------------------------------------------
// SMARTS helpers shared by the property modules

/** Match options: every unique match (RDKit's default stops at 1000). */
const ALL_MATCHES = JSON.stringify({ uniquify: true, maxMatches: 100_000 });

/**
 * Compiles SMARTS patterns once per process and returns the same query molecules on later calls. The queries
 * live as long as the process (they are shared, never freed).
 *
 * @example
 * ```ts
 * const acids = lazyQueries(["C(=O)[OH]"]);
 * hasMatch(mol, acids()[0]!);
 * ```
 */
export function lazyQueries(patterns: readonly string[]): () => readonly Mol[] {
  let compiled: Mol[] | undefined;
  return () => (compiled ??= patterns.map(compileQuery));
}

function compileQuery(smarts: string): Mol {
  const query = rdkit().get_qmol(smarts);
  if (!query || !query.is_valid()) {
    query?.delete();
    // Our own tables are fixed data: a failure here is a programming error, not user input.
    throw new Error(`built-in SMARTS failed to compile: ${smarts}`);
  }
  return query;
}

/**
 * Atom indices of every unique match of `query` in `mol`.
 *
 * @example
 * ```ts
 * matchAtoms(mol, query); // [[0, 1], [4, 5]]
 * ```
 */
export function matchAtoms(mol: Mol, query: Mol): number[][] {
  // RDKit answers "{}" rather than "[]" when nothing matches.
  const parsed = JSON.parse(mol.get_substruct_matches(query, ALL_MATCHES)) as { atoms: number[] }[] | object;
  return Array.isArray(parsed) ? parsed.map((m: { atoms: number[] }) => m.atoms) : [];
}

/**
 * Number of unique matches of `query` in `mol`.
 *
 * @example
 * ```ts
 * countMatches(mol, query); // 2
 * ```
 */
export function countMatches(mol: Mol, query: Mol): number {
  return matchAtoms(mol, query).length;
}

/**
 * True when `query` matches `mol` at least once.
 *
 * @example
 * ```ts
 * hasMatch(mol, query); // true
 * ```
 */
export function hasMatch(mol: Mol, query: Mol): boolean {
  return mol.get_substruct_match(query) !== "{}";
}

// -----------------------------------------------------------------------------------------------------------
// Published QED data (Bickerton et al. 2012 SI, as in RDKit QED.py)

/** The eight QED properties, in the paper's order. */
export const QED_PROPERTY_NAMES = ["MW", "ALOGP", "HBA", "HBD", "PSA", "ROTB", "AROM", "ALERTS"] as const;
/** One of the eight QED properties. */
export type QedPropertyName = (typeof QED_PROPERTY_NAMES)[number];

/**
 * Parameters of one asymmetric double sigmoid:
 * d(x) = [a + b / (1 + e^-(x-c+d/2)/e) · (1 − 1 / (1 + e^-(x-c-d/2)/f))] / dmax.
 */
export interface AdsParameters {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly e: number;
  readonly f: number;
  readonly dmax: number;
}

/** ADS parameters of Bickerton et al. 2012 (SI), identical to RDKit QED.py `adsParameters`. */
export const QED_ADS_PARAMETERS: Readonly<Record<QedPropertyName, AdsParameters>> = {
  MW: {
    a: 2.817065973,
    b: 392.5754953,
    c: 290.7489764,
    d: 2.419764353,
    e: 49.22325677,
    f: 65.37051707,
    dmax: 104.9805561,
  },
  ALOGP: {
    a: 3.172690585,
    b: 137.8624751,
    c: 2.534937431,
    d: 4.581497897,
    e: 0.822739154,
    f: 0.576295591,
    dmax: 131.3186604,
  },
  HBA: {
    a: 2.948620388,
    b: 160.4605972,
    c: 3.615294657,
    d: 4.435986202,
    e: 0.290141953,
    f: 1.300669958,
    dmax: 148.7763046,
  },
  HBD: {
    a: 1.618662227,
    b: 1010.051101,
    c: 0.985094388,
    d: 0.000000001,
    e: 0.713820843,
    f: 0.920922555,
    dmax: 258.1632616,
  },
  PSA: {
    a: 1.876861559,
    b: 125.2232657,
    c: 62.90773554,
    d: 87.83366614,
    e: 12.01999824,
    f: 28.51324732,
    dmax: 104.5686167,
  },
  ROTB: {
    a: 0.010000000,
    b: 272.4121427,
    c: 2.558379970,
    d: 1.565547684,
    e: 1.271567166,
    f: 2.758063707,
    dmax: 105.4420403,
  },
  AROM: {
    a: 3.217788970,
    b: 957.7374108,
    c: 2.274627939,
    d: 0.000000001,
    e: 1.317690384,
    f: 0.375760881,
    dmax: 312.3372610,
  },
  ALERTS: {
    a: 0.010000000,
    b: 1199.094025,
    c: -0.09002883,
    d: 0.000000001,
    e: 0.185904477,
    f: 0.875193782,
    dmax: 417.7253140,
  },
};

/** The paper's three weight sets: "mean" (QED_w,mean, the default), "max" (QED_w,mo) and "none" (unweighted). */
export const QED_WEIGHTS: Readonly<
  Record<"mean" | "max" | "none", Readonly<Record<QedPropertyName, number>>>
> = {
  mean: { MW: 0.66, ALOGP: 0.46, HBA: 0.05, HBD: 0.61, PSA: 0.06, ROTB: 0.65, AROM: 0.48, ALERTS: 0.95 },
  max: { MW: 0.50, ALOGP: 0.25, HBA: 0.00, HBD: 0.50, PSA: 0.00, ROTB: 0.50, AROM: 0.25, ALERTS: 1.00 },
  none: { MW: 1, ALOGP: 1, HBA: 1, HBD: 1, PSA: 1, ROTB: 1, AROM: 1, ALERTS: 1 },
};

/** QED's hydrogen-bond acceptor SMARTS; HBA is the sum of their unique match counts. */
export const QED_ACCEPTOR_SMARTS = [
  "[oH0;X2]",
  "[OH1;X2;v2]",
  "[OH0;X2;v2]",
  "[OH0;X1;v2]",
  "[O-;X1]",
  "[SH0;X2;v2]",
  "[SH0;X1;v2]",
  "[S-;X1]",
  "[nH0;X2]",
  "[NH0;X1;v3]",
  "[$([N;+0;X3;v3]);!$(N[C,S]=O)]",
] as const;

/** Atoms deleted before counting AROM: aliphatic ring atoms bonded to a non-aromatic atom. */
export const QED_AROM_DELETE_SMARTS = "[$([A;R][!a])]";

/**
 * The 116 "unwanted group" SMARTS of Bickerton et al. 2012 (SI) in RDKit's QED.py order; ALERTS is the number of
 * distinct patterns that match at least once. Reported hits use the 1-based position in this list.
 */
export const QED_ALERT_SMARTS = [
  "*1[O,S,N]*1",
  "[S,C](=[O,S])[F,Br,Cl,I]",
  "[CX4][Cl,Br,I]",
  "[#6]S(=O)(=O)O[#6]",
  "[$([CH]),$(CC)]#CC(=O)[#6]",
  "[$([CH]),$(CC)]#CC(=O)O[#6]",
  "n[OH]",
  "[$([CH]),$(CC)]#CS(=O)(=O)[#6]",
  "C=C(C=O)C=O",
  "n1c([F,Cl,Br,I])cccc1",
  "[CH1](=O)",
  "[#8][#8]",
  "[C;!R]=[N;!R]",
  "[N!R]=[N!R]",
  "[#6](=O)[#6](=O)",
  "[#16][#16]",
  "[#7][NH2]",
  "C(=O)N[NH2]",
  "[#6]=S",
  "[$([CH2]),$([CH][CX4]),$(C([CX4])[CX4])]=[$([CH2]),$([CH][CX4]),$(C([CX4])[CX4])]",
  "C1(=[O,N])C=CC(=[O,N])C=C1",
  "C1(=[O,N])C(=[O,N])C=CC=C1",
  "a21aa3a(aa1aaaa2)aaaa3",
  "a31a(a2a(aa1)aaaa2)aaaa3",
  "a1aa2a3a(a1)A=AA=A3=AA=A2",
  "c1cc([NH2])ccc1",
  "[Hg,Fe,As,Sb,Zn,Se,se,Te,B,Si,Na,Ca,Ge,Ag,Mg,K,Ba,Sr,Be,Ti,Mo,Mn,Ru,Pd,Ni,Cu,Au,Cd,Al,Ga,Sn,Rh,Tl,Bi,Nb,Li,Pb,Hf,Ho]",
  "I",
  "OS(=O)(=O)[O-]",
  "[N+](=O)[O-]",
  "C(=O)N[OH]",
  "C1NC(=O)NC(=O)1",
  "[SH]",
  "[S-]",
  "c1ccc([Cl,Br,I,F])c([Cl,Br,I,F])c1[Cl,Br,I,F]",
  "c1cc([Cl,Br,I,F])cc([Cl,Br,I,F])c1[Cl,Br,I,F]",
  "[CR1]1[CR1][CR1][CR1][CR1][CR1][CR1]1",
  "[CR1]1[CR1][CR1]cc[CR1][CR1]1",
  "[CR2]1[CR2][CR2][CR2][CR2][CR2][CR2][CR2]1",
  "[CR2]1[CR2][CR2]cc[CR2][CR2][CR2]1",
  "[CH2R2]1N[CH2R2][CH2R2][CH2R2][CH2R2][CH2R2]1",
  "[CH2R2]1N[CH2R2][CH2R2][CH2R2][CH2R2][CH2R2][CH2R2]1",
  "C#C",
  "[OR2,NR2]@[CR2]@[CR2]@[OR2,NR2]@[CR2]@[CR2]@[OR2,NR2]",
  "[$([N+R]),$([n+R]),$([N+]=C)][O-]",
  "[#6]=N[OH]",
  "[#6]=NOC=O",
  "[#6](=O)[CX4,CR0X3,O][#6](=O)",
  "c1ccc2c(c1)ccc(=O)o2",
  "[O+,o+,S+,s+]",
  "N=C=O",
  "[NX3,NX4][F,Cl,Br,I]",
  "c1ccccc1OC(=O)[#6]",
  "[CR0]=[CR0][CR0]=[CR0]",
  "[C+,c+,C-,c-]",
  "N=[N+]=[N-]",
  "C12C(NC(N1)=O)CSC2",
  "c1c([OH])c([OH,NH2,NH])ccc1",
  "P",
  "[N,O,S]C#N",
  "C=C=O",
  "[Si][F,Cl,Br,I]",
  "[SX2]O",
  "[SiR0,CR0](c1ccccc1)(c2ccccc2)(c3ccccc3)",
  "O1CCCCC1OC2CCC3CCCCC3C2",
  "N=[CR0][N,n,O,S]",
  "[cR2]1[cR2][cR2]([Nv3X3,Nv4X4])[cR2][cR2][cR2]1[cR2]2[cR2][cR2][cR2]([Nv3X3,Nv4X4])[cR2][cR2]2",
  "C=[C!r]C#N",
  "[cR2]1[cR2]c([N+0X3R0,nX3R0])c([N+0X3R0,nX3R0])[cR2][cR2]1",
  "[cR2]1[cR2]c([N+0X3R0,nX3R0])[cR2]c([N+0X3R0,nX3R0])[cR2]1",
  "[cR2]1[cR2]c([N+0X3R0,nX3R0])[cR2][cR2]c1([N+0X3R0,nX3R0])",
  "[OH]c1ccc([OH,NH2,NH])cc1",
  "c1ccccc1OC(=O)O",
  "[SX2H0][N]",
  "c12ccccc1(SC(S)=N2)",
  "c12ccccc1(SC(=S)N2)",
  "c1nnnn1C=O",
  "s1c(S)nnc1NC=O",
  "S1C=CSC1=S",
  "C(=O)Onnn",
  "OS(=O)(=O)C(F)(F)F",
  "N#CC[OH]",
  "N#CC(=O)",
  "S(=O)(=O)C#N",
  "N[CH2]C#N",
  "C1(=O)NCC1",
  "S(=O)(=O)[O-,OH]",
  "NC[F,Cl,Br,I]",
  "C=[C!r]O",
  "[NX2+0]=[O+0]",
  "[OR0,NR0][OR0,NR0]",
  "C(=O)O[C,H1].C(=O)O[C,H1].C(=O)O[C,H1]",
  "[CX2R0][NX3R0]",
  "c1ccccc1[C;!R]=[C;!R]c2ccccc2",
  "[NX3R0,NX4R0,OR0,SX2R0][CX4][NX3R0,NX4R0,OR0,SX2R0]",
  "[s,S,c,C,n,N,o,O]~[n+,N+](~[s,S,c,C,n,N,o,O])(~[s,S,c,C,n,N,o,O])~[s,S,c,C,n,N,o,O]",
  "[s,S,c,C,n,N,o,O]~[nX3+,NX3+](~[s,S,c,C,n,N])~[s,S,c,C,n,N]",
  "[*]=[N+]=[*]",
  "[SX3](=O)[O-,OH]",
  "N#N",
  "F.F.F.F",
  "[R0;D2][R0;D2][R0;D2][R0;D2]",
  "[cR,CR]~C(=O)NC(=O)~[cR,CR]",
  "C=!@CC=[O,S]",
  "[#6,#8,#16][#6](=O)O[#6]",
  "c[C;R0](=[O,S])[#6]",
  "c[SX2][C;!R]",
  "C=C=C",
  "c1nc([F,Cl,Br,I,S])ncc1",
  "c1ncnc([F,Cl,Br,I,S])c1",
  "c1nc(c2c(n1)nc(n2)[F,Cl,Br,I])",
  "[#6]S(=O)(=O)c1ccc(cc1)F",
  "[15N]",
  "[13C]",
  "[18O]",
  "[34S]",
] as const;

// -----------------------------------------------------------------------------------------------------------
// Computation

/** The raw values of the eight QED properties. */
export type QedProperties = Record<QedPropertyName, number>;

/** A structural alert that matched: its 1-based position in {@link QED_ALERT_SMARTS} and its SMARTS. */
export interface QedAlertHit {
  /** 1-based index in the alert list. */
  index: number;
  /** The alert's SMARTS. */
  smarts: string;
}

/** QED with everything it was computed from. */
export interface QedDetails {
  /** QED (mean weights), 0–1. */
  qed: number;
  /** Raw property values. */
  properties: QedProperties;
  /** Desirability of each property, 0–1. */
  desirability: Record<QedPropertyName, number>;
  /** Structural alerts that matched. */
  alerts: QedAlertHit[];
}

const acceptorQueries = lazyQueries(QED_ACCEPTOR_SMARTS);
const alertQueries = lazyQueries(QED_ALERT_SMARTS);
const aromDeleteQuery = lazyQueries([QED_AROM_DELETE_SMARTS]);

/**
 * The asymmetric double-sigmoid desirability of value `x` (Bickerton et al. 2012, eq. 1), divided by dmax.
 *
 * @example
 * ```ts
 * desirability(300, QED_ADS_PARAMETERS.MW); // ≈ 0.98
 * ```
 */
export function desirability(x: number, p: AdsParameters): number {
  const rise = 1 + Math.exp(-(x - p.c + p.d / 2) / p.e);
  const fall = 1 + Math.exp(-(x - p.c - p.d / 2) / p.f);
  return (p.a + (p.b / rise) * (1 - 1 / fall)) / p.dmax;
}

/**
 * Weighted geometric mean of the eight desirabilities (the QED score). `weights` defaults to the paper's mean
 * weights and `parameters` to its ADS parameters (override only to study sensitivity).
 *
 * @example
 * ```ts
 * qedScore({ MW: 180.159, ALOGP: 1.3101, HBA: 4, HBD: 1, PSA: 63.6, ROTB: 2, AROM: 1, ALERTS: 2 }); // ≈ 0.550
 * ```
 */
export function qedScore(
  properties: QedProperties,
  weights: Record<QedPropertyName, number> = QED_WEIGHTS.mean,
  parameters: Readonly<Record<QedPropertyName, AdsParameters>> = QED_ADS_PARAMETERS,
): number {
  let sum = 0;
  let total = 0;
  for (const name of QED_PROPERTY_NAMES) {
    sum += weights[name] * Math.log(desirability(properties[name], parameters[name]));
    total += weights[name];
  }
  return Math.exp(sum / total);
}

/**
 * Number of rings left once aliphatic ring atoms with a non-aromatic neighbour are deleted (QED's AROM). The
 * ring count of the remaining graph is its cycle rank, bonds − atoms + components, which is the size of the
 * smallest set of smallest rings RDKit's GetSSSR returns.
 *
 * @example
 * ```ts
 * qedAromaticRings(mol); // 1 for aspirin
 * ```
 */
export function qedAromaticRings(mol: Mol): number {
  const deleted = new Set(matchAtoms(mol, aromDeleteQuery()[0] as Mol).map((m) => m[0] as number));
  const graph = JSON.parse(mol.get_json()) as {
    molecules: { atoms: unknown[]; bonds?: { atoms: [number, number] }[] }[];
  };
  const molecule = graph.molecules[0];
  if (!molecule) return 0;
  const parent = molecule.atoms.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  let bonds = 0;
  let components = molecule.atoms.length - deleted.size;
  for (const { atoms: [a, b] } of molecule.bonds ?? []) {
    if (deleted.has(a) || deleted.has(b)) continue;
    bonds++;
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) {
      parent[ra] = rb;
      components--;
    }
  }
  return bonds - (molecule.atoms.length - deleted.size) + components;
}

/**
 * Sum of unique matches of QED's 11 acceptor SMARTS (QED's HBA; not RDKit NumHBA).
 *
 * @example
 * ```ts
 * qedAcceptors(mol); // 4 for aspirin
 * ```
 */
export function qedAcceptors(mol: Mol): number {
  return acceptorQueries().reduce((n, q) => n + countMatches(mol, q), 0);
}

/**
 * 1-based indices of the QED structural alerts that match `mol`.
 *
 * @example
 * ```ts
 * qedAlertHits(mol); // aspirin: alerts 53 (phenyl ester) and 105 ([#6,#8,#16][#6](=O)O[#6])
 * ```
 */
export function qedAlertHits(mol: Mol): QedAlertHit[] {
  const hits: QedAlertHit[] = [];
  alertQueries().forEach((q, i) => {
    if (hasMatch(mol, q)) hits.push({ index: i + 1, smarts: QED_ALERT_SMARTS[i] as string });
  });
  return hits;
}

/**
 * The eight QED property values of `mol` plus the alerts that matched. Pass the molecule's RDKit descriptors if
 * you already have them so they are computed once per call.
 *
 * @example
 * ```ts
 * qedProperties(mol).properties.ALERTS; // 2 for aspirin
 * ```
 */
export function qedProperties(
  mol: Mol,
  d: Record<string, number> = descriptors(mol),
): { properties: QedProperties; alerts: QedAlertHit[] } {
  const alerts = qedAlertHits(mol);
  const properties: QedProperties = {
    MW: d.amw ?? Number.NaN,
    ALOGP: d.CrippenClogP ?? Number.NaN,
    HBA: qedAcceptors(mol),
    HBD: d.NumHBD ?? Number.NaN,
    PSA: d.tpsa ?? Number.NaN,
    ROTB: d.NumRotatableBonds ?? Number.NaN,
    AROM: qedAromaticRings(mol),
    ALERTS: alerts.length,
  };
  return { properties, alerts };
}

/**
 * QED with its inputs: raw properties, per-property desirability and the matched alerts.
 *
 * @example
 * ```ts
 * withMol("CC(=O)Oc1ccccc1C(=O)O", (mol) => qedDetails(mol).qed); // ≈ 0.550
 * ```
 */
export function qedDetails(mol: Mol, d: Record<string, number> = descriptors(mol)): QedDetails {
  const { properties, alerts } = qedProperties(mol, d);
  const desirabilities = {} as Record<QedPropertyName, number>;
  for (const name of QED_PROPERTY_NAMES) {
    desirabilities[name] = desirability(properties[name], QED_ADS_PARAMETERS[name]);
  }
  return { qed: qedScore(properties), properties, desirability: desirabilities, alerts };
}

/**
 * QED (mean weights) of an RDKit molecule, 0 (unfavourable) to 1 (favourable).
 *
 * @example
 * ```ts
 * withMol("c1cc2OCOc2cc1OCC1CNCCC1c1ccc(F)cc1", qed); // ≈ 0.934 (paroxetine)
 * ```
 */
export function qed(mol: Mol, d: Record<string, number> = descriptors(mol)): number {
  return qedScore(qedProperties(mol, d).properties);
}
