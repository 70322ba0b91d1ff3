/** What an RDKit SVG depiction shows highlighted, read from the drawing itself (src/chem/depict.ts). */

const ascending = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);

/** Atoms drawn with a highlight: RDKit paints each as a filled ellipse of class `atom-N`. */
export function drawnAtoms(svg: string): number[] {
  return ascending([...svg.matchAll(/<ellipse [^>]*class='atom-(\d+)'/g)].map((m) => Number(m[1])));
}

/**
 * Bonds drawn with a highlight: a band of class `bond-N` filled with the highlight colour (a plain bond is a
 * stroke with `fill:none`, a wedge is filled with its atoms' colours). The SMARTS highlight's colour by default.
 */
export function drawnBonds(svg: string, colour = "#FF8C8C"): number[] {
  const band = new RegExp(`<path class='bond-(\\d+) [^']*' d='[^']*' style='fill:${colour};`, "g");
  return ascending([...svg.matchAll(band)].map((m) => Number(m[1])));
}
