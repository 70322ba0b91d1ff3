#!/usr/bin/env python3
"""RDKit 2022.09's answers for molecules outside the validation set (the held-out scan).

The validation set (tests/data/reference/molecules.smi) was chosen from a few of the structure files Debian's
rdkit-data installs; this script reads every structure file there that holds molecules, drops each molecule whose
canonical SMILES is one of the validation set's, removes duplicates, and writes RDKit's values for the fields where
the two RDKit versions were seen to differ outside the set: SA score (with its stereo and ring inputs), rotatable
bonds and aromatic rings of the largest component, the ring sizes of RDKit's ring perception, canonical SMILES.

The whole scan is large (about 15,000 molecules), so it goes to a scratch file; scripts/reference/held_out_scan.ts
runs our tools over all of it and writes tests/data/reference/held_out.json: every molecule on which some field
differs, plus every k-th other, with this script's values and provenance unchanged.

Usage (needs `apt-get install -y python3-rdkit rdkit-data`):
    /usr/bin/python3 scripts/reference/held_out.py [/tmp/held_out_scan.json]
    npx deno run -A scripts/reference/held_out_scan.ts [/tmp/held_out_scan.json]
"""
import csv
import datetime
import json
import os
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdMolDescriptors
from rdkit.Chem.EnumerateStereoisomers import EnumerateStereoisomers, StereoEnumerationOptions

sys.path.append("/usr/share/RDKit/Contrib/SA_Score")
import sascorer  # noqa: E402  (RDKit Contrib, not a package)

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = "/usr/share/RDKit"
SCRIPT = "scripts/reference/held_out.py"

# RDKit 2022.09's strict rotatable-bond SMARTS (Lipinski.cpp, as the library Debian ships holds it) and the same
# with a CH3 on either side excluded, the change of rdkit/rdkit#9096 (merged February 2026): with hydrogens in the
# graph (CD3 written with [2H] atoms) a methyl carbon is no longer D1, so only an H-count test keeps it out.
STRICT_ROTB = (
    "[!$(*#*)&!D1&!$(C(F)(F)F)&!$(C(Cl)(Cl)Cl)&!$(C(Br)(Br)Br)&!$(C([CH3])([CH3])[CH3])&!$([CD3](=[N,O,S])-!@[#7,O,S!D1])"
    "&!$([#7,O,S!D1]-!@[CD3]=[N,O,S])&!$([CD3](=[N+])-!@[#7!D1])&!$([#7!D1]-!@[CD3]=[N+])]-,:;!@[!$(*#*)&!D1"
    "&!$(C(F)(F)F)&!$(C(Cl)(Cl)Cl)&!$(C(Br)(Br)Br)&!$(C([CH3])([CH3])[CH3])]"
)
STRICT_ROTB_CH3 = STRICT_ROTB.replace("[!$(*#*)&!D1&", "[!$(*#*)&!D1&!$([CH3])&")


def smiles_file(path, name_column=1, delimiter=None):
    """(smiles, name) from a whitespace- or comma-separated SMILES file (quotes stripped)."""
    with open(path) as handle:
        for line in handle:
            parts = [p.strip().strip('"') for p in (line.split(delimiter) if delimiter else line.split())]
            if parts and parts[0]:
                yield parts[0], parts[name_column] if len(parts) > name_column else str(len(parts))


def sdf_file(path):
    for i, mol in enumerate(Chem.SDMolSupplier(path)):
        if mol is not None:
            name = mol.GetProp("_Name").strip() if mol.HasProp("_Name") else ""
            yield Chem.MolToSmiles(mol), name or str(i + 1)


def nibr_examples(path):
    """The PubChem example structures (EX1..EX5) of NIBR's hit-triaging filter table."""
    with open(path) as handle:
        for row in csv.DictReader(handle):
            for k in range(1, 6):
                smiles, cid = row.get(f"EX{k}"), row.get(f"CID_Ex{k}")
                if smiles:
                    yield smiles, cid or f"{row['PATTERN_NAME']}-{k}"


# (id prefix, file under /usr/share/RDKit, reader). pubchem.200.sdf and the ChEMBL 24 sample are wholly in the
# validation set; first_200.props.sdf repeats first_5K.smi's first structures (duplicates are dropped).
SOURCES = [
    ("NCI", "Data/NCI/first_5K.smi", smiles_file),
    ("NCI", "Data/NCI/first_200.props.sdf", sdf_file),
    ("WEHI", "Data/Pains/test_data/wehi_mols.csv", lambda p: smiles_file(p, 1, ",")),
    ("CHEMBL2321810", "Contrib/FreeWilson/data/CHEMBL2321810.smi", smiles_file),
    ("CHEMBL11265", "Contrib/fraggle/data/ChEMBL_11265_actives.smi", smiles_file),
    ("EGFR", "Contrib/PBF/testData/egfr.sdf", sdf_file),
    ("BZR", "Projects/DbCLI/testData/bzr.sdf", sdf_file),
    ("CDK2", "Contrib/Fastcluster/testdata/cdk2.sdf", sdf_file),
    ("NIBR", "Contrib/NIBRSubstructureFilters/SubstructureFilter_HitTriaging_wPubChemExamples.csv", nibr_examples),
]


def nitrogen_centre(mol):
    """True when RDKit 2022.09 takes a three-connected, non-aromatic N of mol for a possible tetrahedral centre."""
    return any(
        mol.GetAtomWithIdx(i).GetAtomicNum() == 7 and mol.GetAtomWithIdx(i).GetDegree() == 3
        and not mol.GetAtomWithIdx(i).GetIsAromatic()
        for i, _ in Chem.FindMolChiralCenters(mol, includeUnassigned=True)
    )


# The source files write few such N with a configuration, so each molecule with one also enters the scan as its
# stereoisomers (RDKit 2022.09's enumerator, unassigned centres only, at most this many per molecule).
MAX_ISOMERS = 8


def stereoisomers(mol):
    options = StereoEnumerationOptions(onlyUnassigned=True, maxIsomers=MAX_ISOMERS, unique=True)
    return [Chem.MolToSmiles(m) for m in EnumerateStereoisomers(mol, options=options)]


def validation_canonical():
    out = set()
    with open(os.path.join(ROOT, "tests", "data", "reference", "molecules.smi")) as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            mol = Chem.MolFromSmiles(line.split("\t")[0])
            if mol is not None:
                out.add(Chem.MolToSmiles(mol))
    return out


def parent(mol):
    """Largest component by heavy atoms, ties broken by canonical SMILES (as src/chem/properties.ts says)."""
    frags = Chem.GetMolFrags(mol, asMols=True)
    if len(frags) == 1:
        return mol
    return sorted(frags, key=lambda f: (-f.GetNumHeavyAtoms(), Chem.MolToSmiles(f)))[0]


def planar(mol, index):
    """An atom rdkit/rdkit#7446 (fixing #7434) and later releases do not take for a possible tetrahedral centre:
    aromatic, or a three-connected N that is not sp3 or has a conjugated bond (an amide or N-aryl N)."""
    atom = mol.GetAtomWithIdx(index)
    if atom.GetIsAromatic():
        return True
    return atom.GetAtomicNum() == 7 and atom.GetDegree() == 3 and (
        atom.GetHybridization() != Chem.HybridizationType.SP3 or any(b.GetIsConjugated() for b in atom.GetBonds()))


def three_connected_nitrogen(mol, index):
    """Aromatic, or a three-connected N of any kind (sp3 bridgehead amine N included)."""
    atom = mol.GetAtomWithIdx(index)
    return atom.GetIsAromatic() or (atom.GetAtomicNum() == 7 and atom.GetDegree() == 3)


def sa_without(mol, leave_out):
    """sascorer.calculateScore with the atoms leave_out(mol, index) accepts removed from FindMolChiralCenters'
    answer, and how many there were."""
    original = Chem.FindMolChiralCenters
    left = [c for c in original(mol, includeUnassigned=True) if leave_out(mol, c[0])]

    def without(m, **kwargs):
        return [c for c in original(m, **kwargs) if not leave_out(m, c[0])]

    Chem.FindMolChiralCenters = without
    try:
        return sascorer.calculateScore(mol), len(left)
    finally:
        Chem.FindMolChiralCenters = original


def record(ident, smiles, mol, strict, strict_ch3):
    p = parent(mol)
    sa_planar, planar_centres = sa_without(mol, planar)
    extra = {"planar_centres": planar_centres, "sa_planar": round(sa_planar, 6)} if planar_centres else {}
    sa_n3, n3_centres = sa_without(mol, three_connected_nitrogen)
    if n3_centres > planar_centres:
        extra.update({"n3_centres": n3_centres, "sa_n3": round(sa_n3, 6)})
    return {
        "id": ident,
        "smiles": smiles,
        "canonical": Chem.MolToSmiles(mol),
        "sa": round(sascorer.calculateScore(mol), 6),
        "stereo": len(Chem.FindMolChiralCenters(mol, includeUnassigned=True)),
        "rings": sorted(len(r) for r in mol.GetRingInfo().AtomRings()),
        "rotb": rdMolDescriptors.CalcNumRotatableBonds(p),
        "rotb_ch3": len(p.GetSubstructMatches(strict_ch3)),
        "aromatic_rings": rdMolDescriptors.CalcNumAromaticRings(p),
        **extra,
    }


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/held_out_scan.json"
    strict = Chem.MolFromSmarts(STRICT_ROTB)
    strict_ch3 = Chem.MolFromSmarts(STRICT_ROTB_CH3)
    seen = validation_canonical()
    in_set = 0
    unparsed = 0
    rows = []
    read = {}
    isomers = 0
    for prefix, path, reader in SOURCES:
        count = 0
        for smiles, name in reader(os.path.join(DATA, path)):
            count += 1
            mol = Chem.MolFromSmiles(smiles)
            if mol is None or mol.GetNumAtoms() == 0:
                unparsed += 1
                continue
            canonical = Chem.MolToSmiles(mol)
            if canonical in seen:
                in_set += 1
                continue
            seen.add(canonical)
            ident = name if name.startswith(f"{prefix}-") else f"{prefix}-{name}"
            rows.append(record(ident, smiles, mol, strict, strict_ch3))
            if nitrogen_centre(mol):
                for k, isomer in enumerate(stereoisomers(mol)):
                    if isomer not in seen and "@" in isomer:
                        seen.add(isomer)
                        isomers += 1
                        rows.append(record(f"{ident}/{k + 1}", isomer, Chem.MolFromSmiles(isomer), strict, strict_ch3))
        read[path] = count
    provenance = {
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "script": SCRIPT,
        "sources": {f"/usr/share/RDKit/{k}": v for k, v in read.items()},
        "selection": "every structure of the sources that RDKit 2022.09 parses, minus those whose canonical SMILES "
                     "is a validation-set molecule's or an earlier structure's",
        "left_out": {"in_validation_set_or_repeated": in_set, "unparsed": unparsed},
        "stereoisomers": {
            "added": isomers,
            "rule": "each molecule on which Chem.FindMolChiralCenters(mol, includeUnassigned=True) reports a "
                    "three-connected non-aromatic N also enters as its stereoisomers (id <id>/<k>): "
                    f"EnumerateStereoisomers(onlyUnassigned=True, maxIsomers={MAX_ISOMERS}, unique=True), "
                    "Chem.MolToSmiles of each",
        },
        "parse": "Chem.MolFromSmiles(smiles) (default sanitisation); SD records as Chem.MolToSmiles of the "
                 "Chem.SDMolSupplier molecule",
        "calls": {
            "canonical": "Chem.MolToSmiles(mol) (isomeric, canonical)",
            "sa": "sascorer.calculateScore(mol) on the whole molecule (/usr/share/RDKit/Contrib/SA_Score)",
            "stereo": "len(Chem.FindMolChiralCenters(mol, includeUnassigned=True)), the count sascorer penalises",
            "rings": "sorted sizes of mol.GetRingInfo().AtomRings() (the SSSR after sanitisation)",
            "rotb": "rdMolDescriptors.CalcNumRotatableBonds(p) (strict) of the largest component p",
            "rotb_ch3": "len(p.GetSubstructMatches(Chem.MolFromSmarts(STRICT_ROTB_CH3))): the strict SMARTS with "
                        "CH3 excluded on either side (rdkit/rdkit#9096)",
            "aromatic_rings": "rdMolDescriptors.CalcNumAromaticRings(p) of the largest component p",
            "planar_centres": "how many of FindMolChiralCenters' atoms are aromatic or a three-connected N that is "
                              "not SP3 or has a conjugated bond (absent when none)",
            "sa_planar": "sascorer.calculateScore(mol) with those atoms left out of FindMolChiralCenters' answer "
                         "(present with planar_centres)",
            "n3_centres": "how many of FindMolChiralCenters' atoms are aromatic or a three-connected N of any kind "
                          "(present when more than planar_centres)",
            "sa_n3": "sascorer.calculateScore(mol) with those atoms left out (present with n3_centres)",
        },
        "strict_rotb_smarts": STRICT_ROTB,
        "strict_rotb_ch3_smarts": STRICT_ROTB_CH3,
    }
    with open(out_path, "w") as handle:
        json.dump({"provenance": provenance, "molecules": rows}, handle, separators=(",", ":"))
        handle.write("\n")
    print(f"{out_path}: {len(rows)} molecules ({in_set} in the set or repeated, {unparsed} unparsed)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
