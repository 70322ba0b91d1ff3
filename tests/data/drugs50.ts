/**
 * A varied set of drug and drug-like molecules (isomeric SMILES with names) for validation tests and
 * benchmarks. It covers plain aromatics, chains, charged species and salts, fused, bridged, spiro and caged ring
 * systems, small strained rings (3- and 4-membered), macrocycles (erythromycin, cyclosporin A) and a cyclic
 * peptide, halogens including iodine, sulfur, phosphorus, nitro groups, alkynes and E/Z double bonds.
 *
 * SMILES are PubChem-style isomeric SMILES as widely published; each entry's average molecular weight (g/mol,
 * as computed by RDKit for the SMILES) is recorded so a transcription error shows up as a failing test.
 * Read-only for other tasks.
 *
 * @module
 */

/** One molecule of the set. */
export interface DrugEntry {
  /** Common name. */
  readonly name: string;
  /** Isomeric SMILES. */
  readonly smiles: string;
  /** Average molecular weight in g/mol (RDKit `amw` of the SMILES, 2 decimals). */
  readonly mw: number;
  /** Short tags describing what the entry exercises. */
  readonly tags: readonly string[];
}

/**
 * The molecules (≥ 50).
 *
 * @example
 * ```ts
 * import { DRUGS50 } from "./drugs50.ts";
 * const aspirin = DRUGS50.find((d) => d.name === "aspirin");
 * ```
 */
export const DRUGS50: readonly DrugEntry[] = [
  { name: "aspirin", smiles: "CC(=O)OC1=CC=CC=C1C(=O)O", mw: 180.16, tags: ["aromatic", "ester"] },
  { name: "paracetamol", smiles: "CC(=O)NC1=CC=C(O)C=C1", mw: 151.17, tags: ["aromatic", "amide"] },
  { name: "(S)-ibuprofen", smiles: "CC(C)CC1=CC=C(C=C1)[C@H](C)C(=O)O", mw: 206.28, tags: ["stereo"] },
  { name: "caffeine", smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", mw: 194.19, tags: ["fused", "heteroaromatic"] },
  { name: "(S)-nicotine", smiles: "CN1CCC[C@H]1C1=CN=CC=C1", mw: 162.24, tags: ["stereo", "saturated ring"] },
  {
    name: "morphine",
    smiles: "CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)O)O[C@H]3[C@H](C=C4)O",
    mw: 285.34,
    tags: ["bridged", "fused", "stereo"],
  },
  {
    name: "(1R,4R)-camphor",
    smiles: "CC1([C@@H]2CC[C@]1(C(=O)C2)C)C",
    mw: 152.24,
    tags: ["bridged", "stereo"],
  },
  { name: "adamantane", smiles: "C1C2CC3CC1CC(C2)C3", mw: 136.24, tags: ["cage", "bridged"] },
  { name: "amantadine", smiles: "NC12CC3CC(CC(C3)C1)C2", mw: 151.25, tags: ["cage", "bridged"] },
  {
    name: "erythromycin",
    smiles: "CC[C@@H]1[C@@]([C@@H]([C@H](C(=O)[C@@H](C[C@@]([C@@H]([C@H]([C@@H]([C@H](C(=O)O1)C)" +
      "O[C@H]2C[C@@]([C@H]([C@@H](O2)C)O)(C)OC)C)O[C@H]3[C@@H]([C@H](C[C@H](O3)C)N(C)C)O)(C)O)C)C)O)(C)O",
    mw: 733.94,
    tags: ["macrocycle", "stereo"],
  },
  {
    name: "cyclosporin A",
    smiles: "CC[C@H]1C(=O)N(CC(=O)N([C@H](C(=O)N[C@H](C(=O)N([C@H](C(=O)N[C@H](C(=O)N[C@@H](C(=O)N(" +
      "[C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N1)[C@@H]([C@H](C)C/C=C/C)O)C)C(C)C)C)CC(C)C)C)" +
      "CC(C)C)C)C)C)CC(C)C)C)C(C)C)CC(C)C)C)C",
    mw: 1202.63,
    tags: ["macrocycle", "cyclic peptide", "stereo", "E/Z"],
  },
  {
    name: "cyclo(RGDfV)",
    smiles: "CC(C)[C@@H]1NC(=O)[C@@H](Cc2ccccc2)NC(=O)[C@H](CC(=O)O)NC(=O)CNC(=O)[C@H](CCCNC(N)=N)NC1=O",
    mw: 574.64,
    tags: ["macrocycle", "cyclic peptide", "stereo"],
  },
  {
    name: "penicillin G",
    smiles: "CC1([C@@H](N2[C@H](S1)[C@@H](C2=O)NC(=O)CC3=CC=CC=C3)C(=O)O)C",
    mw: 334.40,
    tags: ["fused", "4-ring", "stereo", "sulfur"],
  },
  {
    name: "cholesterol",
    smiles: "C[C@H](CCCC(C)C)[C@H]1CC[C@@H]2[C@@]1(CC[C@H]3[C@H]2CC=C4[C@@]3(CC[C@@H](C4)O)C)C",
    mw: 386.66,
    tags: ["fused", "stereo"],
  },
  {
    name: "testosterone",
    smiles: "C[C@]12CC[C@H]3[C@H]([C@@H]1CC[C@@H]2O)CCC4=CC(=O)CC[C@]34C",
    mw: 288.43,
    tags: ["fused", "stereo"],
  },
  {
    name: "estradiol",
    smiles: "C[C@]12CC[C@H]3[C@H]([C@@H]1CC[C@@H]2O)CCC4=C3C=CC(=C4)O",
    mw: 272.39,
    tags: ["fused", "stereo"],
  },
  {
    name: "dexamethasone",
    smiles: "C[C@@H]1C[C@H]2[C@@H]3CCC4=CC(=O)C=C[C@@]4([C@]3([C@H](C[C@@]2([C@]1(C(=O)CO)O)C)O)F)C",
    mw: 392.47,
    tags: ["fused", "stereo", "fluorine"],
  },
  {
    name: "spironolactone",
    smiles: "CC(=O)S[C@@H]1CC2=CC(=O)CC[C@@]2([C@@H]3[C@@H]1[C@@H]4CC[C@]5([C@]4(CC3)C)CCC(=O)O5)C",
    mw: 416.58,
    tags: ["spiro", "fused", "stereo", "sulfur"],
  },
  {
    name: "atorvastatin",
    smiles: "CC(C)C1=C(C(=C(N1CC[C@H](C[C@H](CC(=O)O)O)O)C2=CC=C(C=C2)F)C3=CC=CC=C3)C(=O)NC4=CC=CC=C4",
    mw: 558.65,
    tags: ["stereo", "flexible"],
  },
  {
    name: "sildenafil",
    smiles: "CCCC1=NN(C2=C1N=C(NC2=O)C3=C(C=CC(=C3)S(=O)(=O)N4CCN(CC4)C)OCC)C",
    mw: 474.59,
    tags: ["sulfonamide", "fused"],
  },
  { name: "diazepam", smiles: "CN1C(=O)CN=C(C2=C1C=CC(=C2)Cl)C3=CC=CC=C3", mw: 284.75, tags: ["chlorine"] },
  { name: "fluoxetine", smiles: "CNCCC(C1=CC=CC=C1)OC2=CC=C(C=C2)C(F)(F)F", mw: 309.33, tags: ["fluorine"] },
  { name: "propranolol", smiles: "CC(C)NCC(COC1=CC=CC2=CC=CC=C21)O", mw: 259.35, tags: ["fused aromatic"] },
  { name: "metformin", smiles: "CN(C)C(=N)N=C(N)N", mw: 129.17, tags: ["guanidine"] },
  {
    name: "omeprazole",
    smiles: "CC1=CN=C(C(=C1OC)C)CS(=O)C2=NC3=C(N2)C=C(C=C3)OC",
    mw: 345.42,
    tags: ["sulfoxide"],
  },
  { name: "(S)-naproxen", smiles: "C[C@@H](C1=CC2=C(C=C1)C=C(C=C2)OC)C(=O)O", mw: 230.26, tags: ["stereo"] },
  { name: "warfarin", smiles: "CC(=O)CC(C1=CC=CC=C1)C2=C(C3=CC=CC=C3OC2=O)O", mw: 308.33, tags: ["fused"] },
  { name: "captopril", smiles: "C[C@H](CS)C(=O)N1CCC[C@H]1C(=O)O", mw: 217.29, tags: ["stereo", "thiol"] },
  {
    name: "lisinopril",
    smiles: "C1C[C@H](N(C1)C(=O)[C@H](CCCCN)N[C@@H](CCC2=CC=CC=C2)C(=O)O)C(=O)O",
    mw: 405.50,
    tags: ["stereo", "flexible"],
  },
  {
    name: "oseltamivir",
    smiles: "CCC(CC)O[C@@H]1C=C(C[C@@H]([C@H]1NC(=O)C)N)C(=O)OCC",
    mw: 312.41,
    tags: ["stereo"],
  },
  {
    name: "(Z)-tamoxifen",
    smiles: "CC/C(=C(\\C1=CC=CC=C1)/C2=CC=C(C=C2)OCCN(C)C)/C3=CC=CC=C3",
    mw: 371.52,
    tags: ["E/Z"],
  },
  {
    name: "all-trans-retinoic acid",
    smiles: "CC1=C(C(CCC1)(C)C)/C=C/C(=C/C=C/C(=C/C(=O)O)/C)/C",
    mw: 300.44,
    tags: ["E/Z", "conjugated"],
  },
  {
    name: "cocaine",
    smiles: "CN1[C@H]2CC[C@@H]1[C@H]([C@H](C2)OC(=O)C3=CC=CC=C3)C(=O)OC",
    mw: 303.36,
    tags: ["bridged", "stereo"],
  },
  {
    name: "quinine",
    smiles: "COC1=CC2=C(C=CN=C2C=C1)[C@H]([C@@H]3C[C@@H]4CCN3C[C@@H]4C=C)O",
    mw: 324.42,
    tags: ["bridged", "stereo"],
  },
  {
    name: "artemisinin",
    smiles: "C[C@@H]1CC[C@H]2[C@H](C(=O)O[C@H]3[C@@]24[C@H]1CC[C@](O3)(OO4)C)C",
    mw: 282.34,
    tags: ["bridged", "peroxide", "stereo"],
  },
  {
    name: "paclitaxel",
    smiles: "CC1=C2[C@H](C(=O)[C@@]3([C@H](C[C@@H]4[C@]([C@H]3[C@@H]([C@@](C2(C)C)(C[C@@H]1OC(=O)[C@@H](" +
      "[C@H](C5=CC=CC=C5)NC(=O)C6=CC=CC=C6)O)O)OC(=O)C7=CC=CC=C7)(CO4)OC(=O)C)O)C)OC(=O)C",
    mw: 853.92,
    tags: ["bridged", "4-ring", "stereo"],
  },
  {
    name: "strychnine",
    smiles: "C1CN2CC3=CCO[C@H]4CC(=O)N5[C@H]6[C@H]4[C@H]3C[C@H]2[C@@]61C7=CC=CC=C75",
    mw: 334.42,
    tags: ["bridged", "fused", "stereo"],
  },
  {
    name: "beta-D-glucopyranose",
    smiles: "OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O",
    mw: 180.16,
    tags: ["stereo", "saturated ring"],
  },
  {
    name: "L-alanine zwitterion",
    smiles: "C[C@@H](C(=O)[O-])[NH3+]",
    mw: 89.09,
    tags: ["charged", "stereo"],
  },
  {
    name: "L-arginine cation",
    smiles: "NC(=[NH2+])NCCC[C@H]([NH3+])C(=O)[O-]",
    mw: 175.21,
    tags: ["charged", "stereo"],
  },
  { name: "acetylcholine", smiles: "CC(=O)OCC[N+](C)(C)C", mw: 146.21, tags: ["charged"] },
  { name: "sodium benzoate", smiles: "[Na+].[O-]C(=O)C1=CC=CC=C1", mw: 144.10, tags: ["charged", "salt"] },
  {
    name: "imatinib",
    smiles: "CC1=C(C=C(C=C1)NC(=O)C2=CC=C(C=C2)CN3CCN(CC3)C)NC4=NC=CC(=N4)C5=CN=CC=C5",
    mw: 493.62,
    tags: ["flexible"],
  },
  {
    name: "celecoxib",
    smiles: "CC1=CC=C(C=C1)C2=CC(=NN2C3=CC=C(C=C3)S(=O)(=O)N)C(F)(F)F",
    mw: 381.38,
    tags: ["sulfonamide", "fluorine"],
  },
  {
    name: "losartan",
    smiles: "CCCCC1=NC(=C(N1CC2=CC=C(C=C2)C3=CC=CC=C3C4=NNN=N4)CO)Cl",
    mw: 422.92,
    tags: ["biaryl", "tetrazole"],
  },
  {
    name: "ciprofloxacin",
    smiles: "C1CC1N2C=C(C(=O)C3=CC(=C(C=C32)N4CCNCC4)F)C(=O)O",
    mw: 331.35,
    tags: ["3-ring", "fluorine"],
  },
  { name: "chloroquine", smiles: "CCN(CC)CCCC(C)NC1=C2C=CC(=CC2=NC=C1)Cl", mw: 319.88, tags: ["flexible"] },
  { name: "dopamine", smiles: "C1=CC(=C(C=C1CCN)O)O", mw: 153.18, tags: ["small"] },
  { name: "serotonin", smiles: "C1=CC2=C(C=C1O)C(=CN2)CCN", mw: 176.22, tags: ["indole"] },
  { name: "histamine", smiles: "C1=C(NC=N1)CCN", mw: 111.15, tags: ["small", "imidazole"] },
  {
    name: "levothyroxine",
    smiles: "C1=C(C=C(C(=C1I)OC2=CC(=C(C(=C2)I)O)I)I)C[C@@H](C(=O)O)N",
    mw: 776.87,
    tags: ["iodine", "stereo"],
  },
  {
    name: "brompheniramine",
    smiles: "CN(C)CCC(C1=CC=C(C=C1)Br)C2=CC=CC=N2",
    mw: 319.25,
    tags: ["bromine"],
  },
  { name: "(R)-epinephrine", smiles: "CNC[C@@H](C1=CC(=C(C=C1)O)O)O", mw: 183.21, tags: ["stereo"] },
  {
    name: "(-)-menthol",
    smiles: "CC(C)[C@@H]1CC[C@@H](C)C[C@H]1O",
    mw: 156.27,
    tags: ["stereo", "saturated ring"],
  },
  { name: "thalidomide", smiles: "C1CC(=O)NC(=O)C1N2C(=O)C3=CC=CC=C3C2=O", mw: 258.23, tags: ["imide"] },
  {
    name: "sumatriptan",
    smiles: "CNS(=O)(=O)CC1=CC2=C(C=C1)NC=C2CCN(C)C",
    mw: 295.41,
    tags: ["sulfonamide", "indole"],
  },
  {
    name: "efavirenz",
    smiles: "C1CC1C#C[C@]2(C3=C(C=CC(=C3)Cl)NC(=O)O2)C(F)(F)F",
    mw: 315.68,
    tags: ["alkyne", "3-ring", "stereo"],
  },
  { name: "valproic acid", smiles: "CCCC(CCC)C(=O)O", mw: 144.21, tags: ["aliphatic"] },
  { name: "metoprolol", smiles: "CC(C)NCC(COC1=CC=C(C=C1)CCOC)O", mw: 267.37, tags: ["flexible"] },
  { name: "(E)-resveratrol", smiles: "C1=CC(=CC=C1/C=C/C2=CC(=CC(=C2)O)O)O", mw: 228.25, tags: ["E/Z"] },
  {
    name: "nitroglycerin",
    smiles: "C(C(CO[N+](=O)[O-])O[N+](=O)[O-])O[N+](=O)[O-]",
    mw: 227.09,
    tags: ["charged", "nitro"],
  },
  {
    name: "fosfomycin",
    smiles: "C[C@@H]1[C@@H](O1)P(=O)(O)O",
    mw: 138.06,
    tags: ["3-ring", "phosphorus", "stereo"],
  },
  { name: "taurine", smiles: "NCCS(=O)(=O)O", mw: 125.15, tags: ["sulfonic acid"] },
];
