#!/usr/bin/env python3
"""RDKit's R-group decompositions and Free-Wilson fits of held-out series, for rgroup_decompose.

Series (all shipped by Debian's rdkit-data, RDKit's BSD-3-Clause licence, LICENSES/RDKit-BSD-3-Clause.txt):

  - CHEMBL2321810: 1,017 molecules, their activities and scaffold (Contrib/FreeWilson/data; the scaffold's MOL
    block with its R labels, written as SMILES by Chem.MolToSmiles, is the core both sides use);
  - cdk2: 47 CDK2 ligands (Contrib/Fastcluster/cdk2.smi) on the purine core;
  - bzr: 10 benzodiazepines (Projects/DbCLI/testData/bzr.smi) on the 5-phenyl-1,4-benzodiazepine ring;
  - fraggle: 100 ChEMBL actives of target 11265 (Contrib/fraggle/data/ChEMBL_11265_actives.smi) on benzene, a
    symmetric core most of them match several ways.

For each: rdRGroupDecomposition.RGroupDecompose(cores, mols, asSmiles=True, asRows=True), default parameters.
For CHEMBL2321810 also the Free-Wilson fits of its activities:

  - ridge: Contrib/FreeWilson/freewilson.py FWDecompose(scaffold, mols, scores) as shipped (scikit-learn
    Ridge(alpha=1) on the substituent indicators), its intercept, contributions and R^2; the script checks that
    FWDecompose's table (it keeps hydrogens) is the default decomposition's once hydrogens are removed, and that
    Ridge on the default table's indicators gives FWDecompose's numbers;
  - ols: numpy.linalg.lstsq (minimum norm) of [1 | indicators] against the activities.

Indicators: one per distinct SMILES of each column (the Core column included, as FWDecompose does), columns in
RDKit's order, substituents in order of first appearance.

Output: tests/data/reference/rgroup.json. Run from the repository: /usr/bin/python3 scripts/reference/rgroup_oracle.py
(needs `apt-get install -y python3-rdkit rdkit-data python3-sklearn`; freewilson.py imports tqdm, which a stub
stands in for when it is absent).
"""
import csv
import datetime
import json
import os
import sys
import types

import numpy as np
from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdRGroupDecomposition as rgd
from sklearn.linear_model import Ridge

from molecules import ROOT

RDLogger.DisableLog("rdApp.*")
OUT = os.path.join(ROOT, "tests", "data", "reference", "rgroup.json")
SHARE = "/usr/share/RDKit"
FW = os.path.join(SHARE, "Contrib", "FreeWilson")

try:
    import tqdm  # noqa: F401
except ImportError:
    sys.modules["tqdm"] = types.SimpleNamespace(tqdm=lambda x, *a, **k: x)
sys.path.insert(0, FW)
from freewilson import FWDecompose  # noqa: E402


def read_smi(path, smiles_first=True):
    out = []
    for line in open(path):
        parts = line.split()
        if parts:
            out.append(parts[0] if smiles_first else parts[1])
    return out


def decompose(cores, smiles):
    mols = [Chem.MolFromSmiles(s) for s in smiles]
    rows, unmatched = rgd.RGroupDecompose([Chem.MolFromSmiles(c) for c in cores], mols, asSmiles=True, asRows=True)
    columns = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    matched = [i for i in range(len(smiles)) if i not in set(unmatched)]
    return {
        "columns": columns,
        "rows": [[i] + [row.get(c) for c in columns] for i, row in zip(matched, rows)],
        "unmatched": list(unmatched),
    }


def indicators(table):
    columns = table["columns"]
    features = []
    for c in range(len(columns)):
        for row in table["rows"]:
            key = (c, row[c + 1])
            if row[c + 1] is not None and key not in features:
                features.append(key)
    x = np.array([[1.0 if row[c + 1] == s else 0.0 for c, s in features] for row in table["rows"]])
    return features, x


def contributions(columns, features, coefficients):
    out = {}
    for (c, s), value in zip(features, coefficients):
        out.setdefault(columns[c], {})[s] = float(value)
    return out


def r2(y, fitted):
    return float(1 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2))


def free_wilson(table, values, scaffold, mols):
    features, x = indicators(table)
    y = np.array([values[row[0]] for row in table["rows"]])
    lm = Ridge(alpha=1.0).fit(x, y)
    a = np.hstack([np.ones((len(y), 1)), x])
    ols = np.linalg.lstsq(a, y, rcond=None)[0]
    fw = FWDecompose(scaffold, mols, values)
    # FWDecompose keeps hydrogens; with them removed its table must be the default one, and its fit Ridge's.
    plain = lambda s: Chem.MolToSmiles(Chem.MolFromSmiles(s))
    fw_rows = [{k: plain(v) for k, v in r.items() if k not in ("original_idx", "molecule")} for r in fw.row_decomposition]
    ours = [dict(zip(table["columns"], row[1:])) for row in table["rows"]]
    assert fw_rows == ours, "FWDecompose's table differs from the default decomposition"
    fw_coef = {(k, plain(g.smiles)): g.coefficient for k, groups in fw.rgroups.items() for g in groups}
    mine = contributions(table["columns"], features, lm.coef_)
    worst = max(abs(fw_coef[(k, s)] - v) for k, d in mine.items() for s, v in d.items())
    assert worst < 1e-9 and abs(fw.r2 - r2(y, lm.predict(x))) < 1e-12, "Ridge differs from FWDecompose"
    return {
        "ridge": {"alpha": 1.0, "intercept": float(lm.intercept_), "r2": float(fw.r2), "contributions": mine},
        "ols": {"intercept": float(ols[0]), "r2": r2(y, a @ ols), "contributions": contributions(table["columns"], features, ols[1:])},
    }


def main():
    data = os.path.join(FW, "data")
    names = read_smi(os.path.join(data, "CHEMBL2321810.smi"), smiles_first=False)
    chembl = read_smi(os.path.join(data, "CHEMBL2321810.smi"))
    activity = {k: float(v) for k, v in list(csv.reader(open(os.path.join(data, "CHEMBL2321810_act.csv"))))[1:]}
    values = [activity[n] for n in names]
    scaffold = Chem.MolFromMolBlock(open(os.path.join(data, "CHEMBL2321810_scaffold.mol")).read())
    cdk2 = [line.split()[1] for line in open(os.path.join(SHARE, "Contrib", "Fastcluster", "cdk2.smi")) if line.strip()]
    series = [
        {"name": "CHEMBL2321810", "source": "Contrib/FreeWilson/data", "cores": [Chem.MolToSmiles(scaffold)],
         "smiles": chembl, "values": values},
        {"name": "cdk2", "source": "Contrib/Fastcluster/cdk2.smi", "cores": ["c1ncc2nc[nH]c2n1"], "smiles": cdk2},
        {"name": "bzr", "source": "Projects/DbCLI/testData/bzr.smi", "cores": ["C1CN=C(c2ccccc2)c2ccccc2N1"],
         "smiles": read_smi(os.path.join(SHARE, "Projects", "DbCLI", "testData", "bzr.smi"))},
        {"name": "fraggle", "source": "Contrib/fraggle/data/ChEMBL_11265_actives.smi", "cores": ["c1ccccc1"],
         "smiles": read_smi(os.path.join(SHARE, "Contrib", "fraggle", "data", "ChEMBL_11265_actives.smi"))},
    ]
    for s in series:
        s.update(decompose(s["cores"], s["smiles"]))
        if "values" in s:
            mols = [Chem.MolFromSmiles(m) for m in s["smiles"]]
            s["fit"] = free_wilson(s, s["values"], scaffold, mols)
        print(f"{s['name']}: {len(s['rows'])} rows, {len(s['unmatched'])} unmatched, columns {s['columns']}",
              file=sys.stderr)
    provenance = {
        "script": "scripts/reference/rgroup_oracle.py",
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "date": datetime.date.today().isoformat(),
        "calls": [
            "rdRGroupDecomposition.RGroupDecompose([Chem.MolFromSmiles(core)], mols, asSmiles=True, asRows=True)",
            "ridge: Contrib/FreeWilson/freewilson.py FWDecompose(scaffold, mols, scores) (sklearn Ridge(alpha=1))",
            "ols: numpy.linalg.lstsq([1 | indicators], values, rcond=None)",
        ],
    }
    with open(OUT, "w") as handle:
        handle.write('{"provenance": ' + json.dumps(provenance) + ',\n"series": [\n')
        handle.write(",\n".join(json.dumps(s, separators=(",", ":")) for s in series))
        handle.write("\n]}\n")


if __name__ == "__main__":
    main()
