/**
 * RDKit's MolStandardize rule tables as RDKit 2022.09 ships them (Code/GraphMol/MolStandardize/
 * TransformCatalog/normalizations.in, AcidBaseCatalog/acid_base_pairs.in) and the allowed-valence lists of
 * RDKit's periodic table (Code/GraphMol/atomic_data.cpp). Data from RDKit, Copyright (C) 2018-2021 Susan H. Leung,
 * Greg Landrum and other RDKit contributors, BSD 3-clause licence (LICENSES/). Written by
 * scripts/reference/standardize_rules.py.
 *
 * @module
 */

// deno-fmt-ignore
/** Normalisation transforms (RDKit's name, reaction SMARTS) in the order RDKit applies them. */
export const NORMALIZATIONS: readonly (readonly [string, string])[] = [
  ["Nitro to N+(O-)=O", "[N,P,As,Sb;X3:1](=[O,S,Se,Te:2])=[O,S,Se,Te:3]>>[*+1:1]([*-1:2])=[*:3]"],
  ["Sulfone to S(=O)(=O)", "[S+2:1]([O-:2])([O-:3])>>[S+0:1](=[O-0:2])(=[O-0:3])"],
  ["Pyridine oxide to n+O-", "[nH0+0:1]=[OH0+0:2]>>[n+:1][O-:2]"],
  ["Azide to N=N+=N-", "[*:1][N:2]=[N:3]#[N:4]>>[*:1][N:2]=[N+:3]=[N-:4]"],
  ["Diazo/azo to =N+=N-", "[*:1]=[N:2]#[N:3]>>[*:1]=[N+:2]=[N-:3]"],
  ["Sulfoxide to -S+(O-)-", "[!O:1][S+0;X3:2](=[O:3])[!O:4]>>[*:1][S+1:2]([O-:3])[*:4]"],
  ["Phosphate to P(O-)=O", "[O,S,Se,Te;-1:1][P+;D4:2][O,S,Se,Te;-1:3]>>[*+0:1]=[P+0;D5:2][*-1:3]"],
  ["C/S+N to C/S=N+", "[C,S&!$([S+]-[O-]);X3+1:1]([NX3:2])[NX3!H0:3]>>[*+0:1]([N:2])=[N+:3]"],
  ["P+N to P=N+", "[P;X4+1:1]([NX3:2])[NX3!H0:3]>>[*+0:1]([N:2])=[N+:3]"],
  ["Normalize hydrazine-diazonium", "[CX4:1][NX3H:2]-[NX3H:3][CX4:4][NX2+:5]#[NX1:6]>>[CX4:1][NH0:2]=[NH+:3][C:4][N+0:5]=[NH:6]"],
  ["Recombine 1,3-separated charges", "[N,P,As,Sb,O,S,Se,Te;-1:1]-[A+0:2]=[N,P,As,Sb,O,S,Se,Te;+1:3]>>[*-0:1]=[*:2]-[*+0:3]"],
  ["Recombine 1,3-separated charges", "[n,o,p,s;-1:1]:[a:2]=[N,O,P,S;+1:3]>>[*-0:1]:[*:2]-[*+0:3]"],
  ["Recombine 1,3-separated charges", "[N,O,P,S;-1:1]-[a:2]:[n,o,p,s;+1:3]>>[*-0:1]=[*:2]:[*+0:3]"],
  ["Recombine 1,5-separated charges", "[N,P,As,Sb,O,S,Se,Te;-1:1]-[A+0:2]=[A:3]-[A:4]=[N,P,As,Sb,O,S,Se,Te;+1:5]>>[*-0:1]=[*:2]-[*:3]=[*:4]-[*+0:5]"],
  ["Recombine 1,5-separated charges", "[n,o,p,s;-1:1]:[a:2]:[a:3]:[c:4]=[N,O,P,S;+1:5]>>[*-0:1]:[*:2]:[*:3]:[c:4]-[*+0:5]"],
  ["Recombine 1,5-separated charges", "[N,O,P,S;-1:1]-[c:2]:[a:3]:[a:4]:[n,o,p,s;+1:5]>>[*-0:1]=[c:2]:[*:3]:[*:4]:[*+0:5]"],
  ["Normalize 1,3 conjugated cation", "[N,O;+0!H0:1]-[A:2]=[N!$(*[O-]),O;+1H0:3]>>[*+1:1]=[*:2]-[*+0:3]"],
  ["Normalize 1,3 conjugated cation", "[n;+0!H0:1]:[c:2]=[N!$(*[O-]),O;+1H0:3]>>[*+1:1]:[*:2]-[*+0:3]"],
  ["Normalize 1,5 conjugated cation", "[N,O;+0!H0:1]-[A:2]=[A:3]-[A:4]=[N!$(*[O-]),O;+1H0:5]>>[*+1:1]=[*:2]-[*:3]=[*:4]-[*+0:5]"],
  ["Normalize 1,5 conjugated cation", "[n;+0!H0:1]:[a:2]:[a:3]:[c:4]=[N!$(*[O-]),O;+1H0:5]>>[n+1:1]:[*:2]:[*:3]:[*:4]-[*+0:5]"],
  ["Charge normalization", "[F,Cl,Br,I,At;-1:1]=[O:2]>>[*-0:1][O-:2]"],
  ["Charge recombination", "[N,P,As,Sb;-1:1]=[C+;v3:2]>>[*+0:1]#[C+0:2]"],
];

// deno-fmt-ignore
/** Acid–base pairs (RDKit's name, acid SMARTS, base SMARTS), strongest acid first. */
export const ACID_BASE_PAIRS: readonly (readonly [string, string, string])[] = [
  ["-OSO3H", "OS(=O)(=O)[OH]", "OS(=O)(=O)[O-]"],
  ["-SO3H", "[!O]S(=O)(=O)[OH]", "[!O]S(=O)(=O)[O-]"],
  ["-OSO2H", "O[SD3](=O)[OH]", "O[SD3](=O)[O-]"],
  ["-SO2H", "[!O][SD3](=O)[OH]", "[!O][SD3](=O)[O-]"],
  ["-OPO3H2", "OP(=O)([OH])[OH]", "OP(=O)([OH])[O-]"],
  ["-PO3H2", "[!O]P(=O)([OH])[OH]", "[!O]P(=O)([OH])[O-]"],
  ["-CO2H", "C(=O)[OH]", "C(=O)[O-]"],
  ["thiophenol", "c[SH]", "c[S-]"],
  ["(-OPO3H)-", "OP(=O)([O-])[OH]", "OP(=O)([O-])[O-]"],
  ["(-PO3H)-", "[!O]P(=O)([O-])[OH]", "[!O]P(=O)([O-])[O-]"],
  ["phthalimide", "O=C2c1ccccc1C(=O)[NH]2", "O=C2c1ccccc1C(=O)[N-]2"],
  ["CO3H (peracetyl)", "C(=O)O[OH]", "C(=O)O[O-]"],
  ["alpha-carbon-hydrogen-nitro group", "O=N(O)[CH]", "O=N(O)[C-]"],
  ["-SO2NH2", "S(=O)(=O)[NH2]", "S(=O)(=O)[NH-]"],
  ["-OBO2H2", "OB([OH])[OH]", "OB([OH])[O-]"],
  ["-BO2H2", "[!O]B([OH])[OH]", "[!O]B([OH])[O-]"],
  ["phenol", "c[OH]", "c[O-]"],
  ["SH (aliphatic)", "C[SH]", "C[S-]"],
  ["(-OBO2H)-", "OB([O-])[OH]", "OB([O-])[O-]"],
  ["(-BO2H)-", "[!O]B([O-])[OH]", "[!O]B([O-])[O-]"],
  ["cyclopentadiene", "C1=CC=C[CH2]1", "c1ccc[cH-]1"],
  ["-CONH2", "C(=O)[NH2]", "C(=O)[NH-]"],
  ["imidazole", "c1cnc[nH]1", "c1cnc[n-]1"],
  ["-OH (aliphatic alcohol)", "[CX4][OH]", "[CX4][O-]"],
  ["alpha-carbon-hydrogen-keto group", "O=C([!O])[C!H0+0]", "O=C([!O])[C-]"],
  ["alpha-carbon-hydrogen-acetyl ester group", "OC(=O)[C!H0+0]", "OC(=O)[C-]"],
  ["sp carbon hydrogen", "C#[CH]", "C#[C-]"],
  ["alpha-carbon-hydrogen-sulfone group", "CS(=O)(=O)[C!H0+0]", "CS(=O)(=O)[C-]"],
  ["alpha-carbon-hydrogen-sulfoxide group", "C[SD3](=O)[C!H0+0]", "C[SD3](=O)[C-]"],
  ["-NH2", "[CX4][NH2]", "[CX4][NH-]"],
  ["benzyl hydrogen", "c[CX4H2]", "c[CX3H-]"],
  ["sp2-carbon hydrogen", "[CX3]=[CX3!H0+0]", "[CX3]=[CX2-]"],
  ["sp3-carbon hydrogen", "[CX4!H0+0]", "[CX3-]"],
];

// deno-fmt-ignore
/** RDKit's allowed valences by atomic number (index 0 is the dummy atom); -1 means any valence. */
export const VALENCES: readonly (readonly number[])[] = [
  [-1], [1], [0], [1], [2], [3], [4], [3], [2], [1],
  [0], [1], [2, -1], [3, 6], [4, 6], [3, 5, 7], [2, 4, 6], [1], [0], [1],
  [2, -1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
  [-1], [3], [4], [3, 5, 7], [2, 4, 6], [1], [0], [1], [2, -1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [3],
  [2, 4], [3, 5, 7], [2, 4, 6], [1, 3, 5], [0, 2, 4, 6], [1], [2, -1], [-1], [-1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
  [-1], [3], [2, 4], [3, 5, 7], [2, 4, 6], [1, 3, 5], [0], [1], [2, -1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
  [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1], [-1],
];
