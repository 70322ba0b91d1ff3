// Bridges (bonds on no ring) for the conformer's ring bonds and the library screen's fusion atoms: a tail off a
// ring, a chain, two rings joined by a bond, a fused pair, and a chain long enough to overflow a recursive walk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bridgeBonds } from "../../src/chem/bridges.ts";

/** Atom-and-bond lists from bonds as atom pairs. */
function graph(atoms: number, bonds: [number, number][]): [number, number][][] {
  const incident: [number, number][][] = Array.from({ length: atoms }, () => []);
  bonds.forEach(([a, b], k) => {
    incident[a]!.push([b, k]);
    incident[b]!.push([a, k]);
  });
  return incident;
}

test("a triangle with a tail: only the tail is a bridge", () => {
  assert.deepEqual(bridgeBonds(graph(4, [[0, 1], [1, 2], [2, 0], [2, 3]]), 4), [false, false, false, true]);
});

test("two rings joined by a bond, and a fused pair sharing one", () => {
  const joined: [number, number][] = [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3]];
  assert.deepEqual(bridgeBonds(graph(6, joined), 7), [false, false, false, true, false, false, false]);
  const fused: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]];
  assert.deepEqual(bridgeBonds(graph(6, fused), 7), Array(7).fill(false));
});

test("a chain of 200,000 atoms in two components: every bond a bridge, no stack overflow", () => {
  const bonds = Array.from(
    { length: 199_998 },
    (_, i): [number, number] => i < 99_999 ? [i, i + 1] : [i + 1, i + 2],
  );
  const bridge = bridgeBonds(graph(200_000, bonds), bonds.length);
  assert.equal(bridge.filter(Boolean).length, bonds.length);
});
