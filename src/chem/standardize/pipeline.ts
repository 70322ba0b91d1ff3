/**
 * Standardisation as RDKit's rdMolStandardize does it (RDKit 2022.09), step by step, each step saying what it
 * changed: `cleanup` (RemoveHs, MetalDisconnector, Normalizer, Reionizer: RDKit's Cleanup), `fragment_parent`
 * (LargestFragmentChooser), `uncharge` (Uncharger then Cleanup: RDKit's ChargeParent after FragmentParent).
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { molInchi } from "../represent.ts";
import { type Mol, parseSmiles, rdkit } from "../rdkit.ts";
import { reionize } from "./charge.ts";
import { largestFragmentIndex } from "./fragment.ts";
import { buildMol, canonicalSmiles, type Graph, molFor } from "./graph.ts";
import { inputGraph } from "./input.ts";
import { disconnectMetals } from "./metal.ts";
import { components, normalize, subGraph } from "./normalize.ts";
import { uncharge } from "./uncharge.ts";
import { canonicalTautomer } from "./tautomer.ts";

/** The steps, in the order RDKit applies them. */
export const STANDARDIZE_STEPS = ["cleanup", "fragment_parent", "uncharge", "tautomer"] as const;
/** Time limit of the tautomer enumeration, s (RDKit bounds it by count alone). */
export const TAUTOMER_TIMEOUT_S = 20;
/** One step's name. */
export type StandardizeStep = typeof STANDARDIZE_STEPS[number];

/** What one step did. */
export interface StepReport {
  step: StandardizeStep;
  /** What changed, in words; empty when the step changed nothing. */
  changes: string[];
}

/** The standardised molecule and the report of each step. */
export interface StandardizeResult {
  smiles: string;
  inchikey?: string;
  trace: StepReport[];
}

// RDKit's transform names in a chemist's words.
const NORMALIZATION_WORDS: Record<string, string> = {
  "Nitro to N+(O-)=O": "nitro normalised to charge-separated form N+(O-)=O",
  "Sulfone to S(=O)(=O)": "sulfone normalised to S(=O)(=O)",
  "Pyridine oxide to n+O-": "pyridine N-oxide normalised to n+[O-]",
  "Azide to N=N+=N-": "azide normalised to N=N+=N-",
  "Diazo/azo to =N+=N-": "diazo normalised to =N+=N-",
  "Sulfoxide to -S+(O-)-": "sulfoxide normalised to charge-separated form S+[O-]",
  "Phosphate to P(O-)=O": "phosphate normalised to P(=O)O-",
  "C/S+N to C/S=N+": "amidinium/guanidinium charge moved to N: C=N+",
  "P+N to P=N+": "phosphonium charge moved to N: P=N+",
  "Normalize hydrazine-diazonium": "hydrazine–diazonium normalised",
  "Recombine 1,3-separated charges": "1,3-separated charges recombined",
  "Recombine 1,5-separated charges": "1,5-separated charges recombined",
  "Normalize 1,3 conjugated cation": "1,3-conjugated cation charge moved to the heteroatom bearing H",
  "Normalize 1,5 conjugated cation": "1,5-conjugated cation charge moved to the heteroatom bearing H",
  "Charge normalization": "halogen oxide charge normalised: X-[O-]",
  "Charge recombination": "isonitrile charges recombined",
};

/** RDKit's Cleanup on a graph (hydrogens already removed); changes it and returns what it did. */
function cleanupGraph(g: Graph): { graph: Graph; changes: string[] } {
  const changes = disconnectMetals(g, molFor(g)).map((c) => `metal disconnected: ${c}`);
  const { graph, applied } = normalize(g);
  changes.push(...applied.map((name) => NORMALIZATION_WORDS[name] ?? `normalised: ${name}`));
  changes.push(...reionize(graph));
  return { graph, changes };
}

/** The largest fragment of a graph (RDKit's LargestFragmentChooser) and the SMILES of those left out. */
function fragmentParent(g: Graph): { graph: Graph; changes: string[] } {
  const parts = components(g).map((atoms) => subGraph(g, atoms));
  if (parts.length <= 1) return { graph: g, changes: [] };
  const mols: Mol[] = [];
  try {
    for (const part of parts) mols.push(buildMol(part));
    const keep = largestFragmentIndex(mols);
    const removed = mols.flatMap((m, i) => (i === keep ? [] : [canonicalSmiles(m)]));
    return { graph: parts[keep] ?? g, changes: removed.map((s) => `removed fragment ${s}`) };
  } finally {
    for (const m of mols) m.delete();
  }
}

/**
 * Standardises a SMILES with the chosen steps (default all), in RDKit's order.
 *
 * @example
 * ```ts
 * standardize("CC(=O)[O-].[Na+]").smiles; // "CC(=O)O"
 * ```
 */
export function standardize(
  smiles: string,
  steps: readonly StandardizeStep[] = STANDARDIZE_STEPS,
): StandardizeResult {
  const { graph, reports } = runSteps(smiles, steps);
  return { ...finalForm(graph), trace: reports };
}

/**
 * The canonical SMILES after each step of the full standardisation, for comparing every step with RDKit's own
 * (Cleanup, FragmentParent, ChargeParent, TautomerParent) in one pass. A step that fails leaves its SMILES and
 * those after it out, and `error` says why (the first steps' answers stand).
 *
 * @example
 * ```ts
 * standardizeTrace("CC(=O)O[Na]").fragment_parent; // "CC(=O)[O-]"
 * ```
 */
export function standardizeTrace(
  smiles: string,
): Partial<Record<StandardizeStep, string>> & { error?: string } {
  const out: Partial<Record<StandardizeStep, string>> & { error?: string } = {};
  try {
    runSteps(smiles, STANDARDIZE_STEPS, (step, g) => (out[step] = canonicalSmiles(molFor(g))));
  } catch (error) {
    if (!(error instanceof ChemError)) throw error;
    out.error = error.code;
  }
  return out;
}

function runSteps(
  smiles: string,
  steps: readonly StandardizeStep[],
  after?: (step: StandardizeStep, g: Graph) => void,
): { graph: Graph; reports: StepReport[] } {
  const mol = parseSmiles(smiles);
  let graph: Graph;
  let removedHs: number;
  try {
    graph = inputGraph(mol, smiles);
    removedHs = mol.get_num_atoms() - graph.atoms.length;
  } finally {
    mol.delete();
  }
  const reports: StepReport[] = [];
  for (const step of STANDARDIZE_STEPS.filter((s) => steps.includes(s))) {
    let changes: string[] = [];
    if (step === "cleanup") {
      ({ graph, changes } = cleanupGraph(graph));
      if (removedHs > 0) {
        changes.unshift(`removed ${removedHs} explicit hydrogen atom${removedHs > 1 ? "s" : ""}`);
      }
    } else if (step === "fragment_parent") ({ graph, changes } = fragmentParent(graph));
    else if (step === "tautomer") ({ graph, changes } = tautomerParent(graph));
    else {
      changes = uncharge(graph);
      // RDKit's ChargeParent cleans up after uncharging; on a molecule the Uncharger left alone that is the
      // cleanup already done.
      if (changes.length > 0 || !steps.includes("cleanup")) graph = cleanupGraph(graph).graph;
    }
    reports.push({ step, changes: collapse(changes) });
    after?.(step, graph);
  }
  return { graph, reports };
}

/** RDKit's TautomerParent on a standardised graph: the canonical tautomer, cleaned up. */
function tautomerParent(g: Graph): { graph: Graph; changes: string[] } {
  const before = canonicalSmiles(molFor(g));
  const { graph, tautomers } = canonicalTautomer(g, Date.now() + TAUTOMER_TIMEOUT_S * 1000);
  const cleaned = cleanupGraph(graph).graph;
  const after = canonicalSmiles(molFor(cleaned));
  if (after === before) return { graph: cleaned, changes: [] };
  return { graph: cleaned, changes: [`tautomer changed: ${before} → ${after} (best of ${tautomers})`] };
}

/** Repeated changes said once with their count: "metal disconnected: cut bond Fe–N (×28)". */
function collapse(changes: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const c of changes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${c} (×${n})` : c));
}

function finalForm(g: Graph): { smiles: string; inchikey?: string } {
  const mol = molFor(g);
  {
    const smiles = canonicalSmiles(mol);
    try {
      return { smiles, inchikey: rdkit().get_inchikey_for_inchi(molInchi(mol)) };
    } catch (error) {
      if (error instanceof ChemError) return { smiles };
      throw error;
    }
  }
}
