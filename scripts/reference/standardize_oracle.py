#!/usr/bin/env python3
"""RDKit 2022.09's rdMolStandardize answers for the standardize tool's reference suite.

Molecules, each kept once (by input SMILES):
  * RDKit's own MolStandardize tests: every SMILES literal of the 2022.09 test sources (C++ and Python) that
    parses, read from a clone of RDKit's repository given as RDKIT_GIT (skipped when it is not set);
  * the NCI sample Debian's rdkit-data installs (Data/NCI/first_5K.smi: salts, metals, charged and nitro forms);
  * the validation set (tests/data/reference/molecules.smi).

Per molecule: Cleanup, FragmentParent, ChargeParent (each from the input, as RDKit's API runs them) and the
tautomer parent of the charge parent, as
canonical SMILES; an exception's message instead where RDKit raised one.

Usage (needs `apt-get install -y python3-rdkit rdkit-data`):
    RDKIT_GIT=/path/to/rdkit.git /usr/bin/python3 scripts/reference/standardize_oracle.py
"""
import datetime
import json
import os
import platform
import re
import subprocess
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem.MolStandardize import rdMolStandardize

from molecules import ROOT, records

RDLogger.DisableLog("rdApp.*")
OUT = os.path.join(ROOT, "tests", "data", "reference", "standardize.json")
NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi"
TAG = "Release_2022_09_3"
TEST_SOURCES = [
    "Code/GraphMol/MolStandardize/Wrap/testMolStandardize.py",
    "Code/GraphMol/MolStandardize/catch_tests.cpp",
    "Code/GraphMol/MolStandardize/test1.cpp",
    "Code/GraphMol/MolStandardize/testCharge.cpp",
    "Code/GraphMol/MolStandardize/testFragment.cpp",
    "Code/GraphMol/MolStandardize/testNormalize.cpp",
    "Code/GraphMol/MolStandardize/testTautomer.cpp",
    "rdkit/Chem/MolStandardize/UnitTestMolVS.py",
]
# A quoted string that could be a SMILES: no spaces, at least one atom letter.
LITERAL = re.compile(r'"([^"\s\\]{1,300})"' + "|" + r"'([^'\s\\]{1,300})'")


def rdkit_test_smiles():
    git = os.environ.get("RDKIT_GIT")
    if not git:
        return []
    found = []
    for path in TEST_SOURCES:
        text = subprocess.run(["git", "--git-dir=" + git, "show", f"{TAG}:{path}"], capture_output=True,
                              text=True).stdout
        for a, b in LITERAL.findall(text):
            literal = a or b
            if not re.search(r"[A-Za-z]", literal) or ">>" in literal or literal.endswith((".txt", ".in")):
                continue
            if Chem.MolFromSmiles(literal) is not None:
                found.append((literal, f"rdkit-test:{os.path.basename(path)}"))
    return found


def nci_smiles():
    with open(NCI) as handle:
        for line in handle:
            parts = line.split()
            if len(parts) >= 2:
                yield parts[0], f"NCI:{parts[1]}"


def answer(fn, mol):
    try:
        return Chem.MolToSmiles(fn(mol))
    except Exception as error:  # noqa: BLE001 (the fixture records what RDKit raised)
        return {"error": str(error)[:200]}


def tautomer_parent(mol):
    """The canonical tautomer of the charge parent, cleaned up (the four steps of the standardize tool)."""
    return rdMolStandardize.TautomerParent(rdMolStandardize.ChargeParent(mol), skipStandardize=True)


def main():
    seen = set()
    rows = []
    sources = rdkit_test_smiles() + list(nci_smiles()) + [(s, f"{src}:{i}") for s, i, src in records()]
    for smiles, ident in sources:
        if smiles in seen:
            continue
        seen.add(smiles)
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            continue
        rows.append({
            "id": ident,
            "smiles": smiles,
            "cleanup": answer(rdMolStandardize.Cleanup, mol),
            "fragment_parent": answer(rdMolStandardize.FragmentParent, mol),
            "charge_parent": answer(rdMolStandardize.ChargeParent, mol),
            "tautomer_parent": answer(tautomer_parent, mol),
        })
    provenance = {
        "script": "scripts/reference/standardize_oracle.py",
        "rdkit": rdBase.rdkitVersion,
        "python": platform.python_version(),
        "date": datetime.date.today().isoformat(),
        "molecules": "SMILES literals of RDKit 2022.09's MolStandardize tests that parse; Debian rdkit-data "
                     "Data/NCI/first_5K.smi; tests/data/reference/molecules.smi; each input once",
        "fields": {
            "cleanup": "Chem.MolToSmiles(rdMolStandardize.Cleanup(mol))",
            "fragment_parent": "Chem.MolToSmiles(rdMolStandardize.FragmentParent(mol))",
            "charge_parent": "Chem.MolToSmiles(rdMolStandardize.ChargeParent(mol))",
            "tautomer_parent": "Chem.MolToSmiles(rdMolStandardize.TautomerParent(rdMolStandardize.ChargeParent(mol), "
                               "skipStandardize=True)): TautomerEnumerator().Canonicalize then Cleanup",
        },
    }
    with open(OUT, "w") as handle:
        handle.write(json.dumps({"provenance": provenance}, separators=(",", ":"))[:-1])
        handle.write(',"molecules":[\n')
        handle.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in rows))
        handle.write("\n]}\n")
    print(f"{len(rows)} molecules -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
