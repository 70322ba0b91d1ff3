import * as v from "valibot";
import { ecfp4, ECFP4_BITS, ECFP4_METHOD } from "../chem/fingerprint.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool } from "./tool.ts";

/** `ecfp4`: circular fingerprint as hex. */
export const ecfp4Tool = defineTool({
  name: "ecfp4",
  title: "ECFP4 fingerprint",
  description: "Compute the ECFP4 circular fingerprint (RDKit Morgan, radius 2, 2048 bits; Rogers & Hahn, " +
    "J. Chem. Inf. Model. 2010, doi:10.1021/ci100050t) of a molecule. Returns the bits as 512 hex characters " +
    "(byte k = hex[2k..2k+1]; bit i = (byte[i>>3] >> (i&7)) & 1), the popcount and the set-bit indices. For a " +
    "similarity between two molecules call tanimoto instead.",
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    n_bits: v.pipe(v.literal(ECFP4_BITS), v.description("Fingerprint length in bits (2048).")),
    radius: v.pipe(v.literal(2), v.description("Morgan radius (2 = ECFP4).")),
    hex: v.pipe(
      v.string(),
      v.regex(/^[0-9a-f]{512}$/),
      v.description("2048 bits as 512 lower-case hex digits."),
    ),
    popcount: count("Number of set bits."),
    on_bits: v.pipe(v.array(v.number()), v.description("Indices of set bits, ascending (0–2047).")),
    method: v.pipe(v.string(), v.description("Fingerprint definition and reference.")),
  }),
  run: ({ smiles }) => ({
    smiles,
    n_bits: ECFP4_BITS,
    radius: 2 as const,
    ...ecfp4(smiles),
    method: ECFP4_METHOD,
  }),
});
