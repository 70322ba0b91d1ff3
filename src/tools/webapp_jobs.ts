/**
 * The sample web app's chemistry (src/webapp/), apart from its HTTP side: what each POST route computes, as tools
 * a pool worker serves (src/pool/tool_worker.ts) so the served app runs them off its request thread under the
 * same cost model and deadlines as the MCP server. They are never listed to MCP clients; their arguments were
 * validated by the app's own schemas (src/webapp/schemas.ts). Routes and values: docs/webapp.md.
 *
 * @module
 */
import * as v from "valibot";
import { ChemError } from "../errors.ts";
import { boiledEggZones, eggDescriptors } from "../chem/boiled_egg.ts";
import { similaritySearch } from "../chem/similarity.ts";
import { coreProperties, LIPINSKI_THRESHOLDS, withParentMol } from "../chem/properties.ts";
import { descriptors, withMol } from "../chem/rdkit.ts";
import { round } from "../chem/identity.ts";
import { LOCAL_COMPUTATION, type Tool } from "./tool.ts";
import { type CallCost, textsCost } from "./placement.ts";

/** Depiction size in pixels (RDKit `get_svg(width, height)`). */
export const DEPICTION_SIZE = { width: 300, height: 220 } as const;

/** Body of POST /descriptors. */
export interface DescriptorsResult {
  /** Average molecular weight, g/mol (RDKit amw), 3 decimals. */
  mw: number;
  /** Wildman–Crippen logP, 4 decimals. */
  logp: number;
  /** Ertl TPSA from N and O, Å², 2 decimals. */
  tpsa: number;
  /** Lipinski donors: H on N and O (RDKit lipinskiHBD). */
  hbd: number;
  /** Lipinski acceptors: N + O atoms (RDKit lipinskiHBA). */
  hba: number;
  /** mw <= 500 && hbd <= 5 && hba <= 10 && logp <= 5. */
  lipinski_passes: boolean;
}

/** One molecule's point on the BOILED-Egg plot (POST /boiled-egg). */
export interface EggPoint {
  /** The SMILES as sent. */
  smiles: string;
  /** WLOGP (Wildman–Crippen logP), 4 decimals. */
  wlogp: number;
  /** TPSA including S and P (as in the BOILED-Egg paper), Å², 2 decimals. */
  tpsa: number;
  /** Inside the white ellipse: passive gastrointestinal absorption predicted. */
  gi_absorbed: boolean;
  /** Inside the yolk ellipse: blood–brain barrier permeation predicted. */
  bbb_penetrant: boolean;
}

/**
 * Descriptors and the rule-of-five verdict of the SMILES' largest component (salts and solvates are reduced to
 * their parent, as in calc_properties). HBD/HBA are Lipinski's counts (NH + OH, N + O).
 *
 * @example
 * ```ts
 * descriptorsOf("CC(=O)Oc1ccccc1C(=O)O"); // { mw: 180.159, logp: 1.3101, tpsa: 63.6, hbd: 1, hba: 4, lipinski_passes: true }
 * ```
 */
export function descriptorsOf(smiles: string): DescriptorsResult {
  const p = withParentMol(smiles, (mol) => coreProperties(descriptors(mol)));
  const t = LIPINSKI_THRESHOLDS;
  return {
    mw: round(p.molecular_weight, 3),
    logp: round(p.logp, 4),
    tpsa: round(p.tpsa, 2),
    hbd: p.lipinski_hbd,
    hba: p.lipinski_hba,
    // Decided on unrounded values so the verdict does not depend on display precision.
    lipinski_passes: p.molecular_weight <= t.molecular_weight && p.lipinski_hbd <= t.hbd &&
      p.lipinski_hba <= t.hba && p.logp <= t.logp,
  };
}

/**
 * BOILED-Egg points (Daina & Zoete 2016, src/chem/boiled_egg.ts) of each SMILES' largest component, in the order
 * sent. Throws the ChemError of the first entry RDKit cannot take, its message beginning `smiles[i]: `.
 *
 * @example
 * ```ts
 * eggPoints(["CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"]); // diazepam: wlogp 3.1538, tpsa 32.67, both true
 * ```
 */
export function eggPoints(smiles: readonly string[]): EggPoint[] {
  return smiles.map((entry, index) =>
    chem(`smiles[${index}]`, () =>
      withParentMol(entry, (mol) => {
        const { wlogp, tpsa } = eggDescriptors(mol);
        return {
          smiles: entry,
          wlogp: round(wlogp, 4),
          tpsa: round(tpsa, 2),
          ...boiledEggZones(wlogp, tpsa),
        };
      }))
  );
}

/**
 * RDKit 2D depiction (SVG, {@link DEPICTION_SIZE}) of a SMILES.
 *
 * @example
 * ```ts
 * depict("CCO").startsWith("<?xml"); // true
 * ```
 */
export function depict(smiles: string): string {
  return chem(
    "smiles",
    () => withMol(smiles, (mol) => mol.get_svg(DEPICTION_SIZE.width, DEPICTION_SIZE.height)),
  );
}

/** Runs chemistry; an input's ChemError comes out naming the field that failed. */
function chem<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (
      error instanceof ChemError && (error.code === "INVALID_SMILES" || error.code === "MOLECULE_TOO_LARGE")
    ) {
      throw new ChemError(error.code, field ? `${field}: ${error.message}` : error.message, error.details);
    }
    throw error;
  }
}

/**
 * The chemistry each POST route runs, by name. POST /similarity stops at the first library entry RDKit cannot
 * read, naming it (docs/webapp.md says why the app does not skip it).
 */
export const WEBAPP_JOBS = {
  webapp_descriptors: (args: { smiles: string }): unknown => chem("smiles", () => descriptorsOf(args.smiles)),
  webapp_similarity: (args: { smiles: string; smiles_list: string[]; threshold: number }): unknown =>
    similaritySearch(args.smiles, args.smiles_list, args.threshold),
  webapp_boiled_egg: (args: { smiles_list: string[] }): unknown => eggPoints(args.smiles_list),
  webapp_depict: (args: { smiles: string }): unknown => depict(args.smiles),
} as const;

/** Name of a web-app computation. */
export type WebAppJob = keyof typeof WEBAPP_JOBS;

/**
 * Entries a list computation may have and be light whatever its molecules: each entry costs a parse and a
 * fingerprint or a descriptor set (0.1–0.3 ms for a drug, not much less for a single atom), so 256 take well
 * under 0.1 s, where 10,000 take seconds.
 */
export const LIGHT_LIST_ENTRIES = 256;

/**
 * What a web-app computation costs: costly for a list of more than {@link LIGHT_LIST_ENTRIES} entries, else by
 * the server's cost model of its SMILES (one past the light limits, or more than 5,000 atoms in all).
 *
 * @example
 * ```ts
 * webAppJobCost({ smiles: "CCO", smiles_list: Array(10_000).fill("C") }); // "costly"
 * webAppJobCost({ smiles: "CC(=O)Oc1ccccc1C(=O)O" }); // "light"
 * ```
 */
export function webAppJobCost(args: Readonly<Record<string, unknown>>): CallCost {
  const list = Array.isArray(args.smiles_list) ? args.smiles_list as unknown[] : [];
  return list.length > LIGHT_LIST_ENTRIES ? "costly" : textsCost(args.smiles, list);
}

const ANY = v.looseObject({});

/**
 * One tool per web-app computation, named as {@link WEBAPP_JOBS}: run in a worker always, costly by
 * {@link webAppJobCost}.
 */
export const WEBAPP_TOOLS: readonly Tool[] = Object.entries(WEBAPP_JOBS).map(([name, run]) => ({
  name,
  title: name,
  description: "Web-app computation (not listed to MCP clients).",
  annotations: LOCAL_COMPUTATION,
  input: ANY,
  output: ANY,
  placement: { where: "pool", cost: webAppJobCost },
  run: run as Tool["run"],
}));
