/**
 * depict's facts sized for a model: the highlighted atoms, bonds and reasons of every molecule drawn, cut to a
 * character budget with what was left out counted, so a picture of many matches cannot flood the context.
 *
 * @module
 */
import type { DepictedMolecule, HighlightGroup } from "../chem/depict.ts";

/** Most characters of depict's facts as JSON text (the structured result beside the picture). */
export const FACTS_MAX_CHARS = 1_000;

/** What was not listed to stay within {@link FACTS_MAX_CHARS}. */
export interface LeftOut {
  /** Highlight groups (matches, alerts) not listed. */
  highlights: number;
  /** Highlighted atoms and bonds left out of the union lists. */
  atoms: number;
  bonds: number;
}

/**
 * The molecules' facts cut so that `wrap(molecules, leftOut)` serialises to at most `budget` characters: groups
 * dropped from the last molecule backwards first, then the union lists shortened from their ends.
 */
export function fitFacts<T>(
  molecules: readonly DepictedMolecule[],
  wrap: (molecules: DepictedMolecule[], leftOut: LeftOut | undefined) => T,
  budget = FACTS_MAX_CHARS,
): T {
  const kept = molecules.map((m) => ({
    highlight_atoms: [...m.highlight_atoms],
    highlight_bonds: [...m.highlight_bonds],
    highlights: [...m.highlights] as HighlightGroup[],
  }));
  const leftOut: LeftOut = { highlights: 0, atoms: 0, bonds: 0 };
  const fits = () => JSON.stringify(wrap(kept, leftOut)).length <= budget;
  if (JSON.stringify(wrap(kept, undefined)).length <= budget) return wrap(kept, undefined);
  for (let i = kept.length - 1; i >= 0 && !fits(); i--) {
    const groups = kept[i]!.highlights;
    while (groups.length > 0 && !fits()) {
      groups.pop();
      leftOut.highlights++;
    }
  }
  for (let i = kept.length - 1; i >= 0 && !fits(); i--) {
    const { highlight_atoms: atoms, highlight_bonds: bonds } = kept[i]!;
    // Halving first keeps the number of serialisations logarithmic in a long list.
    while ((atoms.length > 0 || bonds.length > 0) && !fits()) {
      const cutBonds = Math.ceil(bonds.length / 2);
      const cutAtoms = Math.ceil(atoms.length / 2);
      bonds.length -= cutBonds;
      atoms.length -= cutAtoms;
      leftOut.bonds += cutBonds;
      leftOut.atoms += cutAtoms;
    }
  }
  return wrap(kept, leftOut);
}
