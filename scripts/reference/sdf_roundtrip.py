#!/usr/bin/env python3
"""RDKit's Python reads generate_3d's SDF records back: same connectivity, charges, radicals, hydrogens and stereo
as the SMILES.

Input: the SD file scripts/sdf_records.ts writes (generate_3d's format 'sdf' for every molecule of
tests/data/reference/geometry.json, every molecule of tests/data/reference/stereo_orders.json as written and in
each of its atom orders; the record's title is the SMILES, its data items `id` the molecule and `set` its group).

Per record:
    given = Chem.MolFromSmiles(title)
    mol = next(Chem.SDMolSupplier(path, removeHs=False))     # sanitised; hydrogens kept, then removed:
    back = Chem.RemoveHs(mol, params); Chem.AssignStereochemistryFrom3D(back)   # params.removeDefiningBondStereo
    connectivity: Chem.MolToSmiles(back, isomericSmiles=False) == Chem.MolToSmiles(given, isomericSmiles=False)
                  and the same bonded atom pairs with the same bond types, atom by atom
    charges:      the formal charge of every atom
    radicals:     GetNumRadicalElectrons() of every atom
    hydrogens:    GetTotalNumHs() of every heavy atom (RDKit adds hydrogens to an atom it thinks short of valence)
    stereo:       Chem.MolToSmiles(back) == Chem.MolToSmiles(given) once the stereo the SMILES leaves open
                  is cleared in `back` (a 3D structure gives every centre a hand)

Output: tests/data/reference/sdf_roundtrip.json.
Usage: npx deno run -A scripts/sdf_records.ts /tmp/generate_3d.sdf
       /usr/bin/python3 scripts/reference/sdf_roundtrip.py /tmp/generate_3d.sdf
"""
import datetime
import os
import sys

from rdkit import Chem, RDLogger, rdBase

import json_format

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "reference", "sdf_roundtrip.json")


def bonds(mol):
    return sorted((min(b.GetBeginAtomIdx(), b.GetEndAtomIdx()), max(b.GetBeginAtomIdx(), b.GetEndAtomIdx()),
                   str(b.GetBondType())) for b in mol.GetBonds())


def remove_hs(mol):
    """Every hydrogen removed, including one that fixes an imine's E/Z (the SMILES has none of them)."""
    params = Chem.RemoveHsParameters()
    params.removeDefiningBondStereo = True
    return Chem.RemoveHs(mol, params)


def compare(given, mol):
    back = remove_hs(mol)
    Chem.AssignStereochemistryFrom3D(back)
    if back.GetNumAtoms() != given.GetNumAtoms():
        return {"connectivity": False, "charges": False, "radicals": False, "hydrogens": False, "stereo": False}
    for atom, ref in zip(back.GetAtoms(), given.GetAtoms()):
        if ref.GetChiralTag() == Chem.ChiralType.CHI_UNSPECIFIED:
            atom.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for bond, ref in zip(back.GetBonds(), given.GetBonds()):
        if ref.GetStereo() == Chem.BondStereo.STEREONONE:
            bond.SetStereo(Chem.BondStereo.STEREONONE)
        # Directions on single bonds, set for every double bond the 3D structure fixes, would otherwise be
        # written as / and \ for the cleared ones too; the writer sets them again from the stereo left.
        if bond.GetBondType() == Chem.BondType.SINGLE:
            bond.SetBondDir(Chem.BondDir.NONE)
    return {
        "connectivity": bonds(back) == bonds(given)
        and Chem.MolToSmiles(back, isomericSmiles=False) == Chem.MolToSmiles(given, isomericSmiles=False),
        "charges": [a.GetFormalCharge() for a in back.GetAtoms()] == [a.GetFormalCharge() for a in given.GetAtoms()],
        "radicals": [a.GetNumRadicalElectrons() for a in back.GetAtoms()]
        == [a.GetNumRadicalElectrons() for a in given.GetAtoms()],
        "hydrogens": [a.GetTotalNumHs() for a in back.GetAtoms()] == [a.GetTotalNumHs() for a in given.GetAtoms()],
        "stereo": Chem.MolToSmiles(back) == Chem.MolToSmiles(given),
    }


def main():
    path = sys.argv[1]
    records = []
    for mol in Chem.SDMolSupplier(path, removeHs=False, sanitize=False):
        ident = mol.GetProp("id")
        smiles = mol.GetProp("_Name")
        entry = {"id": ident, "set": mol.GetProp("set"), "smiles": smiles}
        if mol.HasProp("error"):
            entry["error"] = mol.GetProp("error")
        else:
            Chem.SanitizeMol(mol)
            entry.update(compare(Chem.MolFromSmiles(smiles), mol))
        records.append(entry)
    fields = ("connectivity", "charges", "radicals", "hydrogens", "stereo")
    agreed = sum(1 for r in records if all(r.get(field) for field in fields))
    document = {
        "provenance": {
            "script": "scripts/reference/sdf_roundtrip.py",
            "rdkit": rdBase.rdkitVersion,
            "python": sys.version.split()[0],
            "date": datetime.date.today().isoformat(),
            "records": "scripts/sdf_records.ts: generate_3d format 'sdf' of tests/data/reference/geometry.json, of "
            "tests/data/reference/stereo_orders.json's molecules as written and of every one of their orders",
            "calls": [
                "given = Chem.MolFromSmiles(title)",
                "mol = Chem.SDMolSupplier(path, removeHs=False, sanitize=False); Chem.SanitizeMol(mol)",
                "params = Chem.RemoveHsParameters(); params.removeDefiningBondStereo = True",
                "back = Chem.RemoveHs(mol, params); Chem.AssignStereochemistryFrom3D(back)",
                "connectivity: same bonded pairs and bond types, and Chem.MolToSmiles(back, isomericSmiles=False) "
                "equal",
                "charges: GetFormalCharge() of every atom equal",
                "radicals: GetNumRadicalElectrons() of every atom equal",
                "hydrogens: GetTotalNumHs() of every atom of back and given equal",
                "stereo: Chem.MolToSmiles(back) == Chem.MolToSmiles(given) after clearing stereo the SMILES leaves "
                "open",
            ],
        },
        "records": records,
    }
    with open(OUT, "w") as handle:
        handle.write(json_format.dumps(document))
    print(f"{len(records)} records, {agreed} agree in connectivity, charges, radicals, hydrogens and stereo; "
          f"written to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
