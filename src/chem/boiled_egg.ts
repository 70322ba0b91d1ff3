/**
 * BOILED-Egg (Brain Or IntestinaL EstimateD permeation; Daina & Zoete, ChemMedChem 2016, 11, 1117,
 * doi:10.1002/cmdc.201600182): two ellipses in the plane of TPSA (x, Å²) and WLOGP (y). A molecule inside the
 * "white" is predicted to be passively absorbed from the gastrointestinal tract (HIA); inside the "yolk" to
 * permeate the blood–brain barrier.
 *
 * Ellipse parameters (centre, full axis lengths, rotation in degrees in the TPSA–WLOGP data plane) are those
 * adme-pred-py uses "from the BOILED-Egg paper" (github.com/ikmckenz/adme-pred-py, `BOILED_EGG_HIA_ELLIPSE` /
 * `BOILED_EGG_BBB_ELLIPSE`); they agree with the 100-point outlines "from the supporting information" shipped by
 * pyBOILEDegg (Milne 2021, doi:10.5281/zenodo.4725530), which tests/unit/boiled_egg_test.ts checks.
 *
 * Descriptors as in the paper: WLOGP is the Wildman–Crippen logP (RDKit CrippenClogP stands in for the
 * original implementation), and TPSA is Ertl's TPSA *including* the sulfur and phosphorus contributions
 * (SwissADME: "including polar sulfur and phosphorus atoms").
 *
 * The two predictions are independent, as in the paper and SwissADME. The yolk lies inside the white except
 * near the white's left tip (TPSA below about 8.4 Å², WLOGP about 1.4–4.6), so a very apolar molecule such as
 * limonene can be "BBB permeant" without being "GI absorbed".
 *
 * @module
 */
import { round } from "./identity.ts";
import { coreProperties, tpsaSulfurPhosphorus, withParentMol } from "./properties.ts";
import { descriptors, type Mol } from "./rdkit.ts";

/** An ellipse in the TPSA (x) – WLOGP (y) plane. */
export interface EggEllipse {
  /** Centre TPSA, Å². */
  readonly tpsa: number;
  /** Centre WLOGP. */
  readonly wlogp: number;
  /** Full length of the axis that lies along TPSA before rotation, Å². */
  readonly width: number;
  /** Full length of the axis that lies along WLOGP before rotation. */
  readonly height: number;
  /** Counter-clockwise rotation in degrees, in data units. */
  readonly angle: number;
}

/** The white: human intestinal absorption (Daina & Zoete 2016, SI). */
export const BOILED_EGG_WHITE: EggEllipse = {
  tpsa: 71.051,
  wlogp: 2.292,
  width: 142.081,
  height: 8.74,
  angle: -1.031325,
};
/** The yolk: blood–brain barrier permeation (Daina & Zoete 2016, SI). */
export const BOILED_EGG_YOLK: EggEllipse = {
  tpsa: 38.117,
  wlogp: 3.177,
  width: 82.061,
  height: 5.557,
  angle: -0.171887,
};

/** Fixed method text of boiled_egg results. */
export const BOILED_EGG_METHOD =
  "BOILED-Egg (Daina & Zoete, ChemMedChem 2016, 11, 1117, doi:10.1002/cmdc.201600182): " +
  "WLOGP–TPSA ellipses of the paper; white = GI absorption, yolk = BBB permeation. WLOGP = Wildman–Crippen " +
  "logP (RDKit CrippenClogP); TPSA = Ertl 2000 including S and P. Heuristic estimate for passive permeation only " +
  "(P-gp efflux not modelled).";

/**
 * Squared normalised distance of (tpsa, wlogp) from the ellipse centre: ≤ 1 inside or on the boundary.
 *
 * @example
 * ```ts
 * ellipseDistance(BOILED_EGG_WHITE, 71.051, 2.292); // 0 (the centre)
 * ```
 */
export function ellipseDistance(e: EggEllipse, tpsa: number, wlogp: number): number {
  const theta = (e.angle * Math.PI) / 180;
  const dx = tpsa - e.tpsa;
  const dy = wlogp - e.wlogp;
  // Rotate the point back by the ellipse angle so the axes line up with x and y.
  const u = dx * Math.cos(theta) + dy * Math.sin(theta);
  const v = -dx * Math.sin(theta) + dy * Math.cos(theta);
  return (u / (e.width / 2)) ** 2 + (v / (e.height / 2)) ** 2;
}

/** BOILED-Egg verdicts for a point. */
export interface EggZones {
  /** Inside the white (passive GI absorption predicted). */
  gi_absorbed: boolean;
  /** Inside the yolk (BBB permeation predicted). */
  bbb_penetrant: boolean;
}

/**
 * Classifies a (WLOGP, TPSA) point with the two published ellipses.
 *
 * @example
 * ```ts
 * boiledEggZones(2.58, 32.67); // { gi_absorbed: true, bbb_penetrant: true } (e.g. diazepam-like values)
 * ```
 */
export function boiledEggZones(wlogp: number, tpsa: number): EggZones {
  return {
    gi_absorbed: ellipseDistance(BOILED_EGG_WHITE, tpsa, wlogp) <= 1,
    bbb_penetrant: ellipseDistance(BOILED_EGG_YOLK, tpsa, wlogp) <= 1,
  };
}

/** The boiled_egg result (exactly the spec's fields). */
export interface BoiledEggResult extends EggZones {
  /** WLOGP (Wildman–Crippen logP), 4 decimals. */
  logp: number;
  /** TPSA including S and P, Å², 2 decimals. */
  tpsa: number;
  /** Method and reference. */
  method: string;
}

/**
 * WLOGP and S/P-inclusive TPSA of an RDKit molecule (unrounded).
 *
 * @example
 * ```ts
 * withMol("c1ccsc1", eggDescriptors); // { wlogp: 1.7481, tpsa: 28.24 }
 * ```
 */
export function eggDescriptors(
  mol: Mol,
  d: Record<string, number> = descriptors(mol),
): { wlogp: number; tpsa: number } {
  const core = coreProperties(d);
  return { wlogp: core.logp, tpsa: core.tpsa + tpsaSulfurPhosphorus(mol) };
}

/**
 * boiled_egg for a SMILES (largest component of salts and mixtures).
 *
 * @example
 * ```ts
 * boiledEgg("CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"); // diazepam: gi_absorbed true, bbb_penetrant true
 * ```
 */
export function boiledEgg(smiles: string): BoiledEggResult {
  return withParentMol(smiles, (mol) => {
    const { wlogp, tpsa } = eggDescriptors(mol);
    return {
      ...boiledEggZones(wlogp, tpsa),
      logp: round(wlogp, 4),
      tpsa: round(tpsa, 2),
      method: BOILED_EGG_METHOD,
    };
  });
}
