// Ruled tables: the grids drawn on the page (grid.ts) filled with the words whose centre falls in
// each cell. A grid that holds no real table (a frame around a paragraph, a box with one value, a
// chart's axes) is dropped, and its words stay in the page's text flow.
import type { TableRows } from '../../table-html';
import type { Box, Word } from '../page-text';
import { isRtlLine, logicalOrder } from '../bidi';
import { findGrids, intervalOf, pruneEmpty, type Grid, type GridCell } from './grid';
import type { Rules } from './paths';

export interface FoundTable extends Box {
  rows: TableRows;
  /** The words the table holds (they are not repeated as text around it). */
  words: Set<Word>;
}

/**
 * Words of one cell in reading order: lines top to bottom, words left to right (glued pieces without a
 * space), or right to left in a line of a right-to-left script (bidi.ts).
 */
export function cellText(words: Word[]): string {
  return wordLines(words).map((l) => {
    const ordered = logicalOrder(l, isRtlLine(l.map((w) => w.t)));
    return ordered === l ? l.map((w, i) => (i && w.glue ? '' : ' ') + w.t).join('').trim() : ordered.map((w) => w.t).join(' ');
  }).join(' ');
}

/**
 * Words with the pieces glued to them (a tracked word PDFium split at its wide letter gaps, CJK
 * glyphs): a cell takes a word whole, by the centre of all its pieces, so a long identifier that
 * runs over a rule is never cut between two cells.
 */
export function wordUnits(words: Word[]): Word[][] {
  const units: Word[][] = [];
  for (const w of words) {
    const unit = units[units.length - 1];
    const prev = unit?.[unit.length - 1];
    const em = Math.max(w.size, 1);
    if (unit && prev && w.glue && w.x0 >= prev.x0 && w.x0 - prev.x1 < em && Math.abs(w.y0 + w.y1 - prev.y0 - prev.y1) < em) unit.push(w);
    else units.push([w]);
  }
  return units;
}

/** Words grouped into lines (centres within half a text size), top to bottom, each left to right. */
export function wordLines(words: Word[]): Word[][] {
  if (!words.length) return [];
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) - (b.y0 + b.y1));
  const lines: Word[][] = [];
  for (const w of sorted) {
    const line = lines[lines.length - 1];
    const cy = (w.y0 + w.y1) / 2;
    if (line) {
      const ref = line[0]!;
      if (Math.abs(cy - (ref.y0 + ref.y1) / 2) <= 0.5 * Math.max(Math.min(w.size, ref.size), 1)) { line.push(w); continue; }
    }
    lines.push([w]);
  }
  for (const l of lines) l.sort((a, b) => a.x0 - b.x0);
  return lines;
}

/**
 * A frame drawn around an unruled table: in some grid row several cells hold the same long stack of
 * lines (one value per line, a row of the real table per line). Wrapped text in a ruled table has
 * one or two tall cells beside short ones.
 */
function stackedRows(g: Grid, byCell: Word[][]): boolean {
  const counts = new Map<number, number[]>();
  g.cells.forEach((c, i) => {
    const lines = wordLines(byCell[i]!);
    const n = lines.length;
    // Short values or labels per line (figures, codes, dot-leader labels), not wrapped sentences.
    const chars = lines.reduce((a, l) => a + l.map((w) => w.t).join('').replace(/\.{2,}|(?:\. )+/g, '').length, 0);
    if (n >= 4 && chars <= 20 * n) { const l = counts.get(c.row) ?? []; l.push(n); counts.set(c.row, l); }
  });
  for (const l of counts.values()) {
    const max = Math.max(...l);
    if (l.filter((n) => n >= 0.75 * max).length >= 2) return true;
  }
  return false;
}

/**
 * Rows of a body set without rules inside a ruled frame (a table with vertical rules only, or a box
 * with a rule under its header): a grid row whose fullest cells (two or more, most of its cells) hold
 * the same number of lines, level across the cells, and whose other cells' lines are each level with
 * one of theirs,
 * entries rather than text wrapped at the cell's edge (below). Such
 * a row is as many rows as it has lines; without this, its cells read a column at a time ("Alpha Beta
 * Gamma"). The grid with the rows split, or undefined when no row is so.
 */
function splitStackedRows(g: Grid, byCell: Word[][]): Grid | undefined {
  const cuts: number[] = [];
  for (let r = 0; r + 1 < g.ys.length; r++) {
    if (g.cells.some((c) => c.row <= r && c.row + c.rowspan > r && c.rowspan > 1)) continue;
    const mine = g.cells.map((c, i) => ({ c, lines: wordLines(byCell[i]!) })).filter(({ c, lines }) => c.row === r && lines.length);
    // the cells holding the most lines, most of the row's, set its lines; a cell with fewer (an entry
    // left blank, a value the scan lost) has each of its lines level with one of theirs (a few cells
    // wrapped beside one-line ones are a record's wrapped text)
    const k = Math.max(0, ...mine.map(({ lines }) => lines.length));
    const full = mine.filter(({ lines }) => lines.length === k);
    if (full.length < 2 || k < 2 || 2 * full.length <= mine.length) continue;
    const size = Math.max(...mine.flatMap(({ lines }) => lines.flat().map((w) => w.size)), 1);
    const mid = (l: Word[]) => (Math.min(...l.map((w) => w.y0)) + Math.max(...l.map((w) => w.y1))) / 2;
    const levels = Array.from({ length: k }, (_, j) => full.map(({ lines }) => mid(lines[j]!)));
    const level = levels.every((ms) => Math.max(...ms) - Math.min(...ms) < 0.5 * size)
      && mine.every(({ lines }) => lines.length === k || lines.every((l) => levels.some((ms) => Math.abs(mid(l) - ms[0]!) < 0.5 * size)));
    // entries: in some cell every line leaves room for the next one's first word (in narrow columns
    // entries fill them as wrapped text does: then three lines in three cells or more, which wrapped
    // text does not match); no line opens in lower case (wrapped text runs on)
    const entries = full.some(({ c, lines }) => lines.slice(0, -1).every((l, j) => {
      const next = lines[j + 1]![0]!;
      return Math.max(...l.map((w) => w.x1)) + 0.3 * next.size + (next.x1 - next.x0) < g.xs[c.col + c.colspan]! - 0.5 * size;
    }));
    const opens = mine.every(({ lines }) => lines.slice(1).every((l) => !/^\p{Ll}/u.test(l[0]!.t)));
    if (!level || !opens || !(entries || (k >= 3 && full.length >= 3))) continue;
    for (let j = 0; j + 1 < k; j++) {
      const bottom = Math.max(...full.map(({ lines }) => Math.max(...lines[j]!.map((w) => w.y1))));
      const top = Math.min(...full.map(({ lines }) => Math.min(...lines[j + 1]!.map((w) => w.y0))));
      cuts.push((bottom + top) / 2);
    }
  }
  if (!cuts.length) return undefined;
  const ys = [...g.ys, ...cuts].sort((a, b) => a - b);
  const rowOf = (y: number) => ys.findIndex((v) => Math.abs(v - y) < 1e-6);
  const cells: GridCell[] = [];
  for (const c of g.cells) {
    const r0 = rowOf(g.ys[c.row]!), r1 = rowOf(g.ys[c.row + c.rowspan]!);
    // a cell of a split row becomes one cell per line; a cell spanning rows keeps its span
    if (c.rowspan === 1 && r1 - r0 > 1) for (let r = r0; r < r1; r++) cells.push({ ...c, row: r, rowspan: 1, y0: ys[r]!, y1: ys[r + 1]! });
    else cells.push({ ...c, row: r0, rowspan: r1 - r0 });
  }
  return { ...g, ys, cells };
}

/**
 * An empty column as wide as a field to write in (eight letters or more), each of its rows a cell of
 * its own in two rows or more, beside labels (two rows or more hold text): a form's blanks ("Full
 * name | ____"). Not a spacer between double rules, nor one of two blank columns side by side (an
 * empty part of a grid drawn wider than its table).
 */
function blankField(g: Grid, cells: (GridCell & { text: string })[], col: number, words: Word[]): boolean {
  const size = words.length ? words.reduce((n, w) => n + w.size, 0) / words.length : 10;
  if (g.xs[col + 1]! - g.xs[col]! < 8 * size || !blankColumn(cells, col)) return false;
  if (blankColumn(cells, col - 1) || blankColumn(cells, col + 1)) return false;
  return new Set(cells.filter((c) => c.text.trim()).map((c) => c.row)).size >= 2;
}

/** A column whose own cells (two or more; a cell spanning it from the left may hold text) are all empty. */
function blankColumn(cells: (GridCell & { text: string })[], col: number): boolean {
  const own = cells.filter((c) => c.col === col && c.colspan === 1);
  return own.length >= 2 && !own.some((c) => c.text.trim() || c.rowspan > 1);
}

/** Fills one grid; undefined when it is not a table. */
function fillGrid(g: Grid, words: Word[], depth = 0): FoundTable | undefined {
  const nr = g.ys.length - 1, nc = g.xs.length - 1;
  const owner = new Int32Array(nr * nc).fill(-1);
  g.cells.forEach((c, i) => {
    for (let r = c.row; r < c.row + c.rowspan; r++) for (let k = c.col; k < c.col + c.colspan; k++) owner[r * nc + k] = i;
  });
  const byCell: Word[][] = g.cells.map(() => []);
  const inside = new Set<Word>();
  for (const unit of wordUnits(words)) {
    const cx = (unit[0]!.x0 + unit[unit.length - 1]!.x1) / 2, cy = (unit[0]!.y0 + unit[0]!.y1) / 2;
    const c = intervalOf(g.xs, cx), r = intervalOf(g.ys, cy);
    if (c < 0 || r < 0) continue;
    const i = owner[r * nc + c]!;
    if (i < 0) continue;
    for (const w of unit) { byCell[i]!.push(w); inside.add(w); }
  }
  if (stackedRows(g, byCell)) return undefined;
  const split = depth === 0 ? splitStackedRows(g, byCell) : undefined;
  if (split) return fillGrid(split, words, 1);
  const filled = g.cells.map((c, i) => ({ ...c, text: cellText(byCell[i]!) }));
  const { cells, nrows, ncols } = pruneEmpty(filled, nr, nc, (k) => blankField(g, filled, k, words));
  const texts = cells.filter((c) => c.text);
  // One value in a box, a single row or column of text, or boxed prose is not a table.
  if (nrows < 2 || ncols < 2 || texts.length < 3) return undefined;
  const lengths = texts.map((c) => c.text.length).sort((a, b) => a - b);
  if (lengths[lengths.length >> 1]! > 200) return undefined;
  const rows: TableRows = Array.from({ length: nrows }, () => []);
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  for (const c of cells) rows[c.row]!.push({ text: c.text, ...(c.colspan > 1 ? { colspan: c.colspan } : {}), ...(c.rowspan > 1 ? { rowspan: c.rowspan } : {}) });
  return { rows, words: inside, x0: g.x0, y0: g.y0, x1: g.x1, y1: g.y1 };
}

/** Ruled tables read on one page at most: past them, the other grids' words stay text (bounded work). */
export const MAX_RULED_TABLES = 300;

/**
 * Ruled tables of a page, top to bottom. Each grid looks only at the words whose centre lies in its
 * height (a binary search over the words sorted by height), so many small tables cost little more
 * than one; `warn` hears when the page has more than MAX_RULED_TABLES.
 */
export function findRuledTables(rules: Rules | undefined, words: Word[], warn?: (message: string) => void): FoundTable[] {
  if (!rules || rules.h.length < 2 || !rules.v.length) return [];
  const out: FoundTable[] = [];
  const order = words.map((_, i) => i).sort((a, b) => cy(words[a]!) - cy(words[b]!));
  const ys = order.map((i) => cy(words[i]!));
  const taken = new Set<Word>();
  for (const g of findGrids(rules.h, rules.v, rules.tol)) {
    if (out.length >= MAX_RULED_TABLES) {
      warn?.(`more than ${MAX_RULED_TABLES} ruled tables: the rest are read as text`);
      break;
    }
    // In content order (pieces of a word follow each other), not taken by a table above.
    const band = order.slice(lowerBound(ys, g.y0), lowerBound(ys, g.y1 + 1e-6)).sort((a, b) => a - b).map((i) => words[i]!).filter((w) => !taken.has(w));
    const t = fillGrid(g, band);
    if (!t) continue;
    out.push(t);
    for (const w of t.words) taken.add(w);
  }
  return out;
}

const cy = (w: Word) => (w.y0 + w.y1) / 2;
function lowerBound(xs: number[], v: number): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid]! < v) lo = mid + 1; else hi = mid; }
  return lo;
}
