// Unruled tables from text alignment: runs of lines split into several short segments whose
// columns line up, with the header lines above them; cells are the segments placed in the columns.
import type { HRule, Line } from '../page-text';
import { formula } from '../formulas';
import { CAPTION_LABEL } from '../../classify';
import { pageMargin } from '../reading-order';
import { splitTable } from './column-starts';
import { columnsOf } from './segment-columns';
import { keyValueRun } from './key-value';
import { LIST_LABEL } from '../../list-labels';
import { innerWraps, paddedBand, stripLeaders, trailingWraps } from './wrapped-cells';
import { wordColumnsOf, cellRuns, spanningHeader, lineNumbered, wordColumns } from './unruled-grid';

const LEADER = /^[.\u2026·]+$/;

export interface AlignedRun {
  start: number;
  end: number;
  cols: [number, number][];
  /** A display formula whose pieces line up like cells (see `formula`): one Formula, not a table. */
  formula?: boolean;
}

/**
 * A line more than two of the rows' line pitches below them none of whose cells starts where a cell of
 * theirs starts or ends where one ends: the next section's numbered heading under a table at a column's top ("2" and "Section
 * name" 20 pt under the last row), not a row after a blank one.
 */
function farAndAstray(rows: Line[], next: Line, body: number): boolean {
  if (rows.length < 2) return false;
  const pitches = rows.slice(1).map((r, k) => r.y0 - rows[k]!.y0).sort((a, b) => a - b);
  const pitch = pitches[pitches.length >> 1]!;
  if (!(pitch > 0) || next.y0 - rows[rows.length - 1]!.y0 <= 2.2 * pitch) return false;
  const starts = rows.flatMap((r) => r.segs.map((s) => s.x0)), ends = rows.flatMap((r) => r.segs.map((s) => s.x1));
  const near = (xs: number[], x: number) => xs.some((e) => Math.abs(e - x) < 0.5 * body);
  return !next.segs.some((s) => near(starts, s.x0) || near(ends, s.x1));
}

/** Words a segment of running text holds at least, and that a table's short cells stay under. */
const PROSE_WORDS = 7;
const SHORT_CELL_WORDS = 5;

/**
 * A line of running text under rows of short cells (fewer than a third of lines `from`..`to` with a
 * segment of SHORT_CELL_WORDS words): a segment of PROSE_WORDS words (of letters: not a dot leader's)
 * reaching over two or more of the rows' columns. Two page columns of prose under a table of figures
 * set across them make lines of two short segments, which read as rows: the run took them in (and then
 * was no table, its cells wordy). A long cell in a table's own column is no such line.
 */
function proseAfterShortCells(lines: Line[], from: number, to: number, next: Line, body: number): boolean {
  const prose = next.segs.filter((s) => s.words.filter((w) => /\p{L}/u.test(w.t)).length >= PROSE_WORDS);
  if (!prose.length) return false;
  let wordy = 0;
  for (let k = from; k <= to; k++) if (lines[k]!.segs.some((s) => s.words.length >= SHORT_CELL_WORDS)) wordy++;
  if (wordy * 3 >= to - from + 1) return false;
  // (columns at word level: a header's labels set close make one segment across several)
  const cols = wordColumns(lines.slice(from, to + 1), 0.6 * body);
  return prose.some((s) => cols.filter(([a, b]) => Math.min(b, s.x1) - Math.max(a, s.x0) > 0).length >= 2);
}

/** Runs of consecutive lines with 2+ short cells whose columns line up (tables, and formulas set so). */
export function findTables(lines: Line[], body: number, page?: { width: number; height: number }, hRules: HRule[] = []): AlignedRun[] {
  const out: AlignedRun[] = [];
  let i = 0;
  // a running head or foot (its left and right parts) is no table's row
  const inMargin = (l: Line) => page !== undefined && !!pageMargin(l, page, l.segs.reduce((n, s) => n + s.text.length + 1, -1));
  // short cells, or one wide cell of text between short ones (a description column across the page)
  const shortCells = (l: Line) => {
    const lens = l.segs.map((s) => stripLeaders(s.text).length);
    if (lens.every((n) => n <= 60)) return true;
    return lens.length >= 3 && lens.filter((n) => n > 30).length === 1 && Math.max(...lens) <= 160;
  };
  const isRow = (l: Line) => l.segs.length >= 2 && shortCells(l) && !l.segs.some((s) => s.words.some((w) => w.rotated)) && !inMargin(l);
  while (i < lines.length) {
    if (!isRow(lines[i]!)) { i++; continue; }
    const terms = inMargin(lines[i]!) ? undefined : keyValueRun(lines, i, body);
    if (terms !== undefined) {
      out.push({ start: i, end: terms, cols: columnsOf(lines.slice(i, terms + 1).flatMap((r) => r.segs)) });
      i = terms + 1;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length) {
      const next = lines[j + 1]!;
      const prev = lines[j]!;
      const vgap = next.y0 - prev.y1;
      if (vgap > 3 * body || vgap < -2 * body) break;
      if (farAndAstray(lines.slice(i, j + 1), next, body)) break;
      if (proseAfterShortCells(lines, i, j, next, body)) break;
      if (isRow(next)) { j++; continue; }
      // A single-cell line inside a table (wrapped cell or a row with one value) when the table goes on;
      // not one set larger than the rows (a heading between two tables)
      const after = lines[j + 2];
      let left = Infinity, size = 0;
      for (let k = i; k <= j; k++) { left = Math.min(left, lines[k]!.x0); for (const g of lines[k]!.segs) size = Math.max(size, g.size); }
      if (next.segs.length === 1 && stripLeaders(next.segs[0]!.text).length <= 60 && after && isRow(after) && next.x0 >= left - body && next.segs[0]!.size <= 1.15 * size) { j += 2; continue; }
      // a cell wrapped over several lines, each in its column, the table going on under them
      const rowCols = columnsOf(lines.slice(i, j + 1).filter(isRow).flatMap((r) => r.segs));
      const wraps = next.segs.length === 1 ? innerWraps(lines, j + 1, rowCols, body, isRow) : 0;
      if (wraps) { j += wraps + 1; continue; }
      // a row padded apart from the one above, its long cells wrapped around its short ones
      const band = paddedBand(lines, j + 1, rowCols, body, isRow);
      if (band) { j = band; continue; }
      break;
    }
    const runStart = i;
    while (i < j && titleLike(lines[i]!)) i++;
    // a list's items just above a table (a label, its text beside it) are no rows of it
    if (!lines.slice(i, j + 1).every(listItemRow)) while (i < j && listItemRow(lines[i]!)) i++;
    const rows = lines.slice(i, j + 1);
    const multi = rows.filter((r) => r.segs.length >= 2);
    if (multi.length >= 3 || ruledHeader(multi, hRules, body)) {
      // a header segment over several columns (a header "IB Top-5 Top-20" set a word space apart)
      // joins them all at segment level: the gutters at word level then stand for the columns, when
      // no word of a line below the first two runs over a gutter (a list's dot leaders do)
      let cols = columnsOf(rows.flatMap((r) => r.segs));
      if (cols.length < 2) {
        const fine = wordColumns(rows, 0.6 * body);
        const crosses = (r: Line) => r.segs.some((g) => g.words.some((w) => fine.filter(([a, b]) => Math.min(b, w.x1) - Math.max(a, w.x0) > 0).length >= 2));
        if (fine.length >= 2 && !rows.slice(2).some(crosses)) cols = fine;
        // or cells set closer than that, a few to a row, one starting where other rows start theirs
        else cols = splitTable(rows, cols)?.cols ?? cols;
      }
      // Dot leaders ("Total . . . . . 11,062") are spacing, not words.
      const avgCell = multi.reduce((s, r) => s + r.segs.reduce((a, g) => a + stripLeaders(g.text).length, 0) / r.segs.length, 0) / multi.length;
      // measured below the first row: short headings over boxes of wrapped prose (two text boxes side
      // by side, each a bold heading and a paragraph) are no table's header
      const cells = multi.slice(multi.length >= 3 ? 1 : 0).flatMap((r) => r.segs);
      const wordCounts = cells.map((g) => g.words.filter((w) => !LEADER.test(w.t)).length);
      const avgWords = wordCounts.reduce((a, n) => a + n, 0) / cells.length;
      // three columns or more, most cells a word or two: one wordy column (descriptions) is still a table's
      const fewWords = avgWords < 4 || (cols.length >= 3 && wordCounts.sort((a, b) => a - b)[wordCounts.length >> 1]! < 3);
      const aligned = multi.filter((r) => r.segs.length >= Math.min(2, cols.length)).length / multi.length;
      // Columns of prose (two-column layouts) have long, wordy cells; tables have short ones.
      // items of a list (a label, its text beside it) are no table of two columns
      // (a line above them, a running head or a heading beside its number, makes them no table either)
      const listed = (cols.length === 2 && multi.every(listItemRow)) || (multi.length >= 3 && multi.slice(1).every(listItemRow));
      const tabular = !listed && cols.length >= 2 && avgCell <= 40 && fewWords && aligned >= 0.8;
      if (tabular && formula(multi)) out.push({ start: runStart, end: j, cols, formula: true });
      else if (tabular && !lineNumbered(rows)) {
        // Column headers above the body (often wrapped over several short lines) belong to it.
        const x0 = rows.reduce((m, r) => Math.min(m, r.x0), Infinity) - body, x1 = rows.reduce((m, r) => Math.max(m, r.x1), -Infinity) + body;
        const floor = out.length ? out[out.length - 1]!.end + 1 : 0;
        let k = i;
        let multiAbove = false, segsAbove = false;
        // (columns set closer than a segment gap are the body's once split: column-starts.ts)
        const headCols = splitTable(rows, cols)?.cols;
        while (k - 1 >= floor && i - (k - 1) <= 6) {
          const above = lines[k - 1]!, below = lines[k]!;
          if (below.y0 - above.y1 > 3.5 * body || above.x0 < x0 || above.x1 > x1) break;
          if (above.segs.some((g) => g.text.length > 60)) break;
          if (titleLike(above) || listItemRow(above)) break;
          k--;
          if (above.segs.length >= 2) multiAbove = segsAbove = true;
          // headers set closer than a segment gap, each over a column of the body (LaTeX's tabular)
          else if ((cellRuns(above.segs[0]!, cols)?.length ?? 0) >= 2 || (headCols && wordColumnsOf(above.segs[0]!, headCols) >= 2)) multiAbove = true;
        }
        const start = multiAbove ? k : i;
        // such a header is one segment across the columns: the body's columns stand
        const tcols = start === i || !segsAbove ? cols : columnsOf(lines.slice(start, j + 1).flatMap((r) => r.segs));
        // A header spanning several columns ("Field" over "Bits | Name") stands alone on its line above.
        let top = start;
        const fine = wordColumns(lines.slice(start, j + 1), 0.6 * body);
        const hcols = fine.length > tcols.length ? fine : tcols;
        while (top - 1 >= floor && start - top < 2 && spanningHeader(lines[top - 1]!, lines[top]!, hcols, body)) top--;
        out.push({ start: top, end: trailingWraps(lines, start, j, tcols, body), cols: tcols });
      }
    }
    i = out.length && out[out.length - 1]!.end > j ? out[out.length - 1]!.end + 1 : j + 1;
  }
  return out;
}

/** A list's item on a line of two segments: its label (a bullet, a number), then its text; at the right of a right-to-left line. */
function listItemRow(r: Line): boolean {
  if (r.segs.length !== 2) return false;
  const label = r.segs[0]!.rtl ? r.segs[1]! : r.segs[0]!;
  return LIST_LABEL.test(label.text.trim());
}

/**
 * Two rows of three or more cells, each cell of the second under one of the first, with a rule drawn
 * between them across all of them: a table's header and its one row (a table's part that a page
 * break left on a page of its own, its header repeated). Two lines of aligned text make no table.
 */
function ruledHeader(multi: Line[], hRules: HRule[], body: number): boolean {
  if (multi.length !== 2) return false;
  const [head, row] = multi as [Line, Line];
  if (head.segs.length < 3 || row.segs.length < 3 || head.segs.length !== row.segs.length) return false;
  if (!row.segs.every((g, k) => Math.min(g.x1, head.segs[k]!.x1) - Math.max(g.x0, head.segs[k]!.x0) > 0)) return false;
  const x0 = Math.min(head.x0, row.x0), x1 = Math.max(head.x1, row.x1);
  return hRules.some((r) => r.y >= head.y1 - 0.2 * body && r.y <= row.y0 + 0.2 * body && r.x0 <= x0 + body && r.x1 >= x1 - body);
}

/**
 * A caption or title line above or at the top of a table: a long run of words, alone on its line or
 * after a caption's label ("Table 2" | "Results ..."). Several runs of a few words each, one of them
 * long, are a header over groups of columns ("% of Total" | "inter-annotator agreement (%)").
 */
function titleLike(l: Line): boolean {
  if (l.segs.length > 3 || !l.segs.some((g) => g.words.length >= 5)) return false;
  return l.segs.length === 1 || CAPTION_LABEL.test(l.segs[0]!.text) || l.segs.some((g) => g.words.length >= 8);
}
