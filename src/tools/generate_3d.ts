import * as v from "valibot";
import {
  ANGLE_FORCE_CONSTANT,
  BOND_LENGTH_ROWS,
  conformerSdf,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_TIME_LIMIT_MS,
  DREIDING_REFERENCE,
  generate3d,
  MAX_3D_HEAVY_ATOMS,
  MAX_ITERATIONS_LIMIT,
  MMFF94_REFERENCE,
  RMS_GRADIENT_TOLERANCE,
} from "../chem/conformer/index.ts";
import { round } from "../chem/identity.ts";
import { count, givenSmiles, ISOLATION_GRACE_S, num, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost, WARM_UP_SMILES } from "./placement.ts";

/** Fixed text naming the method, returned with every result. */
export const GENERATE_3D_METHOD: string =
  "Rule-based 3D placement (RDKit 2D layout lifted to 3D, hydrogens by ideal geometry, stereochemistry set by " +
  "chiral-volume and cis/trans restraints, relaxed through a fourth dimension), then unrestrained L-BFGS " +
  `minimisation with the DREIDING force field (${DREIDING_REFERENCE}): harmonic bonds, cosine-harmonic ` +
  "angles, torsions, planar inversions, Lennard-Jones 12-6 van der Waals and Coulomb between Gasteiger–Marsili " +
  "charges (Tetrahedron 1980, 36, 3219), ε = 1; no explicit hydrogen-bond term. Departures from plain " +
  "DREIDING: (1) where DREIDING's bond-radius rule is 0.02 Å or " +
  `more from MMFF94's reference length, the bond takes MMFF94's r0 (${MMFF94_REFERENCE}; ` +
  `${BOND_LENGTH_ROWS.length} bond classes: C–H on sp2 and sp carbon, single bonds between or next to π atoms, ` +
  "amide, aniline, nitro and hydrazine N, sulfonyl, sulfinyl and phosphoryl groups, Si, aryl halides; table in " +
  "docs/data/dreiding.md); (2) 1-4 van der Waals well depths are halved, as in AMBER (Cornell et al., J. Am. " +
  "Chem. Soc. 1995, 117, 5179), since full-strength 1-4 terms stretch crowded single bonds; (3) equilibrium " +
  "angles per angle class (ends, centre and its other neighbours, ring size) fitted to RDKit's ETKDG + MMFF94 " +
  `structures (${MMFF94_REFERENCE}), angle constant ${ANGLE_FORCE_CONSTANT} kcal/mol/rad²; (4) trivalent ` +
  "N_R centres are held planar where MMFF94's structures have their class planar (amides, lactams), not where " +
  "pyramidal (anilines, sulfonamides); (5) bond lengths " +
  "shifted by the class's mean difference from those structures where it is 0.005 Å or more. One local minimum, " +
  "not a conformer search.";

const terms = v.object({
  bond: num("Bond-stretch energy, kcal/mol."),
  angle: num("Angle-bend energy, kcal/mol."),
  torsion: num("Torsion energy, kcal/mol."),
  inversion: num("Inversion (out-of-plane) energy, kcal/mol."),
  van_der_waals: num("Lennard-Jones 12-6 van der Waals energy, kcal/mol."),
  electrostatic: num("Coulomb energy of Gasteiger charges in vacuum, kcal/mol."),
});

/** `generate_3d`: 3D coordinates by rule-based placement and DREIDING minimisation. */
export const generate3dTool = defineTool({
  name: "generate_3d",
  title: "3D structure (DREIDING)",
  annotations: LOCAL_COMPUTATION,
  description:
    "One 3D structure as XYZ text, or an SDF record with format 'sdf' (Å, all hydrogens; heavy atoms in SMILES " +
    "order, then H), and its DREIDING steric energy (kcal/mol; compare only between structures of one " +
    "molecule). Heuristic placement, then L-BFGS minimisation with DREIDING (Mayo et al. 1990); specified " +
    "stereo is verified. One local minimum, not a conformer search. " +
    `Limits: ${MAX_3D_HEAVY_ATOMS} heavy atoms, ${DEFAULT_TIME_LIMIT_MS / 1000} s. Errors: INVALID_SMILES, ` +
    "MOLECULE_TOO_LARGE, UNSUPPORTED_MOLECULE, COMPUTATION_TIMEOUT, EMBEDDING_FAILED.",
  input: v.strictObject({
    smiles: smilesArg(),
    max_iterations: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_ITERATIONS_LIMIT),
        v.description("Cap on L-BFGS steps of the final minimisation; when reached, converged = false."),
      ),
      DEFAULT_MAX_ITERATIONS,
    ),
    format: v.optional(
      v.pipe(
        v.picklist(["xyz", "sdf"]),
        v.description(
          "XYZ text (field xyz) or an SDF record with bonds and charges (field sdf).",
        ),
      ),
      "xyz",
    ),
  }),
  output: v.object({
    smiles: givenSmiles,
    xyz: v.optional(v.pipe(
      v.string(),
      v.description(
        "XYZ text (format 'xyz'): atom count, a comment with the SMILES and the energy in kcal/mol, then one " +
          "line per atom: element and x y z in Å (4 decimals).",
      ),
    )),
    sdf: v.optional(v.pipe(
      v.string(),
      v.description(
        "SDF record (format 'sdf'): molfile (V2000, V3000 above 999 atoms) with the XYZ's atoms, order and " +
          "coordinates, Kekulé bonds, charges, radicals, 3D flag; data item energy_kcal_mol; ends with $$$$.",
      ),
    )),
    atom_count: count("Atoms including hydrogens (lines of XYZ coordinates)."),
    heavy_atom_count: count("Non-hydrogen atoms."),
    atom_types: v.pipe(
      v.array(v.string()),
      v.description("DREIDING atom type of each atom in XYZ order (e.g. C_3, C_R, N_R, O_2, H_, H_HB)."),
    ),
    energy_kcal_mol: num("Final DREIDING energy, kcal/mol (4 decimals)."),
    energy_terms_kcal_mol: v.pipe(
      terms,
      v.description("The final energy split into DREIDING terms, kcal/mol."),
    ),
    iterations: count("L-BFGS steps of the final unrestrained DREIDING minimisation."),
    setup_iterations: count("L-BFGS steps of the placement and restrained set-up stages."),
    converged: v.pipe(
      v.boolean(),
      v.description(`True when the RMS gradient fell below ${RMS_GRADIENT_TOLERANCE} kcal/mol/Å.`),
    ),
    rms_gradient: num("Final RMS of the Cartesian gradient components, kcal/mol/Å."),
    stereo: v.pipe(
      v.object({
        tetrahedral_centers: count("Tetrahedral stereocentres specified in the SMILES (all verified kept)."),
        double_bonds: count("E/Z double bonds specified in the SMILES (all verified kept)."),
      }),
      v.description("Stereo elements of the SMILES, each checked in the final geometry."),
    ),
    force_field: v.pipe(v.literal("DREIDING"), v.description("Force field used for the minimisation.")),
    method: v.pipe(
      v.string(),
      v.description("Fixed text describing the method; the placement is a heuristic."),
    ),
  }),
  // The engine stops itself at its time limit; the worker deadline is the backstop.
  list: { cap: 10 },
  placement: {
    where: "pool",
    deadlineMs: () => DEFAULT_TIME_LIMIT_MS + ISOLATION_GRACE_S * 1000,
    cost: ({ smiles }) => textsCost(smiles),
    // Twice: the force-field code reaches its optimised form over the first few molecules, not on the first.
    warmUp: [{ smiles: WARM_UP_SMILES.paracetamol }, { smiles: WARM_UP_SMILES.atenolol }],
  },
  run: ({ smiles, max_iterations, format }) => {
    const c = generate3d(smiles, { maxIterations: max_iterations });
    const e = c.energyTerms;
    return {
      smiles,
      ...(format === "sdf" ? { sdf: conformerSdf(c) } : { xyz: c.xyz }),
      atom_count: c.atomCount,
      heavy_atom_count: c.heavyAtomCount,
      atom_types: [...c.atomTypes],
      energy_kcal_mol: round(c.energy, 4),
      energy_terms_kcal_mol: {
        bond: round(e.bond, 4),
        angle: round(e.angle, 4),
        torsion: round(e.torsion, 4),
        inversion: round(e.inversion, 4),
        van_der_waals: round(e.van_der_waals, 4),
        electrostatic: round(e.electrostatic, 4),
      },
      iterations: c.iterations,
      setup_iterations: c.setupIterations,
      converged: c.converged,
      rms_gradient: round(c.rmsGradient, 6),
      stereo: { tetrahedral_centers: c.stereo.tetrahedralCentres, double_bonds: c.stereo.doubleBonds },
      force_field: "DREIDING" as const,
      method: GENERATE_3D_METHOD,
    };
  },
});
