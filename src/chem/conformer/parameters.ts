/**
 * DREIDING force-field parameters, from S. L. Mayo, B. D. Olafson and W. A. Goddard III, "DREIDING: A Generic
 * Force Field for Molecular Simulations", J. Phys. Chem. 1990, 94, 8897–8909, doi:10.1021/j100389a010.
 *
 * Table I (bond radii, equilibrium angles), Table II (Lennard-Jones 12-6 R0, D0 by element), the single force
 * constants of the text (bonds 700 kcal/mol/Å² per unit bond order, angles 100 kcal/mol/rad² — raised here, see
 * {@link ANGLE_FORCE_CONSTANT} — planar inversion 40 kcal/mol), the bond-radius correction δ = 0.01 Å and the torsion cases (a)–(j). Provenance and the
 * cross-checks of the transcription: docs/data/dreiding.md.
 *
 * @module
 */

/** Citation used in results and descriptions. */
export const DREIDING_REFERENCE =
  "Mayo, Olafson & Goddard, J. Phys. Chem. 1990, 94, 8897-8909, doi:10.1021/j100389a010";

/** Subtracted from the sum of bond radii: R0_IJ = R_I + R_J − δ (paper, eq 6). Å. */
export const BOND_RADIUS_CORRECTION = 0.01;
/** Harmonic bond force constant per unit bond order, kcal/mol/Å² (k = 700·n). */
export const BOND_FORCE_CONSTANT = 700;
/**
 * Angle force constant K, kcal/mol/rad²; the cosine-harmonic C = K / sin²θ0. DREIDING's is 100; 200 here, since
 * with the angles fitted to MMFF94's structures (./angles.ts) DREIDING's stiff 12-6 contacts otherwise scatter
 * them more than MMFF94's softer van der Waals does: mean |Δ| from MMFF94 on the held-out molecules 1.08° at 100,
 * 1.02° at 150, 1.01° at 200 and 1.00° at 300 (docs/decisions/generate-3d-angles.md).
 */
export const ANGLE_FORCE_CONSTANT = 200;
/** Inversion force constant for planar (X_2, X_R) centres, kcal/mol, shared over the three inversion axes. */
export const INVERSION_FORCE_CONSTANT = 40;

/**
 * Scale on the Lennard-Jones well depth of 1-4 pairs (atoms three bonds apart). Not DREIDING, which includes 1-4
 * pairs in full: at full strength the 12-6 repulsion of gauche and eclipsed 1-4 contacts stretches crowded single
 * bonds (in the drug set C_3–C_3 by +0.036 Å on average over R0). ½ is AMBER's 1-4 van der Waals
 * scale (W. D. Cornell et al., J. Am. Chem. Soc. 1995, 117, 5179–5197, doi:10.1021/ja00124a002); the equilibrium
 * distance R0 is unchanged.
 */
export const ONE_FOUR_VDW_SCALE = 0.5;

/** e²/(4πε0) in kcal·Å/mol: the Coulomb energy of two unit charges 1 Å apart. */
export const COULOMB_CONSTANT = 332.0637;
/**
 * Relative permittivity of the Coulomb term: 1, a molecule in vacuum, as MMFF94 has it by default in RDKit (the
 * reference structures). Pairs are those of the van der Waals term (1-2 and 1-3 excluded); 1-4 pairs are not
 * scaled.
 */
export const DIELECTRIC_CONSTANT = 1;

/** Valence geometry of one atom type (Table I). */
export interface ValenceParameters {
  /** Bond radius R_I, Å. */
  readonly radius: number;
  /** Equilibrium angle θ0 at this atom as a centre, degrees. */
  readonly theta: number;
}

/** A DREIDING atom type (the 37 of Table I). */
export type DreidingType =
  | "H_"
  | "H_HB"
  | "H_b"
  | "B_3"
  | "B_2"
  | "C_3"
  | "C_R"
  | "C_2"
  | "C_1"
  | "N_3"
  | "N_R"
  | "N_2"
  | "N_1"
  | "O_3"
  | "O_R"
  | "O_2"
  | "O_1"
  | "F_"
  | "Al3"
  | "Si3"
  | "P_3"
  | "S_3"
  | "Cl"
  | "Ga3"
  | "Ge3"
  | "As3"
  | "Se3"
  | "Br"
  | "In3"
  | "Sn3"
  | "Sb3"
  | "Te3"
  | "I_"
  | "Na"
  | "Ca"
  | "Fe"
  | "Zn";

/** Table I, keyed by DREIDING atom type. */
export const VALENCE: Readonly<Record<DreidingType, ValenceParameters>> = {
  H_: { radius: 0.330, theta: 180.0 },
  H_HB: { radius: 0.330, theta: 180.0 },
  H_b: { radius: 0.510, theta: 90.0 },
  B_3: { radius: 0.880, theta: 109.471 },
  B_2: { radius: 0.790, theta: 120.0 },
  C_3: { radius: 0.770, theta: 109.471 },
  C_R: { radius: 0.700, theta: 120.0 },
  C_2: { radius: 0.670, theta: 120.0 },
  C_1: { radius: 0.602, theta: 180.0 },
  N_3: { radius: 0.702, theta: 106.7 },
  N_R: { radius: 0.650, theta: 120.0 },
  N_2: { radius: 0.615, theta: 120.0 },
  N_1: { radius: 0.556, theta: 180.0 },
  O_3: { radius: 0.660, theta: 104.51 },
  O_R: { radius: 0.660, theta: 120.0 },
  O_2: { radius: 0.560, theta: 120.0 },
  O_1: { radius: 0.528, theta: 180.0 },
  F_: { radius: 0.611, theta: 180.0 },
  Al3: { radius: 1.047, theta: 109.471 },
  Si3: { radius: 0.937, theta: 109.471 },
  P_3: { radius: 0.890, theta: 93.3 },
  S_3: { radius: 1.040, theta: 92.1 },
  Cl: { radius: 0.997, theta: 180.0 },
  Ga3: { radius: 1.210, theta: 109.471 },
  Ge3: { radius: 1.210, theta: 109.471 },
  As3: { radius: 1.210, theta: 92.1 },
  Se3: { radius: 1.210, theta: 90.6 },
  Br: { radius: 1.167, theta: 180.0 },
  In3: { radius: 1.390, theta: 109.471 },
  Sn3: { radius: 1.373, theta: 109.471 },
  Sb3: { radius: 1.432, theta: 91.6 },
  Te3: { radius: 1.280, theta: 90.3 },
  I_: { radius: 1.360, theta: 180.0 },
  Na: { radius: 1.860, theta: 90.0 },
  Ca: { radius: 1.940, theta: 90.0 },
  Fe: { radius: 1.285, theta: 90.0 },
  Zn: { radius: 1.330, theta: 109.471 },
};

/** Lennard-Jones 12-6 parameters of one element (Table II): E = D0[(R0/r)^12 − 2(R0/r)^6]. */
export interface VdwParameters {
  /** Equilibrium distance R0 of the homonuclear pair, Å. */
  readonly r0: number;
  /** Well depth D0, kcal/mol. */
  readonly d0: number;
}

/** Table II (Lennard-Jones form), keyed by element symbol; H_HB has its own entry. */
export const VDW = {
  H: { r0: 3.195, d0: 0.0152 },
  H_HB: { r0: 3.195, d0: 0.0001 },
  B: { r0: 4.02, d0: 0.095 },
  C: { r0: 3.8983, d0: 0.0951 },
  N: { r0: 3.6621, d0: 0.0774 },
  O: { r0: 3.4046, d0: 0.0957 },
  F: { r0: 3.472, d0: 0.0725 },
  Al: { r0: 4.39, d0: 0.31 },
  Si: { r0: 4.27, d0: 0.31 },
  P: { r0: 4.15, d0: 0.32 },
  S: { r0: 4.03, d0: 0.344 },
  Cl: { r0: 3.9503, d0: 0.2833 },
  Ga: { r0: 4.39, d0: 0.40 },
  Ge: { r0: 4.27, d0: 0.40 },
  As: { r0: 4.15, d0: 0.41 },
  Se: { r0: 4.03, d0: 0.43 },
  Br: { r0: 3.95, d0: 0.37 },
  In: { r0: 4.59, d0: 0.55 },
  Sn: { r0: 4.47, d0: 0.55 },
  Sb: { r0: 4.35, d0: 0.55 },
  Te: { r0: 4.23, d0: 0.57 },
  I: { r0: 4.15, d0: 0.51 },
  Na: { r0: 3.144, d0: 0.5 },
  Ca: { r0: 3.472, d0: 0.05 },
  Fe: { r0: 4.54, d0: 0.055 },
  Zn: { r0: 4.54, d0: 0.055 },
} as const satisfies Record<string, VdwParameters>;

/**
 * Van der Waals parameters of an atom type (Table II is per element).
 *
 * Table II's H_HB row (D0 = 0.0001 kcal/mol) belongs with the paper's explicit hydrogen-bond term, which this
 * engine does not apply; without that term a nearly dimensionless polar hydrogen would sit inside other atoms, so
 * H_HB takes the ordinary H row here.
 *
 * @example
 * ```ts
 * vdwOf("C_3"); // { r0: 3.8983, d0: 0.0951 }
 * ```
 */
export function vdwOf(type: DreidingType): VdwParameters {
  if (type === "H_" || type === "H_b" || type === "H_HB") return VDW.H;
  const element = type.replace(/_.*$/, "").replace(/\d$/, "") as keyof typeof VDW;
  return VDW[element];
}

/**
 * Combined pair parameters: arithmetic mean of R0 and geometric mean of D0, the combination the paper names as
 * the DREIDING default for the Lennard-Jones form.
 *
 * @example
 * ```ts
 * pairVdw("C_3", "H_"); // { r0: 3.54665, d0: 0.03802 }
 * ```
 */
export function pairVdw(a: DreidingType, b: DreidingType): VdwParameters {
  const p = vdwOf(a);
  const q = vdwOf(b);
  return { r0: 0.5 * (p.r0 + q.r0), d0: Math.sqrt(p.d0 * q.d0) };
}

/**
 * Natural bond length R0_IJ = R_I + R_J − 0.01 Å (bond-order independent; the order only scales the force
 * constant).
 *
 * @example
 * ```ts
 * bondLength("C_3", "C_3"); // 1.53
 * bondLength("C_3", "H_");  // 1.09
 * ```
 */
export function bondLength(a: DreidingType, b: DreidingType): number {
  return VALENCE[a].radius + VALENCE[b].radius - BOND_RADIUS_CORRECTION;
}

/** Geometry family of a type: third character of the label (1, 2, 3, R) or "none" for monovalent and ions. */
export type Hybrid = "1" | "2" | "3" | "R" | "none";

/**
 * The geometry family of a DREIDING type.
 *
 * @example
 * ```ts
 * hybridOf("C_R"); // "R"
 * hybridOf("Cl");  // "none"
 * ```
 */
export function hybridOf(type: DreidingType): Hybrid {
  const c = type.charAt(2);
  return c === "1" || c === "2" || c === "3" || c === "R" ? c : "none";
}

/** Types of the oxygen column (group 16) in sp3 form, whose torsions follow cases (h) and (i). */
export const OXYGEN_COLUMN_SP3: ReadonlySet<DreidingType> = new Set<DreidingType>([
  "O_3",
  "S_3",
  "Se3",
  "Te3",
]);

/** Ions and metals of Table I: no torsions (case g). */
export const METALS: ReadonlySet<DreidingType> = new Set<DreidingType>(["Na", "Ca", "Fe", "Zn"]);

/** One torsion term: E = ½ V [1 − cos(n(φ − φ0))]; V here is the barrier of the whole J–K bond. */
export interface TorsionCase {
  /** Paper case letter, for provenance in tests and docs. */
  readonly rule: string;
  /** Total barrier about the bond, kcal/mol (divided among its dihedrals by the caller). */
  readonly v: number;
  /** Periodicity. */
  readonly n: number;
  /** Phase φ0, degrees. */
  readonly phi0: number;
}

/**
 * The torsion case of dihedral I–J–K–L from the types of its atoms and the J–K bond order (paper cases a–j).
 * Returns null when the paper sets no torsion (case g: an sp centre, a monovalent atom or a metal).
 *
 * @example
 * ```ts
 * torsionCase("H_", "C_3", "C_3", "H_", 1, false); // { rule: "a", v: 2, n: 3, phi0: 180 }
 * ```
 */
export function torsionCase(
  ti: DreidingType,
  tj: DreidingType,
  tk: DreidingType,
  tl: DreidingType,
  order: number,
  inRing: boolean,
): TorsionCase | null {
  const hj = hybridOf(tj);
  const hk = hybridOf(tk);
  if (hj === "none" || hk === "none" || hj === "1" || hk === "1" || METALS.has(tj) || METALS.has(tk)) {
    return null;
  }
  const sp2 = (h: Hybrid) => h === "2" || h === "R";
  if (hj === "3" && hk === "3") {
    if (OXYGEN_COLUMN_SP3.has(tj) && OXYGEN_COLUMN_SP3.has(tk)) return { rule: "h", v: 2, n: 2, phi0: 90 };
    return { rule: "a", v: 2, n: 3, phi0: 180 };
  }
  if (sp2(hj) && sp2(hk)) {
    if (order === 2) return { rule: "c", v: 45, n: 2, phi0: 180 };
    if (order === 1.5 && hj === "R" && hk === "R") return { rule: "d", v: 25, n: 2, phi0: 180 };
    if (hj === "R" && hk === "R" && !inRing) return { rule: "f", v: 10, n: 2, phi0: 180 };
    return { rule: "e", v: 5, n: 2, phi0: 180 };
  }
  // One sp3 and one sp2/resonant centre: orient so that J is the sp2 one and I its neighbour.
  const [tI, tJ, tK] = sp2(hj) ? [ti, tj, tk] : [tl, tk, tj];
  if (OXYGEN_COLUMN_SP3.has(tK) && !OXYGEN_COLUMN_SP3.has(tJ)) return { rule: "i", v: 2, n: 2, phi0: 180 };
  if (!sp2(hybridOf(tI))) return { rule: "j", v: 2, n: 3, phi0: 180 };
  return { rule: "b", v: 1, n: 6, phi0: 0 };
}
