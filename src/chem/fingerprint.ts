/**
 * ECFP4-style circular fingerprints (RDKit Morgan, radius 2, 2048 bits) and Tanimoto similarity.
 * Reference: Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742, doi:10.1021/ci100050t.
 *
 * @module
 */
import { type Mol, withMol } from "./rdkit.ts";

/** Fingerprint length in bits. */
export const ECFP4_BITS = 2048 as const;
const MORGAN_OPTIONS = JSON.stringify({ radius: 2, nBits: ECFP4_BITS });

/** Human-readable name of the fingerprint, echoed in results. */
export const ECFP4_METHOD =
  "ECFP4: RDKit Morgan fingerprint, radius 2, 2048 bits (Rogers & Hahn, J. Chem. Inf. Model. 2010, " +
  "doi:10.1021/ci100050t)";

/** ECFP4 bits of a parsed molecule as 256 bytes; bit i is `(bytes[i >> 3] >> (i & 7)) & 1`. */
export function ecfp4Bytes(mol: Mol): Uint8Array {
  return mol.get_morgan_fp_as_uint8array(MORGAN_OPTIONS) as Uint8Array;
}

/**
 * ECFP4 bytes of a SMILES, read for its graph only (no stereo perception: this fingerprint reads none). Throws
 * the ChemError `parseSmiles` would.
 *
 * @example
 * ```ts
 * ecfp4Of("CCO").length; // 256
 * ```
 */
export function ecfp4Of(smiles: string): Uint8Array {
  return withMol(smiles, ecfp4Bytes, undefined, "graph");
}

/** Number of set bits. */
export function popcount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) n += BIT_COUNT[b]!;
  return n;
}

/** Tanimoto coefficient |A∧B| / |A∨B| of two equal-length bit vectors; 0 when both are empty. */
export function tanimotoBytes(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    both += BIT_COUNT[x & y]!;
    either += BIT_COUNT[x | y]!;
  }
  return either === 0 ? 0 : both / either;
}

/** Lower-case hex of the bytes, two digits per byte in byte order. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b]!;
  return out;
}

/** Indices of set bits, ascending. */
export function onBits(bytes: Uint8Array): number[] {
  const bits: number[] = [];
  bytes.forEach((b, i) => {
    for (let k = 0; k < 8; k++) if ((b >> k) & 1) bits.push(i * 8 + k);
  });
  return bits;
}

/** ECFP4 fingerprint of a SMILES string. */
export interface Ecfp4 {
  /** 512 lower-case hex characters (256 bytes); bit i is `(byte[i >> 3] >> (i & 7)) & 1`, byte k = hex[2k..2k+1]. */
  hex: string;
  /** Number of set bits. */
  popcount: number;
  /** Indices of set bits, ascending. */
  on_bits: number[];
}

/**
 * ECFP4 fingerprint of a molecule.
 *
 * @example
 * ```ts
 * ecfp4("CCO").popcount; // 6
 * ```
 */
export function ecfp4(smiles: string): Ecfp4 {
  const bytes = ecfp4Of(smiles);
  return { hex: toHex(bytes), popcount: popcount(bytes), on_bits: onBits(bytes) };
}

/** Tanimoto similarity of two molecules on ECFP4. */
export interface Similarity {
  similarity: number;
  common_bits: number;
  bits_a: number;
  bits_b: number;
}

/**
 * Tanimoto similarity on ECFP4 between two SMILES.
 *
 * @example
 * ```ts
 * tanimoto("CCO", "CCO").similarity; // 1
 * ```
 */
export function tanimoto(smilesA: string, smilesB: string): Similarity {
  return similarityOf(recentFingerprint(smilesA), recentFingerprint(smilesB));
}

/**
 * {@link tanimoto}'s answer for two ECFP4 fingerprints already computed (a list's query is fingerprinted once).
 *
 * @example
 * ```ts
 * similarityOf(ecfp4Of("CCO"), ecfp4Of("CCO")).similarity; // 1
 * ```
 */
export function similarityOf(a: Uint8Array, b: Uint8Array): Similarity {
  let common = 0;
  for (let i = 0; i < a.length; i++) common += BIT_COUNT[a[i]! & b[i]!]!;
  return { similarity: tanimotoBytes(a, b), common_bits: common, bits_a: popcount(a), bits_b: popcount(b) };
}

/** The molecules {@link tanimoto} used last, by SMILES text, least recently used first. */
const recent: { smiles: string; bytes: Uint8Array }[] = [];
const RECENT_SIZE = 2;

/**
 * The ECFP4 bytes of `smiles`, computed once while it keeps coming: a `batch` of `tanimoto` compares each
 * molecule of its list with the same query, which was parsed and fingerprinted again for every item (half the
 * speed of `ecfp4` over the same list). The SMILES text is the key, so nothing but the same input is reused; a
 * SMILES that fails to parse throws as before and is not kept.
 */
function recentFingerprint(smiles: string): Uint8Array {
  const at = recent.findIndex((entry) => entry.smiles === smiles);
  // Used last, evicted last: the query a list compares against stays while its molecules come and go.
  const entry = at >= 0 ? recent.splice(at, 1)[0]! : { smiles, bytes: ecfp4Of(smiles) };
  recent.push(entry);
  if (recent.length > RECENT_SIZE) recent.shift();
  return entry.bytes;
}

const BIT_COUNT = Uint8Array.from({ length: 256 }, (_, i) => {
  let n = 0;
  for (let x = i; x; x >>= 1) n += x & 1;
  return n;
});
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
