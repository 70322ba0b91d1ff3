/**
 * ECFP4 Tanimoto search over a library index. Rows are ordered by popcount, and a row of popcount b can score
 * at most min(a, b) / max(a, b) against a query of popcount a, so a threshold t reads only the rows with
 * a·t ≤ b ≤ a/t (Swamidass & Baldi, J. Chem. Inf. Model. 2007, 47, 302), and a search for the best k at
 * threshold 0 visits popcounts from the best bound down and stops once the k-th score beats the next bound.
 *
 * @module
 */
import { FP_BITS, FP_WORDS, type LibraryIndex, popcount32 } from "./index.ts";

/** One similarity hit: the molecule's file position and its Tanimoto score. */
export interface ScoredHit {
  readonly position: number;
  readonly score: number;
}

/** What a similarity search found. */
export interface SimilarityResult {
  /** The best hits, by score descending then file position ascending. */
  readonly hits: readonly ScoredHit[];
  /** Molecules scoring at least the threshold. */
  readonly total: number;
  /** Rows whose fingerprint was compared with the query. */
  readonly compared: number;
}

/** The best possible Tanimoto score of popcounts a and b. */
function bound(a: number, b: number): number {
  return a === 0 && b === 0 ? 0 : Math.min(a, b) / Math.max(a, b);
}

/**
 * The `topK` molecules most similar to `query` (ECFP4 words) with score ≥ `threshold`, and how many score so.
 * Scores are |A∧B| / (|A| + |B| − |A∧B|), 0 when both fingerprints are empty, as `tanimoto` computes them.
 */
export function similarityHits(
  index: LibraryIndex,
  query: Uint32Array,
  threshold: number,
  topK: number,
): SimilarityResult {
  let a = 0;
  for (let w = 0; w < FP_WORDS; w++) a += popcount32(query[w]!);
  const used = Int32Array.from({ length: FP_WORDS }, (_, w) => w).filter((w) => query[w] !== 0);
  const best = new TopK(topK);
  let total = 0;
  let compared = 0;
  // Popcounts in order of their bound, best first: a itself, then outwards on whichever side bounds higher.
  let low = a;
  let high = a + 1;
  while (low >= 0 || high <= FP_BITS) {
    const lowBound = low >= 0 ? bound(a, low) : -1;
    const highBound = high <= FP_BITS ? bound(a, high) : -1;
    const b = lowBound >= highBound ? low-- : high++;
    const limit = Math.max(lowBound, highBound);
    if (limit < threshold) break;
    // At threshold 0 every molecule counts, so once the k best are safe nothing more needs reading.
    if (threshold === 0 && best.full && best.worst > limit) break;
    const start = index.bucketStart[b]!;
    const end = index.bucketStart[b + 1]!;
    compared += end - start;
    for (let row = start; row < end; row++) {
      const common = commonBits(index.ecfp, row * FP_WORDS, query, used);
      const either = a + b - common;
      const score = either === 0 ? 0 : common / either;
      if (score < threshold) continue;
      total++;
      best.offer(index.positions[row]!, score);
    }
  }
  return { hits: best.sorted(), total: threshold === 0 ? index.count : total, compared };
}

/**
 * Bits a row shares with the query, reading only the words where the query has bits (a drug-like ECFP4 sets
 * 30–60 of 2048 bits, so about half the words are empty).
 */
function commonBits(rows: Uint32Array, at: number, query: Uint32Array, used: Int32Array): number {
  let n = 0;
  for (let i = 0; i < used.length; i++) {
    const w = used[i]!;
    n += popcount32(rows[at + w]! & query[w]!);
  }
  return n;
}

/** The k best hits seen, kept sorted (k is small: an answer's worth). */
class TopK {
  readonly #k: number;
  readonly #hits: ScoredHit[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  get full(): boolean {
    return this.#hits.length >= this.#k;
  }

  /** The k-th score, once full. */
  get worst(): number {
    return this.#hits.at(-1)?.score ?? -1;
  }

  offer(position: number, score: number): void {
    const hits = this.#hits;
    if (hits.length >= this.#k) {
      const last = hits.at(-1)!;
      if (score < last.score || (score === last.score && position > last.position)) return;
    }
    let at = hits.length;
    while (at > 0 && before(position, score, hits[at - 1]!)) at--;
    hits.splice(at, 0, { position, score });
    if (hits.length > this.#k) hits.pop();
  }

  sorted(): ScoredHit[] {
    return [...this.#hits];
  }
}

function before(position: number, score: number, other: ScoredHit): boolean {
  return score > other.score || (score === other.score && position < other.position);
}
