/**
 * Schema pieces shared by several tools, so one argument means the same thing everywhere.
 *
 * @module
 */
import * as v from "valibot";
import { MAX_SMILES_LENGTH } from "../chem/rdkit.ts";

/**
 * A SMILES string, non-empty and of bounded length. The bound is checked but left out of the published schema:
 * as `minLength`/`maxLength` it would cost every SMILES argument 30 characters of the model's context, and no
 * real molecule comes near it (docs/decisions/lists-of-molecules.md).
 */
export const smilesString = v.pipe(
  v.string(),
  v.check(
    (text: string) => text.length >= 1 && text.length <= MAX_SMILES_LENGTH,
    `A SMILES has 1 to ${MAX_SMILES_LENGTH} characters.`,
  ),
);

/**
 * A SMILES argument: non-empty, bounded length. Its example is what tells a client that fills arguments from the
 * schema alone that this string is a molecule (JSON Schema has no format for SMILES).
 */
export const smilesArg = (description = "Molecule as SMILES.") =>
  v.pipe(smilesString, v.description(description), v.examples(["CCO"]));

/** A non-negative integer count. */
export const count = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

/** A finite number with a description (units belong in the description). */
export const num = (description: string) => v.pipe(v.number(), v.finite(), v.description(description));

/** Output field echoing the caller's SMILES unchanged. */
export const givenSmiles = v.pipe(v.string(), v.description("The SMILES as given."));

/**
 * Output fields of a tool that describes a salt by its largest component: that component (`what` the values
 * are, e.g. "profiled") and how many components there were.
 */
export const componentFields = (what: string) => ({
  parent_smiles: v.optional(
    v.pipe(
      v.string(),
      v.description(`Canonical SMILES of the component ${what}; only for several components.`),
    ),
  ),
  fragment_count: count("Disconnected components in the input."),
});

/** Output field holding RDKit's canonical isomeric SMILES. */
export const canonicalSmilesField = v.pipe(v.string(), v.description("RDKit canonical isomeric SMILES."));

/**
 * Seconds a worker deadline allows beyond a tool's own time limit (result building, cloning), so the limit the
 * tool enforces itself is the one users meet; past it the worker is stopped, so a call is answered within its
 * limit plus this margin whether or not the computation stops by itself (RDKit's FMCS checks its timeout only
 * between steps).
 */
export const ISOLATION_GRACE_S = 1;
