#!/usr/bin/env python3
"""MMFF94's minimum reached from generate_3d's own structure: separates an angle error from a conformation that
differs from the one ETKDG conformer of tests/data/reference/geometry.json.

geometry.json compares generate_3d with RDKit's ETKDG + MMFF94 structure, one conformer per molecule. Where our
structure sits in another local minimum (another ring pucker, another rotamer), some angles differ although
neither force field is wrong about them. This oracle starts MMFF94 from our coordinates instead: the same
molecule, atom order and minimiser settings as geometry.py, but the conformer is generate_3d's. An angle that
stays where generate_3d put it belongs to our conformation; what MMFF94 still moves is our force field's error.

Input: the SD file scripts/sdf_records.ts writes (generate_3d's format 'sdf' for every molecule of geometry.json;
the data item `id` names the molecule, `set` its group; records of other ids or of other groups are ignored: a
few molecules of the stereo set share a drug's name but are written in another atom order).

Per molecule of geometry.json:
    mh = Chem.AddHs(Chem.MolFromSmiles(smiles))          # geometry.py's molecule and atom order
    conf = mh's conformer with the SD record's coordinates (the record's atoms are in the same order; checked
           element by element)
    AllChem.MMFFOptimizeMolecule(mh, maxIters=2000)
    energies: AllChem.MMFFGetMoleculeForceField(mh, props).CalcEnergy() at that minimum, and at the minimum of
              geometry.py's ETKDG conformer (EmbedMolecule with ETKDGv3, randomSeed 42, then the same
              minimisation), kcal/mol

Output: tests/data/reference/geometry_relaxed.json, per molecule its id, `input` (generate_3d's angle of every
angle of geometry.json, same order, degrees to 0.1 in one space-separated string: what was relaxed), `relaxed`
(MMFF94's angles after the minimisation, likewise), `energy` [MMFF94 energy from our structure, from ETKDG's] and `moved` (RMS
displacement of the heavy atoms after optimal superposition, Å).

Usage: npx deno run -A scripts/sdf_records.ts /tmp/generate_3d.sdf
       /usr/bin/python3 scripts/reference/geometry_relaxed.py /tmp/generate_3d.sdf
"""
import datetime
import json
import os
import sys
import time

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import AllChem, rdMolAlign, rdMolTransforms
from rdkit.Geometry import Point3D

import json_format

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GEOMETRY = os.path.join(ROOT, "tests", "data", "reference", "geometry.json")
OUT = os.path.join(ROOT, "tests", "data", "reference", "geometry_relaxed.json")
SEED = 42
MAX_ITERS = 2000


def records(path):
    """id → (elements, coordinates) of every non-empty record."""
    out = {}
    for mol in Chem.SDMolSupplier(path, removeHs=False, sanitize=False):
        if mol is None or not mol.HasProp("id") or mol.GetNumAtoms() == 0:
            continue
        if mol.HasProp("set") and mol.GetProp("set") not in ("validation", "drugs"):
            continue
        conf = mol.GetConformer()
        out[mol.GetProp("id")] = (
            [a.GetSymbol() for a in mol.GetAtoms()],
            [tuple(conf.GetAtomPosition(i)) for i in range(mol.GetNumAtoms())],
        )
    return out


def energy(mh):
    props = AllChem.MMFFGetMoleculeProperties(mh)
    return AllChem.MMFFGetMoleculeForceField(mh, props).CalcEnergy()


def angle_list(mh, angles):
    conf = mh.GetConformer()
    return " ".join(f"{rdMolTransforms.GetAngleDeg(conf, i, j, k):.1f}" for i, j, k, *_ in angles)


def relax(entry, record):
    """The fixture entry of one molecule, or a reason string."""
    mh = Chem.AddHs(Chem.MolFromSmiles(entry["smiles"]))
    elements, xyz = record
    if [a.GetSymbol() for a in mh.GetAtoms()] != elements:
        return "atom order differs from Chem.AddHs"
    conf = Chem.Conformer(mh.GetNumAtoms())
    for i, (x, y, z) in enumerate(xyz):
        conf.SetAtomPosition(i, Point3D(x, y, z))
    conf.Set3D(True)
    mh.AddConformer(conf, assignId=True)
    before = Chem.Mol(mh)
    given = angle_list(mh, entry["angles"])
    AllChem.MMFFOptimizeMolecule(mh, maxIters=MAX_ITERS)
    relaxed = angle_list(mh, entry["angles"])
    heavy = [a.GetIdx() for a in mh.GetAtoms() if a.GetAtomicNum() > 1]
    moved = rdMolAlign.AlignMol(Chem.Mol(before), mh, atomMap=[(i, i) for i in heavy])
    ours = energy(mh)
    ref = Chem.AddHs(Chem.MolFromSmiles(entry["smiles"]))
    params = AllChem.ETKDGv3()
    params.randomSeed = SEED
    if AllChem.EmbedMolecule(ref, params) != 0:
        params.useRandomCoords = True
        AllChem.EmbedMolecule(ref, params)
    AllChem.MMFFOptimizeMolecule(ref, maxIters=MAX_ITERS)
    return {
        "id": entry["id"],
        "energy": [round(ours, 2), round(energy(ref), 2)],
        "moved": round(moved, 3),
        "input": given,
        "relaxed": relaxed,
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: geometry_relaxed.py <generate_3d.sdf>")
    started = time.time()
    ours = records(sys.argv[1])
    with open(GEOMETRY) as handle:
        geometry = json.load(handle)
    molecules = []
    skipped = {}
    for entry in geometry["molecules"]:
        record = ours.get(entry["id"])
        result = relax(entry, record) if record else "generate_3d gave no structure"
        if isinstance(result, str):
            skipped.setdefault(result, []).append(entry["id"])
            continue
        molecules.append(result)
    document = {
        "provenance": {
            "script": "scripts/reference/geometry_relaxed.py",
            "rdkit": rdBase.rdkitVersion,
            "python": sys.version.split()[0],
            "date": datetime.date.today().isoformat(),
            "input": "generate_3d's SD records (scripts/sdf_records.ts) of the molecules of geometry.json",
            "calls": [
                "mh = Chem.AddHs(Chem.MolFromSmiles(smiles)); conformer = generate_3d's coordinates, same atom order",
                f"AllChem.MMFFOptimizeMolecule(mh, maxIters={MAX_ITERS})",
                "AllChem.MMFFGetMoleculeForceField(mh, AllChem.MMFFGetMoleculeProperties(mh)).CalcEnergy()",
                "rdMolAlign.AlignMol(before, after, atomMap=heavy atoms)  # 'moved'",
            ],
            "force_field": "MMFF94 (Halgren, J. Comput. Chem. 1996, 17, 490-519) as implemented in RDKit",
            "angle": "geometry.json's angles in its order, degrees to 0.1, one space-separated string per "
            "molecule: 'input' generate_3d's, 'relaxed' after MMFF94 minimisation from it",
            "energy": "[MMFF94 kcal/mol of the minimum from generate_3d's structure, of the minimum from "
            f"ETKDGv3 randomSeed {SEED} as in geometry.py]",
            "seconds": round(time.time() - started, 1),
        },
        "skipped": {reason: ids for reason, ids in sorted(skipped.items())},
        "molecules": molecules,
    }
    with open(OUT, "w") as handle:
        handle.write(json_format.dumps(document))
    print(f"{len(molecules)} molecules written to {os.path.relpath(OUT, ROOT)}; skipped: "
          + (", ".join(f"{r}: {len(ids)}" for r, ids in skipped.items()) or "none"))


if __name__ == "__main__":
    main()
