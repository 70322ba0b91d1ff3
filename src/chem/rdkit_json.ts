/**
 * The parts of RDKit's JSON molecule document (`get_json`, commonchem with RDKit's extension) that the chemistry
 * reads or writes back: one description of the format, shared by every module that walks it.
 *
 * @module
 */

/** An atom as RDKit's JSON writes it; absent fields take the document's defaults. */
export interface RdkitJsonAtom {
  z?: number;
  impHs?: number;
  chg?: number;
  nRad?: number;
  isotope?: number;
  stereo?: string;
}

/** A bond: its two atoms, its order, and RDKit's stereo where set. */
export interface RdkitJsonBond {
  atoms: [number, number];
  bo?: number;
  stereo?: string;
  stereoAtoms?: [number, number];
  [key: string]: unknown;
}

/** RDKit's extension of a molecule: aromaticity and rings as RDKit perceived them. */
export interface RdkitJsonExtension {
  name?: string;
  aromaticAtoms?: number[];
  aromaticBonds?: number[];
  atomRings?: number[][];
}

/** A whole document: the defaults and its molecules. */
export interface RdkitJsonDoc {
  defaults?: { atom?: RdkitJsonAtom; bond?: Omit<RdkitJsonBond, "atoms"> };
  molecules: { atoms: RdkitJsonAtom[]; bonds?: RdkitJsonBond[]; extensions?: RdkitJsonExtension[] }[];
}
