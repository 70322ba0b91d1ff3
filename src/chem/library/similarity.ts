/**
 * ECFP4 Tanimoto search over a library index. Rows are ordered by popcount, and a row of popcount b can score
 * at most min(a, b) / max(a, b) against a query of popcount a, so a threshold t reads only the rows with
 * a·t ≤ b ≤ a/t (Swamidass & Baldi, J. Chem. Inf. Model. 2007, 47, 302), and a search for the best k at
 * threshold 0 visits popcounts from the best bound down and stops once the k-th score beats the next bound.
 * Within a popcount, rows lie in file order, so a search for the best k also leaves a popcount once its k-th
 * score reaches that popcount's bound and the rows left come after the k-th hit's position.
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
  const mask = QueryMask.of(query);
  const a = mask.popcount;
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
    const scan = threshold === 0 ? topOfBin : countBin;
    const found = scan(index, mask, b, best, threshold);
    compared += found.compared;
    total += found.total;
  }
  return { hits: best.sorted(), total: threshold === 0 ? index.count : total, compared };
}

/** Rows compared and rows scoring at least the threshold, of one popcount bin. */
interface BinScan {
  readonly compared: number;
  readonly total: number;
}

/**
 * Offers every row of popcount `b` with score ≥ `threshold` to `best`, counting them (a threshold above 0 counts
 * every row that reaches it, so no row of the bin may be left unread).
 */
function countBin(index: LibraryIndex, mask: QueryMask, b: number, best: TopK, threshold: number): BinScan {
  const start = index.bucketStart[b]!;
  const end = index.bucketStart[b + 1]!;
  const rows = index.ecfp;
  const either = mask.popcount + b;
  let total = 0;
  for (let row = start; row < end; row++) {
    const common = mask.common(rows, row * FP_WORDS);
    const score = either === common ? 0 : common / (either - common);
    if (score < threshold) continue;
    total++;
    if (best.wants(index.positions[row]!, score)) best.offer(index.positions[row]!, score);
  }
  return { compared: end - start, total };
}

/**
 * Offers the rows of popcount `b` to `best` at threshold 0, stopping once no later row can enter: rows of a bin
 * lie in file order, so once the k-th score reaches the bin's bound, a later row could only tie it from a later
 * position, which ranks below.
 */
function topOfBin(index: LibraryIndex, mask: QueryMask, b: number, best: TopK): BinScan {
  const start = index.bucketStart[b]!;
  const end = index.bucketStart[b + 1]!;
  const rows = index.ecfp;
  const either = mask.popcount + b;
  const limit = bound(mask.popcount, b);
  let last = best.full && best.worst >= limit ? best.worstPosition : Infinity;
  let row = start;
  for (; row < end; row++) {
    const position = index.positions[row]!;
    if (position > last) break;
    const common = mask.common(rows, row * FP_WORDS);
    const score = either === common ? 0 : common / (either - common);
    if (!best.wants(position, score)) continue;
    best.offer(position, score);
    if (best.full && best.worst >= limit) last = best.worstPosition;
  }
  return { compared: row - start, total: 0 };
}

/**
 * The query's set bits as the words a row is read at, grouped so that no two words of a group set the same bit
 * position: a group's masked words OR together without losing a bit, and one popcount counts the group. A
 * drug-like ECFP4 sets 30–60 of 2048 bits, so a few popcounts count a row instead of one per word.
 */
class QueryMask {
  /** The query's popcount. */
  readonly popcount: number;
  readonly #words: Int32Array;
  readonly #masks: Int32Array;
  /** Group g is `[#ends[g - 1], #ends[g])` of the two arrays above. */
  readonly #ends: Int32Array;

  private constructor(popcount: number, words: number[], masks: number[], ends: number[]) {
    this.popcount = popcount;
    this.#words = Int32Array.from(words);
    this.#masks = Int32Array.from(masks);
    this.#ends = Int32Array.from(ends);
  }

  /** Groups the query's non-empty words, first fit. */
  static of(query: Uint32Array): QueryMask {
    const groups: { taken: number; words: number[] }[] = [];
    let popcount = 0;
    for (let w = 0; w < FP_WORDS; w++) {
      const bits = query[w]!;
      if (bits === 0) continue;
      popcount += popcount32(bits);
      let group = groups.find((g) => (g.taken & bits) === 0);
      if (!group) groups.push(group = { taken: 0, words: [] });
      group.taken |= bits;
      group.words.push(w);
    }
    const words = groups.flatMap((g) => g.words);
    const ends: number[] = [];
    for (const g of groups) ends.push((ends.at(-1) ?? 0) + g.words.length);
    return new QueryMask(popcount, words, words.map((w) => query[w]!), ends);
  }

  /** Bits the row at word `at` of `rows` shares with the query. */
  common(rows: Uint32Array, at: number): number {
    const words = this.#words;
    const masks = this.#masks;
    const ends = this.#ends;
    let n = 0;
    let i = 0;
    for (let g = 0; g < ends.length; g++) {
      let x = 0;
      for (const end = ends[g]!; i < end; i++) x |= rows[at + words[i]!]! & masks[i]!;
      n += popcount32(x);
    }
    return n;
  }
}

/** The k best hits seen, kept sorted (k is small: an answer's worth). */
class TopK {
  readonly #k: number;
  readonly #hits: ScoredHit[] = [];
  /** The k-th hit's score and position once full; until then every hit is wanted. */
  #worst = -1;
  #worstPosition = Infinity;

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

  /** The k-th hit's file position, once full. */
  get worstPosition(): number {
    return this.#hits.at(-1)?.position ?? Infinity;
  }

  /** True when a hit would enter the k best. */
  wants(position: number, score: number): boolean {
    return score > this.#worst || (score === this.#worst && position < this.#worstPosition);
  }

  offer(position: number, score: number): void {
    const hits = this.#hits;
    if (!this.wants(position, score)) return;
    let at = hits.length;
    while (at > 0 && before(position, score, hits[at - 1]!)) at--;
    hits.splice(at, 0, { position, score });
    if (hits.length > this.#k) hits.pop();
    if (hits.length >= this.#k) {
      this.#worst = hits.at(-1)!.score;
      this.#worstPosition = hits.at(-1)!.position;
    }
  }

  sorted(): ScoredHit[] {
    return [...this.#hits];
  }
}

function before(position: number, score: number, other: ScoredHit): boolean {
  return score > other.score || (score === other.score && position < other.position);
}
