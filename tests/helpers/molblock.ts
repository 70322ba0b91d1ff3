/**
 * MOL blocks of carbon chains of any length, for the size limits of `convert` (tests/unit/convert_test.ts,
 * tests/adversarial/reaction_convert_test.ts).
 *
 * @module
 */

/** A V2000 block of an n-carbon chain (all atoms on a line: no stereo to read). */
export function chainBlock(n: number): string {
  const atoms = Array.from(
    { length: n },
    (_, i) => `${(i * 1.5).toFixed(4).padStart(10)}    0.0000    0.0000 C   0  0`,
  );
  const bonds = Array.from(
    { length: n - 1 },
    (_, i) => `${String(i + 1).padStart(3)}${String(i + 2).padStart(3)}  1  0`,
  );
  return [
    "",
    "  chain",
    "",
    `${String(n).padStart(3)}${String(n - 1).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`,
  ]
    .concat(atoms, bonds, ["M  END", ""]).join("\n");
}

/** A V3000 block of an n-carbon chain. */
export function chainV3000(n: number): string {
  const atoms = Array.from({ length: n }, (_, i) => `M  V30 ${i + 1} C ${(i * 1.5).toFixed(4)} 0 0 0`);
  const bonds = Array.from({ length: n - 1 }, (_, i) => `M  V30 ${i + 1} 1 ${i + 1} ${i + 2}`);
  return [
    "",
    "  chain",
    "",
    "  0  0  0  0  0  0  0  0  0  0999 V3000",
    "M  V30 BEGIN CTAB",
    `M  V30 COUNTS ${n} ${n - 1} 0 0 0`,
    "M  V30 BEGIN ATOM",
    ...atoms,
    "M  V30 END ATOM",
    "M  V30 BEGIN BOND",
    ...bonds,
    "M  V30 END BOND",
    "M  V30 END CTAB",
    "M  END",
    "",
  ].join("\n");
}
