import * as v from "valibot";
import { ecfp4, ECFP4_BITS, ECFP4_METHOD } from "../chem/fingerprint.ts";
import { count, givenSmiles, smilesArg } from "./common.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";
import { textsCost } from "./placement.ts";

/** `ecfp4`: circular fingerprint as hex. */
export const ecfp4Tool = defineTool({
  name: "ecfp4",
  title: "ECFP4 fingerprint",
  annotations: LOCAL_COMPUTATION,
  description:
    "ECFP4 circular fingerprint (RDKit Morgan radius 2, 2048 bits; Rogers & Hahn 2010) as 512 hex digits " +
    "and its popcount. For similarity use tanimoto. Error: INVALID_SMILES.",
  input: v.strictObject({ smiles: smilesArg() }),
  output: v.object({
    smiles: givenSmiles,
    n_bits: v.pipe(v.literal(ECFP4_BITS), v.description("Fingerprint length in bits (2048).")),
    radius: v.pipe(v.literal(2), v.description("Morgan radius (2 = ECFP4).")),
    hex: v.pipe(
      v.string(),
      v.regex(/^[0-9a-f]{512}$/),
      v.description(
        "2048 bits as 512 lower-case hex digits: bit i is (byte[i>>3] >> (i&7)) & 1 where byte k = hex[2k..2k+1].",
      ),
    ),
    popcount: count("Number of set bits."),
    method: v.pipe(v.string(), v.description("Fingerprint definition and reference.")),
  }),
  placement: { where: "by_cost", cost: ({ smiles }) => textsCost(smiles) },
  list: { cap: 500, columns: ["popcount", "hex"] },
  run: ({ smiles }) => {
    // The set-bit indices would repeat the hex; the spec's ecfp4 result is the hex plus the popcount.
    const { hex, popcount } = ecfp4(smiles);
    return { smiles, n_bits: ECFP4_BITS, radius: 2 as const, hex, popcount, method: ECFP4_METHOD };
  },
});
