/**
 * Structural alerts: PAINS (pan-assay interference compounds; Baell & Holloway, J. Med. Chem. 2010, 53, 2719,
 * doi:10.1021/jm901137j; families A, B, C = 16 + 55 + 409 = 480 classes) and Brenk's unwanted groups (Brenk et al.,
 * ChemMedChem 2008, 3, 435, doi:10.1002/cmdc.200700139; 105 alerts), as the SMARTS of RDKit's FilterCatalog
 * (BSD-3-Clause, converted by scripts/convert_alerts.ts).
 *
 * Matching follows RDKit's FilterCatalog: the H-merged query (explicit [#1] query atoms folded into their
 * neighbours), a plain substructure match on the molecule as parsed (hydrogens implicit, chirality ignored), and one
 * match is enough (every entry of these catalogs has RDKit's default count condition). The atoms reported for a hit
 * are RDKit's first match, in query-atom order. Queries are compiled once per process on first use and kept for the
 * process lifetime; molecules parsed here are freed on every path.
 *
 * @module
 */
import { BRENK_ALERTS } from "./data/brenk.ts";
import { PAINS_ALERTS } from "./data/pains.ts";
import { type Mol, rdkit, withMol } from "./rdkit.ts";

/** Largest molecule the alert tools screen (heavy atoms): 585 substructure searches stay within tens of ms. */
export const ALERTS_MAX_HEAVY_ATOMS = 300;

/** Method text of the PAINS screen. */
export const PAINS_METHOD = "PAINS substructure filters (Baell & Holloway, J. Med. Chem. 2010, 53, 2719, " +
  "doi:10.1021/jm901137j; families A 16, B 55, C 409), SMARTS from RDKit's FilterCatalog (BSD-3-Clause), " +
  "matched as RDKit's FilterCatalog does (explicit-H query atoms merged, one match triggers an alert)";
/** Method text of the Brenk screen. */
export const BRENK_METHOD = "Brenk unwanted-group filters (Brenk et al., ChemMedChem 2008, 3, 435, " +
  "doi:10.1002/cmdc.200700139; 105 alerts), SMARTS from RDKit's FilterCatalog (BSD-3-Clause), matched as " +
  "RDKit's FilterCatalog does (one match triggers an alert)";

/** Catalog family of an alert. */
export type AlertFamily = "PAINS_A" | "PAINS_B" | "PAINS_C" | "Brenk";

/** One alert definition. */
export interface AlertDefinition {
  /** RDKit FilterCatalog entry name; PAINS names carry the paper's compound count in parentheses. */
  readonly name: string;
  readonly family: AlertFamily;
  /** SMARTS as RDKit ships it (PAINS with explicit [#1] atoms). */
  readonly smarts: string;
  /** SMARTS of the H-merged query that is matched. */
  readonly query: string;
}

/** One alert that matched. */
export interface AlertHit {
  readonly name: string;
  readonly family: AlertFamily;
  /** Atom indices (0-based, input SMILES order) of the first match, in query-atom order. */
  readonly atoms: number[];
}

/** Result of screening one molecule against a catalog. */
export interface AlertScreen {
  /** True when at least one alert matched. */
  readonly flagged: boolean;
  readonly hits: AlertHit[];
  /** Number of alerts screened. */
  readonly alerts_checked: number;
}

const toDefinitions = (rows: typeof PAINS_ALERTS): AlertDefinition[] =>
  rows.map(([name, family, smarts, query]) => ({ name, family: family as AlertFamily, smarts, query }));

/** The 480 PAINS classes (A, B, C). */
export const PAINS_DEFINITIONS: readonly AlertDefinition[] = toDefinitions(PAINS_ALERTS);
/** The 105 Brenk alerts. */
export const BRENK_DEFINITIONS: readonly AlertDefinition[] = toDefinitions(BRENK_ALERTS);

interface Compiled {
  readonly definition: AlertDefinition;
  readonly query: Mol;
}

let painsCompiled: Compiled[] | undefined;
let brenkCompiled: Compiled[] | undefined;

/** Compiles a catalog's queries. They are never freed: they live as long as the process (one RDKit instance). */
function compile(definitions: readonly AlertDefinition[]): Compiled[] {
  return definitions.map((definition) => {
    const query = rdkit().get_qmol(definition.query);
    if (!query || !query.is_valid()) {
      query?.delete();
      throw new Error(`Alert '${definition.name}' has a SMARTS RDKit cannot parse: ${definition.query}`);
    }
    return { definition, query };
  });
}

function screen(mol: Mol, compiled: readonly Compiled[]): AlertScreen {
  const hits: AlertHit[] = [];
  for (const { definition, query } of compiled) {
    // RDKit answers "{}" when there is no match.
    const match = JSON.parse(mol.get_substruct_match(query)) as { atoms?: number[] };
    if (match.atoms) hits.push({ name: definition.name, family: definition.family, atoms: match.atoms });
  }
  return { flagged: hits.length > 0, hits, alerts_checked: compiled.length };
}

/**
 * Screens a parsed molecule against the 480 PAINS classes (the molecule is not freed: the caller owns it).
 *
 * @example
 * ```ts
 * withMol("Oc1ccccc1O", painsCheck).hits[0]?.name; // "catechol_A(92)"
 * ```
 */
export function painsCheck(mol: Mol): AlertScreen {
  painsCompiled ??= compile(PAINS_DEFINITIONS);
  return screen(mol, painsCompiled);
}

/**
 * Screens a parsed molecule against the 105 Brenk alerts (the molecule is not freed: the caller owns it).
 *
 * @example
 * ```ts
 * withMol("CC=O", brenkCheck).hits.map((h) => h.name); // ["aldehyde"]
 * ```
 */
export function brenkCheck(mol: Mol): AlertScreen {
  brenkCompiled ??= compile(BRENK_DEFINITIONS);
  return screen(mol, brenkCompiled);
}

/**
 * PAINS screen of a SMILES string. Throws `ChemError` (INVALID_SMILES, MOLECULE_TOO_LARGE).
 *
 * @example
 * ```ts
 * painsCheckSmiles("CC(=O)Oc1ccccc1C(=O)O").flagged; // false (aspirin)
 * ```
 */
export function painsCheckSmiles(smiles: string, maxHeavyAtoms?: number): AlertScreen {
  return withMol(smiles, painsCheck, maxHeavyAtoms);
}

/**
 * Brenk screen of a SMILES string. Throws `ChemError` (INVALID_SMILES, MOLECULE_TOO_LARGE).
 *
 * @example
 * ```ts
 * brenkCheckSmiles("O=[N+]([O-])c1ccccc1").hits[0]?.name; // "nitro_group"
 * ```
 */
export function brenkCheckSmiles(smiles: string, maxHeavyAtoms?: number): AlertScreen {
  return withMol(smiles, brenkCheck, maxHeavyAtoms);
}
