/**
 * Inputs that make RDKit run far past any limit: a substructure search that runs for hours (a large odd ring of
 * wildcard atoms searched in a big polycyclic alkane) and a maximum common substructure search that does not
 * finish. Used by the tests and the benches of the tool-worker deadline.
 *
 * @module
 */
import { DRUGS50 } from "./drugs50.ts";

/**
 * SMILES of the perhydro-polyacene with `rings` linearly fused cyclohexane rings (4 × rings + 2 carbons): a
 * bipartite graph, so it has no odd ring at all. With `stereo`, every ring-fusion carbon is a specified
 * stereocentre.
 *
 * @example
 * ```ts
 * perhydroPolyacene(2); // "C1CCC2CCCCC2C1", decalin
 * perhydroPolyacene(2, true); // "C1CC[C@H]2CCCC[C@H]2C1"
 * ```
 */
export function perhydroPolyacene(rings: number, stereo = false): string {
  const label = (k: number) => (k < 10 ? String(k) : `%${k}`);
  const [down, up] = stereo ? ["[C@H]", "[C@@H]"] : ["C", "C"];
  let smiles = `C1CC${down}2`;
  for (let k = 3; k <= rings; k++) smiles += `C${up}` + label(k);
  smiles += `CCCC${down}` + label(rings);
  for (let k = rings - 1; k >= 2; k--) smiles += `C${down}` + label(k);
  return smiles + "C1";
}

/** 90 fused rings, 362 carbons. */
export const RUNAWAY_MOLECULE: string = perhydroPolyacene(90);

/** A 51-membered ring of wildcard atoms: odd, so it never matches, and the matcher walks every path first. */
export const RUNAWAY_SMARTS: string = "*1" + "~*".repeat(49) + "~*1";

const drug = (name: string) => DRUGS50.find((d) => d.name === name)!.smiles;

/**
 * `find_mcs` arguments, all but the time limit, of an MCS search that does not finish within 10 s: cyclosporin A
 * and erythromycin with any atom matching any atom and any bond any bond (tests/unit/mcs_test.ts).
 */
export const RUNAWAY_MCS = {
  smiles_list: [drug("cyclosporin A"), drug("erythromycin")],
  atom_compare: "any",
  bond_compare: "any",
  ring_matches_ring_only: false,
} as const;
