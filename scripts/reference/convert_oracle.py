#!/usr/bin/env python3
"""Writes RDKit's canonical SMILES and MOL blocks for the convert tool's round-trip checks.

Held-out molecules: the last 1,000 molecules of tests/data/reference/molecules.smi that RDKit 2022.09 parses and
that have no Al, Si or P atom of six or more bonds (RDKit 2024.09 and later refuse those; tests/reference/known.ts):
the last, so that the PubChem and ChEMBL structures, which hold the set's stereocentres and stereo double bonds, are
all among them.
For each: Chem.MolToSmiles(Chem.MolFromSmiles(smiles)), the canonical isomeric SMILES the round trip must give back.
For every fourth of them, also the MOL blocks RDKit writes, Chem.MolToMolBlock(mol) (V2000, 2D coordinates computed
by RDKit, wedges from the stereo) and Chem.MolToV3KMolBlock(mol) (V3000), and the canonical SMILES RDKit itself reads
back from each (Chem.MolFromMolBlock with its defaults: sanitised, hydrogens removed).

With the file scripts/convert_blocks.ts writes (the blocks the convert tool makes for those molecules), also what
RDKit's Python reads from them: `ours_v2000_read`, `ours_v3000_read`, with an FNV-1a hash of each block
(`ours_v2000_fnv`, `ours_v3000_fnv`) so the test can tell when the tool's blocks have changed since.

Output: tests/data/reference/convert.json, one molecule per line. Run from the repository (needs
`apt-get install -y python3-rdkit`), in this order:

    /usr/bin/python3 scripts/reference/convert_oracle.py
    npx deno run -A scripts/convert_blocks.ts /tmp/convert_blocks.json
    /usr/bin/python3 scripts/reference/convert_oracle.py /tmp/convert_blocks.json
"""
import datetime
import json
import os
import sys

from rdkit import Chem, RDLogger, rdBase

from molecules import records, refused_by_newer_rdkit

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "reference", "convert.json")
COUNT = 1000
BLOCK_STRIDE = 4


def read_back(block):
    mol = Chem.MolFromMolBlock(block)
    return None if mol is None else Chem.MolToSmiles(mol)


def fnv1a(text):
    """32-bit FNV-1a of the text's UTF-16 code units (ASCII here), as tests/reference/convert_suite.ts computes it."""
    h = 0x811C9DC5
    for ch in text:
        h = ((h ^ ord(ch)) * 0x01000193) & 0xFFFFFFFF
    return h


def ours(path):
    if not path:
        return {}
    with open(path) as handle:
        return {b["id"]: b for b in json.load(handle)}


def main():
    tool_blocks = ours(sys.argv[1] if len(sys.argv) > 1 else None)
    parsed = []
    for smiles, ident, _source in records():
        mol = Chem.MolFromSmiles(smiles)
        if mol is not None and not refused_by_newer_rdkit(mol):
            parsed.append((ident, smiles, mol))
    entries = []
    for ident, smiles, mol in parsed[-COUNT:]:
        entry = {"id": ident, "smiles": smiles, "canonical": Chem.MolToSmiles(mol)}
        if len(entries) % BLOCK_STRIDE == 0:
            v2000 = Chem.MolToMolBlock(mol)
            v3000 = Chem.MolToV3KMolBlock(mol)
            entry.update({"v2000": v2000, "v3000": v3000, "v2000_read": read_back(v2000), "v3000_read": read_back(v3000)})
            mine = tool_blocks.get(ident)
            if mine:
                for version in ("v2000", "v3000"):
                    entry[f"ours_{version}_fnv"] = fnv1a(mine[version])
                    entry[f"ours_{version}_read"] = read_back(mine[version])
        entries.append(entry)
    provenance = {
        "script": "scripts/reference/convert_oracle.py",
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.date.today().isoformat(),
        "molecules": f"the last {COUNT} of tests/data/reference/molecules.smi RDKit parses, less Al/Si/P of six bonds",
        "calls": [
            "canonical: Chem.MolToSmiles(Chem.MolFromSmiles(smiles))",
            f"every {BLOCK_STRIDE}th molecule: v2000 = Chem.MolToMolBlock(mol); v3000 = Chem.MolToV3KMolBlock(mol)",
            "v2000_read, v3000_read: Chem.MolToSmiles(Chem.MolFromMolBlock(block)) (sanitised, hydrogens removed)",
            "ours_v2000_read, ours_v3000_read: the same of the convert tool's blocks (scripts/convert_blocks.ts); "
            "ours_*_fnv: 32-bit FNV-1a of those blocks",
        ],
    }
    with open(OUT, "w") as handle:
        handle.write('{"provenance": ' + json.dumps(provenance) + ',\n"molecules": [\n')
        handle.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        handle.write("\n]}\n")
    blocks = sum(1 for e in entries if "v2000" in e)
    print(f"{len(entries)} molecules, {blocks} with RDKit's MOL blocks -> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
