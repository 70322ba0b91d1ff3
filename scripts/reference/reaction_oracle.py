#!/usr/bin/env python3
"""Writes RDKit's RunReactants answers for published reaction templates applied to held-out reactants.

Templates (all distributed with RDKit under its BSD-3-Clause licence, LICENSES/RDKit-BSD-3-Clause.txt):

  - RECAP: the eleven retrosynthetic bond types of Lewell et al., J. Chem. Inf. Comput. Sci. 1998, 38, 511, as
    RDKit writes them (rdkit.Chem.Recap.reactionDefs, 12 reaction SMARTS), applied to single molecules;
  - the same twelve with every atom map removed (unmapped templates: products are built from the template alone);
  - deprotections: RDKit's built-in table (rdkit.Chem.rdDeprotect.GetDeprotections(), 25 reaction SMARTS for
    common protecting groups), applied to single molecules;
  - BRICS: the reverse (bond-forming) reactions of Degen et al., ChemMedChem 2008, 3, 1503 (rdkit.Chem.BRICS.
    reverseReactions, 46 two-reactant templates, written with rdChemReactions.ReactionToSmarts), applied
    combinatorially to lists of BRICS fragments of validation molecules.

Reactants: every fourth molecule of tests/data/reference/molecules.smi (the 1-template sets), and BRICS fragments
(BRICS.BRICSDecompose, at most 20 heavy atoms) of the same molecules, up to 8 per reactant template that the
template matches, in order of first appearance (the BRICS set). Molecules with an Al, Si or P atom of six or more
bonds are left out: RDKit 2024.09 and later refuse them (tests/reference/known.ts).

Every template is run the way the run_reaction tool runs it: each combination of one molecule per reactant list
(last list varying fastest), RunReactants(reactants) with RDKit's default maxProducts (1000), each product
sanitised (Chem.SanitizeMol) and written with Chem.MolToSmiles; an outcome is its products in template order; an
outcome with a product that fails sanitisation is counted as unsanitizable; distinct outcomes are kept with the
reactants of the first combination that gave them.

Output: tests/data/reference/reactions.json, one template per line. Run from the repository:
/usr/bin/python3 scripts/reference/reaction_oracle.py (needs `apt-get install -y python3-rdkit`).
"""
import datetime
import itertools
import json
import os
import re
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import BRICS, Recap, rdChemReactions, rdDeprotect

from molecules import records, refused_by_newer_rdkit

RDLogger.DisableLog("rdApp.*")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "reference", "reactions.json")
STRIDE = 4
FRAGMENTS_PER_TEMPLATE = 8
FRAGMENT_HEAVY_ATOMS = 20


def held_out():
    chosen = []
    for i, (smiles, ident, _source) in enumerate(records()):
        if i % STRIDE:
            continue
        mol = Chem.MolFromSmiles(smiles)
        if mol is None or refused_by_newer_rdkit(mol):
            continue
        chosen.append((ident, smiles))
    return chosen


def outcome(products):
    parts = []
    for product in products:
        try:
            Chem.SanitizeMol(product)
        except Exception:
            return None
        parts.append(Chem.MolToSmiles(product))
    return parts


def enumerate_reaction(smarts, slots):
    rxn = rdChemReactions.ReactionFromSmarts(smarts)
    rxn.Initialize()
    mols = {s: Chem.MolFromSmiles(s) for slot in slots for s in slot}
    products, seen, unsanitizable, combinations = [], set(), 0, 0
    for combination in itertools.product(*slots):
        combinations += 1
        for result in rxn.RunReactants(tuple(mols[s] for s in combination)):
            parts = outcome(result)
            if parts is None:
                unsanitizable += 1
                continue
            key = ".".join(parts)
            if key not in seen:
                seen.add(key)
                products.append({"products": parts, "reactants": list(combination)})
    return {"combinations": combinations, "products": products, "unsanitizable": unsanitizable}


def strip_maps(smarts):
    return re.sub(r":\d+\]", "]", smarts)


def brics_fragments(molecules):
    seen = []
    for _ident, smiles in molecules:
        for fragment in sorted(BRICS.BRICSDecompose(Chem.MolFromSmiles(smiles))):
            mol = Chem.MolFromSmiles(fragment)
            if mol is not None and mol.GetNumHeavyAtoms() <= FRAGMENT_HEAVY_ATOMS and fragment not in seen:
                seen.append(fragment)
    return seen


def matching(template, fragments):
    out = []
    for fragment in fragments:
        if Chem.MolFromSmiles(fragment).HasSubstructMatch(template):
            out.append(fragment)
            if len(out) == FRAGMENTS_PER_TEMPLATE:
                break
    return out


def main():
    molecules = held_out()
    smiles_list = [s for _i, s in molecules]
    templates = []
    for i, smarts in enumerate(Recap.reactionDefs):
        templates.append({"set": "RECAP", "name": f"RECAP {i + 1}", "smarts": smarts})
    for i, smarts in enumerate(Recap.reactionDefs):
        templates.append({"set": "RECAP unmapped", "name": f"RECAP {i + 1}, maps removed", "smarts": strip_maps(smarts)})
    for d in rdDeprotect.GetDeprotections():
        templates.append({"set": "deprotection", "name": f"{d.abbreviation} ({d.full_name})", "smarts": d.reaction_smarts})
    for t in templates:
        t.update(enumerate_reaction(t["smarts"], [smiles_list]))
        t["reactants"] = "held-out molecules"
    fragments = brics_fragments(molecules)
    for i, rxn in enumerate(BRICS.reverseReactions):
        slots = [matching(rxn.GetReactantTemplate(k), fragments) for k in range(rxn.GetNumReactantTemplates())]
        if not all(slots):
            continue
        smarts = rdChemReactions.ReactionToSmarts(rxn)
        entry = {"set": "BRICS", "name": f"BRICS reverse reaction {i + 1}", "smarts": smarts, "reactants": slots}
        entry.update(enumerate_reaction(smarts, slots))
        templates.append(entry)
    provenance = {
        "script": "scripts/reference/reaction_oracle.py",
        "rdkit": rdBase.rdkitVersion,
        "python": sys.version.split()[0],
        "date": datetime.date.today().isoformat(),
        "templates": "RECAP (Lewell et al. 1998, rdkit.Chem.Recap.reactionDefs), the same with atom maps removed, "
        "RDKit's deprotections (rdDeprotect.GetDeprotections()), BRICS reverse reactions (Degen et al. 2008, "
        "rdkit.Chem.BRICS.reverseReactions); RDKit, BSD-3-Clause",
        "held_out": f"every {STRIDE}th molecule of tests/data/reference/molecules.smi, less those with Al/Si/P of "
        "six or more bonds; BRICS: their BRICSDecompose fragments of at most "
        f"{FRAGMENT_HEAVY_ATOMS} heavy atoms, the first {FRAGMENTS_PER_TEMPLATE} each template matches",
        "calls": [
            "rxn = rdChemReactions.ReactionFromSmarts(smarts); rxn.Initialize()",
            "for each combination (itertools.product of the reactant lists): rxn.RunReactants(mols) "
            "(maxProducts 1000)",
            "per outcome: Chem.SanitizeMol then Chem.MolToSmiles of each product; a failure counts as unsanitizable",
            "distinct outcomes in order found, with the first combination that gave each",
        ],
    }
    with open(OUT, "w") as handle:
        handle.write('{"provenance": ' + json.dumps(provenance) + ",\n")
        handle.write('"held_out": ' + json.dumps([[i, s] for i, s in molecules]) + ",\n")
        handle.write('"templates": [\n' + ",\n".join(json.dumps(t, separators=(",", ":")) for t in templates))
        handle.write("\n]}\n")
    count = sum(len(t["products"]) for t in templates)
    print(f"{len(templates)} templates, {len(molecules)} held-out molecules, {len(fragments)} fragments, "
          f"{count} distinct outcomes -> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
