import * as v from "valibot";
import {
  DEFAULT_NAME_LOOKUP_TIMEOUT_MS,
  MAX_NAME_LENGTH,
  NAME_LOOKUP_ENV,
  nameToSmiles,
} from "../chem/lookup.ts";
import { count } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `name_to_smiles`: chemical name to SMILES through PubChem (the one networked tool). */
export const nameToSmilesTool = defineTool({
  name: "name_to_smiles",
  title: "Chemical name to SMILES",
  description:
    "Look up a chemical name (IUPAC, common or trade name, CAS number) and return its SMILES, canonicalised " +
    "by RDKit. Needs internet: sends the URL-encoded name in one HTTPS GET to PubChem PUG REST " +
    "(/rest/pug/compound/name/<name>/property/SMILES/JSON; Kim et al., Nucleic Acids Res. 2023, 51, D1373) " +
    `or to the service set by ${NAME_LOOKUP_ENV}, with a ${DEFAULT_NAME_LOOKUP_TIMEOUT_MS / 1000} s ` +
    "timeout and no local fallback. When the name matches several records the first is used (match_count " +
    "says how many). Fails with NAME_NOT_FOUND (unknown name), LOOKUP_TIMEOUT (no answer within the " +
    "timeout), LOOKUP_UNREACHABLE (network failure) or LOOKUP_BAD_RESPONSE (HTTP error status such as 5xx, " +
    "non-JSON or incomplete answer, or SMILES RDKit cannot parse).",
  input: v.strictObject({
    name: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_NAME_LENGTH),
      v.description(
        `Chemical name, e.g. 'aspirin' or '2-acetoxybenzoic acid' (at most ${MAX_NAME_LENGTH} characters).`,
      ),
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
  run: ({ name }) => nameToSmiles(name),
});
