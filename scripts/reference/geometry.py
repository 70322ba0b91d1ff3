#!/usr/bin/env python3
"""Reference 3D bond lengths and angles: RDKit ETKDG embedding + MMFF94 minimisation of every molecule generate_3d
accepts, with MMFF94's reference angle of every angle.

Molecules: the validation set (tests/data/reference/molecules.smi) and the drug set (tests/data/drugs50.ts, its
SMILES read from the TypeScript source). Each molecule is prepared as generate_3d prepares it: the whole SMILES
(salts and mixtures stay whole, every component is embedded), `Chem.AddHs(Chem.MolFromSmiles(smiles))`, so atom
indices are the tool's (heavy atoms in SMILES order, then hydrogens in the order AddHs adds them, which is what
MinimalLib's add_hs_in_place does too; tests/reference/generate_3d_test.ts checks the bond list atom by atom).

Left out and counted: molecules generate_3d refuses (more than 200 heavy atoms, an element without DREIDING
parameters), molecules MMFF94 has no parameters for (MMFFHasAllMoleculeParams), and molecules ETKDG cannot embed.

Calls, per molecule:
    mh = Chem.AddHs(Chem.MolFromSmiles(smiles))
    params = AllChem.ETKDGv3(); params.randomSeed = 42
    AllChem.EmbedMolecule(mh, params)          # retried once with params.useRandomCoords = True on failure
    AllChem.MMFFOptimizeMolecule(mh, maxIters=2000)

Output: tests/data/reference/geometry.json, per molecule its id, SMILES, atom count and bonds as
[begin atom, end atom, MMFF94 length in Å rounded to 0.001] and angles as [end atom, centre, end atom, MMFF94
angle in degrees rounded to 0.1, MMFF94 reference angle θ0 in degrees rounded to 0.01]; θ0 is MMFFANG.PAR's
value for the angle's MMFF94 atom and angle types (or MMFF94's empirical rule where the file has no entry), read with
    props = AllChem.MMFFGetMoleculeProperties(mh)
    props.GetMMFFAngleBendParams(mh, i, j, k)    # (angle type, ka, theta0)

Usage: /usr/bin/python3 scripts/reference/geometry.py  (needs `apt-get install -y python3-rdkit`)
"""
import datetime
import os
import re
import sys
import time

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import AllChem, rdMolTransforms

import json_format

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
VALIDATION = os.path.join(ROOT, "tests", "data", "reference", "molecules.smi")
DRUGS = os.path.join(ROOT, "tests", "data", "drugs50.ts")
OUT = os.path.join(ROOT, "tests", "data", "reference", "geometry.json")
SEED = 42
MAX_ITERS = 2000
# generate_3d's limits (src/chem/conformer/index.ts, src/chem/conformer/typing.ts).
MAX_HEAVY_ATOMS = 200
DREIDING_ELEMENTS = set(
    "H B C N O F Al Si P S Cl Ga Ge As Se Br In Sn Sb Te I Na Ca Fe Zn".split()
)


def validation_molecules():
    with open(VALIDATION) as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            smiles, ident, _source = line.rstrip("\n").split("\t")
            yield ident, smiles, "validation"


def drug_molecules():
    """Name and SMILES of each DRUGS50 entry; a SMILES may be split into "…" + "…" literals over lines."""
    text = open(DRUGS).read()
    body = text[text.index("export const DRUGS50"):]
    pattern = re.compile(r'name:\s*"([^"]+)",\s*smiles:\s*((?:"[^"]*"\s*\+?\s*)+)', re.S)
    for match in pattern.finditer(body):
        smiles = "".join(re.findall(r'"([^"]*)"', match.group(2)))
        yield match.group(1), smiles, "drugs"


def refusal(mol):
    """The reason generate_3d would refuse the molecule, or None."""
    if mol.GetNumHeavyAtoms() > MAX_HEAVY_ATOMS:
        return "more than 200 heavy atoms (MOLECULE_TOO_LARGE)"
    for atom in mol.GetAtoms():
        if atom.GetSymbol() not in DREIDING_ELEMENTS:
            return "element without DREIDING parameters (UNSUPPORTED_MOLECULE)"
    return None


def reference_geometry(smiles):
    """(bonds, converged) or a reason string."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return "RDKit 2022.09 cannot parse"
    reason = refusal(mol)
    if reason:
        return reason
    mh = Chem.AddHs(mol)
    if not AllChem.MMFFHasAllMoleculeParams(mh):
        return "no MMFF94 parameters"
    params = AllChem.ETKDGv3()
    params.randomSeed = SEED
    if AllChem.EmbedMolecule(mh, params) != 0:
        params.useRandomCoords = True
        if AllChem.EmbedMolecule(mh, params) != 0:
            return "ETKDG embedding failed"
    not_converged = AllChem.MMFFOptimizeMolecule(mh, maxIters=MAX_ITERS)
    conf = mh.GetConformer()
    props = AllChem.MMFFGetMoleculeProperties(mh)
    bonds = []
    for bond in mh.GetBonds():
        a, b = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        length = (conf.GetAtomPosition(a) - conf.GetAtomPosition(b)).Length()
        bonds.append([a, b, round(length, 3)])
    angles = []
    for atom in mh.GetAtoms():
        j = atom.GetIdx()
        neighbours = [n.GetIdx() for n in atom.GetNeighbors()]
        for p in range(len(neighbours)):
            for q in range(p + 1, len(neighbours)):
                i, k = neighbours[p], neighbours[q]
                theta = rdMolTransforms.GetAngleDeg(conf, i, j, k)
                _type, _ka, theta0 = props.GetMMFFAngleBendParams(mh, i, j, k)
                angles.append([i, j, k, round(theta, 1), round(theta0, 2)])
    return mh.GetNumAtoms(), bonds, angles, not_converged == 0


def main():
    started = time.time()
    molecules = []
    skipped = {}
    for ident, smiles, group in list(validation_molecules()) + list(drug_molecules()):
        result = reference_geometry(smiles)
        if isinstance(result, str):
            skipped.setdefault(result, []).append(ident)
            continue
        atoms, bonds, angles, converged = result
        entry = {"id": ident, "set": group, "smiles": smiles, "atoms": atoms, "bonds": bonds, "angles": angles}
        if not converged:
            entry["mmff_converged"] = False
        molecules.append(entry)
    document = {
        "provenance": {
            "script": "scripts/reference/geometry.py",
            "rdkit": rdBase.rdkitVersion,
            "python": sys.version.split()[0],
            "date": datetime.date.today().isoformat(),
            "calls": [
                "mh = Chem.AddHs(Chem.MolFromSmiles(smiles))",
                f"params = AllChem.ETKDGv3(); params.randomSeed = {SEED}",
                "AllChem.EmbedMolecule(mh, params)  # once more with params.useRandomCoords = True if it fails",
                f"AllChem.MMFFOptimizeMolecule(mh, maxIters={MAX_ITERS})",
            ],
            "force_field": "MMFF94 (Halgren, J. Comput. Chem. 1996, 17, 490-519) as implemented in RDKit",
            "embedding": "ETKDG v3 (Wang, Witek, Landrum & Riniker, J. Chem. Inf. Model. 2020, 60, 2044-2058)",
            "molecules": "tests/data/reference/molecules.smi (validation) and tests/data/drugs50.ts (drugs)",
            "bond": "[begin atom, end atom, length in Å rounded to 0.001]; atom indices of Chem.AddHs order",
            "angle": "[end atom, centre, end atom, angle in degrees rounded to 0.1, MMFF94 reference angle theta0 "
            "rounded to 0.01 from props.GetMMFFAngleBendParams(mh, i, j, k) with "
            "props = AllChem.MMFFGetMoleculeProperties(mh)]",
            "seconds": round(time.time() - started, 1),
        },
        "skipped": {reason: ids for reason, ids in sorted(skipped.items())},
        "molecules": molecules,
    }
    with open(OUT, "w") as handle:
        handle.write(json_format.dumps(document))
    counts = ", ".join(f"{reason}: {len(ids)}" for reason, ids in sorted(skipped.items()))
    print(f"{len(molecules)} molecules written to {os.path.relpath(OUT, ROOT)}; skipped: {counts or 'none'}")


if __name__ == "__main__":
    main()
