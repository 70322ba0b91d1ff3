/**
 * Bridges of a molecular graph: the bonds on no ring, which ring membership and ring fusion rest on.
 *
 * @module
 */

/**
 * Which bonds of a graph are bridges (on no cycle): Tarjan's low links, iteratively so that a long chain cannot
 * overflow the stack. `neighbours[a]` lists `[atom, bond index]` for each bond of atom `a`.
 *
 * @example
 * ```ts
 * // A triangle 0-1-2 with a tail 2-3: only bond 3 is a bridge.
 * bridgeBonds([[[1, 0], [2, 2]], [[0, 0], [2, 1]], [[1, 1], [0, 2], [3, 3]], [[2, 3]]], 4); // [false, false, false, true]
 * ```
 */
export function bridgeBonds(
  neighbours: readonly (readonly (readonly [number, number])[])[],
  bondCount: number,
): boolean[] {
  const n = neighbours.length;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const bridge = new Array<boolean>(bondCount).fill(false);
  let time = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    const stack: { atom: number; via: number; next: number }[] = [{ atom: root, via: -1, next: 0 }];
    order[root] = low[root] = time++;
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const edges = neighbours[top.atom]!;
      if (top.next < edges.length) {
        const [to, k] = edges[top.next++]!;
        if (k === top.via) continue;
        if (order[to] === -1) {
          order[to] = low[to] = time++;
          stack.push({ atom: to, via: k, next: 0 });
        } else low[top.atom] = Math.min(low[top.atom]!, order[to]!);
        continue;
      }
      stack.pop();
      const parent = stack.at(-1);
      if (!parent) continue;
      low[parent.atom] = Math.min(low[parent.atom]!, low[top.atom]!);
      if (low[top.atom]! > order[parent.atom]!) bridge[top.via] = true;
    }
  }
  return bridge;
}
