/**
 * The cost model: what a molecule will cost RDKit, read from its text before RDKit sees it.
 *
 * Size alone does not predict cost. RDKit's ring perception, run when a SMILES is parsed, and the ring-based
 * descriptors grow with the number of independent rings and, far faster, with how densely they are packed:
 * a graph of 12 dummy atoms joined by 40 ring closures takes RDKit 5–10 s for its descriptors, where a 362-atom
 * polycycle with 90 ring closures takes 0.8–1.4 s (measurements in docs/security.md, bench/cost_bench.ts). Dense
 * packing needs atoms with many neighbours, which only dummy atoms (`*`) and metals may have in a SMILES
 * RDKit accepts; CIP labelling grows with the number of stereocentres. So the model reads, in one pass over
 * the text:
 *
 * - `atoms`, every atom token (bracket atoms, organic-subset symbols, `*`);
 * - `ringClosures`, bonds written as ring-closure pairs: for one connected molecule, its number of
 *   independent rings (cyclomatic number);
 * - `excessDegree`, the sum over atoms of neighbours beyond four: zero for organic chemistry (carbon holds
 *   four), a few for hypervalent P and S, twelve for a carborane cage, dozens for a dense dummy-atom graph;
 * - `stereoAtoms`, atoms with a `@` tetrahedral mark.
 *
 * From these it decides, for each input, one of three verdicts: light (may run on the protocol thread),
 * costly (runs in the pool as a possibly long call), or refused (beyond every honest molecule, answered
 * `MOLECULE_TOO_LARGE` naming the limit). SMARTS patterns are read the same way; their own runaway cost
 * (substructure search) is bounded by their tool's deadline.
 *
 * @module
 */
import { ChemError } from "../errors.ts";

/** What a SMILES (or SMARTS) text declares, counted without parsing it. */
export interface TextCost {
  /** Atom tokens. */
  readonly atoms: number;
  /** Ring-closure bonds (pairs of ring-bond labels). */
  readonly ringClosures: number;
  /** Sum over atoms of written neighbours beyond four. */
  readonly excessDegree: number;
  /** Atoms with a tetrahedral (`@`) mark. */
  readonly stereoAtoms: number;
}

/**
 * Most atoms an input may have and still run on the protocol thread; larger ones run in the pool whatever the
 * tool, and the worker that ran them is replaced afterwards. RDKit MinimalLib has no guard against exhausting
 * its WebAssembly stack, and on very large or very regular inputs some of its (and the InChI library's)
 * recursive code overwrites memory without trapping: a 300-membered aromatic ring through InChI leaves the
 * instance answering later calls with "null function" (measured; 290 members did not). Drug-like molecules are
 * far below this size (Lipinski's 500 Da is about 35 heavy atoms), so they keep the fast path and warm workers.
 */
export const LIGHT_MAX_ATOMS = 150;
/** Most ring closures of an input on the protocol thread: the validation set's largest has 15, C60 31. */
export const LIGHT_MAX_RING_CLOSURES = 32;
/** Most excess degree on the protocol thread: room for a hexafluorophosphate or two hypervalent atoms. */
export const LIGHT_MAX_EXCESS_DEGREE = 4;
/**
 * Most `stereocentres × ring closures` on the protocol thread, where smiles_to_moljson labels centres CIP. RDKit's
 * CIP labeller explores symmetric fused ring systems exponentially: perhydropolyacenes with 10, 14, 26 and 30
 * stereocentres (6, 8, 14, 16 rings) took 0.13, 0.4, 3 and 8 s. The validation and drug sets reach 77 (paclitaxel, 11 × 7).
 */
export const LIGHT_MAX_STEREO_RINGS = 96;
/** Most stereocentres on the protocol thread, rings or not. */
export const LIGHT_MAX_STEREO_ATOMS = 32;
/**
 * Most excess degree accepted at all: two carborane cages (12 each) fit, the dense dummy-atom graphs that take
 * RDKit seconds to tens of seconds do not.
 */
export const MAX_EXCESS_DEGREE = 32;
/**
 * Most ring density accepted, `ringClosures² / atoms`: denser packing is what makes ring perception and
 * descriptors explode. Real polycycles stay below: a fused polycycle of 90 rings has 22, a nanodiamond of 150
 * carbons about 54, the C240 fullerene 61. At the limit, 500 atoms of four neighbours, descriptors take 2–5 s;
 * at 150, 8–11 s, and molecule_context_pack three times that.
 */
export const MAX_RING_DENSITY = 64;

const TWO_LETTER = new Set(["Br", "Cl"]);
const ONE_LETTER = new Set(["B", "C", "N", "O", "P", "S", "F", "I", "*", "b", "c", "n", "o", "p", "s"]);

/**
 * Reads `text` as SMILES in one pass and counts what drives RDKit's cost (see the module comment). Malformed
 * text is counted as far as it goes: RDKit refuses it later, and the counts only ever overstate.
 *
 * @example
 * ```ts
 * textCost("C1CC2CCC1C2"); // { atoms: 7, ringClosures: 2, excessDegree: 0, stereoAtoms: 0 }
 * ```
 */
export function textCost(text: string): TextCost {
  const degree: number[] = [];
  const branches: number[] = [];
  const open = new Map<string, number>();
  let previous = -1;
  let ringClosures = 0;
  let stereoAtoms = 0;
  const bond = (a: number, b: number) => {
    degree[a] = (degree[a] ?? 0) + 1;
    degree[b] = (degree[b] ?? 0) + 1;
  };
  const addAtom = () => {
    degree.push(0);
    const atom = degree.length - 1;
    if (previous >= 0) bond(previous, atom);
    previous = atom;
  };
  const ringLabel = (label: string) => {
    if (previous < 0) return;
    const partner = open.get(label);
    if (partner === undefined) open.set(label, previous);
    else {
      open.delete(label);
      bond(partner, previous);
      ringClosures++;
    }
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "[") {
      const end = text.indexOf("]", i);
      const body = end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      if (body.includes("@")) stereoAtoms++;
      addAtom();
      if (end < 0) break;
      i = end;
    } else if (TWO_LETTER.has(text.slice(i, i + 2))) {
      addAtom();
      i++;
    } else if (ONE_LETTER.has(ch)) addAtom();
    else if (ch >= "0" && ch <= "9") ringLabel(ch);
    else if (ch === "%") {
      const match = /^%(\d\d|\(\d+\))/.exec(text.slice(i, i + 12));
      if (match) {
        ringLabel(match[1]!.replace(/[()]/g, ""));
        i += match[0].length - 1;
      }
    } else if (ch === "(") branches.push(previous);
    else if (ch === ")") previous = branches.pop() ?? previous;
    else if (ch === ".") previous = -1;
  }
  const excessDegree = degree.reduce((sum, d) => sum + Math.max(0, d - 4), 0);
  return { atoms: degree.length, ringClosures, excessDegree, stereoAtoms };
}

/**
 * The same counts for a molecule given as a graph (a MolJSON document's atoms and bonds): its independent rings
 * (bonds − atoms + components) in place of ring closures; stereocentres are not counted.
 *
 * @example
 * ```ts
 * graphCost(3, [[0, 1], [1, 2], [2, 0]]); // { atoms: 3, ringClosures: 1, excessDegree: 0, stereoAtoms: 0 }
 * ```
 */
export function graphCost(atoms: number, bonds: readonly (readonly [number, number])[]): TextCost {
  const parent = Array.from({ length: atoms }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const degree = new Array<number>(atoms).fill(0);
  let components = atoms;
  for (const [a, b] of bonds) {
    degree[a]!++;
    degree[b]!++;
    const [ra, rb] = [root(a), root(b)];
    if (ra !== rb) {
      parent[ra] = rb;
      components--;
    }
  }
  const excessDegree = degree.reduce((sum, d) => sum + Math.max(0, d - 4), 0);
  return { atoms, ringClosures: bonds.length - atoms + components, excessDegree, stereoAtoms: 0 };
}

/** `ringClosures² / atoms`: how densely the rings are packed (see {@link MAX_RING_DENSITY}). */
export function ringDensity(cost: TextCost): number {
  return cost.atoms === 0 ? 0 : cost.ringClosures ** 2 / cost.atoms;
}

/** Whether an input of this cost may run on the protocol thread: below every light limit. */
export function isLight(cost: TextCost): boolean {
  return cost.atoms <= LIGHT_MAX_ATOMS && cost.ringClosures <= LIGHT_MAX_RING_CLOSURES &&
    cost.excessDegree <= LIGHT_MAX_EXCESS_DEGREE && cost.stereoAtoms <= LIGHT_MAX_STEREO_ATOMS &&
    cost.stereoAtoms * cost.ringClosures <= LIGHT_MAX_STEREO_RINGS;
}

/**
 * The typed refusal of an input whose cost is beyond every honest molecule, or `undefined` when it is accepted.
 * The error names the limit in its message and in `details.limit_name`.
 *
 * @example
 * ```ts
 * costRefusal(textCost("CCO")); // undefined
 * ```
 */
export function costRefusal(cost: TextCost): ChemError | undefined {
  if (cost.excessDegree > MAX_EXCESS_DEGREE) {
    return new ChemError(
      "MOLECULE_TOO_LARGE",
      `The molecule gives its atoms ${cost.excessDegree} neighbours beyond four in all; at most ` +
        `${MAX_EXCESS_DEGREE} are accepted (such densely bonded graphs take RDKit minutes).`,
      { limit_name: "excess_degree", excess_degree: cost.excessDegree, limit: MAX_EXCESS_DEGREE },
    );
  }
  const density = ringDensity(cost);
  if (density > MAX_RING_DENSITY) {
    return new ChemError(
      "MOLECULE_TOO_LARGE",
      `The molecule packs ${cost.ringClosures} rings into ${cost.atoms} atoms (ring density ` +
        `closures²/atoms ${Math.round(density)}); at most ${MAX_RING_DENSITY} is accepted.`,
      {
        limit_name: "ring_density",
        ring_closures: cost.ringClosures,
        atoms: cost.atoms,
        limit: MAX_RING_DENSITY,
      },
    );
  }
  return undefined;
}

/**
 * Most atoms in all of one call's molecules, summed, for the call to stay on the protocol thread or count as
 * bounded in the pool: work grows with the whole input, not only with its largest molecule. A drug-sized
 * molecule (25–35 heavy atoms) costs a fingerprint or a descriptor set in 0.1–0.3 ms (10,000 fingerprints and
 * Tanimoto scores take 2.4–4.0 s on one core), so this is some 200 drug molecules: tens of ms.
 */
export const LIGHT_MAX_TOTAL_ATOMS = 5_000;

/** Atom symbols of MDL query atoms: any atom, heteroatom, halogen, metal (with or without H), and atom lists. */
const QUERY_SYMBOLS = new Set(["A", "AH", "Q", "QH", "X", "XH", "M", "MH", "L", "*", "R#"]);

/** What a MOL block declares, read from its text before RDKit parses (and sanitises) it. */
export interface MolBlockCost extends TextCost {
  /** Atoms the block's counts line (V2000) or `COUNTS` line (V3000) declares. */
  readonly declaredAtoms: number;
  /** MDL query atoms (`A`, `Q`, `X`, `M`, lists): RDKit's sanitiser on these in dense rings takes seconds. */
  readonly queryAtoms: number;
}

/**
 * The logical `M  V30` lines of a V3000 block, as RDKit reads them: the prefix in any case, and a line ending in
 * `-` continued by the next `M  V30` line.
 */
function v30Lines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let pending: string | undefined;
  for (const line of lines) {
    const match = /^M {2}V30 ?(.*)$/i.exec(line.trimEnd());
    if (!match) continue;
    const body = (pending ?? "") + match[1]!;
    if (body.endsWith("-")) pending = body.slice(0, -1);
    else {
      out.push(body);
      pending = undefined;
    }
  }
  if (pending !== undefined) out.push(pending);
  return out;
}

/**
 * Reads a MOL block's atoms, bonds and query atoms from its text (V2000 atom and bond lines, or V3000 `ATOM` and
 * `BOND` blocks), for the cost model: its graph is read as {@link graphCost} reads a MolJSON document's. Bonds
 * naming atoms the block does not have are skipped (RDKit refuses the block later).
 *
 * @example
 * ```ts
 * molBlockCost("\n\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" +
 *   "    0.0    0.0    0.0 C   0  0\n    0.0    0.0    0.0 A   0  0\n  1  2  1  0\nM  END\n").queryAtoms; // 1
 * ```
 */
export function molBlockCost(block: string): MolBlockCost {
  const lines = block.replace(/\r\n?/g, "\n").split("\n");
  const v30 = v30Lines(lines);
  return v30.length > 0 ? v3000Cost(v30) : v2000Cost(lines);
}

function v2000Cost(lines: readonly string[]): MolBlockCost {
  const counts = lines[3] ?? "";
  const declared = fixedInt(counts, 0);
  const declaredBonds = fixedInt(counts, 3);
  const symbols = lines.slice(4, 4 + declared).map((line) => line.slice(31, 34).trim());
  const bonds = lines.slice(4 + declared, 4 + declared + declaredBonds).map((line) =>
    [fixedInt(line, 0) - 1, fixedInt(line, 3) - 1] as const
  );
  return withGraph(declared, symbols, bonds);
}

function v3000Cost(v30: readonly string[]): MolBlockCost {
  const countsLine = v30.find((line) => /^COUNTS\b/i.test(line.trim()));
  const declared = Number(/^COUNTS\s+(\d+)/i.exec(countsLine?.trim() ?? "")?.[1] ?? 0);
  const symbols: string[] = [];
  const bonds: (readonly [number, number])[] = [];
  let section = "";
  for (const line of v30) {
    const fields = line.trim().split(/\s+/);
    const head = fields[0]?.toUpperCase();
    if (head === "BEGIN") section = fields[1]?.toUpperCase() ?? "";
    else if (head === "END") section = "";
    else if (section === "ATOM") symbols.push(fields[1] ?? "");
    else if (section === "BOND") bonds.push([Number(fields[2]) - 1, Number(fields[3]) - 1]);
  }
  return withGraph(declared, symbols, bonds);
}

/** The graph's cost, its query atoms and the declared count. */
function withGraph(
  declared: number,
  symbols: readonly string[],
  bonds: readonly (readonly [number, number])[],
): MolBlockCost {
  const atoms = symbols.length;
  const valid = bonds.filter(([a, b]) => inRange(a, atoms) && inRange(b, atoms) && a !== b);
  const queryAtoms = symbols.filter((s) => QUERY_SYMBOLS.has(s) || s.startsWith("[")).length;
  return { ...graphCost(atoms, valid), declaredAtoms: declared, queryAtoms };
}

function inRange(index: number, count: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < count;
}

/** The integer in the 3-character field at `start` of a V2000 line, 0 when there is none. */
function fixedInt(line: string, start: number): number {
  const value = Number(line.slice(start, start + 3).trim());
  return Number.isInteger(value) && value > 0 ? value : 0;
}
