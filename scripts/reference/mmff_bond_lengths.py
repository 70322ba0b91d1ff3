#!/usr/bin/env python3
"""MMFF94 reference bond lengths r0 for the rows of src/chem/conformer/bond_lengths.ts.

Each row of that table names a bond class (two atom environments and a bond order) and a representative molecule.
This script reads MMFF94's parameters for that bond of that molecule through RDKit (Halgren, J. Comput. Chem. 1996,
17, 490; RDKit carries MMFFBOND.PAR under its BSD licence):

    mh = Chem.AddHs(Chem.MolFromSmiles(smiles))
    props = AllChem.MMFFGetMoleculeProperties(mh)
    bond_type, kb, r0 = props.GetMMFFBondStretchParams(mh, i, j)

and writes tests/data/reference/mmff_bond_lengths.json; tests/unit/bond_lengths_test.ts checks the TypeScript table
against it row by row (value, and that generate_3d's typing puts the representative bond in that row). A value
with more than three decimals has no MMFFBOND.PAR entry and comes from MMFF94's empirical rule; it is marked
"rule" and rounded to 0.001 Å.

Atom indices are those of Chem.AddHs (heavy atoms in SMILES order); "H" means the first hydrogen on atom i.

Usage: /usr/bin/python3 scripts/reference/mmff_bond_lengths.py
"""
import datetime
import os

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import AllChem

import json_format

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "reference", "mmff_bond_lengths.json")

# (environment a, environment b, order, SMILES, atom i, atom j or "H")
ROWS = [
    ("C_R", "H_", "1", "c1ccccc1", 0, "H"),
    ("C_2", "H_", "1", "C=C", 0, "H"),
    ("C_1", "H_", "1", "C#C", 0, "H"),
    ("N_R", "H_HB", "1", "CC(=O)NC", 3, "H"),
    ("N_2", "H_HB", "1", "C=N", 1, "H"),
    ("C_3", "C_3", "1", "CC", 0, 1),
    ("C_3", "C_R", "1", "Cc1ccccc1", 0, 1),
    ("C_3", "C_2", "1", "CC(C)=O", 0, 1),
    ("C_3", "C_1", "1", "CC#C", 0, 1),
    ("C_2", "C_2", "1", "C=CC=O", 1, 2),
    ("C_2", "C_R", "1", "CC(=O)c1ccccc1", 1, 3),
    ("C_R", "C_R", "1", "c1ccccc1-c1ccccc1", 5, 6),
    ("C_1", "C_R", "1", "N#Cc1ccccc1", 1, 2),
    ("C_1", "C_2", "1", "C=CC#N", 1, 2),
    ("C_3", "N_R", "1", "CC(=O)NC", 3, 4),
    ("C_R", "N_R", "1", "Nc1ccccc1", 0, 1),
    ("C_2", "N_R", "1", "CC(=O)NC", 1, 3),
    ("C_3", "N_2", "1", "CN=C", 0, 1),
    ("C_R", "N_2", "1", "c1ccccc1N=Nc1ccccc1", 5, 6),
    ("C_2", "N_2", "1", "CC(=O)N=C", 1, 3),
    ("C_R", "N_2+", "1", "O=[N+]([O-])c1ccccc1", 1, 3),
    ("C_3", "N_2+", "1", "C[N+](=O)[O-]", 0, 1),
    ("C_R", "O_3", "1", "Oc1ccccc1", 0, 1),
    ("C_2", "O_3", "1", "CC(=O)O", 1, 3),
    ("C_R", "O_2", "2", "O=c1cccc[nH]1", 0, 1),
    ("C_2", "O", "res", "CC(=O)[O-]", 1, 3),
    ("N_R", "N_R", "ar", "c1cn[nH]c1", 2, 3),
    ("N_R", "N_R", "1", "CC(=O)NNC(C)=O", 3, 4),
    ("N_2", "N_R", "1", "CC=NNC(C)=O", 2, 3),
    ("N_3", "N_R", "1", "NNC(C)=O", 0, 1),
    ("N_3", "N_3", "1", "NN", 0, 1),
    ("N_2", "N_2", "2", "c1ccccc1N=Nc1ccccc1", 6, 7),
    ("N_2+", "O", "res", "C[N+](=O)[O-]", 1, 3),
    ("N_2", "O_3", "1", "CC(C)=NO", 3, 4),
    ("N_R", "O_R", "ar", "c1conc1", 2, 3),
    ("N_R", "O_3", "1", "CC(=O)NO", 3, 4),
    ("N_3", "O_3", "1", "CNO", 1, 2),
    ("O_3", "O_3", "1", "COOC", 1, 2),
    ("S_3(O2)", "O_2", "2", "CS(C)(=O)=O", 1, 3),
    ("S_3(O2)", "O", "res", "CS(=O)(=O)[O-]", 1, 4),
    ("S_3(O2)", "O_3", "1", "CS(=O)(=O)O", 1, 4),
    ("S_3(O2)", "N_3", "1", "CS(N)(=O)=O", 1, 2),
    ("S_3(O2)", "N_R", "1", "CS(=O)(=O)Nc1ccccc1", 1, 4),
    ("S_3(O2)", "C_R", "1", "CS(=O)(=O)c1ccccc1", 1, 4),
    ("S_3(O2)", "C_3", "1", "CS(=O)(=O)c1ccccc1", 0, 1),
    ("S_3(O2)", "Cl", "1", "ClS(C)(=O)=O", 0, 1),
    ("S_3", "S_3", "1", "CSSC", 1, 2),
    ("S_3", "S_3", "ar", "S=c1ccss1", 4, 5),
    ("S_3(O)", "O_2", "2", "CS(C)=O", 1, 3),
    ("S_3", "C_R", "1", "CSc1ccccc1", 1, 2),
    ("S_3", "C_2", "1", "CSC(C)=O", 1, 2),
    ("S_3", "C_2", "2", "CC(N)=S", 1, 3),
    ("S_3", "C_R", "2", "S=c1cccc[nH]1", 0, 1),
    ("P_3(O)", "O_2", "2", "COP(=O)(OC)OC", 2, 3),
    ("P_3(O)", "O", "res", "COP([O-])(=O)OC", 2, 3),
    ("P_3(O)", "O_3", "1", "COP(=O)(OC)OC", 1, 2),
    ("P_3(O)", "N_3", "1", "CNP(C)(C)=O", 1, 2),
    ("P_3(O)", "N_R", "1", "CP(C)(=O)Nc1ccccc1", 1, 4),
    ("P_3(O)", "C_3", "1", "CP(C)(C)=O", 0, 1),
    ("P_3(O)", "C_2", "1", "CC(=O)P(C)(C)=O", 1, 3),
    ("P_3(O)", "C_R", "1", "O=P(c1ccccc1)(c1ccccc1)c1ccccc1", 1, 2),
    ("P_3", "C_3", "1", "CP(C)C", 0, 1),
    ("P_3", "C_R", "1", "c1ccccc1P(c1ccccc1)c1ccccc1", 5, 6),
    ("Si3", "C_3", "1", "C[Si](C)(C)C", 0, 1),
    ("Si3", "O_3", "1", "C[Si](C)(C)OC", 1, 4),
    ("C_R", "F_", "1", "Fc1ccccc1", 0, 1),
    ("C_R", "Cl", "1", "Clc1ccccc1", 0, 1),
    ("C_2", "Cl", "1", "ClC=C", 0, 1),
    ("C_R", "Br", "1", "Brc1ccccc1", 0, 1),
    ("C_3", "Br", "1", "BrCC", 0, 1),
    ("C_R", "I_", "1", "Ic1ccccc1", 0, 1),
    ("C_3", "I_", "1", "ICC", 0, 1),
    ("Cl", "O_3-", "1", "[O-]Cl(=O)(=O)=O", 1, 2),
    ("Cl", "O_3", "1", "OCl(=O)(=O)=O", 0, 1),
    ("Cl", "N_3", "1", "CS(=O)(=O)N(Cl)Cl", 4, 5),
    ("I_", "O_3", "1", "COI", 1, 2),
]


def measure(smiles, i, j):
    mh = Chem.AddHs(Chem.MolFromSmiles(smiles))
    if j == "H":
        j = next(n.GetIdx() for n in mh.GetAtomWithIdx(i).GetNeighbors() if n.GetAtomicNum() == 1)
    props = AllChem.MMFFGetMoleculeProperties(mh)
    params = props.GetMMFFBondStretchParams(mh, i, j)
    if params is None:
        raise SystemExit(f"{smiles}: atoms {i} and {j} are not bonded")
    _bond_type, _kb, r0 = params
    rule = round(r0, 3) != r0
    types = [props.GetMMFFAtomType(i), props.GetMMFFAtomType(j)]
    return j, types, round(r0, 3), rule


def main():
    rows = []
    for a, b, order, smiles, i, j in ROWS:
        j, types, r0, rule = measure(smiles, i, j)
        rows.append({"atoms": [a, b], "order": order, "smiles": smiles, "bond": [i, j], "mmff_types": types,
                     "r0": r0, "rule": rule})
    document = {
        "provenance": {
            "script": "scripts/reference/mmff_bond_lengths.py",
            "rdkit": rdBase.rdkitVersion,
            "date": datetime.date.today().isoformat(),
            "calls": [
                "mh = Chem.AddHs(Chem.MolFromSmiles(smiles))",
                "AllChem.MMFFGetMoleculeProperties(mh).GetMMFFBondStretchParams(mh, i, j)  # (type, kb, r0)",
            ],
            "source": "MMFF94, T. A. Halgren, J. Comput. Chem. 1996, 17, 490-519 (MMFFBOND.PAR; rule: empirical rule)",
        },
        "rows": rows,
    }
    with open(OUT, "w") as handle:
        handle.write(json_format.dumps(document))
    print(f"{len(rows)} rows written to {os.path.relpath(OUT, ROOT)}")
    for r in rows:
        flag = " (empirical rule)" if r["rule"] else ""
        print(f"{r['atoms'][0]:>8} {r['atoms'][1]:<6} {r['order']:<4} {r['r0']:.3f}  MMFF {r['mmff_types']}  {r['smiles']}{flag}")


if __name__ == "__main__":
    main()
