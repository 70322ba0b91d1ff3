#!/usr/bin/env python3
"""RDKit's own answers for the validation set, written as test fixtures (the reference oracle).

Reads tests/data/reference/molecules.smi and writes, into tests/data/reference/, one compact JSON file per group
of tools. Each file starts with `provenance`: the RDKit version, the date, this script, and for every field the
exact RDKit call that produced it. Every value is computed the way the chem-mcp tool claims to compute it, but
through RDKit's own Python API:

  identity.json     parse_smiles, canonical_smiles, InChI/InChIKey (representation_router, molecule_context_pack)
  properties.json   calc_properties, lipinski_check, boiled_egg inputs, admet_profile inputs (largest component)
  sa_score.json     sa_score (RDKit Contrib/SA_Score/sascorer.py)
  alerts.json       pains_check, brenk_check (FilterCatalog PAINS_A/B/C and BRENK)
  fingerprints.json ecfp4 (Morgan radius 2, 2048 bits) and tanimoto (pairs)
  substructure.json smarts_match (a few SMARTS over the whole set)
  mcs.json          find_mcs (rdFMCS on groups of similar molecules)
  moljson.json      smiles_to_moljson (atoms, charges, hydrogens, aromaticity, bond orders, CIP labels)
  gasteiger.json    generate_3d's partial charges (Gasteiger-Marsili, with explicit hydrogens)

The Debian build of RDKit 2022.09 has no InChI support, so InChI comes from the IUPAC InChI program Debian ships
(`inchi_main` of libinchi-bin), fed RDKit's MOL blocks; the fixture names that call.

Usage (needs `apt-get install -y python3-rdkit rdkit-data libinchi-bin`):
    /usr/bin/python3 scripts/reference/oracle.py
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

from rdkit import Chem, DataStructs, RDLogger, rdBase
from rdkit.Chem import AllChem, Crippen, Descriptors, QED, rdFMCS, rdMolDescriptors
from rdkit.Chem import rdCIPLabeler, rdPartialCharges
from rdkit.Chem.MolStandardize import rdMolStandardize
from rdkit.Chem.FilterCatalog import FilterCatalog, FilterCatalogParams

sys.path.append("/usr/share/RDKit/Contrib/SA_Score")
import sascorer  # noqa: E402  (RDKit Contrib, not a package)
from molecules import records  # noqa: E402  (the oracle scripts' own module)

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DIR = os.path.join(ROOT, "tests", "data", "reference")
SCRIPT = "scripts/reference/oracle.py"

# SMARTS compared by smarts_match, few enough to keep the suite fast, together exercising H counts, connectivity,
# recursion, logical operators, bond primitives (ring/chain, OR), ring membership and charges.
SMARTS = [
    "[CX3](=O)[OX2H1]",
    "[NX3;H2,H1;!$(NC=O)]",
    "S(=O)(=O)[NX3]",
    "a-!@a",
    "[#6]=,:[#7]",
    "[R2]",
    "[+,-]",
]


def r(x, digits=6):
    """Rounds far below every tolerance the tests use, to keep the fixtures small."""
    return round(float(x), digits)


def parent(mol):
    """Largest component by RDKit's LargestFragmentChooser (as src/chem/properties.ts and standardize choose)."""
    frags = Chem.GetMolFrags(mol)
    if len(frags) == 1:
        return mol, 1
    return rdMolStandardize.LargestFragmentChooser().choose(mol), len(frags)


def provenance(calls, extra=None):
    out = {
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "script": SCRIPT,
        "molecules": "tests/data/reference/molecules.smi",
        "parse": "Chem.MolFromSmiles(smiles) (default sanitisation, hydrogens removed)",
        "calls": calls,
    }
    if extra:
        out.update(extra)
    return out


def write(name, calls, rows, extra=None):
    path = os.path.join(DIR, name)
    with open(path, "w") as handle:
        json.dump({"provenance": provenance(calls, extra), "molecules": rows}, handle, separators=(",", ":"))
        handle.write("\n")
    print(f"{name}: {len(rows)} rows, {os.path.getsize(path) // 1024} KiB", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------------------
# identity.json


def inchi_program():
    """`inchi_main -?` prints the IUPAC InChI software version on its first line."""
    done = subprocess.run(["inchi_main", "-?"], capture_output=True, text=True)
    return (done.stdout + done.stderr).strip().splitlines()[0]


def mark_unspecified_double_bonds(mol):
    """A MOL block carries double-bond geometry in its coordinates; mark every double bond the SMILES left
    unspecified as 'either' (V2000 bond stereo 3) so InChI does not read a configuration from the 2D layout (ring
    double bonds included: InChI removes metal bonds, which can leave a chelate ring's C=N acyclic)."""
    for bond in mol.GetBonds():
        if bond.GetBondType() != Chem.BondType.DOUBLE or bond.GetStereo() != Chem.BondStereo.STEREONONE:
            continue
        if bond.GetBeginAtom().GetDegree() >= 2 and bond.GetEndAtom().GetDegree() >= 2:
            bond.SetStereo(Chem.BondStereo.STEREOANY)


def coordinates(mol):
    """2D coordinates, except for a specified double bond in a ring of 8 or more atoms: RDKit's 2D layout of a
    macrocycle need not honour it, and InChI reads double-bond geometry from coordinates, so such molecules get a
    3D embedding (ETKDG, which keeps specified stereo) when one can be made."""
    m = Chem.Mol(mol)
    macro_ez = any(
        b.GetBondType() == Chem.BondType.DOUBLE and b.GetStereo() != Chem.BondStereo.STEREONONE and b.IsInRing()
        and not any(b.IsInRingSize(n) for n in range(3, 8))
        for b in m.GetBonds()
    )
    if macro_ez:
        h = Chem.AddHs(m)
        if AllChem.EmbedMolecule(h, randomSeed=7) == 0:
            return Chem.RemoveHs(h)
    AllChem.Compute2DCoords(m)
    return m


def inchis(mols):
    """Standard InChI and InChIKey of each molecule: RDKit MOL block (Chem.MolToMolBlock after
    AllChem.Compute2DCoords) read by the IUPAC InChI program `inchi_main -Key -AuxNone`."""
    with tempfile.TemporaryDirectory() as tmp:
        sdf = os.path.join(tmp, "in.sdf")
        writer = open(sdf, "w")
        for i, mol in enumerate(mols):
            m = coordinates(mol)
            # Kekulé double bonds of aromatic macrocycles (porphyrins) are double bonds to InChI too.
            Chem.Kekulize(m, clearAromaticFlags=True)
            mark_unspecified_double_bonds(m)
            block = Chem.MolToMolBlock(m)
            writer.write(f"{i}" + block[block.index("\n"):] + "$$$$\n")
        writer.close()
        out = os.path.join(tmp, "out.txt")
        subprocess.run(
            ["inchi_main", sdf, out, os.path.join(tmp, "log"), os.path.join(tmp, "prb"), "-Key", "-AuxNone",
             "-Tabbed"],
            capture_output=True, check=True,
        )
        found = {}
        with open(out) as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                # "Structure: N<TAB>InChI=...<TAB>InChIKey=...", N counting SD records from 1
                if len(parts) >= 3 and parts[1].startswith("InChI="):
                    index = int(parts[0].split(":")[1]) - 1
                    found[index] = (parts[1], parts[2].replace("InChIKey=", ""))
        return [found.get(i, ("", "")) for i in range(len(mols))]


def identity(rows, mols):
    ids = inchis(mols)
    out = []
    for (smiles, ident, _), mol, (inchi, key) in zip(rows, mols, ids):
        out.append({
            "id": ident,
            "atoms": mol.GetNumHeavyAtoms(),
            "atoms_h": rdMolDescriptors.CalcNumAtoms(mol),
            "bonds": mol.GetNumBonds(),
            "mw": r(Descriptors.MolWt(mol)),
            "fragments": len(Chem.GetMolFrags(mol)),
            "canonical": Chem.MolToSmiles(mol),
            "formula": rdMolDescriptors.CalcMolFormula(mol),
            "inchi": inchi,
            "inchikey": key,
        })
    write("identity.json", {
        "atoms": "mol.GetNumHeavyAtoms()",
        "atoms_h": "rdMolDescriptors.CalcNumAtoms(mol)",
        "bonds": "mol.GetNumBonds()",
        "mw": "Descriptors.MolWt(mol)",
        "fragments": "len(Chem.GetMolFrags(mol))",
        "canonical": "Chem.MolToSmiles(mol) (isomeric, canonical)",
        "formula": "rdMolDescriptors.CalcMolFormula(mol) (Hill order, net charge appended)",
        "inchi": "AllChem.Compute2DCoords(m) (AllChem.EmbedMolecule(Chem.AddHs(m), randomSeed=7) when a ring of 8+ "
                 "atoms has a specified double bond); Chem.Kekulize(m, clearAromaticFlags=True); Chem.MolToMolBlock(m) "
                 "with unspecified double bonds marked 'either'; inchi_main in.sdf out log prb -Key -AuxNone -Tabbed",
        "inchikey": "the InChIKey inchi_main prints with -Key",
    }, out, {"inchi_program": inchi_program()})


# ---------------------------------------------------------------------------------------------------------------
# properties.json, sa_score.json


# CalcNumHBA's acceptor SMARTS (RDKit 2022.09, Lipinski.py) with `nH0` narrowed to `nH0X2` (rdkit#8997).
HBA_X2_SMARTS = ("[$([O,S;H1;v2]-[!$(*=[O,N,P,S])]),$([O,S;H0;v2]),$([O,S;-]),$([N;v3;!$(N-*=!@[O,N,P,S])]),"
                 "$([nH0X2,o,s;+0])]")
HBA_X2 = Chem.MolFromSmarts(HBA_X2_SMARTS)


def properties(rows, mols):
    table = Chem.GetPeriodicTable()
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        p, fragments = parent(mol)
        q = QED.properties(p)
        logp = Crippen.MolLogP(p)
        out.append({
            "id": ident,
            "parent": Chem.MolToSmiles(p),
            "fragments": fragments,
            "mw": r(Descriptors.MolWt(p)),
            "exact_mass": r(Descriptors.ExactMolWt(p)),
            "logp": r(logp),
            # force=True: CalcTPSA caches its value on the molecule, and QED.properties has already asked for it.
            "tpsa": r(rdMolDescriptors.CalcTPSA(p, force=True)),
            "tpsa_sp": r(rdMolDescriptors.CalcTPSA(p, force=True, includeSandP=True)),
            "hbd": rdMolDescriptors.CalcNumHBD(p),
            "hba": rdMolDescriptors.CalcNumHBA(p),
            "hba_x2": len(p.GetSubstructMatches(HBA_X2)),
            "lipinski_hbd": rdMolDescriptors.CalcNumLipinskiHBD(p),
            "lipinski_hba": rdMolDescriptors.CalcNumLipinskiHBA(p),
            "rotb": rdMolDescriptors.CalcNumRotatableBonds(p),
            "aromatic_rings": rdMolDescriptors.CalcNumAromaticRings(p),
            "heavy": p.GetNumHeavyAtoms(),
            "qed": r(QED.qed(p)),
            "qed_props": [r(q.MW), r(q.ALOGP), q.HBA, q.HBD, r(q.PSA), q.ROTB, q.AROM, q.ALERTS],
        })
    write("properties.json", {
        "parent": "rdMolStandardize.LargestFragmentChooser().choose(mol) when Chem.GetMolFrags(mol) has several; "
                  "every field below is of the parent",
        "mw": "Descriptors.MolWt(p)",
        "exact_mass": "Descriptors.ExactMolWt(p)",
        "logp": "Crippen.MolLogP(p)",
        "tpsa": "rdMolDescriptors.CalcTPSA(p, force=True)",
        "tpsa_sp": "rdMolDescriptors.CalcTPSA(p, force=True, includeSandP=True)",
        "hbd": "rdMolDescriptors.CalcNumHBD(p)",
        "hba": "rdMolDescriptors.CalcNumHBA(p)",
        "hba_x2": "len(p.GetSubstructMatches(Chem.MolFromSmarts(HBA_X2_SMARTS))): CalcNumHBA's SMARTS with aromatic N "
                  "restricted to two connections (nH0X2), the definition RDKit adopted in 2026 (rdkit#8997, #9060)",
        "lipinski_hbd": "rdMolDescriptors.CalcNumLipinskiHBD(p)",
        "lipinski_hba": "rdMolDescriptors.CalcNumLipinskiHBA(p)",
        "rotb": "rdMolDescriptors.CalcNumRotatableBonds(p) (default: strict)",
        "aromatic_rings": "rdMolDescriptors.CalcNumAromaticRings(p)",
        "heavy": "p.GetNumHeavyAtoms()",
        "qed": "QED.qed(p) (mean weights)",
        "qed_props": "QED.properties(p): [MW, ALOGP, HBA, HBD, PSA, ROTB, AROM, ALERTS]",
    }, out, {
        "valence_lists": {symbol: list(table.GetValenceList(symbol)) for symbol in ("Al", "Si", "P")},
        "elements": {
            table.GetElementSymbol(z): [table.GetAtomicWeight(z), table.GetMostCommonIsotopeMass(z)]
            for z in sorted({a.GetAtomicNum() for m in mols for a in m.GetAtoms()} | {1})
        },
        "elements_note": "RDKit's periodic table: symbol -> [GetAtomicWeight, GetMostCommonIsotopeMass]",
        "hba_x2_smarts": HBA_X2_SMARTS,
    })


def sa_without_aromatic_centres(mol):
    """sascorer.calculateScore with Chem.FindMolChiralCenters's aromatic atoms left out of the stereo count (an
    aromatic atom is planar): RDKit 2022.09 reports three-connected aromatic N bound to a metal or bridging a
    macrocycle as possible centres, later releases do not."""
    original = Chem.FindMolChiralCenters

    def planar_excluded(m, **kwargs):
        return [c for c in original(m, **kwargs) if not m.GetAtomWithIdx(c[0]).GetIsAromatic()]

    Chem.FindMolChiralCenters = planar_excluded
    try:
        return sascorer.calculateScore(mol)
    finally:
        Chem.FindMolChiralCenters = original


def sa_scores(rows, mols):
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        centres = Chem.FindMolChiralCenters(mol, includeUnassigned=True)
        aromatic = sum(1 for c in centres if mol.GetAtomWithIdx(c[0]).GetIsAromatic())
        row = {"id": ident, "sa": r(sascorer.calculateScore(mol), 8), "stereo": len(centres)}
        if aromatic:
            row["stereo_aromatic"] = aromatic
            row["sa_planar"] = r(sa_without_aromatic_centres(mol), 8)
        out.append(row)
    write("sa_score.json", {
        "sa": "sascorer.calculateScore(mol) on the whole molecule, from /usr/share/RDKit/Contrib/SA_Score "
              "(sascorer.readFragmentScores: fpscores.pkl.gz)",
        "stereo": "len(Chem.FindMolChiralCenters(mol, includeUnassigned=True)), the count sascorer penalises",
        "stereo_aromatic": "how many of those are aromatic atoms (absent when none)",
        "sa_planar": "sascorer.calculateScore(mol) with aromatic atoms removed from FindMolChiralCenters' answer "
                     "(present only when stereo_aromatic is)",
    }, out)


# ---------------------------------------------------------------------------------------------------------------
# alerts.json


def catalog(*names):
    params = FilterCatalogParams()
    for name in names:
        params.AddCatalog(getattr(FilterCatalogParams.FilterCatalogs, name))
    return FilterCatalog(params)


def alerts(rows, mols):
    pains = catalog("PAINS_A", "PAINS_B", "PAINS_C")
    brenk = catalog("BRENK")
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        out.append({
            "id": ident,
            "pains": sorted(e.GetDescription() for e in pains.GetMatches(mol)),
            "brenk": sorted(e.GetDescription() for e in brenk.GetMatches(mol)),
        })
    write("alerts.json", {
        "pains": "FilterCatalog(params with PAINS_A, PAINS_B, PAINS_C).GetMatches(mol): sorted GetDescription()",
        "brenk": "FilterCatalog(params with BRENK).GetMatches(mol): sorted GetDescription()",
    }, out, {"pains_entries": pains.GetNumEntries(), "brenk_entries": brenk.GetNumEntries()})


# ---------------------------------------------------------------------------------------------------------------
# fingerprints.json


def fingerprints(rows, mols):
    fps = [AllChem.GetMorganFingerprintAsBitVect(m, 2, nBits=2048) for m in mols]
    out = [{"id": ident, "bits": list(fp.GetOnBits())} for (_, ident, _), fp in zip(rows, fps)]
    # Consecutive molecules (NCI numbers are often close analogues), then each molecule with its nearest
    # neighbour over the whole set, so the pairs span the whole 0-1 range.
    pairs = []
    for i in range(len(mols) - 1):
        pairs.append([i, i + 1, r(DataStructs.TanimotoSimilarity(fps[i], fps[i + 1]), 10)])
    for i in range(0, len(mols), 3):
        sims = DataStructs.BulkTanimotoSimilarity(fps[i], fps)
        sims[i] = -1
        j = max(range(len(sims)), key=lambda k: sims[k])
        pairs.append([i, j, r(sims[j], 10)])
    write("fingerprints.json", {
        "bits": "list(AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048).GetOnBits())",
        "pairs": "[i, j, DataStructs.TanimotoSimilarity(fp_i, fp_j)] over molecule indices (file order)",
    }, out, {"pairs": pairs})


# ---------------------------------------------------------------------------------------------------------------
# substructure.json


def substructure(rows, mols):
    queries = [Chem.MolFromSmarts(s) for s in SMARTS]
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        hits = {}
        for k, q in enumerate(queries):
            matches = mol.GetSubstructMatches(q, uniquify=True, maxMatches=1000)
            if matches:
                hits[str(k)] = [list(m) for m in matches]
        out.append({"id": ident, "matches": hits})
    write("substructure.json", {
        "matches": "mol.GetSubstructMatches(Chem.MolFromSmarts(smarts), uniquify=True, maxMatches=1000), keyed by "
                   "the index of the SMARTS in provenance.smarts (absent = no match)",
    }, out, {"smarts": SMARTS})


# ---------------------------------------------------------------------------------------------------------------
# mcs.json


def mcs(rows, mols):
    """Groups of two or three similar single-component molecules of at most 40 heavy atoms: every 9th eligible
    molecule with its one or two nearest neighbours (ECFP4 Tanimoto)."""
    eligible = [i for i, m in enumerate(mols) if len(Chem.GetMolFrags(m)) == 1 and 6 <= m.GetNumHeavyAtoms() <= 40]
    fps = {i: AllChem.GetMorganFingerprintAsBitVect(mols[i], 2, nBits=2048) for i in eligible}
    others = list(eligible)
    groups = []
    for n, i in enumerate(eligible[::9]):
        sims = DataStructs.BulkTanimotoSimilarity(fps[i], [fps[j] for j in others])
        ranked = [others[k] for k in sorted(range(len(others)), key=lambda k: -sims[k]) if others[k] != i]
        groups.append([i] + ranked[: 1 + n % 2])
    out = []
    for group in groups:
        res = rdFMCS.FindMCS(
            [mols[i] for i in group], timeout=10, atomCompare=rdFMCS.AtomCompare.CompareElements,
            bondCompare=rdFMCS.BondCompare.CompareOrder, ringMatchesRingOnly=True, completeRingsOnly=False,
            matchChiralTag=False, threshold=1.0,
        )
        out.append({
            "molecules": group,
            "ids": [rows[i][1] for i in group],
            "atoms": res.numAtoms,
            "bonds": res.numBonds,
            "smarts": res.smartsString,
            "canceled": res.canceled,
        })
    write("mcs.json", {
        "mcs": "rdFMCS.FindMCS(mols, timeout=10, atomCompare=CompareElements, bondCompare=CompareOrder, "
               "ringMatchesRingOnly=True, completeRingsOnly=False, matchChiralTag=False, threshold=1.0): numAtoms, "
               "numBonds, smartsString, canceled",
        "molecules": "indices into molecules.smi (file order): every 9th single-component molecule of 6-40 heavy "
                     "atoms with its 1 or 2 most similar such molecules (ECFP4 Tanimoto)",
    }, out)


# ---------------------------------------------------------------------------------------------------------------
# moljson.json


def nonzero(values):
    return [[i, v] for i, v in enumerate(values) if v]


def moljson(rows, mols):
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        m = Chem.Mol(mol)
        rdCIPLabeler.AssignCIPLabels(m)
        atoms = list(m.GetAtoms())
        bonds = list(m.GetBonds())
        out.append({
            "id": ident,
            "z": [a.GetAtomicNum() for a in atoms],
            "h": [a.GetTotalNumHs() for a in atoms],
            "charge": nonzero([a.GetFormalCharge() for a in atoms]),
            "isotope": nonzero([a.GetIsotope() for a in atoms]),
            "radical": nonzero([a.GetNumRadicalElectrons() for a in atoms]),
            "aromatic": [i for i, a in enumerate(atoms) if a.GetIsAromatic()],
            "bonds": [[b.GetBeginAtomIdx(), b.GetEndAtomIdx(), 1.5 if b.GetIsAromatic() else b.GetBondTypeAsDouble()]
                      for b in bonds],
            "cip": [[i, a.GetProp("_CIPCode")] for i, a in enumerate(atoms) if a.HasProp("_CIPCode")],
            "ez": [i for i, b in enumerate(bonds)
                   if b.GetStereo() in (Chem.BondStereo.STEREOE, Chem.BondStereo.STEREOZ,
                                        Chem.BondStereo.STEREOCIS, Chem.BondStereo.STEREOTRANS)],
        })
    write("moljson.json", {
        "z": "atom.GetAtomicNum() per atom (SMILES order)",
        "h": "atom.GetTotalNumHs()",
        "charge": "[index, atom.GetFormalCharge()] where non-zero",
        "isotope": "[index, atom.GetIsotope()] where non-zero",
        "radical": "[index, atom.GetNumRadicalElectrons()] where non-zero",
        "aromatic": "indices with atom.GetIsAromatic()",
        "bonds": "[begin, end, 1.5 if bond.GetIsAromatic() else bond.GetBondTypeAsDouble()]",
        "cip": "[index, _CIPCode] after rdCIPLabeler.AssignCIPLabels(mol) (new CIP labeller, Hanson et al. 2018)",
        "ez": "bond indices whose GetStereo() is E/Z/CIS/TRANS",
    }, out)


# ---------------------------------------------------------------------------------------------------------------
# gasteiger.json


# The elements Gasteiger & Marsili (1980) parameterise. RDKit's table adds parameters that are not the paper's (P, B,
# Si, sulfur that is not SP3), so molecules with such atoms say nothing about an implementation of the paper.
GASTEIGER_ELEMENTS = {"H", "C", "N", "O", "F", "Cl", "Br", "I", "S"}


def gasteiger_scope(m):
    """True when every atom of m (hydrogens explicit) has the paper's parameters in RDKit's table."""
    return all(
        a.GetSymbol() in GASTEIGER_ELEMENTS
        and (a.GetSymbol() != "S" or a.GetHybridization() == Chem.HybridizationType.SP3)
        for a in m.GetAtoms()
    )


def gasteiger_charges(m, **kwargs):
    """RDKit's _GasteigerCharge of every atom after ComputeGasteigerCharges(m, **kwargs)."""
    rdPartialCharges.ComputeGasteigerCharges(m, **kwargs)
    return [a.GetDoubleProp("_GasteigerCharge") for a in m.GetAtoms()]


def gasteiger(rows, mols):
    out = []
    for (_, ident, _), mol in zip(rows, mols):
        m = Chem.AddHs(mol)
        if not gasteiger_scope(m):
            continue
        row = {"id": ident, "q": [r(q) for q in gasteiger_charges(m)]}
        if any(a.GetFormalCharge() for a in m.GetAtoms()):
            # Ten digits: shares such as 1/3 are fed back into a transfer whose result is compared within 1e-6.
            row["initial"] = nonzero([r(q, 10) for q in gasteiger_charges(Chem.Mol(m), nIter=0)])
        out.append(row)
    write("gasteiger.json", {
        "q": "rdPartialCharges.ComputeGasteigerCharges(m) (nIter=12) on m = Chem.AddHs(mol): "
             "atom.GetDoubleProp('_GasteigerCharge') per atom, in m's order (SMILES order, then the hydrogens)",
        "initial": "molecules with a formal charge only: [index, _GasteigerCharge] where non-zero after "
                   "ComputeGasteigerCharges(m, nIter=0), i.e. the starting charges (each formal charge as RDKit's "
                   "splitChargeConjugated spreads it) before any transfer",
    }, out, {
        "selection": "molecules of the set whose atoms after Chem.AddHs are all H, C, N, O, F, Cl, Br, I or S, "
                     "every S with atom.GetHybridization() == SP3 (the atoms Gasteiger & Marsili 1980 parameterise)",
        "left_out": len(rows) - len(out),
    })


def main():
    rows = list(records())
    mols = [Chem.MolFromSmiles(s) for s, _, _ in rows]
    bad = [rows[i][1] for i, m in enumerate(mols) if m is None]
    if bad:
        sys.exit(f"RDKit cannot parse: {bad}")
    only = set(sys.argv[1:])
    steps = [identity, properties, sa_scores, alerts, fingerprints, substructure, mcs, moljson, gasteiger]
    for step in steps:
        if not only or step.__name__ in only:
            step(rows, mols)


if __name__ == "__main__":
    main()
