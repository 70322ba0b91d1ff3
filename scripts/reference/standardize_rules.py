#!/usr/bin/env python3
"""Writes src/chem/data/standardize_rules.ts from RDKit 2022.09 sources (a bare clone given as RDKIT_GIT) and the
oracle RDKit's periodic table. Run from the repository root: RDKIT_GIT=/path/to/rdkit.git python3 scripts/reference/standardize_rules.py"""
import re, subprocess, json
from rdkit import Chem
import os
G=os.environ["RDKIT_GIT"]; T="Release_2022_09_3"; D="Code/GraphMol/MolStandardize"
def show(p): return subprocess.run(["git","--git-dir="+G,"show",f"{T}:{D}/{p}"],capture_output=True,text=True,check=True).stdout
def strings(block):
    # join adjacent C string literals
    toks=re.findall(r'"((?:[^"\\]|\\.)*)"|([{}(),])', block)
    return toks
def groups(src, n):
    body=src[src.index('{',src.index('default')) : ]
    # remove comments
    body=re.sub(r'//[^\n]*','',body)
    out=[]; cur=[]; curstr=None; depth=0
    for s,p in strings(body):
        if p=='' :
            curstr=(curstr or '')+s; continue
        if curstr is not None and p in ',)}':
            cur.append(curstr); curstr=None
        if p in '})' and len(cur)==n:
            out.append(cur); cur=[]
    return out
norm=groups(show("TransformCatalog/normalizations.in"),2)
ab=groups(show("AcidBaseCatalog/acid_base_pairs.in"),3)
pt=Chem.GetPeriodicTable()
val=[list(pt.GetValenceList(z)) for z in range(0,119)]
L=[]
L.append('''/**
 * RDKit's MolStandardize rule tables as RDKit 2022.09 ships them (Code/GraphMol/MolStandardize/
 * TransformCatalog/normalizations.in, AcidBaseCatalog/acid_base_pairs.in) and the allowed-valence lists of
 * RDKit's periodic table (Code/GraphMol/atomic_data.cpp). Data from RDKit, Copyright (C) 2018-2021 Susan H. Leung,
 * Greg Landrum and other RDKit contributors, BSD 3-clause licence (LICENSES/). Written by
 * scripts/reference/standardize_rules.py.
 *
 * @module
 */

// deno-fmt-ignore
/** Normalisation transforms (RDKit's name, reaction SMARTS) in the order RDKit applies them. */
export const NORMALIZATIONS: readonly (readonly [string, string])[] = [''')
for n,s in norm: L.append(f"  [{json.dumps(n)}, {json.dumps(s)}],")
L.append("];\n")
L.append("// deno-fmt-ignore")
L.append("/** Acid–base pairs (RDKit's name, acid SMARTS, base SMARTS), strongest acid first. */")
L.append("export const ACID_BASE_PAIRS: readonly (readonly [string, string, string])[] = [")
for n,a,b in ab: L.append(f"  [{json.dumps(n)}, {json.dumps(a)}, {json.dumps(b)}],")
L.append("];\n")
L.append("// deno-fmt-ignore")
L.append("/** RDKit's allowed valences by atomic number (index 0 is the dummy atom); -1 means any valence. */")
L.append("export const VALENCES: readonly (readonly number[])[] = [")
for i in range(0,119,10): L.append("  "+" ".join(json.dumps(v)+"," for v in val[i:i+10]))
L.append("];")
open("src/chem/data/standardize_rules.ts","w").write("\n".join(L)+"\n")
print(len(norm),len(ab))


def tautomer_rules():
    """src/chem/data/tautomer_rules.ts: RDKit 2022.09's tautomer transforms (tautomerTransforms.in)."""
    taut = groups(show("TautomerCatalog/tautomerTransforms.in"), 4)
    out = ['''/**
 * RDKit's tautomer transforms as RDKit 2022.09 ships them (Code/GraphMol/MolStandardize/TautomerCatalog/
 * tautomerTransforms.in: name, SMARTS of the atoms from the hydrogen's donor to its acceptor, bond types after
 * the shift, charge changes) and the substructure terms of its canonical-tautomer score (Tautomer.cpp). Data from
 * RDKit, Copyright (C) 2018-2021 Susan H. Leung, Greg Landrum and other RDKit contributors, BSD 3-clause licence
 * (LICENSES/). Written by scripts/reference/standardize_rules.py.
 *
 * @module
 */

// deno-fmt-ignore
/** Tautomer transforms (name, SMARTS, bond types, charges) in RDKit's order. */
export const TAUTOMER_TRANSFORMS: readonly (readonly [string, string, string, string])[] = [''']
    for row in taut:
        out.append("  [" + ", ".join(json.dumps(x) for x in row) + "],")
    out.append("];")
    src = show("Tautomer.cpp")
    terms = re.findall(r'\{"([^"]+)",\s*"((?:[^"\\]|\\.)*)",\s*(-?\d+)\}', src)
    out.append("")
    out.append("// deno-fmt-ignore")
    out.append("/** The substructure terms of RDKit's tautomer score (name, SMARTS, points per match). */")
    out.append("export const TAUTOMER_SCORE_TERMS: readonly (readonly [string, string, number])[] = [")
    for name, smarts, score in terms:
        out.append(f"  [{json.dumps(name)}, {json.dumps(smarts)}, {score}],")
    out.append("];")
    open("src/chem/data/tautomer_rules.ts", "w").write("\n".join(out) + "\n")
    print(len(taut), len(terms))


tautomer_rules()
