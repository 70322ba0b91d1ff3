#!/usr/bin/env python3
"""Selects the validation set: molecules the project did not choose, from sources whose licence allows shipping.

Sources (all as distributed in Debian's rdkit-data 202209.3, BSD-3-Clause packaging):
  - NCI Open Database, first 5,000 structures (RDKit Data/NCI/first_5K.smi); a US government work, public domain.
  - PubChem, 200 compounds (RDKit Projects/DbCLI/testData/pubchem.200.sdf); PubChem data is public domain.
  - ChEMBL 24, a random sample of 100 structures (RDKit Contrib/NIBRSubstructureFilters/examples/
    chembl24_structs_randomtestSample_100.csv); ChEMBL data is CC BY-SA 3.0 (attribution in docs/data/validation_set.md).

The selection is deterministic: every NCI structure with a sulfonamide, a macrocycle (ring of 12 or more atoms), a
salt or mixture, a biaryl bond or a formal charge is kept (these are the classes a reference comparison must cover),
then every k-th remaining NCI structure until 1,000 NCI structures are chosen; all PubChem and ChEMBL structures are
kept. Structures RDKit cannot parse are dropped (and counted). Output: tests/data/reference/molecules.smi, tab
separated `smiles id source`, with a header comment.

Usage: /usr/bin/python3 scripts/reference/select_molecules.py  (needs `apt-get install -y python3-rdkit rdkit-data`)
"""
import csv
import os
import sys

from rdkit import Chem, RDLogger, rdBase

RDLogger.DisableLog("rdApp.*")
DATA = "/usr/share/RDKit"
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "reference", "molecules.smi")
NCI_TARGET = 1000

SULFONAMIDE = Chem.MolFromSmarts("S(=O)(=O)N")
BIARYL = Chem.MolFromSmarts("a-!@a")


def special(smiles, mol):
    return (
        "." in smiles
        or mol.HasSubstructMatch(SULFONAMIDE)
        or mol.HasSubstructMatch(BIARYL)
        or any(len(ring) >= 12 for ring in mol.GetRingInfo().AtomRings())
        or any(atom.GetFormalCharge() != 0 for atom in mol.GetAtoms())
    )


def nci():
    rows = []
    with open(f"{DATA}/Data/NCI/first_5K.smi") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) < 2:
                continue
            mol = Chem.MolFromSmiles(parts[0])
            if mol is not None and mol.GetNumAtoms() > 0:
                rows.append((parts[0], f"NCI-{parts[1]}", special(parts[0], mol)))
    kept = [r for r in rows if r[2]]
    rest = [r for r in rows if not r[2]]
    need = max(0, NCI_TARGET - len(kept))
    step = max(1, len(rest) // need) if need else len(rest) + 1
    chosen = set(r[1] for r in kept) | set(r[1] for r in rest[::step][:need])
    return [(s, i, "nci") for s, i, _ in rows if i in chosen]


def pubchem():
    out = []
    for mol in Chem.SDMolSupplier(f"{DATA}/Projects/DbCLI/testData/pubchem.200.sdf"):
        if mol is None:
            continue
        out.append((Chem.MolToSmiles(mol), f"CID-{mol.GetProp('_Name').strip()}", "pubchem"))
    return out


def chembl():
    out = []
    path = f"{DATA}/Contrib/NIBRSubstructureFilters/examples/chembl24_structs_randomtestSample_100.csv"
    with open(path) as handle:
        for row in csv.DictReader(handle):
            if Chem.MolFromSmiles(row["smiles"]) is not None:
                out.append((row["smiles"], row["chemblid"], "chembl24"))
    return out


def main():
    molecules = nci() + pubchem() + chembl()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as handle:
        handle.write(f"# chem-mcp validation set: {len(molecules)} molecules; made by scripts/reference/select_molecules.py\n")
        handle.write(f"# with RDKit {rdBase.rdkitVersion}; sources and licences in docs/data/validation_set.md\n")
        for smiles, ident, source in molecules:
            handle.write(f"{smiles}\t{ident}\t{source}\n")
    print(f"{len(molecules)} molecules -> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
