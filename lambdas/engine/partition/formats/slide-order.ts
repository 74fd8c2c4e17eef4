// Reading order of a slide's shapes (pptx, odp): top to bottom, and left to right along a row.

/**
 * Items by their [top, left] position: those whose tops lie within `sameRow` of a row's first item
 * are one row, read left to right (a table placed a hair above the title beside it is read after
 * it); ties keep document order (`i`).
 */
export function slideReadingOrder<T extends { i: number; pos: [number, number] }>(items: T[], sameRow: number): T[] {
  const byTop = [...items].sort((a, b) => a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1] || a.i - b.i);
  const out: T[] = [];
  for (let k = 0; k < byTop.length;) {
    let j = k + 1;
    while (j < byTop.length && byTop[j]!.pos[0] - byTop[k]!.pos[0] <= sameRow) j++;
    out.push(...byTop.slice(k, j).sort((a, b) => a.pos[1] - b.pos[1] || a.pos[0] - b.pos[0] || a.i - b.i));
    k = j;
  }
  return out;
}
