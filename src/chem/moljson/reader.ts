/**
 * MolJSON v1 → RDKit molecule: the document is validated (schema, then graph, stereo and size checks naming the
 * offending atom or bond), written as RDKit's JSON (aromatic bonds handed over as aromatic and kekulised by
 * RDKit's sanitisation) and canonicalised by RDKit (Schneider, Sayle & Landrum, J. Chem. Inf. Model. 2015, 55,
 * 2111, doi:10.1021/acs.jcim.5b00543).
 *
 * @module
 */
import * as v from "valibot";
import { ChemError } from "../../errors.ts";
import { MAX_HEAVY_ATOMS, type Mol, rdkit, rdkitReason } from "../rdkit.ts";
import { costRefusal, graphCost } from "../cost.ts";
import {
  ATOMIC_NUMBER,
  type MolJsonAtom,
  type MolJsonBond,
  MolJsonSchema,
  neighbourLists,
  type ResolvedMolJson,
  resolveMolJson,
} from "./schema.ts";
import { rdkitJsonOf } from "./writer.ts";

/** Throws the one error kind of this module. */
function invalid(message: string, details: Record<string, unknown>): never {
  throw new ChemError("INVALID_MOLJSON", message, details);
}

/** Structural validation (types, ranges, required fields) with the failing path in the message. */
function parseStructure(input: unknown): ResolvedMolJson {
  const result = v.safeParse(MolJsonSchema, input);
  if (result.success) return resolveMolJson(result.output);
  const issue = result.issues[0];
  const path = v.getDotPath(issue) ?? "(document)";
  const match = /^(atoms|bonds)\.(\d+)/.exec(path);
  const where = match ? `${match[1] === "atoms" ? "atom" : "bond"} ${match[2]}: ` : "";
  invalid(`${where}${path}: ${issue.message}`, {
    path,
    ...(match ? { [match[1] === "atoms" ? "atom" : "bond"]: Number(match[2]) } : {}),
  });
}

/** Index, element, range, duplicate and aromaticity checks; returns the neighbour lists. */
function checkGraph(doc: ResolvedMolJson): number[][] {
  const n = doc.atoms.length;
  doc.atoms.forEach((atom, i) => {
    if (atom.index !== i) {
      invalid(`atom ${i}: index is ${atom.index} but must equal its position ${i}.`, { atom: i });
    }
    if (!ATOMIC_NUMBER.has(atom.element)) {
      invalid(`atom ${i}: unknown element '${atom.element}' (use a symbol such as C, N, Cl, or '*').`, {
        atom: i,
      });
    }
  });
  const seen = new Map<string, number>();
  doc.bonds.forEach((bond, j) => {
    if (bond.index !== j) {
      invalid(`bond ${j}: index is ${bond.index} but must equal its position ${j}.`, { bond: j });
    }
    for (const end of [bond.begin, bond.end]) {
      if (end >= n) {
        invalid(`bond ${j}: atom index ${end} is out of range (atoms are 0..${n - 1}); the bond dangles.`, {
          bond: j,
          atom: end,
        });
      }
    }
    if (bond.begin === bond.end) invalid(`bond ${j}: joins atom ${bond.begin} to itself.`, { bond: j });
    const key = bond.begin < bond.end ? `${bond.begin}-${bond.end}` : `${bond.end}-${bond.begin}`;
    const first = seen.get(key);
    if (first !== undefined) {
      invalid(`bond ${j}: duplicates bond ${first} (atoms ${key}).`, { bond: j, duplicate_of: first });
    }
    seen.set(key, j);
    const aromaticEnds = (doc.atoms[bond.begin]?.aromatic ?? false) &&
      (doc.atoms[bond.end]?.aromatic ?? false);
    if (bond.order === 1.5 && !aromaticEnds) {
      invalid(
        `bond ${j}: order 1.5 (aromatic) needs both atoms ${bond.begin} and ${bond.end} marked aromatic.`,
        {
          bond: j,
        },
      );
    }
  });
  const neighbours = neighbourLists(n, doc.bonds);
  doc.atoms.forEach((atom, i) => {
    if (atom.aromatic && !doc.bonds.some((b) => b.order === 1.5 && (b.begin === i || b.end === i))) {
      invalid(`atom ${i}: marked aromatic but has no aromatic (1.5) bond.`, { atom: i });
    }
  });
  return neighbours;
}

/** Sign of the permutation taking `from` to `to` (same elements): +1 even, -1 odd. */
function permutationSign<T>(from: readonly T[], to: readonly T[]): number {
  const perm = to.map((x) => from.indexOf(x));
  let sign = 1;
  const visited = perm.map(() => false);
  for (let i = 0; i < perm.length; i++) {
    if (visited[i]) continue;
    let length = 0;
    for (let j = i; !visited[j]; j = perm[j] ?? i) {
      visited[j] = true;
      length++;
    }
    if (length % 2 === 0) sign = -sign;
  }
  return sign;
}

/** RDKit chiral tag for a MolJSON chirality, checking that it names exactly the atom's neighbours. */
function chiralTag(atom: MolJsonAtom, neighbours: readonly number[]): "cw" | "ccw" | undefined {
  const c = atom.chirality;
  if (!c) return undefined;
  const i = atom.index;
  const hasH = c.neighbors.includes("H");
  if (hasH && atom.hydrogens !== 1) {
    const message = `atom ${i}: chirality lists "H" but the atom has ${atom.hydrogens} hydrogens (needs 1).`;
    invalid(message, { atom: i });
  }
  const expected: (number | "H")[] = [...neighbours, ...(atom.hydrogens === 1 ? ["H" as const] : [])];
  const given = c.neighbors;
  const sameSet = given.length === expected.length && new Set(given).size === given.length &&
    given.every((x) => expected.includes(x));
  if (!sameSet || expected.length < 3 || expected.length > 4) {
    invalid(
      `atom ${i}: chirality neighbors [${given.join(", ")}] must list each of the atom's neighbours ` +
        `[${expected.join(", ")}] exactly once (3 or 4 in all).`,
      { atom: i },
    );
  }
  const sign = permutationSign(expected, given);
  const ccw = c.winding === "CCW";
  return (sign > 0) === ccw ? "ccw" : "cw";
}

/** Checks a double bond's stereo reference atoms and returns them ordered (neighbour of begin first). */
function stereoAtoms(bond: MolJsonBond, neighbours: readonly number[][]): [number, number] | undefined {
  const s = bond.stereo;
  if (!s) return undefined;
  const j = bond.index;
  if (bond.order !== 2) invalid(`bond ${j}: cis/trans stereo is only allowed on a double bond.`, { bond: j });
  const [p, q] = s.atoms;
  const nb = neighbours[bond.begin] ?? [];
  const ne = neighbours[bond.end] ?? [];
  const ok = (a: number, b: number) => a !== bond.end && b !== bond.begin && nb.includes(a) && ne.includes(b);
  if (ok(p, q)) return [p, q];
  if (ok(q, p)) return [q, p];
  invalid(
    `bond ${j}: stereo atoms [${p}, ${q}] must be a neighbour of atom ${bond.begin} and a neighbour of atom ` +
      `${bond.end}, other than the bond's own atoms.`,
    { bond: j },
  );
}

/** Builds RDKit's JSON for a validated MolJSON document. */
function toRdkitJson(doc: ResolvedMolJson, neighbours: readonly number[][]): string {
  const atoms = doc.atoms.map((a) => {
    const tag = chiralTag(a, neighbours[a.index] ?? []);
    return {
      z: ATOMIC_NUMBER.get(a.element) ?? 0,
      impHs: a.hydrogens,
      chg: a.charge,
      nRad: a.radical_electrons,
      isotope: a.isotope ?? 0,
      stereo: tag ?? "unspecified",
    };
  });
  const bonds = doc.bonds.map((b) => {
    const ref = stereoAtoms(b, neighbours);
    return {
      bo: b.order === 1.5 ? 1 : b.order,
      atoms: [b.begin, b.end],
      ...(ref && b.stereo ? { stereo: b.stereo.configuration, stereoAtoms: ref } : {}),
    };
  });
  const aromaticBonds = doc.bonds.filter((b) => b.order === 1.5).map((b) => b.index);
  const aromaticAtoms = doc.atoms.filter((a) => a.aromatic).map((a) => a.index);
  return JSON.stringify({
    rdkitjson: { version: 11 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
      bond: { bo: 1, stereo: "unspecified" },
    },
    molecules: [{
      atoms,
      bonds,
      extensions: [{
        name: "rdkitRepresentation",
        formatVersion: 2,
        toolkitVersion: "moljson",
        aromaticAtoms,
        aromaticBonds,
      }],
    }],
  });
}

/** Turns RDKit's sanitisation log into an error naming the atom(s). */
function sanitizationError(log: string): never {
  const valence = /valence for atom # ?(\d+) ([A-Za-z*]+),? (\d+)/i.exec(log);
  if (valence) {
    const atom = Number(valence[1]);
    const [, , element = "?", total = "?"] = valence;
    invalid(
      `atom ${atom}: bad valence — ${element} with valence ${total} (bond orders plus hydrogens) is more than ` +
        "RDKit permits; check its bonds, hydrogens and charge.",
      { atom, element },
    );
  }
  const kekule = /Unkekulized atoms:\s*([\d ]+)/.exec(log);
  if (kekule) {
    const atoms = (kekule[1] ?? "").trim().split(/\s+/).map(Number);
    const list = atoms.join(", ");
    invalid(
      `atoms ${list}: the aromatic system cannot be kekulised; check aromatic flags and hydrogens (e.g. a ` +
        "pyrrole-type nitrogen needs hydrogens: 1).",
      { atoms, atom: atoms[0] },
    );
  }
  const line = log.trim().split("\n").pop() ?? "";
  invalid(`RDKit rejected the molecule: ${line.replace(/^\[[^\]]*\]\s*/, "") || "unknown reason"}.`, {});
}

/**
 * Parses and validates a MolJSON document into an RDKit molecule. The caller owns the molecule (delete it).
 * Throws `ChemError("INVALID_MOLJSON")` naming the offending atom or bond.
 *
 * @example
 * ```ts
 * const mol = molFromMolJson(toMolJson("CCO"));
 * mol.get_smiles(); // "CCO"
 * mol.delete();
 * ```
 */
export function molFromMolJson(input: unknown): Mol {
  const doc = parseStructure(input);
  const neighbours = checkGraph(doc);
  const heavy = doc.atoms.filter((a) => a.element !== "H").length;
  if (heavy > MAX_HEAVY_ATOMS) {
    const message = `MolJSON has ${heavy} heavy atoms; at most ${MAX_HEAVY_ATOMS} are accepted.`;
    throw new ChemError("MOLECULE_TOO_LARGE", message, { heavy_atoms: heavy, limit: MAX_HEAVY_ATOMS });
  }
  // The graph RDKit would perceive rings in, read by the cost model before RDKit sees it (docs/security.md).
  const refusal = costRefusal(graphCost(doc.atoms.length, doc.bonds.map((b) => [b.begin, b.end] as const)));
  if (refusal) throw refusal;
  const json = toRdkitJson(doc, neighbours);
  const R = rdkit();
  let smiles: string;
  rdkitReason(); // starts RDKit's error log empty
  // RDKit's legacy stereo perception would discard cis/trans set directly on bonds, so the JSON molecule is read
  // without it, written as SMILES (stereo kept) and re-read: the re-read applies RDKit's normal clean-up (a chiral
  // tag on an atom that is not a stereocentre is dropped, as for SMILES input).
  const mol = R.get_mol(json, JSON.stringify({ setAromaticBonds: true, assignStereo: false }));
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    sanitizationError(rdkitReason() ?? "");
  }
  try {
    smiles = mol.get_smiles();
  } finally {
    mol.delete();
  }
  const reread = R.get_mol(smiles);
  if (!reread || !reread.is_valid()) {
    reread?.delete();
    invalid(`RDKit could not re-read the molecule it built from the MolJSON (SMILES '${smiles}').`, {});
  }
  checkRadicalsKept(doc, reread);
  return reread;
}

/**
 * SMILES cannot write unpaired electrons on an atom whose bonds and hydrogens already fill its valence (a
 * saturated carbon with `radical_electrons: 4`), so RDKit would drop them without a word; such input is refused.
 */
function checkRadicalsKept(doc: ResolvedMolJson, mol: Mol): void {
  const given = doc.atoms.reduce((n, a) => n + (a.radical_electrons ?? 0), 0);
  if (given === 0) return;
  const kept = rdkitJsonOf(mol).atoms.reduce((n, a) => n + (a.nRad ?? 0), 0);
  if (kept === given) return;
  mol.delete();
  const atoms = doc.atoms.filter((a) => (a.radical_electrons ?? 0) > 0).map((a) => a.index);
  invalid(
    `radical_electrons on atom(s) ${atoms.join(", ")} (${given} in all) do not fit: the atoms' bonds and ` +
      `hydrogens already use the valence those electrons need (${kept} kept). Lower hydrogens or radical_electrons.`,
    { atoms, radical_electrons: given },
  );
}

/**
 * MolJSON → RDKit canonical isomeric SMILES.
 *
 * @example
 * ```ts
 * fromMolJson(toMolJson("OCC")).smiles; // "CCO"
 * ```
 */
export function fromMolJson(input: unknown): { smiles: string; atom_count: number; bond_count: number } {
  const mol = molFromMolJson(input);
  try {
    return { smiles: mol.get_smiles(), atom_count: mol.get_num_atoms(true), bond_count: mol.get_num_bonds() };
  } finally {
    mol.delete();
  }
}
