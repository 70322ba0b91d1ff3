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
