/**
 * One-step BRICS disconnection: every bond that BRICS (Degen, Wegscheid-Gerlach, Zaliani & Rarey, "On the Art
 * of Compiling and Using 'Drug-Like' Chemical Fragment Spaces", ChemMedChem 2008, 3, 1503–1507,
 * doi:10.1002/cmdc.200800178) would break is cut on its own, giving two fragments whose attachment points are
 * dummy atoms labelled with the link-environment number ([1*] … [16*]), as BRICS writes them.
 *
 * The 16 link environments and their allowed pairings are the paper's (its Figure 1), written here as our own
 * SMARTS from the paper's chemical descriptions. Where RDKit's BRICS module (rdkit/Chem/BRICS.py, BSD) later
 * departed from the paper — it merged L2 into L5 and added the pairings L9–L13, L9–L14, L14–L14 and L16–L16 —
 * this module keeps the paper's version. Only acyclic single bonds are cut; the paper's L7–L7 olefin
 * (double-bond) disconnection is listed but not applied.
 *
 * Two rules of this implementation, applied uniformly: a link atom must carry a heavy-atom substituent besides
 * the bond being cut (so no fragment is a lone OH, NH2, SH or CH3), and link atoms are uncharged.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { type Mol, rdkit, withMol } from "./rdkit.ts";

/** Largest molecule accepted (heavy atoms). */
export const BRICS_MAX_HEAVY_ATOMS = 150;

/** One BRICS link environment. */
export interface BricsEnvironment {
  /** Environment number, 1–16 (the dummy-atom label). */
  readonly id: number;
  /** "L1" … "L16". */
  readonly label: string;
  /** What the link atom is, in words. */
  readonly description: string;
  /** Single-atom SMARTS of the link atom (our own formulation of the paper's definition). */
  readonly smarts: string;
}

// Recurring SMARTS pieces: an acyclic carbonyl carbon with a C/N/O substituent, and the lactam ring N.
const CARBONYL = "[C;!R;D3;+0;$(C(=O)(-[#6,#7,#8])-[#6,#7,#8])]";
const LACTAM_N = "$([N;R]@[C;R]=O)";

/**
 * The 16 link environments of Degen et al. 2008 (Figure 1), as single-atom SMARTS. Ring carbons are split into
 * "next to a ring heteroatom" (L13, L14) and "carbocyclic" (L15, L16) so that each atom has one ring type.
 */
export const BRICS_ENVIRONMENTS: readonly BricsEnvironment[] = [
  {
    id: 1,
    label: "L1",
    description: "acyclic carbonyl carbon X-C(=O)- (X = C, N, O) bonded to an amide/ester heteroatom",
    smarts: CARBONYL,
  },
  {
    id: 2,
    label: "L2",
    description: "conjugated (planar, 'N.pl3') nitrogen of an amide, sulfonamide, aniline or enamine",
    smarts: `[N;+0;D2,D3;!$(N=*);!$(N#*);!${LACTAM_N};!$(N-[!#6;!#16;!#1]);$(N-[#6,#16]=,:*)]`,
  },
  { id: 3, label: "L3", description: "ether or ester oxygen", smarts: "[O;+0;D2]" },
  {
    id: 4,
    label: "L4",
    description: "acyclic sp3 carbon with a carbon substituent, bonded to a heteroatom link",
    smarts: "[C;X4;!R;+0;D2,D3,D4;$(C-[#6])]",
  },
  {
    id: 5,
    label: "L5",
    description: "amine ('N.sp3') nitrogen whose heavy neighbours are all saturated carbons",
    smarts: `[N;+0;D2,D3;!$(N=*);!$(N#*);!${LACTAM_N};!$(N-[!#6;!#1]);!$(N-[#6]=,#,:*)]`,
  },
  {
    id: 6,
    label: "L6",
    description: "acyclic carbonyl carbon X-C(=O)- (X = C, N, O) bonded to a ring carbon",
    smarts: CARBONYL,
  },
  {
    id: 7,
    label: "L7",
    description: "olefinic carbon of an acyclic C=C (paper's double-bond link; not cut by this tool)",
    smarts: "[C;+0;D2,D3;$(C=!@[C;D2,D3]);$(C-[#6])]",
  },
  {
    id: 8,
    label: "L8",
    description: "acyclic sp3 carbon with another heavy substituent, bonded to a ring atom",
    smarts: "[C;X4;!R;+0;D2,D3,D4]",
  },
  {
    id: 9,
    label: "L9",
    description: "aromatic ring nitrogen carrying a substituent (e.g. N1 of an azole)",
    smarts: "[n;+0;D3;$(n(:[c,n,o,s]):[c,n,o,s])]",
  },
  {
    id: 10,
    label: "L10",
    description: "ring nitrogen of a lactam or cyclic imide (next to a ring C=O), carrying a substituent",
    smarts: "[N;R;+0;D3;$(N(@[C;R]=O)@[#6,#7,#8,#16])]",
  },
  { id: 11, label: "L11", description: "thioether sulfur", smarts: "[S;+0;D2]" },
  {
    id: 12,
    label: "L12",
    description: "sulfonyl sulfur R-S(=O)(=O)- with a carbon substituent",
    smarts: "[S;+0;D4;$(S(=O)(=O)-[#6])]",
  },
  {
    id: 13,
    label: "L13",
    description: "aliphatic ring carbon bonded (in the ring) to a ring N, O or S",
    smarts: "[C;R;+0;$(C(-;@[C,N,O,S])-;@[N,O,S])]",
  },
  {
    id: 14,
    label: "L14",
    description: "aromatic carbon next to an aromatic ring heteroatom (n, o, s)",
    smarts: "[c;+0;$(c(:[c,n,o,s]):[n,o,s])]",
  },
  {
    id: 15,
    label: "L15",
    description: "aliphatic ring carbon with two ring carbon neighbours and no ring heteroatom neighbour",
    smarts: "[C;R;+0;!$(C-;@[N,O,S]);$(C(-;@C)-;@C)]",
  },
  {
    id: 16,
    label: "L16",
    description: "aromatic carbon of a carbocyclic aromatic environment (aromatic neighbours all carbon)",
    smarts: "[c;+0;$(c(:c):c);!$(c:[n,o,s])]",
  },
];

/** An allowed link pairing: environments joined by a bond of this order. */
export interface BricsPair {
  readonly a: number;
  readonly b: number;
  readonly order: 1 | 2;
}

const pairs = (a: number, bs: readonly number[]): BricsPair[] => bs.map((b) => ({ a, b, order: 1 }));

/** The allowed pairings of Degen et al. 2008 (Figure 1): 41 single-bond links and the L7=L7 olefin. */
export const BRICS_PAIRS: readonly BricsPair[] = [
  ...pairs(1, [2, 3, 10]),
  ...pairs(2, [12, 14, 16]),
  ...pairs(3, [4, 13, 14, 15, 16]),
  ...pairs(4, [5, 11]),
  ...pairs(5, [13, 15]),
  ...pairs(6, [13, 14, 15, 16]),
  { a: 7, b: 7, order: 2 },
  ...pairs(8, [9, 10, 13, 14, 15, 16]),
  ...pairs(9, [15, 16]),
  ...pairs(10, [13, 14, 15, 16]),
  ...pairs(11, [13, 14, 15, 16]),
  ...pairs(13, [14, 15, 16]),
  ...pairs(14, [15, 16]),
  ...pairs(15, [16]),
];

let compiled: { id: number; query: Mol }[] | undefined;
let acyclicSingle: Mol | undefined;

/** Compiles the environment queries once per process. */
function queries(): { envs: { id: number; query: Mol }[]; bond: Mol } {
  if (!compiled || !acyclicSingle) {
    const R = rdkit();
    const qmol = (smarts: string) => {
      const q = R.get_qmol(smarts);
      if (!q || !q.is_valid()) throw new Error(`BRICS SMARTS failed to compile: ${smarts}`);
      return q;
    };
    compiled = BRICS_ENVIRONMENTS.map((e) => ({ id: e.id, query: qmol(e.smarts) }));
    acyclicSingle = qmol("[!#1]-;!@[!#1]");
  }
  return { envs: compiled, bond: acyclicSingle };
}

function matchAtoms(mol: Mol, query: Mol): number[][] {
  const parsed = JSON.parse(mol.get_substruct_matches(query, JSON.stringify({ maxMatches: 100000 }))) as
    | { atoms: number[] }[]
    | Record<string, never>;
  return Array.isArray(parsed) ? parsed.map((m) => m.atoms) : [];
}

/** A breakable bond. */
export interface BricsBond {
  /** Bond index (RDKit order of the parsed SMILES). */
  bond_index: number;
  /** The bond's atoms (SMILES order indices), lower environment number first. */
  atoms: [number, number];
  /** Environment numbers of atoms[0] and atoms[1]. */
  environments: [number, number];
}

interface RdkitJsonBond {
  bo?: number;
  atoms: [number, number];
  stereo?: string;
  stereoAtoms?: [number, number];
}
interface RdkitJsonDoc {
  molecules: { atoms: Record<string, unknown>[]; bonds?: RdkitJsonBond[]; extensions?: unknown }[];
  [key: string]: unknown;
}

/** Environment numbers each atom matches (atom index → ids, ascending). */
function environmentsOfMol(mol: Mol): Map<number, number[]> {
  const envOf = new Map<number, number[]>();
  for (const { id, query } of queries().envs) {
    for (const [atom] of matchAtoms(mol, query)) {
      if (atom !== undefined) envOf.set(atom, [...(envOf.get(atom) ?? []), id]);
    }
  }
  return envOf;
}

/**
 * The BRICS link environments each atom of a molecule matches (index = atom index in SMILES order). An atom
 * is only a link atom if one of its acyclic single bonds joins an allowed partner; this lists the candidates.
 *
 * @example
 * ```ts
 * bricsEnvironments("CCOC(C)=O"); // [[], [4, 8], [3], [1, 6], [], []]
 * ```
 */
export function bricsEnvironments(smiles: string): number[][] {
  return withMol(smiles, (mol) => {
    const envOf = environmentsOfMol(mol);
    return Array.from({ length: mol.get_num_atoms() }, (_, i) => envOf.get(i) ?? []);
  }, BRICS_MAX_HEAVY_ATOMS);
}

/** Breakable bonds of a parsed molecule, in bond-index order. */
function bricsBondsOfMol(mol: Mol, bonds: readonly RdkitJsonBond[]): BricsBond[] {
  const { bond } = queries();
  const envOf = environmentsOfMol(mol);
  const bondIndex = new Map(bonds.map((b, i) => [`${Math.min(...b.atoms)}-${Math.max(...b.atoms)}`, i]));
  const found: BricsBond[] = [];
  for (const [x, y] of matchAtoms(mol, bond)) {
    if (x === undefined || y === undefined) continue;
    const pair = firstPair(envOf.get(x) ?? [], envOf.get(y) ?? []);
    const index = bondIndex.get(`${Math.min(x, y)}-${Math.max(x, y)}`);
    if (!pair || index === undefined) continue;
    const swap = pair[0] > pair[1];
    found.push({
      bond_index: index,
      atoms: swap ? [y, x] : [x, y],
      environments: swap ? [pair[1], pair[0]] : pair,
    });
  }
  return found.sort((p, q) => p.bond_index - q.bond_index);
}

/** The first allowed pairing (in BRICS_PAIRS order) between the environments of two atoms. */
function firstPair(ex: readonly number[], ey: readonly number[]): [number, number] | undefined {
  for (const p of BRICS_PAIRS) {
    if (p.order !== 1) continue;
    if (ex.includes(p.a) && ey.includes(p.b)) return [p.a, p.b];
    if (ex.includes(p.b) && ey.includes(p.a)) return [p.b, p.a];
  }
  return undefined;
}

/**
 * Every acyclic single bond BRICS allows to break, with the environments of its two atoms.
 *
 * @example
 * ```ts
 * bricsBonds("CCOC(C)=O"); // [{ bond_index: 1, atoms: [2, 1], environments: [3, 4] }, { bond_index: 2, … [1, 3] }]
 * ```
 */
export function bricsBonds(smiles: string): BricsBond[] {
  return withMol(
    smiles,
    (mol) => bricsBondsOfMol(mol, jsonOf(mol).molecules[0]?.bonds ?? []),
    BRICS_MAX_HEAVY_ATOMS,
  );
}

function jsonOf(mol: Mol): RdkitJsonDoc {
  return JSON.parse(mol.get_json()) as RdkitJsonDoc;
}

/**
 * Cuts one bond: the bond a–b becomes a–[ea*] and [eb*]–b. The new bond to b's dummy is inserted right after
 * the cut bond so every atom keeps the relative order of its bonds, which RDKit's chiral tags refer to.
 * Returns the SMILES of the fragment holding atoms[0] and of the one holding atoms[1].
 */
function cutFragments(doc: RdkitJsonDoc, cut: BricsBond): [string, string] {
  const molecule = doc.molecules[0];
  if (!molecule) throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit returned no molecule JSON.");
  const [a, b] = cut.atoms;
  const n = molecule.atoms.length;
  const dA = n;
  const dB = n + 1;
  const atoms = [...molecule.atoms, { z: 0, isotope: cut.environments[0] }, {
    z: 0,
    isotope: cut.environments[1],
  }];
  const bonds: RdkitJsonBond[] = [];
  (molecule.bonds ?? []).forEach((bond, i) => {
    if (i !== cut.bond_index) {
      bonds.push(retarget(bond, a, b, dA, dB));
      return;
    }
    const aFirst = bond.atoms[0] === a;
    bonds.push({ atoms: aFirst ? [a, dA] : [dA, a] }, { atoms: aFirst ? [dB, b] : [b, dB] });
  });
  return [componentSmiles(doc, atoms, bonds, a), componentSmiles(doc, atoms, bonds, b)];
}

/** A double bond's stereo reference atom across the cut bond becomes the dummy that replaced it. */
function retarget(bond: RdkitJsonBond, a: number, b: number, dA: number, dB: number): RdkitJsonBond {
  if (!bond.stereoAtoms) return bond;
  const [x, y] = bond.atoms;
  const swap = (end: number, ref: number) => end === a && ref === b ? dA : end === b && ref === a ? dB : ref;
  return { ...bond, stereoAtoms: [swap(x, bond.stereoAtoms[0]), swap(y, bond.stereoAtoms[1])] };
}

/** Canonical SMILES of the connected component containing `seed`, atoms and bonds kept in relative order. */
function componentSmiles(
  doc: RdkitJsonDoc,
  atoms: readonly Record<string, unknown>[],
  bonds: readonly RdkitJsonBond[],
  seed: number,
): string {
  const adjacency: number[][] = atoms.map(() => []);
  for (const { atoms: [x, y] } of bonds) {
    adjacency[x]?.push(y);
    adjacency[y]?.push(x);
  }
  const inPart = new Set<number>([seed]);
  for (const stack = [seed]; stack.length > 0;) {
    for (const next of adjacency[stack.pop() ?? 0] ?? []) {
      if (!inPart.has(next)) {
        inPart.add(next);
        stack.push(next);
      }
    }
  }
  const keep = atoms.map((_, i) => i).filter((i) => inPart.has(i));
  const newIndex = new Map(keep.map((old, i) => [old, i]));
  const map = (i: number) => newIndex.get(i) ?? -1;
  const partBonds = bonds.filter((bd) => inPart.has(bd.atoms[0])).map((bd) => ({
    ...bd,
    atoms: [map(bd.atoms[0]), map(bd.atoms[1])] as [number, number],
    ...(bd.stereoAtoms
      ? { stereoAtoms: [map(bd.stereoAtoms[0]), map(bd.stereoAtoms[1])] as [number, number] }
      : {}),
  }));
  const json = JSON.stringify({
    ...doc,
    molecules: [{ atoms: keep.map((i) => atoms[i]), bonds: partBonds }],
  });
  return canonicalFromJson(json);
}

/** RDKit canonical SMILES of a Kekulé rdkitjson molecule, keeping the cis/trans bonds it declares. */
function canonicalFromJson(json: string): string {
  const R = rdkit();
  // Legacy stereo perception would drop cis/trans set directly on bonds: write SMILES without it, then re-read.
  const mol = R.get_mol(json, JSON.stringify({ assignStereo: false }));
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new ChemError("UNSUPPORTED_MOLECULE", "RDKit could not rebuild a BRICS fragment.");
  }
  let smiles: string;
  try {
    smiles = mol.get_smiles();
  } finally {
    mol.delete();
  }
  const reread = R.get_mol(smiles);
  try {
    if (!reread || !reread.is_valid()) {
      throw new ChemError("UNSUPPORTED_MOLECULE", `RDKit could not re-read BRICS fragment '${smiles}'.`);
    }
    return reread.get_smiles();
  } finally {
    reread?.delete();
  }
}

/** A fragment of one disconnection. */
export interface BricsFragment {
  /** Canonical SMILES with the attachment point as a labelled dummy atom, e.g. "[1*]C(C)=O". */
  smiles: string;
  /** Score given by the scorer to `smiles` (dummy atom included, as BRICS fragments are usually scored). */
  sa_score: number;
}

/** One disconnection. */
export interface BricsDisconnection extends BricsBond {
  /** "L1", "L2", … for environments[0] and [1]. */
  labels: [string, string];
  /** Fragment with atoms[0] (dummy labelled environments[0]) and fragment with atoms[1]. */
  fragments: [BricsFragment, BricsFragment];
  /** Larger of the two fragment scores: the ranking key (lower = easier). */
  max_sa_score: number;
}

/** Result of {@link bricsDisconnections}. */
export interface BricsResult {
  /** RDKit canonical SMILES of the input. */
  canonical_smiles: string;
  /** Disconnected parts of the input (e.g. 2 for a salt); fragments only contain the part that was cut. */
  component_count: number;
  /** Disconnections ranked by max_sa_score ascending (ties: bond index). */
  disconnections: BricsDisconnection[];
}

/** Scores a fragment SMILES (the tool passes the Ertl–Schuffenhauer SA score). */
export type FragmentScorer = (smiles: string) => number;

/**
 * One-step BRICS retrosynthesis: every breakable bond cut on its own, each disconnection scored by the larger
 * of its two fragments' scores and ranked ascending (easiest first).
 *
 * @example
 * ```ts
 * const r = bricsDisconnections("CC(=O)NC", (s) => s.length);
 * r.disconnections[0].fragments.map((f) => f.smiles); // ["[1*]C(C)=O", "[2*]NC"]
 * ```
 */
export function bricsDisconnections(smiles: string, scorer: FragmentScorer): BricsResult {
  const { canonical, doc, found } = withMol(smiles, (mol) => {
    const doc = jsonOf(mol);
    return { canonical: mol.get_smiles(), doc, found: bricsBondsOfMol(mol, doc.molecules[0]?.bonds ?? []) };
  }, BRICS_MAX_HEAVY_ATOMS);
  delete doc.molecules[0]?.extensions;
  const scores = new Map<string, number>();
  const score = (fragment: string) => {
    let s = scores.get(fragment);
    if (s === undefined) {
      s = scorer(fragment);
      scores.set(fragment, s);
    }
    return s;
  };
  const disconnections = found.map((cut): BricsDisconnection => {
    const [sa, sb] = cutFragments(doc, cut);
    const fragment = (text: string): BricsFragment => ({ smiles: text, sa_score: score(text) });
    const fragments: [BricsFragment, BricsFragment] = [fragment(sa), fragment(sb)];
    return {
      ...cut,
      labels: [`L${cut.environments[0]}`, `L${cut.environments[1]}`],
      fragments,
      max_sa_score: Math.max(fragments[0].sa_score, fragments[1].sa_score),
    };
  });
  disconnections.sort((p, q) => p.max_sa_score - q.max_sa_score || p.bond_index - q.bond_index);
  return { canonical_smiles: canonical, component_count: canonical.split(".").length, disconnections };
}
