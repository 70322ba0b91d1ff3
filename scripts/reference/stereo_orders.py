#!/usr/bin/env python3
"""Stereo molecules in several atom orders, for the property test of generate_3d (tests/reference/stereo_orders_test.ts).

Molecules: every molecule of the validation set (tests/data/reference/molecules.smi) that has a specified
tetrahedral centre or E/Z double bond: first those RDKit's ETKDG + MMFF94 builds (tests/data/reference/geometry.json),
then a list of stereo-dense structures written here (small rings with stereocentres, bridged and caged rings,
macrolides, steroids, sugars, terpenes), then the validation molecules geometry.json lacks (no MMFF94 parameters;
generate_3d does not need them). The last two groups are kept only when RDKit's ETKDG embeds the molecule with its
stereo. New molecules go after the old ones, so the seeds, and the orders, of the old ones stay.

Per molecule, ORDERS atom orders from RDKit's random SMILES writer, seeded per molecule so the file is reproducible:
    rdBase.SeedRandomNumberGenerator(SEED + k)      # k: the molecule's position in the list
    Chem.MolToSmiles(mol, doRandom=True)            # ORDERS times, duplicates of earlier orders skipped
and Chem.MolToSmiles(mol) (canonical isomeric SMILES) of the input, which every order must give back.

Output: tests/data/reference/stereo_orders.json.
Usage: /usr/bin/python3 scripts/reference/stereo_orders.py
"""
import datetime
import json
import os
import sys
import time

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import AllChem

import json_format

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GEOMETRY = os.path.join(ROOT, "tests", "data", "reference", "geometry.json")
MOLECULES = os.path.join(ROOT, "tests", "data", "reference", "molecules.smi")
OUT = os.path.join(ROOT, "tests", "data", "reference", "stereo_orders.json")
SEED = 2100
ORDERS = 3

# Stereo-dense structures outside the validation set: (id, SMILES). The first five are the orderings and the
# cage that generate_3d failed on before (issue 21); the rest are well-known natural products and drugs.
EXTRA = [
    ("epoxide-order-1", "CC[C@H]1O[C@@]1(C)CCC"),
    ("epoxide-order-2", "C(C)[C@H]1O[C@@]1(C)CCC"),
    ("epoxide-order-3", "CCC[C@@]1(C)O[C@@H]1CC"),
    ("epoxide-order-4", "O1[C@](CCC)([C@H]1CC)C"),
    ("CID-100977568", "N#CC1=C(C#N)[C@@H]2C3=C(C=C4[C@H]5CC[C@H](C5)[C@]42C(C#N)=C1C#N)[C@@H]1CCC3C1"),
    ("trans-2,3-dimethyloxirane", "C[C@@H]1O[C@H]1C"),
    ("2-methylaziridine", "C[C@@H]1CN1"),
    ("tranylcypromine", "N[C@@H]1C[C@H]1c1ccccc1"),
    ("chrysanthemic acid", "CC(C)=C[C@@H]1[C@H](C(O)=O)C1(C)C"),
    ("fosfomycin", "C[C@@H]1O[C@@H]1P(=O)(O)O"),
    ("scopolamine", "CN1[C@@H]2C[C@@H](C[C@H]1[C@H]1O[C@@H]21)OC(=O)[C@H](CO)c1ccccc1"),
    ("mitomycin C", "CO[C@]12[C@H](COC(N)=O)C3=C(N1C[C@@H]1N[C@@H]12)C(=O)C(C)=C(N)C3=O"),
    ("clavulanic acid", "OC/C=C1/O[C@@H]2CC(=O)N2[C@H]1C(O)=O"),
    ("penicillin G", "CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(O)=O"),
    ("camphor", "C[C@@]12CC[C@@H](C1(C)C)CC2=O"),
    ("artemisinin", "C[C@@H]1CC[C@H]2[C@H](C)C(=O)O[C@@H]3O[C@@]4(C)CC[C@@H]1[C@]32OO4"),
    ("morphine", "CN1CC[C@]23C4=C5C=CC(O)=C4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5"),
    ("quinine", "COc1ccc2nccc([C@@H](O)[C@@H]3C[C@@H]4CCN3C[C@@H]4C=C)c2c1"),
    ("strychnine", "O=C1C[C@H]2OC/C=C3\\CN4CC[C@@]56[C@H]4C[C@H]3[C@H]2[C@H]6N1c1ccccc15"),
    ("cholesterol", "C[C@H](CCCC(C)C)[C@H]1CC[C@@H]2[C@@]1(CC[C@H]3[C@H]2CC=C4[C@@]3(CC[C@@H](C4)O)C)C"),
    ("beta-D-glucose", "OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O"),
    ("sucrose", "OC[C@H]1O[C@@](CO)(O[C@H]2O[C@H](CO)[C@@H](O)[C@H](O)[C@H]2O)[C@@H](O)[C@@H]1O"),
    (
        "erythromycin A",
        "CC[C@@H]1[C@@]([C@@H]([C@H](C(=O)[C@@H](C[C@@]([C@@H]([C@H]([C@@H]([C@H](C(=O)O1)C)O[C@H]2C[C@@]"
        "([C@H]([C@@H](O2)C)O)(C)OC)C)O[C@H]3[C@@H]([C@H](C[C@H](O3)C)N(C)C)O)(C)O)C)C)O)(C)O",
    ),
    # Added later, after the list above had fixed the seeds of its molecules: steroids, terpenes, a
    # cyclohexene drug, and small three-membered rings with two centres. Each was checked against its known
    # descriptors with RDKit's new CIP labeller (e.g. estradiol 8R,9S,13S,14S,17S; (-)-menthol 1R,2S,5R;
    # shikimic acid 3R,4S,5R; oseltamivir 3R,4R,5S), isoborneol for its exo hydroxyl in an ETKDG structure.
    ("estradiol", "C[C@]12CC[C@H]3[C@@H](CCc4cc(O)ccc34)[C@@H]1CC[C@@H]2O"),
    ("testosterone", "C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@]34C)[C@@H]1CC[C@@H]2O"),
    ("cortisol", "C[C@]12CCC(=O)C=C1CC[C@@H]1[C@@H]2[C@@H](O)C[C@@]2(C)[C@H]1CC[C@]2(O)C(=O)CO"),
    ("isoborneol", "C[C@@]12CC[C@@H](C1(C)C)C[C@H]2O"),
    ("alpha-pinene", "CC1=CC[C@@H]2C[C@H]1C2(C)C"),
    ("alpha-thujone", "CC(C)[C@@]12C[C@@H]1[C@@H](C)C(=O)C2"),
    ("menthol", "CC(C)[C@@H]1CC[C@@H](C)C[C@H]1O"),
    ("ascorbic acid", "OC[C@H](O)[C@H]1OC(=O)C(O)=C1O"),
    ("shikimic acid", "O[C@@H]1C=C(C[C@@H](O)[C@@H]1O)C(O)=O"),
    ("oseltamivir", "CCOC(=O)C1=C[C@@H](OC(CC)CC)[C@H](NC(C)=O)[C@@H](N)C1"),
    ("cis-2,3-dimethylaziridine", "C[C@H]1N[C@H]1C"),
    ("trans-3-phenylaziridine-2-carboxylic acid", "OC(=O)[C@@H]1N[C@H]1c1ccccc1"),
    ("trans-cyclopropane-1,2-dicarboxylic acid", "OC(=O)[C@@H]1C[C@H]1C(=O)O"),
    ("cis-stilbene oxide", "c1ccc(cc1)[C@@H]1O[C@@H]1c1ccccc1"),
    ("spiro[2.2]pentane-1,4-diol", "O[C@@H]1C[C@]12C[C@H]2O"),
]


def has_stereo(mol):
    if any(a.GetChiralTag() != Chem.ChiralType.CHI_UNSPECIFIED for a in mol.GetAtoms()):
        return True
    return any(b.GetStereo() != Chem.BondStereo.STEREONONE for b in mol.GetBonds())


def rdkit_builds(smiles):
    """True when ETKDG embeds the molecule with every specified stereo element as the SMILES says (stereo the SMILES
    leaves open is cleared before the canonical SMILES are compared)."""
    mol = Chem.MolFromSmiles(smiles)
    mh = Chem.AddHs(mol)
    params = AllChem.ETKDGv3()
    params.randomSeed = 42
    if AllChem.EmbedMolecule(mh, params) != 0:
        return False
    back = Chem.RemoveHs(mh)
    Chem.AssignStereochemistryFrom3D(back)
    for atom, given in zip(back.GetAtoms(), mol.GetAtoms()):
        if given.GetChiralTag() == Chem.ChiralType.CHI_UNSPECIFIED:
            atom.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for bond, given in zip(back.GetBonds(), mol.GetBonds()):
        if given.GetStereo() == Chem.BondStereo.STEREONONE:
            bond.SetStereo(Chem.BondStereo.STEREONONE)
    return Chem.MolToSmiles(back) == Chem.MolToSmiles(mol)


def validation_set():
    """(SMILES, id) of every molecule of molecules.smi, in file order."""
    with open(MOLECULES) as handle:
        rows = [line.rstrip("\n").split("\t") for line in handle if line.strip() and not line.startswith("#")]
    return [(row[0], row[1]) for row in rows]


def orders(mol, seed):
    rdBase.SeedRandomNumberGenerator(seed)
    out = []
    for _ in range(ORDERS * 10):
        smiles = Chem.MolToSmiles(mol, doRandom=True)
        if smiles not in out:
            out.append(smiles)
        if len(out) == ORDERS:
            break
    return out


def main():
    started = time.time()
    geometry = json.load(open(GEOMETRY))["molecules"]
    candidates = [(m["id"], m["smiles"], "validation") for m in geometry if m["set"] == "validation"]
    candidates += [(ident, smiles, "extra") for ident, smiles in EXTRA]
    built = {m["id"] for m in geometry}
    candidates += [(ident, smiles, "validation") for smiles, ident in validation_set() if ident not in built]
    molecules = []
    left_out = []
    for k, (ident, smiles, group) in enumerate(candidates):
        mol = Chem.MolFromSmiles(smiles)
        if mol is None or not has_stereo(mol):
            if group == "extra":
                left_out.append(ident)
            continue
        if ident not in built and not rdkit_builds(smiles):
            left_out.append(ident)
            continue
        molecules.append({
            "id": ident,
            "set": group,
            "smiles": smiles,
            "canonical": Chem.MolToSmiles(mol),
            "orders": orders(mol, SEED + k),
        })
    document = {
        "provenance": {
            "script": "scripts/reference/stereo_orders.py",
            "rdkit": rdBase.rdkitVersion,
            "python": sys.version.split()[0],
            "date": datetime.date.today().isoformat(),
            "calls": [
                "mol = Chem.MolFromSmiles(smiles)",
                "rdBase.SeedRandomNumberGenerator(%d + k)  # k: position of the molecule in the candidate list" % SEED,
                "Chem.MolToSmiles(mol, doRandom=True)  # until %d distinct orders" % ORDERS,
                "canonical: Chem.MolToSmiles(mol)",
                "extra molecules and validation molecules outside geometry.json kept when "
                "AllChem.EmbedMolecule(Chem.AddHs(mol), ETKDGv3 seed 42) keeps the stereo",
            ],
            "molecules": "stereo molecules of tests/data/reference/geometry.json (validation set), the list in "
            "scripts/reference/stereo_orders.py, then the stereo molecules of tests/data/reference/molecules.smi "
            "that geometry.json lacks",
            "left_out": left_out,
            "seconds": round(time.time() - started, 1),
        },
        "molecules": molecules,
    }
    with open(OUT, "w") as handle:
        handle.write(json_format.dumps(document))
    print(f"{len(molecules)} molecules written to {os.path.relpath(OUT, ROOT)}; left out: {left_out or 'none'}")


if __name__ == "__main__":
    main()
