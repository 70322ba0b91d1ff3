"""The validation set (tests/data/reference/molecules.smi) as every oracle script reads it.

Imported by the scripts beside it (Python puts a script's own folder first on its path).
"""
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SET = os.path.join(ROOT, "tests", "data", "reference", "molecules.smi")


def records():
    """(smiles, id, source) of every molecule, in file order; comment and blank lines are skipped."""
    with open(SET) as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                smiles, ident, source = line.rstrip("\n").split("\t")
                yield smiles, ident, source


def refused_by_newer_rdkit(mol):
    """Al, Si or P with six or more bonds: RDKit 2024.09 and later refuse them (tests/reference/known.ts)."""
    return any(a.GetAtomicNum() in (13, 14, 15) and a.GetDegree() >= 6 for a in mol.GetAtoms())
