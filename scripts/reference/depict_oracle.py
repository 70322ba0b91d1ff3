#!/usr/bin/env python3
"""RDKit's own highlight atoms and bonds for depict, written as a test fixture.

For 500 molecules of the validation set (tests/data/reference/molecules.smi, every molecule at position
floor(i * N / 500), so all three sources are sampled) and SMARTS patterns held out from smarts_match's fixture
(none of them is among oracle.py's SMARTS), writes tests/data/reference/depict_matches.json: per molecule and
pattern, RDKit's GetSubstructMatches and the bonds of each match, found the way RDKit's drawing examples
highlight a match (each query bond mapped through the match with GetBondBetweenAtoms).

Usage (needs `apt-get install -y python3-rdkit rdkit-data`):
    /usr/bin/python3 scripts/reference/depict_oracle.py
"""
import datetime
import json
import os
import sys

from rdkit import Chem, RDLogger, rdBase

from molecules import records

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DIR = os.path.join(ROOT, "tests", "data", "reference")
SCRIPT = "scripts/reference/depict_oracle.py"
COUNT = 500

# Aromatic rings (several matches, ring bonds), any C-N bond, hydroxyl, nitro in both forms (recursive SMARTS),
# ring heteroatoms, carbonyl with its neighbour (bond primitives), ring single bonds, heavy halogens.
SMARTS = [
    "c1ccccc1",
    "[#6]~[#7]",
    "[OX2H]",
    "[$([NX3](=O)=O),$([NX3+](=O)[O-])]",
    "[R;!#6]",
    "[#8]=[#6]-[#6,#7]",
    "*@;-*",
    "[Cl,Br,I]",
]


def bonds_of(mol, query, match):
    return sorted(
        mol.GetBondBetweenAtoms(match[b.GetBeginAtomIdx()], match[b.GetEndAtomIdx()]).GetIdx()
        for b in query.GetBonds()
    )


def main():
    rows = [(smiles, ident) for smiles, ident, _source in records()]
    picked = [rows[i * len(rows) // COUNT] for i in range(COUNT)]
    queries = [Chem.MolFromSmarts(s) for s in SMARTS]
    out = []
    for smiles, ident in picked:
        mol = Chem.MolFromSmiles(smiles)
        per_pattern = []
        for query in queries:
            matches = mol.GetSubstructMatches(query, uniquify=True, maxMatches=1000)
            per_pattern.append({
                "atoms": [list(m) for m in matches],
                "bonds": [bonds_of(mol, query, m) for m in matches],
            })
        out.append({"id": ident, "smiles": smiles, "smarts": per_pattern})
    provenance = {
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "script": SCRIPT,
        "molecules": f"tests/data/reference/molecules.smi, the molecule at position floor(i * N / {COUNT}) for "
                     f"i < {COUNT} (N molecules in the set)",
        "parse": "Chem.MolFromSmiles(smiles) (default sanitisation, hydrogens removed)",
        "smarts": SMARTS,
        "calls": {
            "atoms": "mol.GetSubstructMatches(Chem.MolFromSmarts(smarts), uniquify=True, maxMatches=1000), one list "
                     "per SMARTS in provenance.smarts order",
            "bonds": "per match, sorted mol.GetBondBetweenAtoms(match[b.GetBeginAtomIdx()], "
                     "match[b.GetEndAtomIdx()]).GetIdx() over the query's bonds b",
        },
    }
    path = os.path.join(DIR, "depict_matches.json")
    with open(path, "w") as handle:
        json.dump({"provenance": provenance, "molecules": out}, handle, separators=(",", ":"))
        handle.write("\n")
    print(f"depict_matches.json: {len(out)} molecules, {os.path.getsize(path) // 1024} KiB", file=sys.stderr)


if __name__ == "__main__":
    main()
