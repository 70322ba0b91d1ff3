/**
 * RDKit MinimalLib (WebAssembly) loaded once per process, plus the two helpers every chemistry function uses
 * to parse input with typed errors and to free WASM objects on every path.
 *
 * The WebAssembly bytes are handed in by the runtime entry (file, embedded asset, …) so this module touches
 * no runtime API.
 *
 * @module
 */
import initRDKitModuleImport from "@rdkit/rdkit";
import type { Log, MainModule, Mol } from "@rdkit/rdkit";
import { ChemError, preview, wellFormed } from "../errors.ts";
import { costRefusal, textCost } from "./cost.ts";

export type { MainModule as RDKitModule, Mol } from "@rdkit/rdkit";

/** Longest SMILES string accepted anywhere (characters). */
export const MAX_SMILES_LENGTH = 20_000;
/**
 * Largest molecule accepted by the general tools (heavy atoms). RDKit MinimalLib's recursive algorithms overflow
 * the WebAssembly stack on long unbranched paths (a 600-atom chain traps in canonicalisation and leaves the module
 * unusable), so the limit stays below that and is checked on the SMILES text before RDKit sees it.
 */
export const MAX_HEAVY_ATOMS = 500;

type Factory = (options: Record<string, unknown>) => Promise<MainModule>;

let loaded: MainModule | undefined;
let loading: Promise<MainModule> | undefined;

function factory(): Factory {
  // The package is CommonJS; depending on the loader the default import is the factory or its namespace.
  const mod = initRDKitModuleImport as unknown as Factory | { default: Factory };
  return typeof mod === "function" ? mod : mod.default;
}

/**
 * Loads RDKit from WebAssembly bytes (or a compiled module). Safe to call more than once: later calls return the
 * same instance. Emscripten's stdout printing is redirected to the `log` sink so protocol output stays clean.
 *
 * @example
 * ```ts
 * const bytes = await Deno.readFile(wasmPath);
 * await loadRDKit(bytes);
 * ```
 */
export function loadRDKit(
  wasm: BufferSource | WebAssembly.Module,
  log: (line: string) => void = () => {},
): Promise<MainModule> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= factory()({
    print: log,
    printErr: log,
    instantiateWasm(
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) {
      const ready = wasm instanceof WebAssembly.Module
        ? WebAssembly.instantiate(wasm, imports).then((instance) => done(instance, wasm))
        : WebAssembly.instantiate(wasm, imports).then((r) => done(r.instance, r.module));
      ready.catch((error: unknown) => log(`RDKit WebAssembly failed to instantiate: ${String(error)}`));
      return {};
    },
  }).then((module) => {
    module.disable_logging();
    errorLog = module.set_log_capture("rdApp.error");
    trackSizes(module);
    loaded = module;
    return module;
  });
  return loading;
}

/** RDKit's error log, captured (not printed) so a parse failure can say what RDKit objected to. */
let errorLog: Log | null = null;

/**
 * RDKit's own words for the failure just seen (the last error it logged, its timestamp removed, at most 200
 * characters), and the log emptied; `undefined` when it logged nothing. Called before a parse to start clean,
 * and after a failed one: RDKit's valence and kekulisation errors name the atom at fault.
 *
 * @example
 * ```ts
 * rdkitReason(); // clears
 * rdkit().get_mol("CN(C)(C)(C)C"); // null
 * rdkitReason(); // "Explicit valence for atom # 1 N, 5, is greater than permitted"
 * ```
 */
export function rdkitReason(): string | undefined {
  const last = takeLog().at(-1);
  return last ? preview(last, 200) : undefined;
}

/** The lines RDKit logged since the last read, timestamps removed, and the log emptied. */
function takeLog(): string[] {
  if (!errorLog) return [];
  const text = errorLog.get_buffer();
  errorLog.clear_buffer();
  return text.split("\n").map((line) => line.replace(/^\[[\d:]+\]\s*/, "").trim()).filter(Boolean);
}

/**
 * Why RDKit refused a SMILES, in a few words and without the SMILES, read from its whole log: its parser logs
 * the fault, then the position, then a last line that only repeats the input ("Failed parsing SMILES …").
 *
 * @example
 * ```ts
 * smilesReason(["SMILES Parse Error: extra open parentheses while parsing: C(C", "…"], "C(C");
 * // "unclosed branch: a '(' is never closed"
 * ```
 */
export function smilesReason(lines: readonly string[], smiles: string): string | undefined {
  const log = lines.join("\n");
  if (/extra open parenthes/.test(log)) return "unclosed branch: a '(' is never closed";
  if (/extra close parenthes/.test(log)) return "extra ')': it closes no open branch";
  if (/unclosed ring/.test(log)) return "unclosed ring: a ring-closure digit is never closed";
  const at = /check for mistakes around position (\d+)/.exec(log);
  if (at) {
    const position = Number(at[1]);
    const char = wellFormed(Array.from(smiles.slice(position - 1))[0] ?? "");
    const what = /[A-Za-z]/.test(char) ? "unknown element symbol or syntax error" : "syntax error";
    return `${what} at character ${position} ('${char}')`;
  }
  const fault = lines.find((line) => !/^SMILES Parse Error: Failed parsing SMILES/.test(line)) ??
    lines.at(-1);
  return fault
    ? preview(fault.replace(/ for input: '.*'$/, "").replace(/^SMILES Parse Error: /, ""), 200)
    : undefined;
}

let largestSeen = 0;

/** Records the size of every molecule and query RDKit builds, for {@link takeLargestMolecule}. */
function trackSizes(module: MainModule): void {
  const track = <A extends unknown[]>(make: (...args: A) => Mol | null) => {
    const tracked = (...args: A): Mol | null => {
      const mol = make.apply(module, args);
      if (mol) largestSeen = Math.max(largestSeen, mol.get_num_atoms());
      return mol;
    };
    // Embind's overload dispatch looks its table up on the module's property, which is now this wrapper.
    return Object.assign(tracked, make);
  };
  module.get_mol = track(module.get_mol) as MainModule["get_mol"];
  module.get_qmol = track(module.get_qmol) as MainModule["get_qmol"];
  module.get_mol_copy = track(module.get_mol_copy) as MainModule["get_mol_copy"];
}

/**
 * The most atoms of any molecule or query RDKit has built since the last call, and resets the count. A tool
 * worker asks after each call: an instance that held a very large molecule may have been damaged silently
 * (src/chem/cost.ts, `LIGHT_MAX_ATOMS`), so the worker is replaced.
 */
export function takeLargestMolecule(): number {
  const largest = largestSeen;
  largestSeen = 0;
  return largest;
}

/**
 * The loaded RDKit module. Throws if {@link loadRDKit} has not completed: a programming error, not user input.
 */
export function rdkit(): MainModule {
  if (!loaded) throw new Error("RDKit is not loaded: await loadRDKit(wasmBytes) before calling chemistry");
  return loaded;
}

/**
 * `mol` when it has at most `maxHeavyAtoms` heavy atoms; otherwise frees it and throws `MOLECULE_TOO_LARGE`. The
 * one size check of every parser (SMILES here, MOL blocks in convert.ts and the library's SD records), which hand
 * over a molecule only once it passed.
 */
export function withinSize(mol: Mol, maxHeavyAtoms: number): Mol {
  const heavy = mol.get_num_atoms(true);
  if (heavy <= maxHeavyAtoms) return mol;
  mol.delete();
  throw new ChemError(
    "MOLECULE_TOO_LARGE",
    `Molecule has ${heavy} heavy atoms; this tool accepts at most ${maxHeavyAtoms}.`,
    { heavy_atoms: heavy, limit: maxHeavyAtoms },
  );
}

/** A hydrogen atom written in a SMILES (`[H]`, `[2H]`, `[H+]`), not a bracket atom's hydrogen count (`[nH]`). */
const HYDROGEN_ATOM = /\[\d*H(?![a-z])/;
/**
 * `get_mol` details for a molecule read for its graph alone, written with no hydrogen atom: no stereo perception
 * (ECFP4 without chirality, as `ecfp4` defines it, reads none) and no pass removing hydrogens (there are none to
 * remove). Parsing takes half the time, and the fingerprints are RDKit's (docs/decisions/graph-parse.md). Not for
 * every tool: without that pass `sa_score` changed on 11 of 17,537 held-out molecules.
 */
const GRAPH_DETAILS = JSON.stringify({ removeHs: false, assignStereo: false });

/**
 * What a parsed molecule is for: `full` (every tool) or `graph` (ECFP4, which reads no stereo).
 */
export type ParseMode = "full" | "graph";

/**
 * Parses a SMILES string into an RDKit molecule, or throws `ChemError("INVALID_SMILES")`.
 * The caller owns the returned molecule and must `delete()` it; prefer {@link withMol}.
 */
export function parseSmiles(
  smiles: string,
  maxHeavyAtoms: number = MAX_HEAVY_ATOMS,
  mode: ParseMode = "full",
): Mol {
  const text = smiles.trim();
  if (text.length === 0) {
    throw new ChemError("INVALID_SMILES", "SMILES is empty; pass a SMILES string such as 'CCO'.");
  }
  if (text.length > MAX_SMILES_LENGTH) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `SMILES is ${text.length} characters long; at most ${MAX_SMILES_LENGTH} are accepted.`,
      { length: text.length, limit: MAX_SMILES_LENGTH },
    );
  }
  if (/[\s>]/.test(text)) {
    // Also every MOL block, which RDKit's get_mol would read: it spans lines.
    throw new ChemError(
      "INVALID_SMILES",
      `'${preview(text)}' is not a single-molecule SMILES (whitespace or reaction arrow found).`,
      { smiles: preview(text) },
    );
  }
  if (/[{}"]/.test(text)) {
    // RDKit's get_mol also reads CommonChem and RDKit JSON documents; no SMILES holds a brace or a quote.
    throw new ChemError(
      "INVALID_SMILES",
      `'${preview(text)}' is a JSON document, not a SMILES; pass a SMILES string such as 'CCO'.`,
      { smiles: preview(text) },
    );
  }
  const cost = textCost(text);
  if (cost.atoms > maxHeavyAtoms) {
    throw new ChemError(
      "MOLECULE_TOO_LARGE",
      `SMILES has about ${cost.atoms} heavy atoms; this tool accepts at most ${maxHeavyAtoms}.`,
      { heavy_atoms: cost.atoms, limit: maxHeavyAtoms },
    );
  }
  const refusal = costRefusal(cost);
  if (refusal) throw refusal;
  takeLog();
  const mol = mode === "graph" && !HYDROGEN_ATOM.test(text)
    ? rdkit().get_mol(text, GRAPH_DETAILS)
    : rdkit().get_mol(text);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    const reason = smilesReason(takeLog(), text);
    throw new ChemError(
      "INVALID_SMILES",
      `RDKit could not parse SMILES '${preview(text)}': ` +
        (reason ? `${reason}.` : "check ring-closure digits, brackets, element symbols and valences."),
      { smiles: preview(text), ...(reason ? { reason } : {}) },
    );
  }
  return withinSize(mol, maxHeavyAtoms);
}

/**
 * Parses `smiles`, passes the molecule to `fn`, and frees it whatever happens.
 *
 * @example
 * ```ts
 * const atoms = withMol("CCO", (mol) => mol.get_num_atoms());
 * ```
 */
export function withMol<T>(
  smiles: string,
  fn: (mol: Mol) => T,
  maxHeavyAtoms?: number,
  mode?: ParseMode,
): T {
  const mol = parseSmiles(smiles, maxHeavyAtoms, mode);
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

/**
 * Compiles a SMARTS query, passes it to `fn`, and frees it whatever happens.
 * Throws `ChemError("INVALID_SMARTS")` for a pattern RDKit rejects.
 */
export function withQuery<T>(smarts: string, fn: (query: Mol) => T): T {
  const text = smarts.trim();
  if (text.length === 0) {
    throw new ChemError("INVALID_SMARTS", "SMARTS is empty; pass a pattern such as 'c1ccccc1'.");
  }
  const depth = recursionDepth(text);
  if (depth > MAX_SMARTS_RECURSION) {
    throw new ChemError(
      "INVALID_SMARTS",
      `SMARTS nests recursive SMARTS ($(...)) ${depth} deep; at most ${MAX_SMARTS_RECURSION} levels are accepted.`,
      { depth, limit: MAX_SMARTS_RECURSION },
    );
  }
  rdkitReason();
  const query = rdkit().get_qmol(text);
  if (!query || !query.is_valid()) {
    query?.delete();
    const reason = rdkitReason();
    throw new ChemError(
      "INVALID_SMARTS",
      `RDKit could not parse SMARTS '${preview(text)}': ` +
        (reason ? `${reason}.` : "check brackets, atom primitives and ring closures."),
      { smarts: preview(text), ...(reason ? { reason } : {}) },
    );
  }
  try {
    return fn(query);
  } finally {
    query.delete();
  }
}

/**
 * Deepest nesting of recursive SMARTS (`$(...)` inside `$(...)`) accepted. RDKit's SMARTS parser and matcher
 * recurse once per level on the WebAssembly stack: 200 levels overwrite memory (later calls fail), 120 did not
 * (measured). Real queries nest two or three levels; 16 leaves a wide margin both ways.
 */
export const MAX_SMARTS_RECURSION = 16;

/**
 * How deep recursive SMARTS nest in `smarts`, read from the text alone.
 *
 * @example
 * ```ts
 * recursionDepth("[$([OH]),$([NH2])]"); // 1
 * recursionDepth("[$(C[$(N)])]"); // 2
 * ```
 */
export function recursionDepth(smarts: string): number {
  const open: boolean[] = []; // per open parenthesis: whether it opened a recursive SMARTS
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < smarts.length; i++) {
    const ch = smarts[i];
    if (ch === "(") {
      const recursive = smarts[i - 1] === "$";
      open.push(recursive);
      if (recursive) deepest = Math.max(deepest, ++depth);
    } else if (ch === ")" && open.pop()) depth--;
  }
  return deepest;
}

const ATOM_TOKEN = /\[[^\]]*\]|Br|Cl|[BCNOPSFI*bcnops]/g;

/**
 * Counts atom tokens in a SMILES string (bracket atoms, organic-subset symbols, `*`) without parsing it, so an
 * oversized molecule is refused before it reaches RDKit. Explicit `[H]` atoms count too, so this is an upper bound
 * on heavy atoms.
 *
 * @example
 * ```ts
 * countSmilesAtoms("CC(=O)Oc1ccccc1C(=O)O"); // 13
 * ```
 */
export function countSmilesAtoms(smiles: string): number {
  return smiles.match(ATOM_TOKEN)?.length ?? 0;
}

/**
 * Atoms in the molecule's largest ring of RDKit's ring perception (SSSR), from its JSON ring list; 0 without
 * rings.
 *
 * @example
 * ```ts
 * withMol("C1CC1c1ccccc1", largestRing); // 6
 * ```
 */
export function largestRing(mol: Mol): number {
  const doc = JSON.parse(mol.get_json()) as {
    molecules?: { extensions?: { name?: string; atomRings?: number[][] }[] }[];
  };
  const rings = doc.molecules?.[0]?.extensions?.find((e) => e.name === "rdkitRepresentation")?.atomRings ??
    [];
  return rings.reduce((most, ring) => Math.max(most, ring.length), 0);
}

/** Parses RDKit's JSON descriptor string into numbers keyed by RDKit's descriptor names. */
export function descriptors(mol: Mol): Record<string, number> {
  return JSON.parse(mol.get_descriptors()) as Record<string, number>;
}
