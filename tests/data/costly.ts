/**
 * Inputs whose cost is out of proportion to their size (issue: cost, not size), for the cost model's tests and
 * bench/cost_bench.ts: dense graphs of dummy atoms, which RDKit's ring perception and descriptors take seconds
 * to minutes over, and stereocentre-rich symmetric polycycles, which its CIP labeller does.
 *
 * @module
 */
import { perhydroPolyacene } from "./runaway.ts";

/**
 * SMILES of a connected graph of `atoms` atoms (`atom`, default the dummy `*`): a chain plus `closures` extra
 * bonds between pseudo-random atom pairs (deterministic in `seed`), each written as a ring closure; with
 * `maxDegree`, no atom gets more neighbours than that.
 *
 * @example
 * ```ts
 * denseGraph(4, 1); // a four-membered chain with one ring closure, e.g. "*1***1"
 * ```
 */
export function denseGraph(
  atoms: number,
  closures: number,
  atom = "*",
  seed = 1,
  maxDegree = Infinity,
): string {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const degree = Array.from({ length: atoms }, (_, i) => (i === 0 || i === atoms - 1 ? 1 : 2));
  const seen = new Set<string>();
  const opens: number[][] = Array.from({ length: atoms }, () => []);
  const closes: number[][] = Array.from({ length: atoms }, () => []);
  for (let made = 0, tries = 0; made < closures && tries < 1e6; tries++) {
    const i = Math.floor(random() * atoms), j = Math.floor(random() * atoms);
    const [a, b] = [Math.min(i, j), Math.max(i, j)];
    if (b - a < 2 || seen.has(`${a},${b}`) || degree[a]! >= maxDegree || degree[b]! >= maxDegree) continue;
    seen.add(`${a},${b}`);
    degree[a]!++;
    degree[b]!++;
    opens[a]!.push(made);
    closes[b]!.push(made);
    made++;
  }
  const label = (n: number) => (n < 10 ? String(n) : n < 100 ? `%${n}` : `%(${n})`);
  const free: number[] = [];
  const labels = new Map<number, number>();
  let next = 1;
  let smiles = "";
  for (let i = 0; i < atoms; i++) {
    smiles += atom;
    for (const bond of closes[i]!) {
      smiles += label(labels.get(bond)!);
      free.push(labels.get(bond)!);
    }
    for (const bond of opens[i]!) {
      const n = free.pop() ?? next++;
      labels.set(bond, n);
      smiles += label(n);
    }
  }
  return smiles;
}

/** 150 dummy atoms and 1,164 ring closures: RDKit's parse alone took 29 s (measured, Deno). */
export const DENSE_PARSE_ATTACK: string = denseGraph(150, 1164);
/** 24 dummy atoms and 80 ring closures (428 characters): RDKit's descriptors took 21 s. */
export const DENSE_DESCRIPTOR_ATTACK: string = denseGraph(24, 80);
/** 66 carbons, 30 stereocentres, 16 fused rings: RDKit's CIP labelling took 8 s. */
export const CIP_ATTACK: string = perhydroPolyacene(16, true);
