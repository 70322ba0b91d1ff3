#!/usr/bin/env python3
"""RDKit's answers for library_search on the two test libraries (tests/data/library/).

nci400.smi is the first 400 lines of RDKit's Data/NCI/first_5K.smi, bzr40.sdf the first 40 records of
Projects/DbCLI/testData/bzr.sdf (both BSD-licensed RDKit data). For each library: the ids of the records RDKit
reads, in file order; for each query, the ten best by Tanimoto on Morgan radius 2, 2048 bits
(DataStructs.BulkTanimotoSimilarity, ties by file position) and how many score at least 0.3; for each SMARTS,
the number of molecules SubstructMatch matches and the first ten of them.

Usage: /usr/bin/python3 scripts/reference/library_oracle.py   (writes tests/data/reference/library.json)
"""
import datetime
import os

from rdkit import Chem, DataStructs, RDLogger, rdBase
from rdkit.Chem import AllChem

from json_format import dumps

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
QUERIES = ["c1ccccc1O", "CC(=O)Nc1ccc(O)cc1", "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21", "O=C(O)c1ccccc1", "CCCCCC"]
SMARTS = ["c1ccccc1", "[OX2H]", "C(=O)N", "c1ccc2ccccc2c1", "[#7;R]", "[Cl,Br,I]", "[r5]", "[$(C(=O)[OH])]"]


def smiles_records(path):
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 1)
            ident = parts[1].strip() if len(parts) > 1 else f"line {number}"
            yield Chem.MolFromSmiles(parts[0]), ident


def sd_records(path, field):
    for mol in Chem.ForwardSDMolSupplier(path):
        if mol is None:
            yield None, None
        else:
            yield mol, mol.GetProp(field).strip() if field and mol.HasProp(field) else mol.GetProp("_Name")


def answers(records):
    mols, ids = [], []
    for mol, ident in records:
        if mol is not None:
            mols.append(mol)
            ids.append(ident)
    fps = [AllChem.GetMorganFingerprintAsBitVect(m, 2, nBits=2048) for m in mols]
    similarity = []
    for query in QUERIES:
        scores = DataStructs.BulkTanimotoSimilarity(
            AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(query), 2, nBits=2048), fps)
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        similarity.append({
            "query": query,
            "top10": [{"id": ids[i], "score": scores[i]} for i in order[:10]],
            "at_least_0_3": sum(1 for s in scores if s >= 0.3),
        })
    substructure = []
    for smarts in SMARTS:
        pattern = Chem.MolFromSmarts(smarts)
        hits = [i for i, m in enumerate(mols) if m.HasSubstructMatch(pattern)]
        substructure.append({"smarts": smarts, "count": len(hits), "first10": [ids[i] for i in hits[:10]]})
    return {"ids": ids, "similarity": similarity, "substructure": substructure}


def main():
    nci = os.path.join(ROOT, "tests", "data", "library", "nci400.smi")
    bzr = os.path.join(ROOT, "tests", "data", "library", "bzr40.sdf")
    fixture = {
        "provenance": {
            "rdkit": rdBase.rdkitVersion,
            "date": datetime.date.today().isoformat(),
            "script": "scripts/reference/library_oracle.py",
            "fingerprint": "AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)",
            "similarity": "DataStructs.BulkTanimotoSimilarity, sorted by score descending then file position",
            "substructure": "mol.HasSubstructMatch(Chem.MolFromSmarts(smarts))",
        },
        "nci400.smi": answers(smiles_records(nci)),
        "bzr40.sdf": answers(sd_records(bzr, None)),
        "bzr40.sdf#ACTIVITY": {"ids": [i for _, i in sd_records(bzr, "ACTIVITY") if i is not None]},
    }
    with open(os.path.join(ROOT, "tests", "data", "reference", "library.json"), "w") as handle:
        handle.write(dumps(fixture) + "\n")


main()
