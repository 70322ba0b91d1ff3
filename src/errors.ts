/**
 * The one error hierarchy of chem-mcp.
 *
 * Chemistry code throws {@link ChemError} (a domain failure with a stable string code such as
 * `INVALID_SMILES`); the protocol layer throws {@link ProtocolError} subclasses. Numeric JSON-RPC codes are
 * assigned in exactly one place, `src/protocol/errors.ts`, so no other module knows them.
 *
 * @module
 */

/** Stable, machine-readable codes for chemistry-domain failures (listed in docs/tools.md). */
export type ChemErrorCode =
  | "INVALID_SMILES"
  | "INVALID_SMARTS"
  | "INVALID_MOLJSON"
  | "MOLECULE_TOO_LARGE"
  | "UNSUPPORTED_MOLECULE"
  | "NO_COMMON_SUBSTRUCTURE"
  | "COMPUTATION_TIMEOUT"
  | "SERVER_BUSY"
  | "ANSWER_TOO_LARGE"
  | "EMBEDDING_FAILED"
  | "NAME_NOT_FOUND"
  | "LOOKUP_TIMEOUT"
  | "LOOKUP_UNREACHABLE"
  | "LOOKUP_BAD_RESPONSE"
  | "INVALID_REACTION"
  | "REACTANT_COUNT_MISMATCH"
  | "TOO_MANY_PRODUCTS"
  | "INVALID_MOLBLOCK";

/** What each chemistry error code means and what the caller should change (rendered into docs/tools.md). */
export const CHEM_ERROR_DOCS: Readonly<Record<ChemErrorCode, { meaning: string; fix: string }>> = {
  INVALID_SMILES: {
    meaning: "RDKit could not parse the SMILES (or it is empty, has whitespace or a reaction arrow).",
    fix: "Fix ring-closure digits, brackets, element symbols or valences.",
  },
  INVALID_SMARTS: { meaning: "RDKit could not parse the SMARTS pattern.", fix: "Fix the pattern." },
  INVALID_MOLJSON: {
    meaning: "The MolJSON is malformed; the message names the atom or bond.",
    fix: "Fix it.",
  },
  MOLECULE_TOO_LARGE: {
    meaning:
      "The input is over the tool's atom or length limit, or its bonds are packed past the cost model's (`details.limit`, `details.limit_name`).",
    fix: "Send a smaller molecule.",
  },
  UNSUPPORTED_MOLECULE: {
    meaning: "The method does not apply to this molecule (see the tool's notes).",
    fix: "Use another tool or input.",
  },
  NO_COMMON_SUBSTRUCTURE: {
    meaning: "The molecules share no common substructure.",
    fix: "Check the inputs.",
  },
  COMPUTATION_TIMEOUT: {
    meaning: "A bounded computation reached its time or iteration limit.",
    fix: "Raise the limit within its maximum, or simplify the input.",
  },
  SERVER_BUSY: {
    meaning:
      "No tool worker came free and finished starting within the queue deadline (`details.retry_after_ms`).",
    fix: "Retry after that time.",
  },
  ANSWER_TOO_LARGE: {
    meaning:
      "A batch's answer reached its size cap (`details.limit_chars`); this molecule and the rest were not sent.",
    fix: "Send them again in another batch.",
  },
  EMBEDDING_FAILED: {
    meaning: "3D coordinates could not be generated.",
    fix: "Check stereochemistry and ring strain.",
  },
  NAME_NOT_FOUND: {
    meaning: "The name lookup service knows no compound by that name.",
    fix: "Check the spelling or pass a SMILES.",
  },
  LOOKUP_TIMEOUT: { meaning: "The name lookup took longer than 10 s.", fix: "Retry later." },
  LOOKUP_UNREACHABLE: {
    meaning: "The name lookup service could not be reached.",
    fix: "Check network access.",
  },
  LOOKUP_BAD_RESPONSE: {
    meaning: "The name lookup service answered something unexpected.",
    fix: "Retry later or pass a SMILES.",
  },
  INVALID_REACTION: {
    meaning: "RDKit could not read the reaction SMARTS (or it is empty, too long or nested too deep).",
    fix: "Write it as reactants>>products with bracketed, mapped atoms.",
  },
  REACTANT_COUNT_MISMATCH: {
    meaning: "The number of reactants differs from the reaction's reactant templates (`details`).",
    fix: "Pass one reactant or list per template, in template order.",
  },
  TOO_MANY_PRODUCTS: {
    meaning: "The enumeration is over its combination or product limit (`details.limit`).",
    fix: "Shorten the reactant lists, raise max_products, or make the template more specific.",
  },
  INVALID_MOLBLOCK: {
    meaning: "RDKit could not read the MOL block or SD record (the message names the record).",
    fix: "Check the counts line, the atom and bond lines and M  END.",
  },
};

/**
 * Shortens a client's text for an error message or its details, so that no answer grows with what was sent.
 *
 * @example
 * ```ts
 * preview("C".repeat(100), 5); // "CCCCC…"
 * ```
 */
export function preview(text: string, max = 80): string {
  if (text.length <= max) return wellFormed(text);
  // A cut between the two halves of a surrogate pair would leave a lone half, which strict JSON readers refuse.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${wellFormed(text.slice(0, end))}…`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * `text` with every lone surrogate replaced by U+FFFD, so a client's malformed string cannot make an answer that
 * strict JSON readers (serde_json) refuse whole.
 *
 * @example
 * ```ts
 * wellFormed("a\ud800b"); // "a\ufffdb"
 * ```
 */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Base class of every error chem-mcp throws on purpose. */
export class ChemMcpError extends Error {
  /** @param message What went wrong and, where possible, what to change. */
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A chemistry-domain failure: the request was well formed but the chemistry cannot be done.
 *
 * @example
 * ```ts
 * throw new ChemError("INVALID_SMILES", "SMILES 'C1CC' could not be parsed: unclosed ring 1");
 * ```
 */
export class ChemError extends ChemMcpError {
  /**
   * @param code Stable string code clients can branch on.
   * @param message Human- and LLM-readable explanation with a hint at the fix.
   * @param details Optional structured context (offending input, limits).
   */
  constructor(
    readonly code: ChemErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/**
 * A call the client withdrew (`notifications/cancelled`) before it was answered: the protocol layer sends no
 * answer for it.
 */
export class CancelledError extends ChemMcpError {
  /** @param message What was cancelled, for the log. */
  constructor(message = "the call was cancelled by the client") {
    super(message);
  }
}

/** Kinds of protocol failure; `src/protocol/errors.ts` maps each to its JSON-RPC code. */
export type ProtocolErrorKind =
  | "parse_error"
  | "invalid_request"
  | "method_not_found"
  | "invalid_params"
  | "internal_error"
  | "tool_failure"
  | "header_mismatch"
  | "dialect_mismatch"
  | "unsupported_protocol_version";

/**
 * A failure reported as a JSON-RPC error object.
 *
 * @example
 * ```ts
 * throw new ProtocolError("method_not_found", "Unknown method 'ping'");
 * ```
 */
export class ProtocolError extends ChemMcpError {
  /**
   * @param kind Which row of the JSON-RPC error table applies.
   * @param message Explanation naming what to fix.
   * @param data Optional `error.data` payload.
   */
  constructor(
    readonly kind: ProtocolErrorKind,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
