// Reading order of a page's blocks: a recursive XY-cut (columns first, then bands), mirrored for a
// page written right to left or vertically.
import { appendAll } from '../../elements';
import { union } from './lines';
import type { Box, Segment } from './page-text';

/** Recursive XY-cut: vertical (column) cuts first, then horizontal bands; else top-to-bottom. */
export function readingOrder<T extends Box>(items: T[], body: number): T[] {
  if (items.length <= 1) return items;
  const v = cut(items, 'x', Math.max(0.5 * body, 2));
  if (v.length > 1 && sideBySide(v)) return v.flatMap((g) => readingOrder(g, body));
  const h = cut(items, 'y', 0.01);
  if (h.length > 1) {
    // Consecutive bands that share column gutters are one multi-column region (e.g. a row of
    // figures above two text columns): merge them so columns are read top to bottom. So is a band
    // that only continues one column of the region above (a column running on below the other one's
    // end, cut off where both happen to have a paragraph gap).
    const merged: T[][] = [];
    const vGap = Math.max(0.5 * body, 2);
    for (const band of h) {
      const prev = merged[merged.length - 1];
      if (prev && cut(prev, 'x', vGap).length > 1 && cut([...prev, ...band], 'x', vGap).length > 1
        && (cut(band, 'x', vGap).length > 1 || continuesColumn(prev, band, body))) {
        appendAll(prev, band);
      } else {
        merged.push([...band]);
      }
    }
    if (merged.length > 1) return merged.flatMap((g) => readingOrder(g, body));
    return readingOrder(merged[0]!, body);
  }
  return [...items].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Whether the groups of a vertical cut stand side by side: two of them share some height. Groups one
 * wholly above the other (a short heading centred over a paragraph that stops before the middle) are
 * bands, read top to bottom, whatever gap their sides leave.
 */
function sideBySide(groups: Box[][]): boolean {
  const spans = groups.map((g) => [Math.min(...g.map((b) => b.y0)), Math.max(...g.map((b) => b.y1))] as const);
  return spans.some(([a0, a1], i) => spans.some(([b0, b1], j) => i !== j && Math.min(a1, b1) > Math.max(a0, b0)));
}

/**
 * Top to bottom, and left to right among items whose tops are within half a text size of the row's
 * first (a raised footnote mark, "‡Princeton", puts its block's top a little above its neighbours').
 */
function byRows<T extends Box & { lines: Segment[] }>(items: T[], body: number): T[] {
  const sorted = [...items].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  // a block's place in its row is where its first line starts (a block may run on under its neighbours)
  const start = (b: T) => b.lines[0]?.x0 ?? b.x0;
  const out: T[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j]!.y0 - sorted[i]!.y0 < 0.5 * body) j++;
    appendAll(out, sorted.slice(i, j).sort((a, b) => start(a) - start(b)));
    i = j;
  }
  return out;
}

/**
 * Reading order of a page's blocks. A page written mostly vertically (Japanese, Chinese) or in a
 * right-to-left script (Arabic, Hebrew) reads its columns right to left: the XY-cut runs on the
 * page mirrored left to right. A page's head (layout.ts `Block.head`) is read before the rest.
 */
/** Share of the page's height its top and bottom margins take, where running heads and feet stand. */
const MARGIN = 0.07;

/** A block wholly in the page's top or bottom margin band, short enough to be a running head or foot. */
export function pageMargin(b: Box, page: MarginPage, chars: number): 'top' | 'bottom' | undefined {
  if (chars > 100) return undefined;
  const band = page.height * MARGIN, turned = band * landscapeStretch(page);
  if (b.y1 <= band || (b.y1 <= turned && standsApart(b, page, 'top'))) return 'top';
  if (b.y0 >= page.height - band || (b.y0 >= page.height - turned && standsApart(b, page, 'bottom'))) return 'bottom';
  return undefined;
}

type MarginPage = { width: number; height: number; lines?: Box[] };

/**
 * A sheet of paper turned landscape (a wide table's page in a report) sets its running heads as far
 * from its edges as the upright pages do: its band is the upright sheet's (its long side's share). A
 * page wider than paper is (a 16:9 slide) keeps its own height's.
 */
function landscapeStretch(page: MarginPage): number {
  const ratio = page.width / page.height;
  return ratio > 1 && ratio <= 1.45 ? ratio : 1;
}

/** In that wider band a running head stands a line's height or more off the body (a table's last row runs on at its pitch). */
function standsApart(b: Box, page: MarginPage, side: 'top' | 'bottom'): boolean {
  if (!page.lines) return true;
  const gap = b.y1 - b.y0;
  return side === 'top'
    ? !page.lines.some((l) => l.y0 >= b.y1 - 1 && l.y0 < b.y1 + gap)
    : !page.lines.some((l) => l.y1 <= b.y0 + 1 && l.y1 > b.y0 - gap);
}

export function orderBlocks<B extends Box & { lines: Segment[]; head?: boolean }>(blocks: B[], body: number, page: MarginPage): B[] {
  // running heads first and feet last, whatever stands beside them (a table's columns would cut them apart)
  // (each block's band found once: in a landscape page's wider band it is checked against the page's lines)
  const bands = new Map(blocks.map((b) => [b, b.lines.length ? pageMargin(b, page, b.lines.reduce((n, l) => n + l.text.length + 1, -1)) : undefined]));
  const top = blocks.filter((b) => bands.get(b) === 'top'), bottom = blocks.filter((b) => bands.get(b) === 'bottom');
  if (top.length || bottom.length) return [...byRows(top, body), ...orderBody(blocks.filter((b) => !bands.get(b)), body, page.width), ...byRows(bottom, body)];
  return orderBody(blocks, body, page.width);
}

function orderBody<B extends Box & { lines: Segment[]; head?: boolean }>(blocks: B[], body: number, width: number): B[] {
  const head = blocks.filter((b) => b.head);
  if (!head.length) return inDirection(blocks, body, width);
  // the head is read as one region where it stands among the rest (a sidebar beside it comes first)
  const region = { lines: head.flatMap((b) => b.lines), ...union(head) } as unknown as B;
  return inDirection([region, ...blocks.filter((b) => !b.head)], body, width).flatMap((b) => (b === region ? byRows(head, body) : [b]));
}

function inDirection<B extends Box & { lines: Segment[] }>(blocks: B[], body: number, width: number): B[] {
  let rightToLeft = 0, all = 0;
  for (const b of blocks) for (const l of b.lines) { all += l.text.length; if (isVertical(l) || l.rtl) rightToLeft += l.text.length; }
  if (rightToLeft <= 0.5 * all) return readingOrder(blocks, body);
  const mirrored = blocks.map((b) => ({ ...b, x0: width - b.x1, x1: width - b.x0, block: b }));
  return readingOrder(mirrored, body).map((m) => m.block);
}

/** The band starts within a few lines below the items of the region above (columns a few lines tall) that it stands under. */
function continuesColumn(region: Box[], band: Box[], body: number): boolean {
  // a row of one or two lines (a running head's parts, left and right) is no columns to continue
  if (Math.max(...region.map((r) => r.y1)) - Math.min(...region.map((r) => r.y0)) < 3 * body) return false;
  const x0 = Math.min(...band.map((b) => b.x0)), x1 = Math.max(...band.map((b) => b.x1));
  const above = region.filter((r) => r.x0 < x1 && r.x1 > x0);
  if (!above.length) return false;
  const top = Math.min(...band.map((b) => b.y0));
  return top - Math.max(...above.map((r) => r.y1)) <= 3 * body;
}

function cut<T extends Box>(items: T[], axis: 'x' | 'y', minGap: number): T[][] {
  const lo = axis === 'x' ? 'x0' : 'y0';
  const hi = axis === 'x' ? 'x1' : 'y1';
  const sorted = [...items].sort((a, b) => a[lo] - b[lo]);
  const groups: T[][] = [];
  let cur: T[] = [];
  let maxHi = -Infinity;
  for (const it of sorted) {
    if (cur.length && it[lo] > maxHi + minGap) { groups.push(cur); cur = []; }
    cur.push(it);
    maxHi = Math.max(maxHi, it[hi]);
  }
  if (cur.length) groups.push(cur);
  return groups;
}

export const isVertical = (s: Segment): boolean => s.words.length > 0 && s.words.every((w) => w.vertical);
