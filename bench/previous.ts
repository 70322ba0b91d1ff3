/**
 * The previous run of a benchmark, so every script can print its figures as a ratio to the last time it ran on
 * this machine. Each script keeps one JSON file of named figures in bench/results/.
 *
 * @example
 * ```ts
 * const previous = loadPrevious("drug_likeness");
 * console.log(previous.speedup("calc_properties", 566)); // "1.04×", or "–" on a first run
 * previous.save({ calc_properties: 566 });
 * ```
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

/** Named figures of one run: rates (per second, higher is better) or times (ms, lower is better). */
export type Figures = Record<string, number>;

/** The figures of the previous run and how to compare with them. */
export interface PreviousRun {
  /** This run's rate over the previous one ("–" when there is none). */
  speedup(row: string, rate: number): string;
  /** The previous run's time over this one, so that above 1× is faster here too ("–" when there is none). */
  speedupFromTime(row: string, ms: number): string;
  /** Stores this run's figures for the next comparison. */
  save(figures: Figures): void;
}

/** Reads bench/results/`name`.json, if an earlier run wrote it. */
export function loadPrevious(name: string): PreviousRun {
  const path = `bench/results/${name}.json`;
  const old: Figures = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) as Figures : {};
  const ratio = (value: number | undefined) =>
    value === undefined || !Number.isFinite(value) ? "–" : `${value.toFixed(2)}×`;
  return {
    speedup: (row, rate) => ratio(old[row] === undefined ? undefined : rate / old[row]),
    speedupFromTime: (row, ms) => ratio(old[row] === undefined ? undefined : old[row] / ms),
    save: (figures) => {
      mkdirSync("bench/results", { recursive: true });
      writeFileSync(path, JSON.stringify(figures, null, 2) + "\n");
    },
  };
}

/** How {@link timer} prints a figure: the label's column width and the decimals of its milliseconds. */
export interface TimerLayout {
  readonly width: number;
  readonly digits: number;
}

/**
 * A timing function for one bench: `time(label, fn)` runs `fn` once to warm up (JIT, tables, compiled queries),
 * then `rounds` times; prints the median and mean ms and the previous run's median over this one (above 1× is
 * faster), keeps the median in `figures` under `label`, and resolves with the samples.
 *
 * @example
 * ```ts
 * const time = timer(loadPrevious("structure"), figures, 5, { width: 58, digits: 2 });
 * await time("canonical SMILES of 10 drugs", () => drugs.map(canonicalSmiles));
 * ```
 */
export function timer(
  previous: PreviousRun,
  figures: Figures,
  rounds: number,
  layout: TimerLayout,
): (label: string, fn: () => unknown) => Promise<number[]> {
  return async (label, fn) => {
    await fn();
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await fn();
      samples.push(performance.now() - t0);
    }
    const median = [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    figures[label] = median;
    const ms = (value: number) => value.toFixed(layout.digits).padStart(8);
    console.log(
      `${label.padEnd(layout.width)} median ${ms(median)} ms   mean ${ms(mean)} ms   vs previous run ${
        previous.speedupFromTime(label, median)
      }`,
    );
    return samples;
  };
}
