/**
 * RDKit's `SubstructLibrary` over a library index, in shards of {@link SHARD_ROWS} molecules: each shard holds
 * the molecules' canonical SMILES (as trusted SMILES) and their pickled pattern fingerprints, one library per
 * class of src/chem/library/screen.ts, and answers a screened match over the classes a query may be in, one
 * call each. Shards are filled on demand, a slice at a time, so a search can
 * hand the thread back and stop at its deadline between slices and shards; a loaded library fills them in the
 * background once the server answers.
 *
 * @module
 */
import { type Mol, rdkit, type RDKitModule } from "../rdkit.ts";
import { type LibraryIndex, patternAt, SHARD_ROWS } from "./index.ts";
import { CLASS_COUNT, mayContain, moleculeClass, type QueryNeeds } from "./screen.ts";

const EMPTY = new Uint8Array(0);
/** Molecules added to a shard between two looks at the clock (a divisor of {@link SHARD_ROWS}). */
const FILL_SLICE = 1_024;

type SubstructLibrary = InstanceType<RDKitModule["SubstructLibrary"]>;

/** The molecules of one class in one shard: RDKit's library and each one's file position. */
interface ClassLibrary {
  readonly library: SubstructLibrary;
  readonly positions: number[];
}

/** The shards of one library. */
export class SubstructureShards {
  readonly #size: number;
  /** The SMILES until every shard holds its molecules; then RDKit's copies are read instead. */
  #smiles: readonly string[];
  /** Each molecule's class and its index in its class's library of its shard. */
  readonly #classOf: Uint8Array;
  readonly #localOf: Uint16Array;
  /** Per shard, per class (absent: no molecule of that class). */
  readonly #libraries: (ClassLibrary | undefined)[][] = [];
  /**
   * The pickles by shard, each piece let go once its shard holds its molecules (RDKit keeps its own copy); a piece
   * not yet here is read by `#readPiece`.
   */
  readonly #patterns: (Uint8Array | undefined)[];
  readonly #readPiece: (piece: number) => Promise<Uint8Array>;
  #allRead: (() => Promise<void>) | undefined;
  readonly #reading = new Map<number, Promise<void>>();
  #patternEnds: Uint32Array;
  #filled = 0;

  /**
   * @param index The library; shards are filled from its SMILES and pickled pattern fingerprints, and only those
   * are kept (not the index), so that both can be let go once the shards hold them (0.6 GB at a million).
   * @param readPiece Reads the pickles of a shard that `index.patterns` does not hold (a cache file's, read as the
   * shards fill rather than all at the start).
   * @param allRead Called once every shard holds its molecules (the cache file is closed then).
   */
  constructor(
    index: LibraryIndex,
    readPiece?: (piece: number) => Promise<Uint8Array>,
    allRead?: () => Promise<void>,
  ) {
    this.#allRead = allRead;
    this.#size = index.count;
    this.#smiles = index.smiles;
    this.#classOf = new Uint8Array(index.count);
    this.#localOf = new Uint16Array(index.count);
    this.#patterns = Array.from({ length: this.count }, (_, piece) => index.patterns[piece]);
    this.#readPiece = readPiece ??
      ((piece) =>
        Promise.reject(new Error(`the library's pattern fingerprints of shard ${piece} are missing`)));
    this.#patternEnds = index.patternEnds;
  }

  /** Molecules in the library. */
  get size(): number {
    return this.#size;
  }

  /** Number of shards. */
  get count(): number {
    return Math.ceil(this.#size / SHARD_ROWS);
  }

  /** Molecules added so far (shards fill in order). */
  get filled(): number {
    return this.#filled;
  }

  /** Adds the next slice of molecules, its shard's pickles read first if need be; false once every molecule is in. */
  async fillSlice(): Promise<boolean> {
    for (;;) {
      if (this.#filled >= this.#size) return false;
      const shard = Math.floor(this.#filled / SHARD_ROWS);
      if (this.#patterns[shard]) break;
      await this.#read(shard);
    }
    const end = Math.min(this.#size, this.#filled + FILL_SLICE);
    for (let row = this.#filled; row < end; row++) {
      if (row % SHARD_ROWS === 0) this.#libraries.push(new Array(CLASS_COUNT).fill(undefined));
      const smiles = this.#smiles[row]!;
      const classes = this.#libraries.at(-1)!;
      const cls = moleculeClass(smiles);
      const group = classes[cls] ??= { library: new (rdkit().SubstructLibrary)(), positions: [] };
      group.library.add_trusted_smiles_and_pattern_fp(
        smiles,
        patternAt(this.#patterns, this.#patternEnds, row),
      );
      this.#classOf[row] = cls;
      this.#localOf[row] = group.positions.length;
      group.positions.push(row);
    }
    this.#filled = end;
    if (end % SHARD_ROWS === 0 || end === this.#size) this.#patterns[Math.ceil(end / SHARD_ROWS) - 1] = EMPTY;
    if (end < this.#size) return true;
    this.#patternEnds = new Uint32Array(0);
    this.#smiles = [];
    const allRead = this.#allRead;
    this.#allRead = undefined;
    await allRead?.();
    return false;
  }

  /** Reads shard `shard`'s pickles, once however many ask at the same time. */
  #read(shard: number): Promise<void> {
    let reading = this.#reading.get(shard);
    if (!reading) {
      reading = this.#readPiece(shard).then((piece) => {
        this.#patterns[shard] = piece;
      }).finally(() => this.#reading.delete(shard));
      this.#reading.set(shard, reading);
    }
    return reading;
  }

  /** The canonical SMILES of the molecule at file position `position`. */
  smiles(position: number): string {
    if (this.#smiles.length > 0) return this.#smiles[position]!;
    const group = this.#libraries[Math.floor(position / SHARD_ROWS)]![this.#classOf[position]!]!;
    return group.library.get_trusted_smiles(this.#localOf[position]!);
  }

  /** True when shard `shard` holds all its molecules. */
  ready(shard: number): boolean {
    return this.#filled >= Math.min(this.#size, (shard + 1) * SHARD_ROWS);
  }

  /**
   * Fills every shard in the background, a slice per macrotask, so the first substructure search finds them
   * filled; resolves when done.
   */
  async fillAll(yieldNow: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0))) {
    while (await this.fillSlice()) await yieldNow();
  }

  /**
   * File positions, ascending, of the molecules of a ready shard that contain `query`, searching only the
   * classes that may hold a molecule with what the query `needs`.
   */
  matches(shard: number, query: Mol, needs: QueryNeeds): number[] {
    const out: number[] = [];
    this.#libraries[shard]!.forEach((group, cls) => {
      if (!group || !mayContain(cls, needs)) return;
      const found = group.library.get_matches_as_uint32array(query, false, 1, -1) as Uint32Array;
      for (const i of found) out.push(group.positions[i]!);
    });
    return out.sort((a, b) => a - b);
  }
}
