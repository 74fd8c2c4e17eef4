// Page columns for table detection. Lines are grouped across the whole page width, so on a page in
// two columns (or a two-page spread) a line of one column and a table row of the other at the same
// height make one multi-cell line, and an unruled table found there swallows the neighbouring
// column's text and blocks the reading-order cut between the columns. Where a gutter runs clear down
// the page and each side holds running text of its own, the sides are looked at apart. Lines that
// span the page (a paper's title and abstract, a full-width paragraph or caption between the column
// sections) do not close a gutter: they go with the first column.
import type { Line, Segment } from './page-text';
import { union } from './lines';

/** A gutter at least this wide (body sizes) between page columns (papers set theirs a little over an em wide). */
const MIN_GUTTER = 0.6;
/** Lines of running text (a segment of this many words) each side needs. */
const PROSE_WORDS = 7;
/** In a narrow column (a paper's), a line of fewer words that fills its column is running text too. */
const NARROW_PROSE_WORDS = 5;
const FILLS = 0.85;
const PROSE_LINES = 3;
/** Largest gap (body sizes) between lines of a page's head. */
const HEAD_GAP = 4;
/** A gutter is crossed by at most this share of the lines the page's busiest point has (its spanning lines). */
const MAX_SPANNING = 0.25;

/**
 * The page's lines split into page columns, left to right (one group when the page is not in columns),
 * and the page's head: lines above the columns' running text set across them (read before them).
 */
export function pageColumns(lines: Line[], body: number): { head: Line[]; columns: Line[][] } {
  const whole = { head: [], columns: [lines] };
  const all = lines.flatMap((l) => l.segs).filter((s) => !s.words.some((w) => w.rotated));
  if (all.length < 2 * PROSE_LINES) return whole;
  const left = Math.floor(Math.min(...all.map((s) => s.x0))), right = Math.ceil(Math.max(...all.map((s) => s.x1)));
  // How many segments cover each point across the page; a gutter is a run of points few of them
  // cover (the lines that span it), at least MIN_GUTTER wide.
  const cover = new Uint32Array(right - left + 1);
  for (const s of all) for (let x = Math.max(0, Math.floor(s.x0) - left); x <= Math.min(right - left, Math.ceil(s.x1) - left); x++) cover[x]!++;
  const few = (peak: number) => Math.max(2, Math.floor(MAX_SPANNING * peak));
  const peakIn = (a: number, b: number) => { let m = 0; for (let x = a; x < b; x++) m = Math.max(m, cover[x]!); return m; };
  const width = right - left + 1;
  // candidate gutters: wide runs that few lines cover for the page's busiest point, narrowed to
  // their least covered stretch (hanging numbers or a page's edge text reach into a wide run)
  const runs: [number, number, number][] = [];
  const globalFew = few(peakIn(0, width));
  for (let x = 0; x < width; x++) {
    if (cover[x]! > globalFew) continue;
    let e = x;
    while (e < width && cover[e]! <= globalFew) e++;
    if (e - x >= MIN_GUTTER * body && x > 0 && e < width) {
      let least = Infinity;
      for (let k = x; k < e; k++) least = Math.min(least, cover[k]!);
      let best: [number, number] | undefined;
      for (let k = x; k < e; k++) {
        if (cover[k]! !== least) continue;
        let j = k;
        while (j < e && cover[j]! === least) j++;
        if (!best || j - k > best[1] - best[0]) best = [k, j];
        k = j;
      }
      if (best![1] - best![0] >= MIN_GUTTER * body) runs.push([best![0], best![1], least]);
      // a narrow gutter with a short line in it (the page's folio centred under two columns): the run
      // as a whole, crossed by as many lines as cross it most
      else {
        let most = 0;
        for (let k = x; k < e; k++) most = Math.max(most, cover[k]!);
        runs.push([x, e, most]);
      }
    }
    x = e;
  }
  // a gutter is crossed by few lines for the columns on both its sides too (not a table's inner gap,
  // which the lines of its own column span)
  const gutters = runs.filter(([a, b, crossing], k) =>
    crossing <= few(Math.min(peakIn(k ? runs[k - 1]![1] : 0, a), peakIn(b, k + 1 < runs.length ? runs[k + 1]![0] : width))));
  const cols: [number, number][] = [];
  let start = 0;
  for (const [a, b] of gutters) { cols.push([left + start, left + a - 1]); start = b; }
  cols.push([left + start, right]);
  // Segments across a gutter span the page (a paper's title, a full-width paragraph): not in a column.
  const spans = (s: Segment) => !cols.some(([a, b]) => s.x0 >= a - 1 && s.x1 <= b + 1);
  const segs = all.filter((s) => !spans(s));
  if (cols.length < 2) return whole;
  const rangeOf = (s: Segment) => cols.findIndex(([a, b]) => s.x0 >= a - 1 && s.x1 <= b + 1);
  const isProse = (s: Segment) => { const [a, b] = cols[rangeOf(s)]!; return s.words.length >= PROSE_WORDS || (s.words.length >= NARROW_PROSE_WORDS && s.x1 - s.x0 >= FILLS * (b - a)); };
  const prose = cols.map(() => 0);
  for (const s of segs) if (isProse(s)) prose[rangeOf(s)]!++;
  // Split only at gutters with running text right beside them on both sides (a column of page
  // numbers or of table figures beyond a gutter stays with its neighbour).
  const group: number[] = [0];
  for (let k = 1; k < cols.length; k++) group.push(group[k - 1]! + (prose[k - 1]! >= PROSE_LINES && prose[k]! >= PROSE_LINES ? 1 : 0));
  const n = group[group.length - 1]! + 1;
  if (n < 2) return whole;
  // The page's head: its top lines from a line spanning the page (a paper's title) down to the first
  // line in one column, each spanning or with parts on both sides of a gutter close under the line
  // before, above the columns' running text (authors and affiliations set side by side), read across
  // before the columns.
  const proseTop = Math.min(...segs.filter(isProse).map((s) => s.y0));
  const head = new Set<Line>();
  let headEnd: number | undefined;
  for (const l of [...lines].sort((a, b) => a.y0 - b.y0)) {
    if (!l.segs.length || l.segs.every((s) => s.words.some((w) => w.rotated))) continue;
    const sides = new Set(l.segs.map((s) => (spans(s) ? -1 : group[rangeOf(s)]!)));
    const spanning = sides.has(-1) && sides.size === 1;
    if (!(spanning || (headEnd !== undefined && sides.size >= 2 && l.y1 <= proseTop && l.y0 - headEnd < HEAD_GAP * body))) break;
    head.add(l);
    headEnd = l.y1;
  }
  if (![...head].some((l) => l.segs.some((s) => !spans(s)))) head.clear();
  // Rows of short cells on both sides of a gutter, one under the other, are one table across it (a
  // full-width table on a page in two columns, a paper's table*), not two columns side by side: their
  // band of lines is read whole, with the first column, and the columns above and below it apart.
  // Short lines that meet here and there (a heading beside a table row, a formula's last line beside
  // a caption) are not.
  const side = (s: Segment) => (spans(s) ? 0 : group[rangeOf(s)]!);
  const flow = lines.filter((l) => !head.has(l)); // authors side by side over the columns are no table rows
  const acrossBands: [number, number][] = [];
  let run = 0, first = -1;
  let last: Line | undefined;
  flow.forEach((l, i) => {
    const sides = new Map<number, number>();
    for (const s of l.segs) sides.set(side(s), Math.max(sides.get(side(s)) ?? 0, s.words.length));
    if (sides.size >= 2 && [...sides.values()].every((w) => w <= 3)) {
      if (last && l.y0 - last.y1 < 2 * body) run++;
      else { run = 1; first = i; }
      last = l;
      if (run >= 3) { if (acrossBands[acrossBands.length - 1]?.[0] === first) acrossBands.pop(); acrossBands.push([first, i]); }
    } else if (l.segs.length) { run = 0; last = undefined; }
  });
  const inBand = new Set<Line>();
  // (the table's lines next to those rows, close by and holding no running text: a header over
  // groups of columns, a row with cells on one side only)
  const proseLine = (l: Line) => l.segs.some((s) => (spans(s) ? s.words.length >= PROSE_WORDS : isProse(s)));
  for (const [a, b] of acrossBands) {
    let lo = a, hi = b;
    while (lo > 0 && !proseLine(flow[lo - 1]!) && flow[lo]!.y0 - flow[lo - 1]!.y1 < 1.5 * body) lo--;
    while (hi + 1 < flow.length && !proseLine(flow[hi + 1]!) && flow[hi + 1]!.y0 - flow[hi]!.y1 < 1.5 * body) hi++;
    // Lines on both sides of the gutter right above or below it: the columns run on beside the rows
    // (a contents page in two columns of short entries), no table across them; the page is read whole.
    const twoSided = (l: Line | undefined, near: Line) => !!l && Math.max(l.y0 - near.y1, near.y0 - l.y1) < 2 * body && new Set(l.segs.map(side)).size >= 2;
    if (twoSided(flow[lo - 1], flow[lo]!) || twoSided(flow[hi + 1], flow[hi]!)) return whole;
    for (let k = lo; k <= hi; k++) inBand.add(flow[k]!);
  }
  const columns = Array.from({ length: n }, (_, k) => lines.flatMap((l) => {
    if (head.has(l)) return [];
    if (inBand.has(l)) return k === 0 ? [l] : [];
    const mine = l.segs.filter((s) => side(s) === k);
    return mine.length === l.segs.length ? [l] : regroup(mine);
  }).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
  return { head: [...head], columns };
}

/**
 * A column's part of a line grouped across the page, as lines of its own: text of the other column
 * (a larger heading) reaches over two lines of this one, which were read as one line (a table's
 * label set between two header lines and the line under it).
 */
function regroup(segs: Segment[]): Line[] {
  const groups: Segment[][] = [];
  for (const s of [...segs].sort((a, b) => a.y0 + a.y1 - b.y0 - b.y1)) {
    const g = groups.find((ss) => ss.some((o) => Math.min(o.y1, s.y1) - Math.max(o.y0, s.y0) >= 0.5 * Math.min(o.y1 - o.y0, s.y1 - s.y0)));
    if (g) g.push(s);
    else groups.push([s]);
  }
  return groups.map((g) => { const ss = g.sort((a, b) => a.x0 - b.x0); return { segs: ss, ...union(ss) }; });
}
