/**
 * Builds a library's index from its records: batches of molecules made into entries (src/chem/library/entries.ts)
 * in place or, at server start, by every tool worker at once, and added in file order. Records RDKit cannot read,
 * and molecules too large for a library, are skipped and reported.
 *
 * @module
 */
import { ChemError } from "../../errors.ts";
import { encodeBatch, entriesOf, type EntryBatch, indexTexts } from "./entries.ts";
import { IndexBuilder, type LibraryIndex } from "./index.ts";
import type { LibraryRecord } from "./records.ts";

/**
 * Most molecules one library holds (about 0.6 KB of memory each): beyond it the rest of the file is left unread
 * and the startup line says so.
 */
export const MAX_LIBRARY_MOLECULES = 2_000_000;
/**
 * Unreadable records before the first molecule after which a file is taken for something other than a library
 * (binary data, the wrong file): reading stops rather than trying every line of a large file.
 */
export const MAX_LEADING_FAILURES = 10_000;
/** How many skipped records the report names; the rest are counted. */
export const NAMED_SKIPS = 5;

/** What reading a library left out. */
export interface SkipReport {
  /** Records skipped. */
  readonly count: number;
  /** The first {@link NAMED_SKIPS}, as `line N: reason`. */
  readonly first: readonly string[];
  /**
   * Where reading stopped early: the file held more than {@link MAX_LIBRARY_MOLECULES} molecules, or
   * {@link MAX_LEADING_FAILURES} records before the first were unreadable.
   */
  readonly stoppedAt?: string;
}

/** Molecules per batch: a worker's batch is about a second of RDKit's work and 0.6 MB of answer. */
export const BATCH_MOLECULES = 1_024;

/** Makes a batch of record texts into entries: in place, or in a tool worker. */
export type ComputeBatch = (texts: readonly string[]) => Promise<EntryBatch>;

/** Options of {@link buildIndex}. */
export interface BuildOptions {
  /** Called about every `progressMs` with the molecules indexed and the records skipped so far. */
  readonly progress?: (indexed: number, skipped: number) => void;
  readonly progressMs?: number;
  /** Milliseconds from any origin (injected for tests). */
  readonly now?: () => number;
  readonly maxMolecules?: number;
  /** Where batches are computed (default: in place, one at a time). */
  readonly compute?: ComputeBatch;
  /** Batches computed at once (the tool workers' number). */
  readonly parallel?: number;
  /** Molecules per batch (default {@link BATCH_MOLECULES}; tests make small batches of small files). */
  readonly batchMolecules?: number;
  /** Wait before a busy pool is asked again, ms (default 1,000). */
  readonly retryMs?: number;
}

/** A batch of records read, and its entries to come. */
interface Pending {
  readonly records: readonly LibraryRecord[];
  readonly batch: Promise<EntryBatch>;
}

/**
 * Builds the index of `records`: batches of {@link BATCH_MOLECULES} molecules are computed `parallel` at a time
 * while the file is read on, and added in file order, so the index is the same however it was computed.
 */
export async function buildIndex(
  records: AsyncIterable<LibraryRecord>,
  options: BuildOptions = {},
): Promise<{ index: LibraryIndex; skipped: SkipReport }> {
  const place = new BatchPlace(options.compute, options.retryMs ?? 1_000);
  const parallel = Math.max(1, options.parallel ?? 1);
  const batchMolecules = options.batchMolecules ?? BATCH_MOLECULES;
  const adder = new Adder(options);
  const pending: Pending[] = [];
  let batch: LibraryRecord[] = [];
  let molecules = 0;
  const send = () => {
    const texts = batch.flatMap((record) => record.kind === "molecule" ? [record.text] : []);
    pending.push({ records: batch, batch: place.entries(texts) });
    batch = [];
    molecules = 0;
  };
  for await (const record of records) {
    batch.push(record);
    if (record.kind === "molecule" && ++molecules === batchMolecules) send();
    // The oldest batch is added once as many are computing as there are workers: memory stays bounded.
    while (pending.length >= parallel && !adder.stopped) await adder.add(pending.shift()!);
    if (adder.stopped) break;
  }
  if (!adder.stopped && batch.length > 0) send();
  for (const batch of pending) {
    if (!adder.stopped) await adder.add(batch);
    else batch.batch.catch(() => {});
  }
  return adder.finish();
}

/**
 * Where a build's batches are computed: by `compute` (the tool workers) while it works. A pool that says it is
 * busy is asked again `retryMs` later; a batch whose worker died on one of its molecules is computed again a
 * molecule at a time there, and a molecule that fails alone is skipped with the reason. A pool that stays busy or
 * fails otherwise (a worker that cannot start) is left for good: the rest is built in place, as without workers.
 */
class BatchPlace {
  readonly #compute: ComputeBatch | undefined;
  readonly #retryMs: number;
  #inPlace: boolean;

  constructor(compute: ComputeBatch | undefined, retryMs: number) {
    this.#compute = compute;
    this.#retryMs = retryMs;
    this.#inPlace = compute === undefined;
  }

  async entries(texts: readonly string[]): Promise<EntryBatch> {
    for (let attempt = 1; !this.#inPlace; attempt++) {
      try {
        return await this.#compute!(texts);
      } catch (error) {
        const code = error instanceof ChemError ? error.code : undefined;
        if (code === "SERVER_BUSY" && attempt < BUSY_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, this.#retryMs));
        } else if (code === "UNSUPPORTED_MOLECULE") {
          return texts.length === 1 ? failed(error) : await this.#oneByOne(texts);
        } else {
          this.#inPlace = true;
        }
      }
    }
    return indexTexts(texts);
  }

  async #oneByOne(texts: readonly string[]): Promise<EntryBatch> {
    const each: EntryBatch[] = [];
    for (const text of texts) each.push(await this.entries([text]));
    return mergeBatches(each);
  }
}

/** Times a batch is offered to a busy pool, `retryMs` apart, before the build goes on in place. */
const BUSY_ATTEMPTS = 30;

function failed(error: unknown): EntryBatch {
  const reason = `RDKit failed on it (${error instanceof Error ? error.message : String(error)})`;
  return { failures: [reason], smiles: [], ecfp4: "", patterns: "", patternEnds: [] };
}

/** One batch of several, decoded and encoded again (rare: only after a batch failed whole). */
function mergeBatches(batches: readonly EntryBatch[]): EntryBatch {
  return encodeBatch(
    batches.flatMap((batch) => batch.failures),
    batches.flatMap((batch) => [...entriesOf(batch)]),
  );
}

/** The index as records are added, with the skip report and the rules that stop reading early. */
class Adder {
  readonly #builder = new IndexBuilder();
  readonly #first: string[] = [];
  readonly #options: BuildOptions;
  readonly #now: () => number;
  readonly #max: number;
  #count = 0;
  #lastReport: number;
  stoppedAt: string | undefined;

  constructor(options: BuildOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => Date.now());
    this.#max = options.maxMolecules ?? MAX_LIBRARY_MOLECULES;
    this.#lastReport = this.#now();
  }

  get stopped(): boolean {
    return this.stoppedAt !== undefined;
  }

  /** Adds a batch's records in order, stopping where a rule says. */
  async add(pending: Pending): Promise<void> {
    const batch = await pending.batch;
    const entries = entriesOf(batch);
    let m = 0;
    for (const record of pending.records) {
      if (record.kind === "molecule" && this.#builder.count >= this.#max) {
        this.stoppedAt = `${record.where} (${this.#max.toLocaleString("en")} molecules read)`;
        return;
      }
      if (record.kind === "unreadable") {
        if (this.#skip(record, record.reason)) return;
      } else {
        const failure = batch.failures[m++]!;
        if (failure === null) {
          const entry = entries.next().value!;
          this.#builder.add(entry.ecfp4, entry.pattern, entry.smiles, record.id);
        } else if (this.#skip(record, failure)) return;
      }
      this.#report();
    }
  }

  /** Counts a skipped record; true when reading stops there. */
  #skip(record: LibraryRecord, failure: string): boolean {
    this.#count++;
    if (this.#builder.count === 0 && this.#count >= MAX_LEADING_FAILURES) {
      this.stoppedAt = `${record.where}, after ${
        this.#count.toLocaleString("en")
      } unreadable records and no molecule`;
      return true;
    }
    if (this.#first.length < NAMED_SKIPS) this.#first.push(`${record.where}: ${failure.replace(/\.$/, "")}`);
    return false;
  }

  #report(): void {
    const { progress, progressMs = 5_000 } = this.#options;
    if (!progress || (this.#builder.count + this.#count) % 1024 !== 0) return;
    if (this.#now() - this.#lastReport < progressMs) return;
    this.#lastReport = this.#now();
    progress(this.#builder.count, this.#count);
  }

  finish(): { index: LibraryIndex; skipped: SkipReport } {
    return {
      index: this.#builder.finish(),
      skipped: {
        count: this.#count,
        first: this.#first,
        ...(this.stoppedAt ? { stoppedAt: this.stoppedAt } : {}),
      },
    };
  }
}
