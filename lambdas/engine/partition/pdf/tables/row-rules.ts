// Unruled tables whose records are bounded by horizontal rules (no vertical lines, so no ruled grid):
// the rules, not the text lines, are the row boundaries. A record's wrapped lines between two rules
// are one row, and the table runs down to its bottom rule even where its last lines hold a single
// wrapped cell (which alignment alone reads as prose).
import type { TableRows } from '../../table-html';
import type { Box, HRule, Line, Word } from '../page-text';
import { CAPTION_START } from '../../classify';
import { union, wordsToLines } from '../lines';
import { mergeH, TOL } from './grid';
import { cellText, wordLines } from './ruled';
import { findTables } from './unruled';
import { headerBesideValues } from './header-spans';

/** Rules that span most of the box's width, merged and sorted top to bottom. */
function spanning(box: Box, rules: HRule[], tol: number): HRule[] {
  const w = box.x1 - box.x0;
  return mergeH(rules, tol).filter((r) => Math.min(r.x1, box.x1) - Math.max(r.x0, box.x0) >= 0.8 * w && r.x1 - r.x0 <= 1.5 * w + 4 * tol);
}

/**
 * The ys of the rules that bound the records of a table region, when it has them: at least two rules
 * across the table between its first and last text lines (a rule under the header and a bottom rule
 * alone, as in booktabs tables, are not record rules).
 */
export function recordRules(rows: Line[], rules: HRule[], tol = TOL): number[] | undefined {
  if (!rows.length) return undefined;
  const box = union(rows);
  const across = spanning(box, rules, tol);
  const inner = across.filter((r) => r.y > box.y0 + tol && r.y < box.y1 - tol);
  return inner.length >= 2 ? across.map((r) => r.y) : undefined;
}

/**
 * How far a table region [start, end] of `lines` with record rules inside it extends downwards: the
 * lines that follow it, closely spaced, each with its text inside the record left open at the
 * region's end (a rule above it within the region, none between, one below; all covering the text),
 * up to `limit` (exclusive). Returns the new end index.
 */
export function extendToRules(lines: Line[], start: number, end: number, limit: number, rules: HRule[], body: number, tol = TOL): number {
  const box = union(lines.slice(start, end + 1));
  const w = box.x1 - box.x0;
  const near = mergeH(rules, tol).filter((r) => Math.min(r.x1, box.x1) - Math.max(r.x0, box.x0) >= 0.3 * w && r.x1 - r.x0 <= 1.5 * w + 4 * body && r.y >= box.y0 - 2 * body);
  // Record rules inside the region (tables side by side each draw their own: no test of spanning it all).
  if (near.filter((r) => r.y > box.y0 + tol && r.y < box.y1 - tol).length < 2) return end;
  const covers = (r: HRule, b: Box) => r.x0 <= b.x0 + tol && r.x1 >= b.x1 - tol;
  const lastMid = (lines[end]!.y0 + lines[end]!.y1) / 2;
  let k = end;
  while (k + 1 < limit) {
    const next = lines[k + 1]!;
    if (next.y0 - lines[k]!.y1 > body) break;
    // The record left open at the region's end: no rule between the region and the line (a rule
    // there closes the table; text below it is the next thing on the page), one below it.
    const inside = next.segs.every((s) => {
      const above = near.filter((r) => covers(r, s) && r.y <= s.y0 + tol);
      return above.length > 0 && above.every((r) => r.y < lastMid) && near.some((r) => covers(r, s) && r.y >= s.y1 - tol);
    });
    if (!inside) break;
    k++;
  }
  return k;
}

/**
 * Whether rules are drawn across a region of aligned lines, above or inside it and under its last line
 * (a booktabs table's top and bottom rules): a table, not text that merely lines up (authors and
 * their affiliations side by side under a paper's title are never ruled).
 */
export function ruledAcross(rows: Line[], rules: HRule[], body: number, tol = TOL): boolean {
  if (rows.length < 2) return false;
  const box = union(rows);
  const across = spanning(box, rules, tol).filter((r) => r.y >= box.y0 - 1.5 * body && r.y <= box.y1 + 1.5 * body);
  return across.length >= 2 && across.some((r) => r.y < rows[rows.length - 1]!.y0) && across.some((r) => r.y >= rows[rows.length - 1]!.y1 - tol);
}

/** Lines of notes under a table, at most. */
const MAX_NOTE_LINES = 3;

/**
 * How many of a table region's last lines are notes under its bottom rule: lines in a smaller type
 * than the rows (a booktabs table's "a Six-layer student. b Four-layer ..." set in footnote size,
 * whose justified words stand apart like cells), under a rule spanning the rows above them, with
 * another such rule higher up (the table's top or header rule). 0 when there are none.
 */
export function notesUnderBottomRule(rows: Line[], rules: HRule[], tol = TOL): number {
  const sizes = rows.flatMap((l) => l.segs.map((g) => g.size)).sort((a, b) => a - b);
  const rowSize = sizes[sizes.length >> 1] ?? 0;
  let k = 0;
  while (k < Math.min(MAX_NOTE_LINES, rows.length - 2) && Math.max(...rows[rows.length - 1 - k]!.segs.map((g) => g.size)) < rowSize - 0.5) k++;
  if (!k) return 0;
  const above = rows.slice(0, rows.length - k), first = rows[rows.length - k]!;
  const box = union(above);
  const across = spanning(box, rules, tol).filter((r) => r.y <= first.y0 + tol && r.y >= box.y0 - (box.y1 - box.y0));
  const bottom = across[across.length - 1];
  return across.length >= 2 && bottom!.y >= box.y1 - tol ? k : 0;
}

/** A table read from a stack of rules: its rows (the header above the first rule, then one per record). */
export interface BandTable extends Box {
  rows: TableRows;
  words: Set<Word>;
}

/** Lines a record holds at most, and the longest a key column's cell may be (characters). */
const MAX_BAND_LINES = 12;
const KEY_CELL_CHARS = 80;
/** Rule stacks looked at on one page (bounded work on a page of thousands of rules). */
const MAX_STACKS = 100;

/**
 * Tables whose records are rules apart and hold running text: a stack of three or more horizontal
 * rules of one extent (a parameter or glossary table: a short key, a value, a description wrapped over
 * several lines), the text between each two rules one record. Alignment alone (findTables) reads such
 * records as prose: their description cells are long. Columns are the gutters no record's words cross
 * (at least two), with a column of short cells (the keys); the line right above the first rule is the
 * header when its words fall in those columns. Only stacks holding a long cell, whose lines alignment
 * does not read as a table, are taken: findTables reads short-celled record tables already.
 */
export function findRuleBandTables(lines: Line[], rules: HRule[], body: number, tol = TOL): BandTable[] {
  const out: BandTable[] = [];
  const taken = new Set<Word>();
  const words = lines.flatMap((l) => l.segs.flatMap((s) => s.words)).filter((w) => !w.rotated);
  for (const whole of ruleStacks(mergeH(rules, tol), body, tol)) for (const { stack, bands } of tablesOfStack(whole, words.filter((w) => !taken.has(w)), tol)) {
    const x0 = stack[0]!.x0 - tol, x1 = stack[0]!.x1 + tol;
    if (bands.length < 2 || bands.some((b) => !b.length)) continue;
    // the header: one line right above the first rule, inside the stack's width (its words and top
    // are read, not its segments: no gutters looked for)
    const top = stack[0]!.y;
    const headLine = wordsToLines(words.filter((w) => !taken.has(w) && w.x0 >= x0 && w.x1 <= x1 && w.y1 <= top + tol && top - w.y1 < 0.8 * body), { gutters: [] })[0];
    // browsers and word processors pad cells by a few points: a gutter is narrower than an em, only
    // wider than the word spaces of the text around it
    const minGap = Math.max(0.2 * body, 1.3 * wordSpace(bands.flat()));
    const cols = gutterColumns(bands.flat(), minGap);
    if (cols.length < 2) continue;
    const cellsOf = (ws: Word[]): string[] => cols.map(([a, b]) => cellText(ws.filter((w) => w.x0 >= a - 0.01 && w.x1 <= b + 0.01)));
    // rules between records make each band one record; three rules (booktabs: above and below the
    // header, below the body) leave the body's records in one band, split where records start
    const recordWords = bands.length === 2 ? [bands[0]!, ...splitRecords(bands[1]!, cols)] : bands;
    const records = recordWords.map(cellsOf);
    if (recordWords.length < 2 || recordWords.some((b) => wordLines(b).length > MAX_BAND_LINES)) continue;
    if (records.filter((r) => r.filter(Boolean).length >= 2).length * 3 < records.length * 2) continue;
    if (!cols.some((_, k) => records.every((r) => r[k]!.length <= KEY_CELL_CHARS))) continue;
    // short cells only: three columns at least (two columns of short text between rules can be a
    // boxed note or a form's lines); findTables below leaves it alone when alignment reads it
    if (!records.some((r) => r.some((c) => c.length > 60)) && cols.length < 3) continue;
    // text set close beside the stack (within an em: a table side by side with it) leaves the region
    // to findTables; text a column gutter away is the page's other column
    const bottom = stack[stack.length - 1]!.y;
    const rowBand = (w: Word) => (w.y0 + w.y1) / 2 > top && (w.y0 + w.y1) / 2 < bottom;
    if (words.some((w) => rowBand(w) && ((w.x1 < x0 && w.x1 > x0 - body) || (w.x0 > x1 && w.x0 < x1 + body)))) continue;
    // a region alignment already reads as a table (short cells, record rules) stays with findTables
    const head = headLine?.y0 ?? top;
    const region = wordsToLines(words.filter((w) => (w.y0 + w.y1) / 2 > head - tol && (w.y0 + w.y1) / 2 < bottom && w.x0 >= x0 && w.x1 <= x1));
    if (findTables(region, body).some((t) => !t.formula)) continue;
    const header = headLine ? headerRow(headLine, cols, taken, minGap) : undefined;
    // (a header set beside its column's figures, left- and right-aligned in one cell, heads that column)
    const grid = headerBesideValues(header ? [header.cells, ...records] : records, cols, body);
    const rows: TableRows = grid.map((r) => r.map((text) => ({ text })));
    const mine = new Set([...recordWords.flat(), ...(header?.words ?? [])]);
    for (const w of mine) taken.add(w);
    out.push({ rows, words: mine, ...union([...mine]) });
  }
  return out;
}

/**
 * A stack's tables: the stack split at every band that opens with a caption ("Table 5: ..." between
 * one table's bottom rule and the next one's top rule, both of one extent) or ends with one (the
 * caption right over a table's top rule, prose above it: an abstract's rules above a paper's table are
 * of the table's extent), each part with its bands of words (the words between each two of its rules,
 * within its extent).
 */
function tablesOfStack(stack: HRule[], words: Word[], tol: number): { stack: HRule[]; bands: Word[][] }[] {
  const x0 = stack[0]!.x0 - tol, x1 = stack[0]!.x1 + tol;
  const within = words.filter((w) => w.x0 >= x0 && w.x1 <= x1);
  const out: { stack: HRule[]; bands: Word[][] }[] = [];
  let part = { stack: [stack[0]!], bands: [] as Word[][] };
  for (let i = 0; i + 1 < stack.length; i++) {
    const [a, b] = [stack[i]!.y, stack[i + 1]!.y];
    const band = within.filter((w) => (w.y0 + w.y1) / 2 > a && (w.y0 + w.y1) / 2 < b);
    const bandLines = wordLines(band);
    const [first, last] = [bandLines[0], bandLines[bandLines.length - 1]];
    if ((first && CAPTION_START.test(cellText(first))) || (last && CAPTION_START.test(cellText(last)))) {
      out.push(part);
      part = { stack: [stack[i + 1]!], bands: [] };
      continue;
    }
    part.stack.push(stack[i + 1]!);
    part.bands.push(band);
  }
  out.push(part);
  return out.filter((p) => p.stack.length >= 3);
}

/** Stacks of rules of one extent (ends within 2 tol), each rule at most a band of records below the last (booktabs: the body between two rules); at most MAX_STACKS. */
function ruleStacks(rules: HRule[], body: number, tol: number): HRule[][] {
  const open = new Map<string, HRule[]>();
  const stacks: HRule[][] = [];
  for (const r of [...rules].sort((a, b) => a.y - b.y)) {
    if (r.x1 - r.x0 < 10 * body) continue;
    const key = `${Math.round(r.x0 / (2 * tol))}:${Math.round(r.x1 / (2 * tol))}`;
    const s = open.get(key);
    const last = s?.[s.length - 1];
    if (s && last && r.y - last.y <= 40 * body) { if (r.y - last.y > 0.5 * body) s.push(r); continue; }
    const fresh = [r];
    open.set(key, fresh);
    stacks.push(fresh);
  }
  return stacks.filter((s) => s.length >= 3).slice(0, MAX_STACKS);
}

/**
 * The line above a stack's first rule as its header row: its words by their centres in the columns (a
 * column reaching to the middle of the gutters beside it), two columns or more filled. A caption or
 * title runs over a gutter with a word space and is no header.
 */
function headerRow(line: Line, cols: [number, number][], taken: Set<Word>, minGap: number): { cells: string[]; words: Word[] } | undefined {
  const edges = cols.map(([a, b], k) => [k ? (cols[k - 1]![1] + a) / 2 : -Infinity, k + 1 < cols.length ? (b + cols[k + 1]![0]) / 2 : Infinity] as const);
  const colOf = (w: Word) => edges.findIndex(([a, b]) => (w.x0 + w.x1) / 2 >= a && (w.x0 + w.x1) / 2 < b);
  const byCol: Word[][] = cols.map(() => []);
  const words: Word[] = [];
  const ws = line.segs.flatMap((seg) => seg.words).filter((w) => !taken.has(w)).sort((a, b) => a.x0 - b.x0);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!, p = ws[i - 1];
    // two words a word space apart in different columns: running text over a gutter
    if (p && colOf(p) !== colOf(w) && w.x0 - p.x1 < minGap) return undefined;
    byCol[colOf(w)]!.push(w);
    words.push(w);
  }
  const cells = byCol.map((ws) => cellText(ws));
  return cells.filter(Boolean).length >= 2 ? { cells, words } : undefined;
}

/**
 * The median gap between words next to each other on a line that is no wider than a word space can
 * be (under half the text size): a word space of the text. A table of short cells has more gutters
 * than word spaces, and their median would be a gutter.
 */
function wordSpace(words: Word[]): number {
  const gaps: number[] = [];
  for (const l of wordLines(words)) {
    for (let i = 1; i < l.length; i++) {
      const g = l[i]!.x0 - l[i - 1]!.x1;
      if (g > 0 && g < 0.45 * Math.max(l[i]!.size, l[i - 1]!.size)) gaps.push(g);
    }
  }
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1] ?? 0;
}

/**
 * A band's words as records. A record starts on a line with text in the first column and another;
 * where some such lines stand further below the line above than the text's line pitch (cell padding
 * between records), only those start records: the others are a first cell wrapped beside a long one
 * ("Who plays Thoros of Myr in" / "Game of Thrones?" beside a passage).
 */
function splitRecords(words: Word[], cols: [number, number][]): Word[][] {
  const colOf = (w: Word) => cols.findIndex(([a, b]) => w.x0 >= a - 0.01 && w.x1 <= b + 0.01);
  const lines = wordLines(words);
  const top = (l: Word[]) => Math.min(...l.map((w) => w.y0));
  const pitches = lines.slice(1).map((l, i) => top(l) - top(lines[i]!)).sort((a, b) => a - b);
  const pitch = pitches[pitches.length >> 1] ?? 0;
  const height = (l: Word[]) => Math.max(...l.map((w) => w.y1)) - top(l);
  const opens = lines.map((l, i) => {
    const used = new Set(l.map(colOf));
    if (i === 0 || (used.has(0) && used.size >= 2)) return true;
    // or a first cell's line with the record's other cells centred beside its wrapped lines (a
    // browser's default): the next line, less than a line below, holds them and no first cell
    const next = lines[i + 1];
    return used.size === 1 && used.has(0) && !!next && top(next) - top(l) < height(l) && !next.some((w) => colOf(w) === 0);
  });
  const spaced = lines.map((l, i) => i > 0 && top(l) - top(lines[i - 1]!) > 1.25 * pitch);
  const bySpace = opens.some((o, i) => o && spaced[i]);
  const out: Word[][] = [];
  lines.forEach((l, i) => {
    if (i === 0 || (opens[i] && (!bySpace || spaced[i]))) out.push([...l]);
    else out[out.length - 1]!.push(...l);
  });
  return out;
}

/** Columns: the x-ranges words cover, merged where closer than `minGap`. */
function gutterColumns(words: Word[], minGap: number): [number, number][] {
  const iv = words.map((w) => [w.x0, w.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const cols: [number, number][] = [];
  for (const [a, b] of iv) {
    const last = cols[cols.length - 1];
    if (last && a < last[1] + minGap) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  return cols;
}
