/**
 * RDKit's `SubstructLibrary` over a library index, in shards of {@link SHARD_ROWS} molecules: each shard holds
 * the molecules' canonical SMILES (as trusted SMILES) and their pickled pattern fingerprints, and answers a
 * screened match over its molecules in one call. Shards are filled on demand, a slice at a time, so a search can
 * hand the thread back and stop at its deadline between slices and shards; a loaded library fills them in the
 * background once the server answers.
 *
 * @module
 */
import { type Mol, rdkit, type RDKitModule } from "../rdkit.ts";
import type { LibraryIndex } from "./index.ts";

/** Molecules per shard: one RDKit call searches a shard (about 0.1 s for a fused ring system on one core). */
export const SHARD_ROWS = 16_384;
/** Molecules added to a shard between two looks at the clock. */
const FILL_SLICE = 1_024;

type SubstructLibrary = InstanceType<RDKitModule["SubstructLibrary"]>;

/** The shards of one library. */
export class SubstructureShards {
  readonly #index: LibraryIndex;
  readonly #libraries: SubstructLibrary[] = [];
  #filled = 0;

  /** @param index The library; shards are filled from its SMILES and pickled pattern fingerprints. */
  constructor(index: LibraryIndex) {
    this.#index = index;
  }

  /** Molecules in the library. */
  get size(): number {
    return this.#index.count;
  }

  /** Number of shards. */
  get count(): number {
    return Math.ceil(this.#index.count / SHARD_ROWS);
  }

  /** Molecules added so far (shards fill in order). */
  get filled(): number {
    return this.#filled;
  }

  /** Adds the next slice of molecules; false once every molecule is in. */
  fillSlice(): boolean {
    const index = this.#index;
    const end = Math.min(index.count, this.#filled + FILL_SLICE);
    for (let row = this.#filled; row < end; row++) {
      if (row % SHARD_ROWS === 0) this.#libraries.push(new (rdkit().SubstructLibrary)());
      const from = row === 0 ? 0 : index.patternEnds[row - 1]!;
      this.#libraries.at(-1)!.add_trusted_smiles_and_pattern_fp(
        index.smiles[row]!,
        index.patterns.subarray(from, index.patternEnds[row]!),
      );
    }
    this.#filled = end;
    return end < index.count;
  }

  /** True when shard `shard` holds all its molecules. */
  ready(shard: number): boolean {
    return this.#filled >= Math.min(this.#index.count, (shard + 1) * SHARD_ROWS);
  }

  /**
   * Fills every shard in the background, a slice per macrotask, so the first substructure search finds them
   * filled; resolves when done.
   */
  async fillAll(yieldNow: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0))) {
    while (this.fillSlice()) await yieldNow();
  }

  /** File positions, ascending, of the molecules of a ready shard that contain `query`. */
  matches(shard: number, query: Mol): number[] {
    const found = this.#libraries[shard]!.get_matches_as_uint32array(query, false, 1, -1) as Uint32Array;
    const base = shard * SHARD_ROWS;
    return Array.from(found, (i) => base + i).sort((a, b) => a - b);
  }
}
