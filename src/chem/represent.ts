/**
 * Text representations of a molecule (canonical SMILES, InChI, CML, MolJSON), shared identifiers, and the
 * documented rules that pick one for an LLM task.
 *
 * - Canonical SMILES: RDKit (Schneider, Sayle & Landrum, J. Chem. Inf. Model. 2015, 55, 2111,
 *   doi:10.1021/acs.jcim.5b00543).
 * - InChI / InChIKey: the IUPAC InChI library bundled with RDKit (Heller et al., J. Cheminform. 2015, 7, 23,
 *   doi:10.1186/s13321-015-0068-4).
 * - CML: written here (Murray-Rust & Rzepa, J. Chem. Inf. Comput. Sci. 1999, 39, 928, doi:10.1021/ci990052b;
 *   schema namespace http://www.xml-cml.org/schema).
 * - MolJSON: ./moljson/ (docs/moljson.md).
 *
 * @module
 */
import { ChemError } from "../errors.ts";
import { type MolJson, resolveMolJson } from "./moljson/schema.ts";
import { toMolJson } from "./moljson/writer.ts";
import { largestRing, type Mol, rdkit, withMol } from "./rdkit.ts";

/** The CML namespace URI. */
export const CML_NAMESPACE = "http://www.xml-cml.org/schema";

/** Identifiers of a molecule. */
export interface Identifiers {
  /** RDKit canonical isomeric SMILES. */
  canonical_smiles: string;
  /** Standard InChI (empty string when InChI cannot represent the input, e.g. dummy atoms). */
  inchi: string;
  /** Standard InChIKey of `inchi` (empty string when `inchi` is empty). */
  inchikey: string;
  /** Molecular formula in Hill order, net charge appended RDKit-style ('+', '-2'). */
  formula: string;
}

/**
 * Largest ring (atoms) for which InChI is computed. The InChI library bundled with RDKit MinimalLib overwrites
 * memory on a 300-membered aromatic ring (no trap: later calls on the same instance fail), and not on 290
 * (measured); no ring in a drug or natural product comes near 128.
 */
export const MAX_INCHI_RING = 128;

/**
 * The size of the molecule's largest SSSR ring when it is over {@link MAX_INCHI_RING}, else 0. Only a molecule of
 * more atoms than that can hold such a ring, so the ring list (RDKit's JSON) is read for those alone.
 */
function ringTooLargeForInchi(mol: Mol): number {
  if (mol.get_num_atoms() <= MAX_INCHI_RING) return 0;
  const largest = largestRing(mol);
  return largest > MAX_INCHI_RING ? largest : 0;
}

/**
 * Standard InChI from RDKit's bundled InChI library. Throws `UNSUPPORTED_MOLECULE` when InChI cannot
 * represent the molecule (dummy atoms, for example).
 *
 * @example
 * ```ts
 * inchi("CCO"); // "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"
 * ```
 */
export function inchi(smiles: string): string {
  return withMol(smiles, molInchi);
}

/** Standard InChI of a parsed molecule, with {@link inchi}'s checks and errors. */
export function molInchi(mol: Mol): string {
  const ring = ringTooLargeForInchi(mol);
  if (ring > 0) {
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      `InChI is not computed for rings of more than ${MAX_INCHI_RING} atoms (this one has ${ring}); use ` +
        "canonical SMILES.",
      { ring_size: ring, limit: MAX_INCHI_RING },
    );
  }
  const text = mol.get_inchi();
  if (!text) {
    throw new ChemError(
      "UNSUPPORTED_MOLECULE",
      "InChI cannot represent this molecule (for example it has dummy '*' atoms); use canonical SMILES.",
    );
  }
  return text;
}

/**
 * Standard InChIKey of a SMILES string.
 *
 * @example
 * ```ts
 * inchikey("CCO"); // "LFQSCWFLJHTTHZ-UHFFFAOYSA-N"
 * ```
 */
export function inchikey(smiles: string): string {
  return rdkit().get_inchikey_for_inchi(inchi(smiles));
}

/**
 * Hill-order formula of a MolJSON document: C then H then the other elements alphabetically when carbon is
 * present, otherwise all alphabetically; implicit hydrogens and hydrogen atoms both count, isotopes count as
 * their element, dummy atoms count as the symbol `*` (sorted before the letters, as RDKit's CalcMolFormula
 * writes `CH3*` for `C*`: a formula that dropped them would name a different molecule); the net charge is
 * appended as RDKit writes it ('+', '+2', '-').
 *
 * @example
 * ```ts
 * hillFormula(toMolJson("C[N+](C)(C)C")); // "C4H12N+"
 * hillFormula(toMolJson("*c1ccccc1Cl")); // "C6H4*Cl"
 * ```
 */
export function hillFormula(written: MolJson): string {
  const doc = resolveMolJson(written);
  const counts = new Map<string, number>();
  const add = (element: string, n: number) => n > 0 && counts.set(element, (counts.get(element) ?? 0) + n);
  let charge = 0;
  for (const atom of doc.atoms) {
    add(atom.element, 1);
    add("H", atom.hydrogens);
    charge += atom.charge;
  }
  const carbon = counts.has("C");
  const order = [...counts.keys()].sort((a, b) => {
    const rank = (e: string) => (carbon && e === "C" ? 0 : carbon && e === "H" ? 1 : 2);
    return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
  });
  const body = order.map((e) => `${e}${(counts.get(e) ?? 0) > 1 ? counts.get(e) : ""}`).join("");
  const sign = charge > 0 ? "+" : charge < 0 ? "-" : "";
  return `${body}${sign}${Math.abs(charge) > 1 ? Math.abs(charge) : ""}`;
}

/**
 * Canonical SMILES, standard InChI and InChIKey, and Hill formula of a molecule.
 *
 * @example
 * ```ts
 * identifiers("OCC").formula; // "C2H6O"
 * ```
 */
export function identifiers(smiles: string): Identifiers {
  return withMol(smiles, (mol) => {
    const text = ringTooLargeForInchi(mol) > 0 ? "" : mol.get_inchi();
    return {
      canonical_smiles: mol.get_smiles(),
      inchi: text,
      inchikey: text ? rdkit().get_inchikey_for_inchi(text) : "",
      formula: hillFormula(toMolJson(smiles)),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// CML

/**
 * Escapes text for a double-quoted XML attribute value.
 *
 * @example
 * ```ts
 * xmlAttr('a "b" & <c>'); // "a &#34;b&#34; &#38; &#60;c&#62;"
 * ```
 */
export function xmlAttr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(
    // Characters XML 1.0 forbids outright are dropped rather than escaped (they cannot be escaped).
    // deno-lint-ignore no-control-regex
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g,
    "",
  );
}

/** Kekulé bond orders (1, 2, 3) in bond order of the SMILES, from RDKit's JSON. */
function kekuleOrders(smiles: string): number[] {
  return withMol(smiles, (mol) => {
    const doc = JSON.parse(mol.get_json()) as { molecules: { bonds?: { bo?: number }[] }[] };
    return (doc.molecules[0]?.bonds ?? []).map((b) => b.bo ?? 1);
  });
}

/** Options of {@link toCml}. */
export interface CmlOptions {
  /** `id` of the molecule element (default "m1"). */
  id?: string;
  /** Optional `title` attribute (any text; escaped). */
  title?: string;
}

/**
 * CML (Chemical Markup Language) document of a molecule: `<molecule>` in the CML namespace with an
 * `atomArray` (id a1…, elementType, formalCharge, hydrogenCount, isotopeNumber, spinMultiplicity for radicals)
 * and a `bondArray` (atomRefs2, Kekulé order 1/2/3). Stereo: `atomParity` (sign of the chiral volume of
 * atomRefs4, the centre itself standing in for an implicit H or lone pair) and `bondStereo` C/T.
 *
 * @example
 * ```ts
 * toCml("CCO").includes('<atom id="a3" elementType="O" formalCharge="0" hydrogenCount="1"/>'); // true
 * ```
 */
export function toCml(smiles: string, options: CmlOptions = {}): string {
  const doc = resolveMolJson(toMolJson(smiles));
  const orders = kekuleOrders(smiles);
  const id = (i: number | "H", centre: number) => `a${(i === "H" ? centre : i) + 1}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<molecule xmlns="${CML_NAMESPACE}" id="${xmlAttr(options.id ?? "m1")}"${
      options.title === undefined ? "" : ` title="${xmlAttr(options.title)}"`
    }>`,
    "  <atomArray>",
  ];
  for (const a of doc.atoms) {
    const attrs = [
      `id="a${a.index + 1}"`,
      `elementType="${a.element === "*" ? "R" : a.element}"`,
      `formalCharge="${a.charge}"`,
      `hydrogenCount="${a.hydrogens}"`,
      ...(a.isotope === null ? [] : [`isotopeNumber="${a.isotope}"`]),
      ...(a.radical_electrons > 0 ? [`spinMultiplicity="${a.radical_electrons + 1}"`] : []),
    ].join(" ");
    const c = a.chirality;
    if (!c) {
      lines.push(`    <atom ${attrs}/>`);
      continue;
    }
    // SMILES @ (CCW seen from the first neighbour) is a negative chiral volume det[1;x;y;z] of the four
    // reference points; a missing fourth neighbour (lone pair) is replaced by the centre, as CML prescribes.
    const refs = [
      ...c.neighbors.map((n) => id(n, a.index)),
      ...(c.neighbors.length === 3 ? [id(a.index, 0)] : []),
    ];
    lines.push(
      `    <atom ${attrs}>`,
      `      <atomParity atomRefs4="${refs.join(" ")}">${c.winding === "CCW" ? -1 : 1}</atomParity>`,
      "    </atom>",
    );
  }
  lines.push("  </atomArray>", "  <bondArray>");
  for (const b of doc.bonds) {
    const attrs = `id="b${b.index + 1}" atomRefs2="a${b.begin + 1} a${b.end + 1}" order="${
      orders[b.index] ?? 1
    }"`;
    if (!b.stereo) {
      lines.push(`    <bond ${attrs}/>`);
      continue;
    }
    const [p, q] = b.stereo.atoms;
    lines.push(
      `    <bond ${attrs}>`,
      `      <bondStereo atomRefs4="a${p + 1} a${b.begin + 1} a${b.end + 1} a${q + 1}">${
        b.stereo.configuration === "cis" ? "C" : "T"
      }</bondStereo>`,
      "    </bond>",
    );
  }
  lines.push("  </bondArray>", "</molecule>", "");
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Representation router

/** Representations the router can choose. */
export type Representation = "moljson" | "cml" | "inchi" | "canonical_smiles";

/** Task kinds with a fixed choice. */
export const TASK_KINDS = [
  "atom_edit",
  "reaction_mapping",
  "stereo_review",
  "identity_dedup",
  "database_lookup",
  "xml_pipeline",
  "compact_prompt",
  "generation",
] as const;
/** A task kind. */
export type TaskKind = typeof TASK_KINDS[number];

interface Rule {
  readonly representation: Representation;
  readonly reason: string;
}

const MOLJSON_REASON =
  "MolJSON lists every atom and bond with a stable index, its element, charge, hydrogens and " +
  "stereo relative to named neighbours, so atoms can be addressed, edited or mapped without re-parsing SMILES " +
  "ring-closure and branch syntax.";
const INCHI_REASON =
  "Standard InChI is a canonical, layered IUPAC identifier (tautomer-tolerant mobile-H layer): " +
  "two records are the same compound exactly when their standard InChIs (or InChIKeys) are equal.";
const CML_REASON =
  "CML is XML in the http://www.xml-cml.org/schema namespace, so XML tools (XPath, XSLT, schema " +
  "validation) can consume it directly.";
const SMILES_REASON =
  "Canonical SMILES is the shortest of the four representations (fewest tokens) and unique " +
  "for a given RDKit version, which suits prompts, generation and general questions.";

/** What each task kind maps to (documented in docs/tools/representation_router.md). */
export const KIND_RULES: Readonly<Record<TaskKind, Rule>> = {
  atom_edit: { representation: "moljson", reason: MOLJSON_REASON },
  reaction_mapping: { representation: "moljson", reason: MOLJSON_REASON },
  stereo_review: { representation: "moljson", reason: MOLJSON_REASON },
  identity_dedup: { representation: "inchi", reason: INCHI_REASON },
  database_lookup: { representation: "inchi", reason: INCHI_REASON },
  xml_pipeline: { representation: "cml", reason: CML_REASON },
  compact_prompt: { representation: "canonical_smiles", reason: SMILES_REASON },
  generation: { representation: "canonical_smiles", reason: SMILES_REASON },
};

/** Free-text keyword rules, tried in this order; the first that matches decides the task kind. */
export const KEYWORD_RULES: readonly {
  readonly id: string;
  readonly pattern: RegExp;
  readonly kind: TaskKind;
}[] = [
  { id: "keyword:xml", pattern: /\b(xml|cml|xslt|xpath|xsd)\b/i, kind: "xml_pipeline" },
  {
    id: "keyword:identity",
    pattern:
      /\b(dedup\w*|de-dup\w*|duplicates?|identical|same (compound|molecule|structure)|identity|inchi\w*|register\w*|registration)\b/i,
    kind: "identity_dedup",
  },
  {
    id: "keyword:lookup",
    pattern: /\b(look ?up|database|search (pubchem|chembl|a database)|cross-?reference)\b/i,
    kind: "database_lookup",
  },
  {
    id: "keyword:mapping",
    pattern: /\b(atom[- ]?(to[- ]?atom )?map\w*|reaction mapping|mapped reaction|reaction cent(er|re)s?)\b/i,
    kind: "reaction_mapping",
  },
  {
    id: "keyword:stereo",
    pattern: /\b(stereo\w*|chiral\w*|enantiomer\w*|e\/z|cis|trans|r\/s)\b/i,
    kind: "stereo_review",
  },
  {
    id: "keyword:edit",
    pattern:
      /\b(edit\w*|modif\w*|mutat\w*|replace|substitut\w*|change (an|the|one) (atom|bond)|add (an?|the) (atom|bond|group)|remove (an?|the) (atom|bond|group)|atom ind(ex|ices)|bond ind(ex|ices))\b/i,
    kind: "atom_edit",
  },
  {
    id: "keyword:compact",
    pattern: /\b(prompt|compact|short(est)?|tokens?|concise|generat\w*|design|propose)\b/i,
    kind: "compact_prompt",
  },
];

/** The router's decision and the text in the chosen representation. */
export interface RepresentationChoice {
  /** Chosen representation. */
  representation: Representation;
  /** The molecule in that representation. */
  text: string;
  /** Why this representation suits the task. */
  reason: string;
  /** Rule that fired: `kind:<task_kind>`, `keyword:<name>` or `default`. */
  rule: string;
  /** Task kind the decision rests on (null for the default rule). */
  task_kind: TaskKind | null;
  /** Text that triggered a keyword rule (null otherwise). */
  matched: string | null;
}

/**
 * Resolves the rule for a request: explicit kind first, then keywords, then the default.
 *
 * @example
 * ```ts
 * resolveRule({ task: "export as XML" }); // { rule: "keyword:xml", kind: "xml_pipeline", matched: "XML" }
 * ```
 */
export function resolveRule(
  request: { task?: string | undefined; task_kind?: TaskKind | undefined },
): { rule: string; kind: TaskKind | null; matched: string | null } {
  if (request.task_kind) return { rule: `kind:${request.task_kind}`, kind: request.task_kind, matched: null };
  for (const r of KEYWORD_RULES) {
    const m = request.task ? r.pattern.exec(request.task) : null;
    if (m) return { rule: r.id, kind: r.kind, matched: m[0] };
  }
  return { rule: "default", kind: null, matched: null };
}

/**
 * Text of a molecule in a representation.
 *
 * @example
 * ```ts
 * represent("OCC", "canonical_smiles"); // "CCO"
 * ```
 */
export function represent(smiles: string, representation: Representation): string {
  switch (representation) {
    case "moljson":
      return JSON.stringify(toMolJson(smiles));
    case "cml":
      return toCml(smiles);
    case "inchi":
      return inchi(smiles);
    case "canonical_smiles":
      return withMol(smiles, (mol) => mol.get_smiles());
  }
}

/**
 * Chooses MolJSON, CML, InChI or canonical SMILES for a task (explicit `task_kind` wins over keywords in the
 * free-text `task`; with neither, canonical SMILES) and renders the molecule in it.
 *
 * @example
 * ```ts
 * chooseRepresentation({ smiles: "CCO", task: "remove duplicates from my library" }).representation; // "inchi"
 * ```
 */
export function chooseRepresentation(
  request: { smiles: string; task?: string | undefined; task_kind?: TaskKind | undefined },
): RepresentationChoice {
  const { rule, kind, matched } = resolveRule(request);
  const chosen: Rule = kind ? KIND_RULES[kind] : {
    representation: "canonical_smiles",
    reason: `No task kind given and no keyword rule matched; default. ${SMILES_REASON}`,
  };
  return {
    representation: chosen.representation,
    text: represent(request.smiles, chosen.representation),
    reason: chosen.reason,
    rule,
    task_kind: kind,
    matched,
  };
}
