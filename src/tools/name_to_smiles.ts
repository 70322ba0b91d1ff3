import * as v from "valibot";
import { DEFAULT_NAME_LOOKUP_TIMEOUT_MS, MAX_NAME_LENGTH, nameToSmiles } from "../chem/lookup.ts";
import { count } from "./common.ts";
import { LIGHT_MAX_ATOMS } from "../chem/cost.ts";
import { defineTool, OUTSIDE_LOOKUP } from "./tool.ts";

/** `name_to_smiles`: chemical name to SMILES through PubChem (the one networked tool). */
export const nameToSmilesTool = defineTool({
  name: "name_to_smiles",
  title: "Chemical name to SMILES",
  annotations: OUTSIDE_LOOKUP,
  description:
    "Chemical name (IUPAC, common or trade name, CAS number) to SMILES, canonicalised by RDKit. The only " +
    "networked tool: one HTTPS GET to PubChem PUG REST (Kim et al. 2023) or the configured service, " +
    `${
      DEFAULT_NAME_LOOKUP_TIMEOUT_MS / 1000
    } s timeout, no fallback; the first of several matches is used. ` +
    "Errors: NAME_NOT_FOUND, LOOKUP_TIMEOUT, LOOKUP_UNREACHABLE, " +
    `LOOKUP_BAD_RESPONSE, MOLECULE_TOO_LARGE (an answer of more than ${LIGHT_MAX_ATOMS} atoms).`,
  input: v.strictObject({
    name: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_NAME_LENGTH),
      v.description("Chemical name, e.g. '2-acetoxybenzoic acid'."),
      v.examples(["aspirin"]),
    ),
  }),
  output: v.object({
    name: v.pipe(v.string(), v.description("The name looked up (trimmed).")),
    smiles: v.pipe(v.string(), v.description("RDKit canonical isomeric SMILES of the answer.")),
    source_smiles: v.pipe(v.string(), v.description("SMILES exactly as the service returned it.")),
    source_field: v.pipe(
      v.string(),
      v.description("Response field used: SMILES, IsomericSMILES, CanonicalSMILES or ConnectivitySMILES."),
    ),
    cid: v.pipe(v.nullable(count("PubChem CID.")), v.description("PubChem compound id, if returned.")),
    match_count: count("Records the service returned for the name (the first is used)."),
    source: v.pipe(v.string(), v.description("Host of the lookup service.")),
  }),
  // The lookup runs on the protocol thread, whose RDKit only ever sees molecules the pool calls small.
  placement: { where: "in_place" },
  run: ({ name }) => nameToSmiles(name, LIGHT_MAX_ATOMS),
});
