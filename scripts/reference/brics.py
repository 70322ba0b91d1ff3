#!/usr/bin/env python3
"""Writes RDKit's BRICS answers for the validation set (and the project's drug set) as a test fixture.

For every molecule of tests/data/reference/molecules.smi and of tests/data/drugs50.ts, parsed whole as the
retrosynthesis tool parses it (Chem.MolFromSmiles: a salt keeps its counter-ion as a separate component, explicit
hydrogens are removed, RDKit's default aromaticity), the fixture records

  - every bond of BRICS.FindBRICSBonds(mol), in RDKit's order, as [a, b, la, lb]: the atom indices (input SMILES
    order) and the environment number each atom gets (the isotope of the dummy atom attached to it when cut);
  - for each of those bonds, the two fragments of BRICS.BreakBRICSBonds(mol, bonds=[that bond]): the canonical
    SMILES (Chem.MolToSmiles) of the connected component holding atom a and of the one holding atom b;
  - where they differ, the same two fragments from Chem.FragmentOnBonds(mol, [bond index], dummyLabels=...), under
    "kept": BreakBRICSBonds rebuilds the cut with an EditableMol, whose new bond goes to the end of the atom's bond
    list, and so inverts a tetrahedral centre on the cut bond when the removed bond was not in a position an even
    permutation can absorb; FragmentOnBonds keeps the configuration. Recorded so the test can tell that case apart.

Output: tests/data/reference/brics.json, laid out by `deno fmt`. Run from the repository after `npm ci`:
/usr/bin/python3 scripts/reference/brics.py (needs `apt-get install -y python3-rdkit`).
"""
import datetime
import json
import os
import re
import subprocess
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import BRICS

from molecules import records

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DRUGS = os.path.join(ROOT, "tests", "data", "drugs50.ts")
OUT = os.path.join(ROOT, "tests", "data", "reference", "brics.json")


def drug_set():
    # drugs50.ts lists entries as `{ name: "...", smiles: "..." + "...", ... }`; read the two fields only.
    text = open(DRUGS).read()
    for name, pieces in re.findall(r'name:\s*"([^"]+)",\s*smiles:\s*((?:"[^"]*"\s*\+?\s*)+)', text):
        # The pieces are JavaScript string literals; their escapes (`\\` for a backslash) are JSON's.
        yield f"drug:{name}", "".join(json.loads(p) for p in re.findall(r'"[^"]*"', pieces))


def split(mol, a, b):
    """The canonical SMILES of the components holding atoms a and b."""
    frag_of = []
    frags = Chem.GetMolFrags(mol, asMols=True, sanitizeFrags=True, frags=frag_of)
    return [Chem.MolToSmiles(frags[frag_of[a]]), Chem.MolToSmiles(frags[frag_of[b]])]


def entry(ident, smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return {"id": ident, "smiles": smiles, "error": "RDKit cannot parse"}
    bonds, fragments, kept = [], [], {}
    for (a, b), (la, lb) in BRICS.FindBRICSBonds(mol):
        bonds.append([a, b, int(la), int(lb)])
        broken = BRICS.BreakBRICSBonds(mol, bonds=[((a, b), (la, lb))])
        fragments.append(split(broken, a, b))
        bond = mol.GetBondBetweenAtoms(a, b)
        # FragmentOnBonds labels the dummy that replaces the begin atom first; it is bonded to the end atom.
        labels = (int(lb), int(la)) if bond.GetBeginAtomIdx() == a else (int(la), int(lb))
        cut = Chem.FragmentOnBonds(mol, [bond.GetIdx()], dummyLabels=[labels])
        other = split(cut, a, b)
        if other != fragments[-1]:
            kept[str(len(fragments) - 1)] = other
    out = {"id": ident, "smiles": smiles, "heavy_atoms": mol.GetNumHeavyAtoms(), "bonds": bonds, "fragments": fragments}
    if kept:
        out["kept"] = kept
    return out


def main():
    entries = [entry(i, s) for s, i, _source in records()] + [entry(i, s) for i, s in drug_set()]
    provenance = {
        "script": "scripts/reference/brics.py",
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.date.today().isoformat(),
        "molecules": "tests/data/reference/molecules.smi (ids as there) and tests/data/drugs50.ts (ids drug:<name>)",
        "calls": [
            "mol = Chem.MolFromSmiles(smiles)",
            "bonds: BRICS.FindBRICSBonds(mol) -> [a, b, la, lb] for ((a, b), (la, lb))",
            "fragments: BRICS.BreakBRICSBonds(mol, bonds=[((a, b), (la, lb))]); Chem.GetMolFrags(asMols=True); "
            "Chem.MolToSmiles of the component holding a, then of the one holding b",
            "kept (only where different): the same from Chem.FragmentOnBonds(mol, [bond index], dummyLabels=...)",
        ],
    }
    with open(OUT, "w") as handle:
        handle.write('{"provenance": ' + json.dumps(provenance) + ',\n"molecules": [\n')
        handle.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        handle.write("\n]}\n")
    # Laid out by deno fmt at the repository's line width, so a diff of two runs reads per molecule; the fixtures'
    # folder is left out of the repository's own formatting, hence no config.
    subprocess.run(["npx", "deno", "fmt", "--quiet", "--no-config", "--line-width", "110", OUT], cwd=ROOT, check=True)
    bonds = sum(len(e.get("bonds", [])) for e in entries)
    kept = sum(len(e.get("kept", {})) for e in entries)
    print(f"{len(entries)} molecules, {bonds} BRICS bonds ({kept} with a centre kept) -> {os.path.normpath(OUT)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
