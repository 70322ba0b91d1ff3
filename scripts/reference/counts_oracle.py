#!/usr/bin/env python3
"""RDKit's molecular formula, ring count and topological distances for the validation set.

For each molecule of tests/data/reference/molecules.smi (scripts/reference/molecules.py):

  - formula and rings of the largest component by RDKit's LargestFragmentChooser (as scripts/reference/oracle.py
    chooses it), the component calc_properties describes: rdMolDescriptors.CalcMolFormula and CalcNumRings;
  - the topological distance (Chem.GetDistanceMatrix, bonds on a shortest path) between atom 0 and the last atom
    of the whole input, and between atom 0 and the atom in the middle, in the SMILES' atom order; null where the
    two atoms lie in different components (RDKit writes 1e8 there).

Output: tests/data/reference/counts.json. Run from the repository: /usr/bin/python3 scripts/reference/counts_oracle.py
(needs `apt-get install -y python3-rdkit`).
"""
import datetime
import os
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdMolDescriptors
from rdkit.Chem.MolStandardize import rdMolStandardize

from json_format import dumps
from molecules import ROOT, records

RDLogger.DisableLog("rdApp.*")
OUT = os.path.join(ROOT, "tests", "data", "reference", "counts.json")


def largest(mol):
    if len(Chem.GetMolFrags(mol)) == 1:
        return mol
    return rdMolStandardize.LargestFragmentChooser().choose(mol)


def distance(matrix, a, b):
    d = matrix[a][b]
    return None if d >= 1e7 else int(d)


def main():
    molecules = []
    for smiles, ident, _source in records():
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            continue
        parent = largest(mol)
        n = mol.GetNumAtoms()
        matrix = Chem.GetDistanceMatrix(mol)
        pairs = [[0, n - 1], [0, n // 2]]
        molecules.append({
            "id": ident,
            "smiles": smiles,
            "formula": rdMolDescriptors.CalcMolFormula(parent),
            "rings": rdMolDescriptors.CalcNumRings(parent),
            "distances": [[a, b, distance(matrix, a, b)] for a, b in pairs],
        })
    provenance = {
        "script": "scripts/reference/counts_oracle.py",
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.date.today().isoformat(),
        "calls": [
            "parent = rdMolStandardize.LargestFragmentChooser().choose(mol) when it has several components",
            "rdMolDescriptors.CalcMolFormula(parent), rdMolDescriptors.CalcNumRings(parent)",
            "Chem.GetDistanceMatrix(mol)[a][b] on the whole input, atoms in SMILES order; 1e8 (disconnected) as null",
        ],
    }
    with open(OUT, "w") as handle:
        handle.write(dumps({"provenance": provenance, "molecules": molecules}))
    print(f"{len(molecules)} molecules -> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
