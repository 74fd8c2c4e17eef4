// The cells of an unruled table (unruled.ts finds its lines): the columns its words stand in, each
// line's segments placed in them, lines that continue a record's cells (wrapped text, a label or a
// record's cells set midway between two lines) joined into one row, headers spanning columns.
import type { Line, Segment, Word } from '../page-text';
import type { TableRows } from '../../table-html';
import { bandOverlap, union } from '../lines';
import { wordSpace } from './column-starts';
import { headerBesideValues, labelsCentredInBands, labelsSpanningRows, narrowGroupLabels, setSpan, type Spans } from './header-spans';
import { commonGap, headsCells, isFigure, nearest, paddedRecords, recordRow, restyled, wouldHaveFit } from './wrapped-cells';

/** How many of the columns the segment's words stand in, each word within one (0 when one is not). */
export function wordColumnsOf(seg: Segment, cols: [number, number][]): number {
  const taken = new Set<number>();
  for (const w of seg.words) {
    const over = cols.flatMap(([a, b], k) => (Math.min(b, w.x1) - Math.max(a, w.x0) > 0 ? [k] : []));
    if (over.length !== 1) return 0;
    taken.add(over[0]!);
  }
  return taken.size;
}


/**
 * Columns at word level: x-ranges covered by the words of the table's multi-cell rows, where gaps
 * narrower than `minGap` do not count. A gutter has to stay clear on nearly every row (a title or a
 * spanning header may cross it), so numbers set close together (right-aligned figures one space
 * apart) still split, while the words of one cell ("Andhra Pradesh" above "Arunachal Pradesh") cover
 * each other's gaps.
 */
export function wordColumns(rows: Line[], minGap: number): [number, number][] {
  const multi = rows.filter((r) => r.segs.length >= 2);
  // One crossing row is allowed from five rows on (a header spanning sub-columns beside other headers).
  const allowed = Math.max(multi.length >= 5 ? 1 : 0, Math.floor(multi.length * 0.12));
  const events: [number, number][] = [];
  for (const r of multi) {
    const iv = r.segs.flatMap((s) => s.words).filter((w) => !w.rotated).map((w) => [w.x0, w.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
    let cur: [number, number] | undefined;
    for (const [a, b] of iv) {
      if (cur && a < cur[1] + minGap) cur[1] = Math.max(cur[1], b);
      else { if (cur) events.push([cur[0], 1], [cur[1], -1]); cur = [a, b]; }
    }
    if (cur) events.push([cur[0], 1], [cur[1], -1]);
  }
  events.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const cols: [number, number][] = [];
  let count = 0, start = 0;
  for (const [x, d] of events) {
    const before = count;
    count += d;
    if (before <= allowed && count > allowed) start = x;
    else if (before > allowed && count <= allowed) {
      const last = cols[cols.length - 1];
      if (last && start < last[1] + minGap) last[1] = x;
      else cols.push([start, x]);
    }
  }
  return cols;
}

/**
 * The table's cells, one row per line, wrapped single cells joined to the row above. With `rules`
 * (the ys of rules bounding each record, row-rules.ts) the lines between two rules are one record
 * and make one row when every later line there continues cells that the first line opens (wrapped
 * text stays in its column); a later line as full as the first, or with a cell of its own (a stacked
 * header: "Revenue" above "Medical & | Family"), means the rules group several lines, each a row.
 */
export function tableGrid(rows: Line[], segCols: [number, number][], body = 10, rules?: number[]): string[][] {
  return buildGrid(rows, segCols, body, rules).grid;
}

/** The table's cells as rows (tableGrid), with a header that spans several columns as one cell with its colspan. */
export function tableRows(rows: Line[], segCols: [number, number][], body = 10, rules?: number[]): TableRows {
  const { grid, spans, rowspans } = buildGrid(rows, segCols, body, rules);
  // positions a cell of the row above spans down into
  const covered = new Map<string[], Set<number>>();
  grid.forEach((row, r) => {
    for (const [k, n] of rowspans.get(row) ?? []) for (let d = 1; d < n; d++) (covered.get(grid[r + d]!) ?? covered.set(grid[r + d]!, new Set()).get(grid[r + d]!)!).add(k);
  });
  return grid.map((row) => {
    const sp = spans.get(row), rs = rowspans.get(row), cov = covered.get(row);
    const out: TableRows[number] = [];
    for (let k = 0; k < row.length; k++) {
      if (cov?.has(k)) continue;
      const n = sp?.get(k), m = rs?.get(k);
      const cell = { text: row[k]!, ...(n && n > 1 ? { colspan: n } : {}), ...(m && m > 1 ? { rowspan: m } : {}) };
      out.push(cell);
      if (n && n > 1) k += n - 1;
    }
    return out;
  });
}

function buildGrid(lines: Line[], segCols: [number, number][], body: number, rules?: number[]): { grid: string[][]; spans: Spans; rowspans: Spans } {
  const fine = wordColumns(lines, 0.6 * body);
  // more columns at word level: figures set close together; fewer: a header row set off its columns
  // (centred over left-aligned values) made columns of its own, which the body's gutters do not have
  const cols = fine.length > segCols.length || sameColumns(fine, segCols) || (fine.length >= 2 && fine.length < segCols.length && keepsCells(lines, fine)) ? fine : segCols;
  // cells joined to a line from a line set between it and the next (a label spanning rows)
  const joined = new Map<Line, Segment[]>();
  const rows = joinOffsetLines(lines, cols, joined);
  const spans: Spans = new Map();
  const space = wordSpace(lines);
  const lineRows = rows.map((r) => {
    const row = cols.map(() => '');
    for (const seg of r.segs) {
      const runs = cellRuns(seg, cols);
      if (runs && runs.every(([k]) => !row[k])) {
        for (const [k, t] of runs) row[k] = t;
        continue;
      }
      const span = spanOf(seg, cols, row, space);
      if (span) {
        row[span[0]] = seg.text;
        setSpan(spans, row, span[0], span[1]);
        continue;
      }
      // a segment over one column only (a wrapped line running past the column's other lines) is its cell
      const over = cols.map(([a, b], k) => (Math.min(b, seg.x1) - Math.max(a, seg.x0) > 0 ? k : -1)).filter((k) => k >= 0);
      if (over.length === 1 && !row[over[0]!]) { row[over[0]!] = seg.text; continue; }
      // (a segment over free columns that is no span: its words stand in them, cells set close)
      const words = cols === segCols && !(over.length >= 2 && over.every((k) => !row[k])) ? [{ t: seg.text, x0: seg.x0, x1: seg.x1 }] : seg.words;
      for (const w of words) {
        const k = nearest(cols, (w.x0 + w.x1) / 2);
        row[k] = row[k] ? `${row[k]} ${w.t}` : w.t;
      }
    }
    return row;
  });
  const grid: string[][] = [];
  const filledOf = (row: string[]) => row.filter(Boolean).length;
  // the gap between rows of several cells, the most common one (rounded to half points)
  const gaps: number[] = [];
  for (let k = 1; k < rows.length; k++) if (rows[k]!.segs.length >= 2 && rows[k - 1]!.segs.length >= 2) gaps.push(rows[k]!.y0 - rows[k - 1]!.y1);
  const rowGap = commonGap(gaps);
  const bandOf = (r: Line) => (rules ? rules.filter((y) => y < (r.y0 + r.y1) / 2).length : -1);
  // the grid rows of each band between rules (rows of their own, not joined into one record)
  const bands = new Map<string[], number>();
  // A header cell wrapped to the bottom of its row (the row's other cells on its last line): its first
  // lines stand alone above the row, each cell aligned with the row's cell of its column, a line's
  // spacing above it. They head that cell ("Detection" over "limit").
  let lead = 0;
  while (lead < 2 && lead + 1 < rows.length && !spans.has(lineRows[lead]!) && bandOf(rows[lead]!) === bandOf(rows[lead + 1]!)
    && headsCells(rows[lead]!, rows[lead + 1]!, lineRows[lead]!, lineRows[lead + 1]!, cols, body)) lead++;
  if (lead) {
    const head = lineRows[lead]!;
    head.forEach((_, k) => { head[k] = lineRows.slice(0, lead + 1).map((row) => row[k]).filter(Boolean).join(' '); });
  }
  // without rules, rows set apart by their cells' padding group the lines of each record
  const records = rules ? undefined : paddedRecords(rows, body);
  for (let i = lead; i < rows.length;) {
    let j = i + 1;
    while (rules && j < rows.length && bandOf(rows[j]!) === bandOf(rows[i]!)) j++;
    if (records) {
      while (j < rows.length && records[j] === records[i]) j++;
      // (a line with a cell spanning columns is a header row of its own: group labels over their sub-columns)
      const merged = j - i > 1 && !lineRows.slice(i, j).some((r) => spans.has(r)) ? recordRow(lineRows.slice(i, j)) : undefined;
      if (merged) { grid.push(merged); i = j; continue; }
      j = i + 1;
    }
    const first = lineRows[i]!;
    // measured without a label set between rows that joined the first (booktabs' \multirow: a rule
    // over a group of rows, its label centred beside them, is no record of wrapped cells)
    const own = filledOf(first) - (joined.get(rows[i]!)?.length ?? 0);
    // and never when a later line holds a figure under a figure (figures do not wrap: rows of values)
    if (j - i > 1 && lineRows.slice(i + 1, j).every((row) => filledOf(row) < own && row.every((c, k) => !c || (first[k] && !(isFigure(c) && isFigure(first[k]!)))))) {
      grid.push(cols.map((_, k) => lineRows.slice(i, j).map((row) => row[k]).filter(Boolean).join(' ')));
      i = j;
      continue;
    }
    for (; i < j; i++) {
      const row = lineRows[i]!;
      // A single-cell line continues the cell above it (wrapped text) when the row above has that
      // column and the line's first word would not have fit after that cell's text (a label of its
      // own under a short one, "Operating expenses" under "Cost of revenue", starts a row), and it
      // stands no further off than rows stand from each other (a label after a blank row starts one).
      const prev = grid[grid.length - 1];
      if (filledOf(row) === 1 && prev && rows[i]!.segs.length === 1 && rows[i]!.y0 - rows[i - 1]!.y1 <= rowGap + 0.5 * body) {
        const k = row.findIndex(Boolean);
        if (prev[k] && !wouldHaveFit(rows[i - 1], rows[i]!.segs[0]!, cols, k) && !restyled(rows[i - 1], rows[i]!.segs[0]!, cols, k)) { prev[k] = `${prev[k]} ${row[k]}`; continue; }
      }
      grid.push(row);
      if (rules) bands.set(row, bandOf(rows[i]!));
    }
  }
  narrowGroupLabels(grid, rows, lineRows, cols, spans, body);
  const rowspans = labelsSpanningRows(grid, rows, lineRows, joined, cols, spans);
  labelsCentredInBands(grid, bands, spans, rowspans);
  return { grid: rowspans.size ? grid : headerBesideValues(grid, cols, body, spans), spans, rowspans };
}

/**
 * A header cell spanning two header rows, set halfway between them ("Class" between "% of Total" and
 * "Train"): a line overlapping the height of the line above and of the line below, filling none of
 * their columns, with no text of its own columns just above or below it (a wrapped cell's next line:
 * then it is a line of that cell). It joins the row above, where a cell spanning rows starts.
 * Unless the lines above and below are one record's (wrappedAround): then all three are that record.
 */
/** A line's middle height. */
const mid = (b: Line): number => (b.y0 + b.y1) / 2;

function joinOffsetLines(lines: Line[], cols: [number, number][], joined: Map<Line, Segment[]>): Line[] {
  const columnOf = (g: Segment) => nearest(cols, (g.x0 + g.x1) / 2);
  const colsOf = (l: Line) => new Set(l.segs.map(columnOf));
  const overlaps = (a: Line, b: Line) => bandOverlap(a, b) > 0.2;
  const shares = (a: Line, b: Line) => { const ka = colsOf(a); return [...colsOf(b)].some((k) => ka.has(k)); };
  const out: Line[] = [];
  let skip = -1;
  lines.forEach((l, i) => {
    if (i === skip) return;
    const p = lines[i - 1], n = lines[i + 1];
    const h = l.y1 - l.y0;
    // or set midway between them, their middles a line's height to four apart (a word processor or a
    // browser centres a cell spanning two rows: its label stands between the rows' lines, overlapping
    // each a little where the rows are set close)
    const midway = !!p && !!n && Math.abs(mid(l) - (mid(p) + mid(n)) / 2) < 0.15 * h && mid(n) - mid(p) >= h && mid(n) - mid(p) <= 4 * h;
    const spanning = !!p && !!n && ((overlaps(p, l) && overlaps(l, n)) || midway) && !shares(l, p) && !shares(l, n)
      && !lines.slice(Math.max(0, i - 3), i + 4).some((m) => m !== l && m !== p && m !== n && shares(l, m) && Math.max(m.y0 - l.y1, l.y0 - m.y1) < 0.5 * h);
    if (spanning && out.length && wrappedAround(lines, i, columnOf)) {
      out[out.length - 1] = recordOfLines(out[out.length - 1]!, l, n!, columnOf);
      skip = i + 1;
    } else if (spanning && out.length) {
      const above = out[out.length - 1]!;
      const segs = [...above.segs, ...l.segs].sort((a, b) => a.x0 - b.x0);
      const merged = { segs, ...union(segs) };
      joined.set(merged, [...(joined.get(above) ?? []), ...l.segs]);
      out[out.length - 1] = merged;
    } else out.push(l);
  });
  return out;
}

/**
 * Whether the lines around the line `i` set between them are one record's: a cell wrapped over both,
 * the line between holding the record's one-line cells, centred (a browser's default for a table's
 * cells, a word processor's "centre vertically"). The lower line's cells each continue a cell of the
 * upper line, and the two stand a line's spacing apart, closer than records stand (their cells'
 * padding): the lines before and after them a record away. A label centred beside two rows (a rowspan)
 * sits between lines as far apart as any two records.
 */
function wrappedAround(lines: Line[], i: number, columnOf: (g: Segment) => number): boolean {
  const p = lines[i - 1], l = lines[i]!, n = lines[i + 1], before = lines[i - 2], after = lines[i + 2];
  // (not a table's first line: a header's stacked words over its columns stay rows of the header)
  if (!p || !n || !before) return false;
  // (a figure under a figure is a row of its own: figures do not wrap)
  const continues = (g: Segment) => p.segs.some((u) => columnOf(u) === columnOf(g) && !(isFigure(u.text) && isFigure(g.text)));
  if (!n.segs.every(continues)) return false;
  const pitch = mid(n) - mid(p);
  const recordPitch = Math.min(mid(p) - mid(before), after ? mid(after) - mid(n) : Infinity);
  // (more than a pixel's jitter of a browser's layout apart)
  return pitch < recordPitch - 0.1 * (l.y1 - l.y0);
}

/** One line of a record's lines: the upper and lower line's segments in a column made one cell, read in order. */
function recordOfLines(upper: Line, between: Line, lower: Line, columnOf: (g: Segment) => number): Line {
  const segs = [...upper.segs];
  for (const g of lower.segs) {
    const k = segs.findIndex((u) => columnOf(u) === columnOf(g));
    if (k < 0) { segs.push(g); continue; }
    const u = segs[k]!;
    segs[k] = { ...union([u, g]), words: [...u.words, ...g.words], text: `${u.text} ${g.text}`, size: Math.max(u.size, g.size) };
  }
  segs.push(...between.segs);
  segs.sort((a, b) => a.x0 - b.x0);
  return { segs, ...union(segs) };
}

const sameColumns = (a: [number, number][], b: [number, number][]): boolean =>
  a.length === b.length && a.every(([x0, x1], k) => Math.abs(x0 - b[k]![0]) < 0.5 && Math.abs(x1 - b[k]![1]) < 0.5);

/**
 * Whether every line's cells stay apart in `cols`: each segment's words fall in one column, and no two
 * segments of a line in the same one (the columns then only drop the phantom ones a shifted row made).
 */
function keepsCells(rows: Line[], cols: [number, number][]): boolean {
  return rows.every((r) => {
    const seen = new Set<number>();
    return r.segs.every((seg) => {
      const ks = new Set(seg.words.map((w) => nearest(cols, (w.x0 + w.x1) / 2)));
      if (ks.size !== 1) return false;
      const k = [...ks][0]!;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  });
}

/**
 * A segment whose words stand in runs set clearly further apart than a word space (over 0.6 em, and
 * twice its closest words' gap), each run over a column of its own: cells a little closer than the
 * line's segment gap (LaTeX sets columns two \tabcolsep apart, 12 pt, about an em of 11 pt text), not a
 * cell spanning them ("Upland Lowland All stations" over three right-aligned columns: read by word,
 * "All" fell nearer the middle column than its own). Undefined otherwise: [column, text] of each run.
 */
export function cellRuns(seg: Segment, cols: [number, number][]): [number, string][] | undefined {
  const ws = seg.words;
  if (ws.length < 2 || cols.length < 2) return undefined;
  const gaps = ws.slice(1).map((w, i) => w.x0 - ws[i]!.x1);
  const em = Math.max(seg.size, 1);
  // wider than a word space: twice the line's closest words' gap, or every gap is (headers alone on their line)
  const closest = Math.min(...gaps);
  const wide = (g: number) => g > 0.6 * em && (g > 2 * Math.max(closest, 0.15 * em) || closest > 0.6 * em);
  if (!gaps.some(wide)) return undefined;
  const runs: Word[][] = [[ws[0]!]];
  gaps.forEach((g, i) => (wide(g) ? runs.push([ws[i + 1]!]) : runs[runs.length - 1]!.push(ws[i + 1]!)));
  const out: [number, string][] = [];
  for (const run of runs) {
    const x0 = run[0]!.x0, x1 = run[run.length - 1]!.x1;
    const over = cols.map(([a, b], k) => [k, Math.min(b, x1) - Math.max(a, x0)] as const).filter(([, o]) => o > 0);
    // over one column only, and not one an earlier run took
    if (over.length !== 1 || out.some(([k]) => k === over[0]![0])) return undefined;
    out.push([over[0]![0], run.map((w) => w.t).join(' ')]);
  }
  return out;
}

/**
 * A segment that covers two or more columns while its words sit in fewer of them, one of its words
 * reaches over a gutter, or two of its words a word space apart stand either side of one (a header
 * centred over its sub-columns; close-set figures stay apart): [first column, number of columns].
 * Only over columns still empty on its line.
 */
function spanOf(seg: Segment, cols: [number, number][], row: string[], space?: number): [number, number] | undefined {
  const over: number[] = [];
  cols.forEach(([a, b], k) => { if (Math.min(b, seg.x1) - Math.max(a, seg.x0) > 0) over.push(k); });
  if (over.length < 2 || over.some((k) => row[k])) return undefined;
  const used = new Set(seg.words.map((w) => nearest(cols, (w.x0 + w.x1) / 2)));
  // A word over a gutter, or two words of text a word space apart on either side of one: under half
  // an em, and under a third again the table's word space where its cells have one (a word
  // processor's cell margins set one-word headers barely further apart: cells, not one spanning text)
  const crossing = seg.words.some((w, i) => {
    if (cols.filter(([a, b]) => Math.min(b, w.x1) - Math.max(a, w.x0) > 0).length >= 2) return true;
    const p = seg.words[i - 1];
    return !!p && w.x0 - p.x1 < Math.min(0.5 * Math.max(w.size, 1), space === undefined ? Infinity : 1.3 * space) && /\p{L}/u.test(p.t) && /\p{L}/u.test(w.t)
      && nearest(cols, (p.x0 + p.x1) / 2) !== nearest(cols, (w.x0 + w.x1) / 2);
  });
  return used.size < over.length || crossing ? [over[0]!, over[over.length - 1]! - over[0]! + 1] : undefined;
}

/**
 * A short line standing alone right above a table's header, over its columns but clear of the first
 * (where a caption or title starts): a header spanning sub-columns, set centred above them.
 */
export function spanningHeader(line: Line, below: Line, cols: [number, number][], body: number): boolean {
  if (line.segs.length !== 1 || below.segs.length < 2 || cols.length < 3) return false;
  const s = line.segs[0]!;
  if (s.text.length > 30 || s.words.length > 3 || /^(table|tab\.|fig)/i.test(s.text) || /[.:;]$/.test(s.text)) return false;
  if (below.y0 - line.y1 > 1.2 * body || line.y1 > below.y0 + 0.2 * body) return false;
  return s.x0 >= cols[0]![1] && s.x1 <= cols[cols.length - 1]![1] + body && cols.some(([a, b]) => Math.min(b, s.x1) - Math.max(a, s.x0) > 0);
}

/**
 * Line-numbered text (transcripts, legal pleadings, code listings): the first segment of most lines is
 * the line's number, counting up by one, and the rest is running text. Its two "columns" are not a table.
 */
export function lineNumbered(rows: Line[]): boolean {
  let numbered = 0, prev = -1, counting = 0, prose = 0;
  for (const r of rows) {
    const first = r.segs[0]?.text.trim() ?? '';
    const m = /^(\d{1,4})(?:\s+\d{1,4})*$/.exec(first);
    if (!m) continue;
    numbered++;
    const n = Number(m[1]);
    if (prev >= 0 && n === prev + 1) counting++;
    prev = Number(first.split(/\s+/).pop());
    const rest = r.segs.slice(1).map((g) => g.text).join(' ');
    if (/\p{L}{2,}/u.test(rest)) prose++;
  }
  return numbered >= 0.8 * rows.length && counting >= 0.6 * rows.length && prose >= 0.5 * rows.length;
}
