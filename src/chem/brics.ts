/**
 * One-step BRICS disconnection as RDKit defines BRICS: every bond that RDKit's `BRICS.FindBRICSBonds` would
 * break is cut on its own, giving the two fragments RDKit's `BRICS.BreakBRICSBonds` gives for that one bond,
 * with dummy atoms labelled by environment number ([1*] … [16*]).
 *
 * BRICS is Degen, Wegscheid-Gerlach, Zaliani & Rarey, "On the Art of Compiling and Using 'Drug-Like' Chemical
 * Fragment Spaces", ChemMedChem 2008, 3, 1503–1507, doi:10.1002/cmdc.200800178. The rule tables below
 * (environment SMARTS and allowed pairs, in RDKit's order) are data taken from RDKit's implementation,
 * `rdkit/Chem/BRICS.py` of RDKit 2022.09.3 (Copyright (c) 2009 Novartis Institutes for BioMedical Research,
 * BSD-3-Clause, `LICENSES/RDKit-BSD-3-Clause.txt`), which departs from the paper: L2 is merged into a general
 * amine L5, and L9–L13, L9–L14, L14–L14, L16–L16 and the L7=L7 olefin cut are added. How they were converted:
 * `docs/data/brics.md`. The matching below is this project's own code.
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { type Mol, rdkit, withMol } from "./rdkit.ts";
import type { RdkitJsonBond } from "./rdkit_json.ts";

/** Largest molecule accepted (heavy atoms). */
export const BRICS_MAX_HEAVY_ATOMS = 150;

/** One BRICS link environment, as RDKit's `environs` table defines it. */
export interface BricsEnvironment {
  /** RDKit's name: "L1" … "L16", with sub-environments "L7a"/"L7b" (the two ends of the olefin link). */
  readonly name: string;
  /** Environment number, 1–16: the dummy-atom label of an atom cut in this environment. */
  readonly id: number;
  /** What the SMARTS matches, in words. */
  readonly description: string;
  /** RDKit's SMARTS; its first atom is the link atom, the rest is the context it needs. */
  readonly smarts: string;
}

const env = (name: string, smarts: string, description: string): BricsEnvironment => ({
  name,
  id: Number(name.replace(/\D/g, "")),
  description,
  smarts,
});

/**
 * RDKit's BRICS environments (`environs` in rdkit/Chem/BRICS.py, RDKit 2022.09.3), SMARTS verbatim. RDKit's
 * table also holds `L14b` and `L16b` (copies of L14 and L16) and `#L8` (a disabled variant); no pair uses them,
 * so they are left out.
 */
export const BRICS_ENVIRONMENTS: readonly BricsEnvironment[] = [
  env("L1", "[C;D3]([#0,#6,#7,#8])(=O)", "carbonyl carbon with a C, N, O (or dummy) substituent"),
  env(
    "L3",
    "[O;D2]-;!@[#0,#6,#1]",
    "two-connected oxygen with an acyclic single bond to carbon or H (ether, ester)",
  ),
  env(
    "L4",
    "[C;!D1;!$(C=*)]-;!@[#6]",
    "non-terminal carbon without double bond, acyclic single bond to carbon",
  ),
  env(
    "L5",
    "[N;!D1;!$(N=*);!$(N-[!#6;!#16;!#0;!#1]);!$([N;R]@[C;R]=O)]",
    "amine/amide nitrogen (RDKit's merge of the paper's L2 and L5): no double bond, single-bonded only to C, S " +
      "or H, not a lactam ring nitrogen",
  ),
  env(
    "L6",
    "[C;D3;!R](=O)-;!@[#0,#6,#7,#8]",
    "acyclic carbonyl carbon with an acyclic C, N or O substituent",
  ),
  env("L7a", "[C;D2,D3]-[#6]", "olefinic carbon (one end of the L7=L7 double-bond link)"),
  env("L7b", "[C;D2,D3]-[#6]", "olefinic carbon (the other end of the L7=L7 double-bond link)"),
  env("L8", "[C;!R;!D1;!$(C!-*)]", "acyclic non-terminal carbon with single bonds only"),
  env(
    "L9",
    "[n;+0;$(n(:[c,n,o,s]):[c,n,o,s])]",
    "neutral aromatic nitrogen (substituted ring n of an azole)",
  ),
  env("L10", "[N;R;$(N(@C(=O))@[C,N,O,S])]", "ring nitrogen of a lactam or cyclic imide"),
  env("L11", "[S;D2](-;!@[#0,#6])", "two-connected sulfur with an acyclic single bond to carbon (thioether)"),
  env("L12", "[S;D4]([#6,#0])(=O)(=O)", "sulfonyl sulfur with a carbon substituent"),
  env("L13", "[C;$(C(-;@[C,N,O,S])-;@[N,O,S])]", "aliphatic ring carbon next to a ring N, O or S"),
  env("L14", "[c;$(c(:[c,n,o,s]):[n,o,s])]", "aromatic carbon next to an aromatic n, o or s"),
  env("L15", "[C;$(C(-;@C)-;@C)]", "aliphatic ring carbon between two ring carbons"),
  env("L16", "[c;$(c(:c):c)]", "aromatic carbon between two aromatic carbons"),
];

/** An allowed link: a bond of this order, not in a ring, from an atom of environment `a` to one of `b`. */
export interface BricsPair {
  /** Environment name of the first atom (the lower number). */
  readonly a: string;
  /** Environment name of the second atom. */
  readonly b: string;
  /** 1 for a single bond, 2 for the L7 double bond. */
  readonly order: 1 | 2;
}

const single = (a: number, bs: readonly number[]): BricsPair[] =>
  bs.map((b) => ({ a: `L${a}`, b: `L${b}`, order: 1 }));

/**
 * RDKit's allowed pairs (`reactionDefs` in rdkit/Chem/BRICS.py, RDKit 2022.09.3), in RDKit's order, which
 * decides the labels of a bond two pairs could claim: the first pair wins. The paper's pairs plus RDKit's
 * L9–L13, L9–L14, L14–L14 and L16–L16; L2 and its pairs are folded into L5; L12 pairs only with L5.
 */
export const BRICS_PAIRS: readonly BricsPair[] = [
  ...single(1, [3, 5, 10]),
  ...single(3, [4, 13, 14, 15, 16]),
  ...single(4, [5, 11]),
  ...single(5, [12, 14, 16, 13, 15]),
  ...single(6, [13, 14, 15, 16]),
  { a: "L7a", b: "L7b", order: 2 },
  ...single(8, [9, 10, 13, 14, 15, 16]),
  ...single(9, [13, 14, 15, 16]),
  ...single(10, [13, 14, 15, 16]),
  ...single(11, [13, 14, 15, 16]),
  ...single(13, [14, 15, 16]),
  ...single(14, [14, 15, 16]),
  ...single(15, [16]),
  ...single(16, [16]),
];

const ENVIRONMENT_ID = new Map(BRICS_ENVIRONMENTS.map((e) => [e.name, e.id]));

interface Queries {
  /** One single-atom query `[$(smarts)]` per distinct environment SMARTS (L7a and L7b share one). */
  readonly environments: ReadonlyMap<string, Mol>;
  /** Acyclic single and acyclic double bonds: the only bonds a pair can claim. */
  readonly bonds: { readonly order: 1 | 2; readonly query: Mol }[];
}

let compiled: Queries | undefined;

/** Compiles the queries once per process. */
function queries(): Queries {
  if (!compiled) {
    const R = rdkit();
    const qmol = (smarts: string) => {
      const q = R.get_qmol(smarts);
      if (!q || !q.is_valid()) throw new Error(`BRICS SMARTS failed to compile: ${smarts}`);
      return q;
    };
    const distinct = [...new Set(BRICS_ENVIRONMENTS.map((e) => e.smarts))];
    compiled = {
      environments: new Map(distinct.map((s) => [s, qmol(`[$(${s})]`)])),
      bonds: [{ order: 1, query: qmol("*-;!@*") }, { order: 2, query: qmol("*=;!@*") }],
    };
  }
  return compiled;
}

function matchAtoms(mol: Mol, query: Mol): number[][] {
  const parsed = JSON.parse(mol.get_substruct_matches(query, JSON.stringify({ maxMatches: 100000 }))) as
    | { atoms: number[] }[]
    | Record<string, never>;
  return Array.isArray(parsed) ? parsed.map((m) => m.atoms) : [];
}

/** The atoms of each environment, by environment name. */
function environmentAtoms(mol: Mol): Map<string, Set<number>> {
  const bySmarts = new Map<string, Set<number>>();
  for (const [smarts, query] of queries().environments) {
    bySmarts.set(smarts, new Set(matchAtoms(mol, query).map(([atom]) => atom ?? -1)));
  }
  return new Map(BRICS_ENVIRONMENTS.map((e) => [e.name, bySmarts.get(e.smarts) ?? new Set()]));
}

/** A breakable bond. */
export interface BricsBond {
  /** Bond index (RDKit order of the parsed SMILES). */
  bond_index: number;
  /** The bond's atoms (SMILES order indices) as RDKit's FindBRICSBonds orders them: the pair's first side first. */
  atoms: [number, number];
  /** Environment numbers of atoms[0] and atoms[1]: the labels of the dummies that replace the bond. */
  environments: [number, number];
  /** 1 (single) or 2 (the L7 olefin link). */
  order: 1 | 2;
}

interface RdkitJsonDoc {
  molecules: { atoms: Record<string, unknown>[]; bonds?: RdkitJsonBond[]; extensions?: unknown }[];
  [key: string]: unknown;
}

/**
 * The BRICS environments each atom of a molecule matches (index = atom index in SMILES order), by name. An atom
 * is a link atom only where one of its bonds joins a partner in an allowed pair; this lists the candidates.
 *
 * @example
 * ```ts
 * bricsEnvironments("CCOC(C)=O"); // [[], ["L4", "L7a", "L7b", "L8"], ["L3"], ["L1", "L6"], ["L8"], []]
 * ```
 */
export function bricsEnvironments(smiles: string): string[][] {
  return withMol(smiles, (mol) => {
    const byName = environmentAtoms(mol);
    return Array.from(
      { length: mol.get_num_atoms() },
      (_, atom) => BRICS_ENVIRONMENTS.filter((e) => byName.get(e.name)?.has(atom)).map((e) => e.name),
    );
  }, BRICS_MAX_HEAVY_ATOMS);
}

/**
 * The first pair, in RDKit's order, that claims the bond x–y, oriented as RDKit reports it. When both
 * orientations fit one pair (both atoms in both environments), RDKit's uniquified substructure match keeps the
 * one found first, which puts the lower atom index on the pair's first environment.
 */
function claim(
  x: number,
  y: number,
  order: 1 | 2,
  atomsOf: ReadonlyMap<string, ReadonlySet<number>>,
): Pick<BricsBond, "atoms" | "environments"> | undefined {
  for (const pair of BRICS_PAIRS) {
    if (pair.order !== order) continue;
    const first = atomsOf.get(pair.a);
    const second = atomsOf.get(pair.b);
    const forward = (first?.has(x) && second?.has(y)) ?? false;
    const backward = (first?.has(y) && second?.has(x)) ?? false;
    if (!forward && !backward) continue;
    const atoms: [number, number] = forward && (!backward || x < y) ? [x, y] : [y, x];
    return { atoms, environments: [ENVIRONMENT_ID.get(pair.a) ?? 0, ENVIRONMENT_ID.get(pair.b) ?? 0] };
  }
  return undefined;
}

/** Breakable bonds of a parsed molecule, in bond-index order. */
function bricsBondsOfMol(mol: Mol, bonds: readonly RdkitJsonBond[]): BricsBond[] {
  const atomsOf = environmentAtoms(mol);
  const bondIndex = new Map(bonds.map((b, i) => [`${Math.min(...b.atoms)}-${Math.max(...b.atoms)}`, i]));
  const found: BricsBond[] = [];
  for (const { order, query } of queries().bonds) {
    for (const [x, y] of matchAtoms(mol, query)) {
      if (x === undefined || y === undefined) continue;
      const link = claim(x, y, order, atomsOf);
      const index = bondIndex.get(`${Math.min(x, y)}-${Math.max(x, y)}`);
      if (link && index !== undefined) found.push({ bond_index: index, ...link, order });
    }
  }
  return found.sort((p, q) => p.bond_index - q.bond_index);
}

/**
 * Every bond BRICS breaks, as RDKit's `BRICS.FindBRICSBonds` finds it: the atoms in RDKit's order and the two
 * environment numbers.
 *
 * @example
 * ```ts
 * bricsBonds("CCOC(C)=O");
 * // [{ bond_index: 1, atoms: [2, 1], environments: [3, 4], order: 1 },
 * //  { bond_index: 2, atoms: [3, 2], environments: [1, 3], order: 1 }]
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
 * Cuts one bond: the bond a–b becomes a–[ea*] and [eb*]–b, of the same order. The new bond to b's dummy is
 * inserted right after the cut bond so every atom keeps the relative order of its bonds, which RDKit's chiral
 * tags refer to: a stereocentre on the cut bond keeps its configuration, the dummy in the lost neighbour's place.
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
  const order = cut.order === 2 ? { bo: 2 } : {};
  const bonds: RdkitJsonBond[] = [];
  (molecule.bonds ?? []).forEach((bond, i) => {
    if (i !== cut.bond_index) {
      bonds.push(retarget(bond, a, b, dA, dB));
      return;
    }
    const aFirst = bond.atoms[0] === a;
    bonds.push(
      { ...order, atoms: aFirst ? [a, dA] : [dA, a] },
      { ...order, atoms: aFirst ? [dB, b] : [b, dB] },
    );
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
  const partAtoms = keep.map((i) => atoms[i]!);
  const json = JSON.stringify({ ...doc, molecules: [{ atoms: partAtoms, bonds: partBonds }] });
  const stereo = partBonds.some((bd) => bd.stereoAtoms) || partAtoms.some((atom) => "stereo" in atom);
  return canonicalFromJson(json, stereo);
}

/**
 * RDKit canonical SMILES of a Kekulé rdkitjson molecule, keeping the cis/trans bonds it declares. Without
 * stereo the SMILES written from the JSON molecule is already canonical, and the second parse (a third of a
 * disconnection's cost) is skipped.
 */
function canonicalFromJson(json: string, stereo: boolean): string {
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
  if (!stereo) return smiles;
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
  /** "L1" … "L16" for environments[0] and [1] (L7a and L7b are both "L7"). */
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
 * r.disconnections[0].fragments.map((f) => f.smiles); // ["[1*]C(C)=O", "[5*]NC"]
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
