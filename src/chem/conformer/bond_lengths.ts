/**
 * Bond-specific natural lengths R0 where DREIDING's generic rule is known to be off.
 *
 * DREIDING (Mayo, Olafson & Goddard, J. Phys. Chem. 1990, 94, 8897) gives every bond R0 = R_I + R_J − 0.01 Å
 * from one radius per atom type, whatever the bond order: a single bond between two sp2 atoms gets the length
 * of a double bond (C_2–C_2 1.33 Å for the central bond of butadiene), C_R–H is 1.02 Å, and hypervalent sulfur
 * and phosphorus keep the radius of divalent S and trivalent P (sulfonyl S=O 1.59 Å).
 *
 * This table replaces R0 for the bond classes where DREIDING's value differs from MMFF94's reference bond
 * length r0 (T. A. Halgren, J. Comput. Chem. 1996, 17, 490–519, parameter file MMFFBOND.PAR) by
 * {@link REPLACEMENT_THRESHOLD} Å or more; every other bond keeps DREIDING's rule. Each value is MMFF94's r0 for the pair
 * of MMFF94 atom types of a named representative molecule, read through RDKit's
 * `MMFFGetMoleculeProperties(mol).GetMMFFBondStretchParams(mol, i, j)` (RDKit 2022.09, which carries
 * MMFFBOND.PAR under its BSD licence); `scripts/reference/mmff_bond_lengths.py` reads every row again from
 * RDKit into tests/data/reference/mmff_bond_lengths.json, which tests/unit/bond_lengths_test.ts holds this table
 * to. Three rows have no MMFFBOND.PAR entry and use the value MMFF94's empirical rule gives (Halgren 1996, as
 * RDKit implements it), rounded to 0.001 Å; they say so. Provenance: docs/data/dreiding.md.
 *
 * A row is keyed by the two atom environments and the bond order. An environment is the DREIDING type, with
 * three qualifiers where one DREIDING type covers bonding that MMFF94 (and experiment) treat apart:
 *
 * - `S_3(O2)` sulfonyl or sulfonate sulfur (two or more terminal oxygens), `S_3(O)` sulfinyl sulfur (one),
 *   `P_3(O)` phosphoryl phosphorus (at least one);
 * - a formal charge as `+` or `−` after the type (`N_2+`, the nitro nitrogen; `O_3-`);
 * - order `res` for a bond from a centre to a terminal oxygen when the centre carries both a terminal O⁻ and a
 *   terminal =O (carboxylate, nitro, sulfonate, phosphate): the oxygens are equivalent by resonance, so both
 *   bonds take one length (MMFF94 types them alike).
 *
 * A labelled key without a row falls back to one label and one plain DREIDING type, then to both plain types,
 * then to DREIDING's rule. Last, a class whose bonds still came out 0.005 Å or more off MMFF94's structures
 * (DREIDING's van der Waals stretches some: sulfonamide S–N, phosphate P–O) is shifted by that mean difference,
 * fitted on the training molecules only (../data/mmff_geometry.ts).
 *
 * @module
 */
import { doubleBonded, type GraphBond, type MolGraph } from "./graph.ts";
import { bondLength, type DreidingType } from "./parameters.ts";
import { BOND_LENGTH_SHIFTS } from "../data/mmff_geometry.ts";

/** Citation of MMFF94's bond parameters. */
export const MMFF94_REFERENCE = "Halgren, J. Comput. Chem. 1996, 17, 490-519";

/** A row is used only where DREIDING's R_I + R_J − δ differs from MMFF94's r0 by this much or more, Å. */
export const REPLACEMENT_THRESHOLD = 0.02;

/** Bond order in a table key: single, double, triple, aromatic, or resonance-equivalent terminal oxygen. */
export type OrderTag = "1" | "2" | "3" | "ar" | "res";

/** One row of the table. */
export interface BondLengthRow {
  /** The two atom environments (order irrelevant). */
  readonly atoms: readonly [string, string];
  readonly order: OrderTag;
  /** Natural bond length R0, Å. */
  readonly r0: number;
  /** MMFF94 atom types of the pair, e.g. `37–5`; `rule` marks a value from MMFF94's empirical rule. */
  readonly mmff: string;
  /** The molecule the value was read on, with the bond. */
  readonly example: string;
}

/** The table (MMFF94 r0, Halgren 1996; read through RDKit 2022.09). */
export const BOND_LENGTH_ROWS: readonly BondLengthRow[] = [
  // Bonds to hydrogen: DREIDING's sp2 and sp radii put C–H at 0.92–1.02 Å.
  { atoms: ["C_R", "H_"], order: "1", r0: 1.084, mmff: "37–5", example: "benzene C–H" },
  { atoms: ["C_2", "H_"], order: "1", r0: 1.083, mmff: "2–5", example: "ethylene C–H" },
  { atoms: ["C_1", "H_"], order: "1", r0: 1.065, mmff: "4–5", example: "acetylene C–H" },
  { atoms: ["N_R", "H_HB"], order: "1", r0: 1.015, mmff: "10–28", example: "N-methylacetamide N–H" },
  { atoms: ["N_2", "H_HB"], order: "1", r0: 1.026, mmff: "9–27", example: "methanimine N–H" },
  // Carbon–carbon: single bonds next to or between π atoms (DREIDING gives them double-bond lengths).
  { atoms: ["C_3", "C_3"], order: "1", r0: 1.508, mmff: "1–1", example: "ethane C–C" },
  { atoms: ["C_3", "C_R"], order: "1", r0: 1.486, mmff: "1–37", example: "toluene CH3–C(ar)" },
  { atoms: ["C_3", "C_2"], order: "1", r0: 1.492, mmff: "1–3", example: "acetone CH3–C(=O)" },
  { atoms: ["C_3", "C_1"], order: "1", r0: 1.459, mmff: "1–4", example: "propyne CH3–C≡" },
  { atoms: ["C_2", "C_2"], order: "1", r0: 1.468, mmff: "2–3 (single)", example: "acrolein C=C–C=O" },
  {
    atoms: ["C_2", "C_R"],
    order: "1",
    r0: 1.457,
    mmff: "3–37 (single)",
    example: "acetophenone C(=O)–C(ar)",
  },
  { atoms: ["C_R", "C_R"], order: "1", r0: 1.436, mmff: "37–37 (single)", example: "biphenyl C1–C1'" },
  { atoms: ["C_1", "C_R"], order: "1", r0: 1.424, mmff: "4–37 (single)", example: "benzonitrile C(ar)–C≡N" },
  { atoms: ["C_1", "C_2"], order: "1", r0: 1.415, mmff: "2–4 (single)", example: "acrylonitrile C=C–C≡N" },
  // Carbon–nitrogen.
  { atoms: ["C_3", "N_R"], order: "1", r0: 1.436, mmff: "1–10", example: "N-methylacetamide CH3–N" },
  { atoms: ["C_R", "N_R"], order: "1", r0: 1.398, mmff: "37–40", example: "aniline C(ar)–N" },
  { atoms: ["C_2", "N_R"], order: "1", r0: 1.369, mmff: "3–10", example: "N-methylacetamide C(=O)–N" },
  { atoms: ["C_3", "N_2"], order: "1", r0: 1.458, mmff: "1–9", example: "N-methylmethanimine CH3–N=" },
  { atoms: ["C_R", "N_2"], order: "1", r0: 1.393, mmff: "37–9 (single)", example: "azobenzene C(ar)–N=" },
  {
    atoms: ["C_2", "N_2"],
    order: "1",
    r0: 1.364,
    mmff: "3–9 (single)",
    example: "N-methyleneacetamide C(=O)–N=",
  },
  { atoms: ["C_R", "N_2+"], order: "1", r0: 1.431, mmff: "37–45", example: "nitrobenzene C(ar)–NO2" },
  { atoms: ["C_3", "N_2+"], order: "1", r0: 1.480, mmff: "1–45", example: "nitromethane C–NO2" },
  // Carbon–oxygen.
  { atoms: ["C_R", "O_3"], order: "1", r0: 1.376, mmff: "37–6", example: "phenol C(ar)–O" },
  { atoms: ["C_2", "O_3"], order: "1", r0: 1.355, mmff: "3–6", example: "acetic acid C(=O)–OH" },
  { atoms: ["C_R", "O_2"], order: "2", r0: 1.222, mmff: "3–7", example: "2-pyridone C=O" },
  { atoms: ["C_2", "O"], order: "res", r0: 1.261, mmff: "41–32", example: "acetate C–O (both)" },
  // Nitrogen–nitrogen and nitrogen–oxygen.
  { atoms: ["N_R", "N_R"], order: "ar", r0: 1.339, mmff: "39–65", example: "pyrazole N1–N2" },
  { atoms: ["N_R", "N_R"], order: "1", r0: 1.374, mmff: "10–10", example: "N,N'-diacetylhydrazine N–N" },
  {
    atoms: ["N_2", "N_R"],
    order: "1",
    r0: 1.347,
    mmff: "9–10",
    example: "acetaldehyde acetylhydrazone =N–N",
  },
  { atoms: ["N_3", "N_R"], order: "1", r0: 1.378, mmff: "8–10", example: "acetohydrazide H2N–N" },
  { atoms: ["N_3", "N_3"], order: "1", r0: 1.420, mmff: "8–8", example: "hydrazine N–N" },
  { atoms: ["N_2", "N_2"], order: "2", r0: 1.243, mmff: "9–9", example: "azobenzene N=N" },
  { atoms: ["N_2+", "O"], order: "res", r0: 1.233, mmff: "45–32", example: "nitromethane N–O (both)" },
  { atoms: ["N_2", "O_3"], order: "1", r0: 1.395, mmff: "9–6", example: "acetone oxime N–O" },
  { atoms: ["N_R", "O_R"], order: "ar", r0: 1.388, mmff: "65–59", example: "isoxazole N–O" },
  { atoms: ["N_R", "O_3"], order: "1", r0: 1.410, mmff: "10–6", example: "acetohydroxamic acid N–O" },
  { atoms: ["N_3", "O_3"], order: "1", r0: 1.450, mmff: "8–6", example: "N-methylhydroxylamine N–O" },
  { atoms: ["O_3", "O_3"], order: "1", r0: 1.449, mmff: "6–6", example: "dimethyl peroxide O–O" },
  // Sulfur: sulfonyl, sulfinyl and divalent sulfur next to π systems.
  { atoms: ["S_3(O2)", "O_2"], order: "2", r0: 1.450, mmff: "18–32", example: "dimethyl sulfone S=O" },
  { atoms: ["S_3(O2)", "O"], order: "res", r0: 1.450, mmff: "18–32", example: "methanesulfonate S–O (all)" },
  { atoms: ["S_3(O2)", "O_3"], order: "1", r0: 1.630, mmff: "18–6", example: "methanesulfonic acid S–OH" },
  { atoms: ["S_3(O2)", "N_3"], order: "1", r0: 1.710, mmff: "18–43", example: "methanesulfonamide S–N" },
  { atoms: ["S_3(O2)", "N_R"], order: "1", r0: 1.710, mmff: "18–43", example: "methanesulfonanilide S–N" },
  {
    atoms: ["S_3(O2)", "C_R"],
    order: "1",
    r0: 1.770,
    mmff: "18–37",
    example: "methyl phenyl sulfone S–C(ar)",
  },
  { atoms: ["S_3(O2)", "C_3"], order: "1", r0: 1.772, mmff: "1–18", example: "methyl phenyl sulfone S–CH3" },
  {
    atoms: ["S_3(O2)", "Cl"],
    order: "1",
    r0: 2.051,
    mmff: "18–12",
    example: "methanesulfonyl chloride S–Cl",
  },
  { atoms: ["S_3", "S_3"], order: "1", r0: 2.050, mmff: "15–15", example: "dimethyl disulfide S–S" },
  { atoms: ["S_3", "S_3"], order: "ar", r0: 2.050, mmff: "15–15", example: "1,2-dithiole-3-thione S–S" },
  { atoms: ["S_3(O)", "O_2"], order: "2", r0: 1.500, mmff: "17–7", example: "dimethyl sulfoxide S=O" },
  { atoms: ["S_3", "C_R"], order: "1", r0: 1.765, mmff: "15–37", example: "thioanisole S–C(ar)" },
  { atoms: ["S_3", "C_2"], order: "1", r0: 1.748, mmff: "15–3", example: "S-methyl thioacetate S–C(=O)" },
  { atoms: ["S_3", "C_2"], order: "2", r0: 1.665, mmff: "16–3", example: "thioacetamide C=S" },
  { atoms: ["S_3", "C_R"], order: "2", r0: 1.665, mmff: "16–3", example: "pyridine-2(1H)-thione C=S" },
  // Phosphorus and silicon: DREIDING's P_3 and Si3 radii give bonds 0.07–0.21 Å short.
  { atoms: ["P_3(O)", "O_2"], order: "2", r0: 1.510, mmff: "25–32", example: "trimethyl phosphate P=O" },
  { atoms: ["P_3(O)", "O"], order: "res", r0: 1.510, mmff: "25–32", example: "dimethyl phosphate anion P–O" },
  { atoms: ["P_3(O)", "O_3"], order: "1", r0: 1.630, mmff: "25–6", example: "trimethyl phosphate P–OCH3" },
  {
    atoms: ["P_3(O)", "N_3"],
    order: "1",
    r0: 1.660,
    mmff: "25–8",
    example: "P,P-dimethyl-N-methylphosphinamide P–N",
  },
  {
    atoms: ["P_3(O)", "N_R"],
    order: "1",
    r0: 1.660,
    mmff: "25–40",
    example: "P,P-dimethyl-N-phenylphosphinamide P–N",
  },
  { atoms: ["P_3(O)", "C_3"], order: "1", r0: 1.810, mmff: "25–1", example: "trimethylphosphine oxide P–C" },
  {
    atoms: ["P_3(O)", "C_2"],
    order: "1",
    r0: 1.792,
    mmff: "25–3",
    example: "acetyldimethylphosphine oxide P–C(=O)",
  },
  { atoms: ["P_3(O)", "C_R"], order: "1", r0: 1.755, mmff: "25–37", example: "triphenylphosphine oxide P–C" },
  { atoms: ["P_3", "C_3"], order: "1", r0: 1.830, mmff: "26–1", example: "trimethylphosphine P–C" },
  { atoms: ["P_3", "C_R"], order: "1", r0: 1.788, mmff: "26–37", example: "triphenylphosphine P–C" },
  { atoms: ["Si3", "C_3"], order: "1", r0: 1.830, mmff: "19–1", example: "tetramethylsilane Si–C" },
  { atoms: ["Si3", "O_3"], order: "1", r0: 1.660, mmff: "19–6", example: "methoxytrimethylsilane Si–O" },
  // Halogens.
  { atoms: ["C_R", "F_"], order: "1", r0: 1.342, mmff: "37–11", example: "fluorobenzene C–F" },
  { atoms: ["C_R", "Cl"], order: "1", r0: 1.721, mmff: "37–12", example: "chlorobenzene C–Cl" },
  { atoms: ["C_2", "Cl"], order: "1", r0: 1.720, mmff: "2–12", example: "vinyl chloride C–Cl" },
  { atoms: ["C_R", "Br"], order: "1", r0: 1.891, mmff: "37–13", example: "bromobenzene C–Br" },
  { atoms: ["C_3", "Br"], order: "1", r0: 1.949, mmff: "1–13", example: "bromoethane C–Br" },
  { atoms: ["C_R", "I_"], order: "1", r0: 2.075, mmff: "37–14", example: "iodobenzene C–I" },
  { atoms: ["C_3", "I_"], order: "1", r0: 2.090, mmff: "1–14", example: "iodoethane C–I" },
  { atoms: ["Cl", "O_3-"], order: "1", r0: 1.450, mmff: "77–32", example: "perchlorate Cl–O⁻" },
  { atoms: ["Cl", "O_3"], order: "1", r0: 1.681, mmff: "77–6 (rule)", example: "perchloric acid Cl–OH" },
  {
    atoms: ["Cl", "N_3"],
    order: "1",
    r0: 1.728,
    mmff: "12–43 (rule)",
    example: "N,N-dichloromethanesulfonamide N–Cl",
  },
  { atoms: ["I_", "O_3"], order: "1", r0: 1.929, mmff: "14–6 (rule)", example: "methyl hypoiodite O–I" },
];

const key = (a: string, b: string, order: OrderTag) => (a < b ? `${a}|${b}|${order}` : `${b}|${a}|${order}`);

const TABLE: ReadonlyMap<string, BondLengthRow> = new Map(
  BOND_LENGTH_ROWS.map((row) => [key(row.atoms[0], row.atoms[1], row.order), row]),
);

/** Oxygen neighbours of atom i that have no other neighbour (=O or O⁻; explicit hydrogens count). */
function terminalOxygens(g: MolGraph, i: number): number[] {
  return g.neighbors[i]!.filter((j) => g.atoms[j]!.symbol === "O" && g.neighbors[j]!.length === 1);
}

/**
 * The environment label of an atom: its DREIDING type, qualified for sulfonyl/sulfinyl S, phosphoryl P and
 * formal charges (see the module text).
 *
 * @example
 * ```ts
 * environment(graph, types, 1); // "S_3(O2)" for the sulfur of dimethyl sulfone "CS(C)(=O)=O"
 * ```
 */
export function environment(g: MolGraph, types: readonly DreidingType[], i: number): string {
  const type = types[i]!;
  const atom = g.atoms[i]!;
  if (atom.symbol === "S" || atom.symbol === "P") {
    const oxo = terminalOxygens(g, i).length;
    if (atom.symbol === "S" && oxo >= 2) return `${type}(O2)`;
    if (oxo >= 1) return `${type}(O)`;
    return type;
  }
  return atom.charge > 0 ? `${type}+` : atom.charge < 0 ? `${type}-` : type;
}

/**
 * True for a terminal oxygen that resonance makes equivalent to another one on the same atom: the atom carries
 * both an oxo (double-bonded) and an anionic terminal oxygen, as in a carboxylate, nitro group, sulfonate or
 * phosphate. Its DREIDING type (O_2 or O_3) only says which Kekulé form RDKit wrote.
 *
 * @example
 * ```ts
 * resonanceEquivalentOxygen(graph, 2); // true for either oxygen of acetate "CC(=O)[O-]"
 * ```
 */
export function resonanceEquivalentOxygen(g: MolGraph, o: number): boolean {
  if (g.atoms[o]!.symbol !== "O" || g.neighbors[o]!.length !== 1) return false;
  const bond = g.bonds.find((b) => b.a === o || b.b === o);
  return bond !== undefined && resonanceOxygen(g, bond) !== null;
}

/** The centre atom when the bond joins it to one of its terminal oxygens that resonance makes equivalent, else null. */
function resonanceOxygen(g: MolGraph, bond: GraphBond): number | null {
  for (const [centre, o] of [[bond.a, bond.b], [bond.b, bond.a]] as const) {
    const terminal = terminalOxygens(g, centre);
    if (!terminal.includes(o)) continue;
    const anion = terminal.some((j) => g.atoms[j]!.charge < 0);
    const oxo = doubleBonded(g, centre).some((j) => terminal.includes(j));
    if (anion && oxo) return centre;
  }
  return null;
}

/**
 * The table row of a bond, if any (labelled environments first, then the plain DREIDING types).
 *
 * @example
 * ```ts
 * bondLengthRow(graph, types, graph.bonds[0])?.r0; // 1.084 for an aromatic C–H
 * ```
 */
export function bondLengthRow(
  g: MolGraph,
  types: readonly DreidingType[],
  bond: GraphBond,
): BondLengthRow | undefined {
  const centre = resonanceOxygen(g, bond);
  if (centre !== null) return TABLE.get(key(environment(g, types, centre), "O", "res"));
  const order: OrderTag = bond.aromatic ? "ar" : bond.kekule === 2 ? "2" : bond.kekule === 3 ? "3" : "1";
  const ea = environment(g, types, bond.a);
  const eb = environment(g, types, bond.b);
  const ta = types[bond.a]!;
  const tb = types[bond.b]!;
  return TABLE.get(key(ea, eb, order)) ?? TABLE.get(key(ea, tb, order)) ?? TABLE.get(key(ta, eb, order)) ??
    TABLE.get(key(ta, tb, order));
}

/**
 * Natural length R0 of a bond, Å: the table's value where it has a row, else DREIDING's R_I + R_J − 0.01 Å.
 *
 * @example
 * ```ts
 * naturalBondLength(graph, types, graph.bonds[0]); // 1.508 for ethane's C–C (DREIDING alone: 1.53)
 * ```
 */
export function naturalBondLength(g: MolGraph, types: readonly DreidingType[], bond: GraphBond): number {
  const r0 = bondLengthRow(g, types, bond)?.r0 ?? bondLength(types[bond.a]!, types[bond.b]!);
  return r0 - (BOND_LENGTH_SHIFTS[bondShiftKey(g, types, bond)] ?? 0);
}

/**
 * The key of a bond in the length shifts fitted to MMFF94's structures (../data/mmff_geometry.ts, written by
 * scripts/mmff_geometry.ts): the two environments, sorted, and the order (`1`, `2`, `3`, `ar`).
 *
 * @example
 * ```ts
 * bondShiftKey(graph, types, graph.bonds[0]); // "S_3(O2) N_R 1" for a sulfonanilide S–N
 * ```
 */
export function bondShiftKey(g: MolGraph, types: readonly DreidingType[], bond: GraphBond): string {
  const order = bond.aromatic ? "ar" : String(bond.kekule);
  const [a, b] = [environment(g, types, bond.a), environment(g, types, bond.b)].sort();
  return `${a} ${b} ${order}`;
}
