#!/usr/bin/env python3
"""The compound library of bench/library_bench.ts, and RDKit's Python figures on it.

`generate N PATH`: writes N amides, deterministically. Parents are the aromatic molecules of RDKit's data files
(/usr/share/RDKit, BSD) with at most 24 heavy atoms, no charge, acid or amine; the even-numbered parents give
aryl acyl groups (a carbonyl on their first aromatic CH), the odd-numbered ones benzylamines (a CH2NH on their
first aromatic CH, and a second building block on their last one when that differs), so no parent is on both
sides. The amide of acyl i and amine j is written as three dotted
pieces joined by ring closures %98 and %99 (acyl.C(=O)NC.amine); its id is `A<i>-B<j>`. Pairs run amine-major
over the first ceil(sqrt(N)) of each side.

`oracle PATH QUERIES_JSON OUT`: times RDKit's build per molecule on one core (MolFromSmiles, Morgan radius 2 2048
bits, PatternFingerprint, MolToSmiles) on the first 50,000 molecules; builds the Morgan fingerprints of all;
times DataStructs.BulkTanimotoSimilarity of each query over them (best of 3) with its top 10 (ties by position);
counts SubstructMatch (Chem.MolFromSmarts) hits of each SMARTS over every molecule. Writes JSON to OUT.

`bulk PATH REPEAT QUERIES_JSON OUT`: BulkTanimotoSimilarity of each similarity query (best of 3, ms) over the
file's fingerprints repeated REPEAT times (a million rows from a smaller file, as bench/library_bench.ts
repeats its index). Writes JSON to OUT.
"""
import glob
import json
import math
import sys
import time

from rdkit import Chem, DataStructs, RDLogger, rdBase
from rdkit.Chem import AllChem

RDLogger.DisableLog("rdApp.*")
ACID = Chem.MolFromSmarts("[CX3](=O)[OX2H1]")
AMINE = Chem.MolFromSmarts("[NX3;!$(N=*);!$(N#*)]")
AROMATIC_CH = Chem.MolFromSmarts("[cH]")


def parents():
    files = sorted(glob.glob("/usr/share/RDKit/**/*.smi", recursive=True)
                   + glob.glob("/usr/share/RDKit/**/*.csv", recursive=True))
    seen = set()
    for path in sorted(glob.glob("/usr/share/RDKit/**/*.sdf", recursive=True)):
        for mol in Chem.SDMolSupplier(path):
            if mol is not None:
                seen.add(Chem.MolToSmiles(mol))
    for path in files:
        for line in open(path, errors="ignore"):
            for token in line.replace(",", " ").split():
                if 3 <= len(token) <= 100:
                    mol = Chem.MolFromSmiles(token)
                    if mol is not None:
                        seen.add(Chem.MolToSmiles(mol))
    for smiles in sorted(seen):
        mol = Chem.MolFromSmiles(smiles)
        if "." in smiles or mol.GetNumHeavyAtoms() > 24 or any(a.GetFormalCharge() for a in mol.GetAtoms()):
            continue
        if mol.HasSubstructMatch(ACID) or mol.HasSubstructMatch(AMINE) or not mol.HasSubstructMatch(AROMATIC_CH):
            continue
        yield mol


def attached(mol, label, which):
    """The parent's SMILES with ring-closure `label` on its first (which = 0) or last (-1) aromatic CH."""
    at = mol.GetSubstructMatches(AROMATIC_CH)[which][0]
    rw = Chem.RWMol(mol)
    dummy = rw.AddAtom(Chem.Atom(0))
    rw.AddBond(at, dummy, Chem.BondType.SINGLE)
    rw.GetAtomWithIdx(at).SetNoImplicit(False)
    rw.GetAtomWithIdx(at).SetNumExplicitHs(0)
    try:
        Chem.SanitizeMol(rw)
    except Exception:
        return None
    text = Chem.MolToSmiles(rw, rootedAtAtom=dummy, canonical=True)
    assert text.startswith("*"), text
    rest = text[1:]
    token = rest[: rest.index("]") + 1] if rest.startswith("[") else rest[:2] if rest[:2] in ("Cl", "Br") else rest[0]
    return token + label + rest[len(token):]


def generate(count, path):
    side = math.ceil(math.sqrt(count))
    acyls, amines = [], []
    for i, mol in enumerate(parents()):
        label = "%99" if i % 2 == 0 else "%98"
        texts = [attached(mol, label, 0), attached(mol, label, -1)]
        kept = []
        for text in texts:
            if text is not None and text not in kept:
                kept.append(text)
        (acyls if i % 2 == 0 else amines).extend(kept)
    if len(acyls) < side or len(amines) < side:
        sys.exit(f"only {len(acyls)} acyl and {len(amines)} amine parents for {side} of each")
    written = 0
    with open(path, "w") as out:
        for j in range(side):
            for i in range(side):
                if written == count:
                    return
                out.write(f"{acyls[i]}.C%99(=O)NC%98.{amines[j]} A{i}-B{j}\n")
                written += 1


def oracle(path, queries_path, out_path):
    queries = json.load(open(queries_path))
    lines = [line.split() for line in open(path)]
    started = time.perf_counter()
    sample = lines[:50_000]
    for smiles, _ in sample:
        mol = Chem.MolFromSmiles(smiles)
        AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)
        Chem.PatternFingerprint(mol)
        Chem.MolToSmiles(mol)
    build_us = (time.perf_counter() - started) / len(sample) * 1e6
    mols = [Chem.MolFromSmiles(s) for s, _ in lines]
    ids = [i for _, i in lines]
    fps = [AllChem.GetMorganFingerprintAsBitVect(m, 2, nBits=2048) for m in mols]
    similarity = []
    for query in queries["similarity"]:
        fp = AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(query), 2, nBits=2048)
        times = []
        for _ in range(3):
            t = time.perf_counter()
            scores = DataStructs.BulkTanimotoSimilarity(fp, fps)
            times.append((time.perf_counter() - t) * 1000)
        top = sorted(range(len(scores)), key=lambda k: (-scores[k], k))[:10]
        similarity.append({"query": query, "ms": min(times), "top10": [[ids[k], scores[k]] for k in top]})
    substructure = []
    for smarts in queries["substructure"]:
        pattern = Chem.MolFromSmarts(smarts)
        t = time.perf_counter()
        count = sum(1 for m in mols if m.HasSubstructMatch(pattern))
        substructure.append({"smarts": smarts, "count": count, "ms": (time.perf_counter() - t) * 1000})
    json.dump({
        "rdkit": rdBase.rdkitVersion,
        "molecules": len(mols),
        "build_us_per_molecule": build_us,
        "similarity": similarity,
        "substructure": substructure,
    }, open(out_path, "w"))


def bulk(path, repeat, queries_path, out_path):
    queries = json.load(open(queries_path))
    fps = [AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(line.split()[0]), 2, nBits=2048)
           for line in open(path)]
    rows = fps * repeat
    times = {}
    for query in queries["similarity"]:
        fp = AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(query), 2, nBits=2048)
        best = math.inf
        for _ in range(3):
            t = time.perf_counter()
            DataStructs.BulkTanimotoSimilarity(fp, rows)
            best = min(best, (time.perf_counter() - t) * 1000)
        times[query] = best
    json.dump({"rows": len(rows), "ms": times}, open(out_path, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "bulk":
        bulk(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        oracle(sys.argv[2], sys.argv[3], sys.argv[4])
