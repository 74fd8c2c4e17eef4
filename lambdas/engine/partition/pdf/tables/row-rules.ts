// Unruled tables whose records are bounded by horizontal rules (no vertical lines, so no ruled grid):
// the rules, not the text lines, are the row boundaries. A record's wrapped lines between two rules
// are one row, and the table runs down to its bottom rule even where its last lines hold a single
// wrapped cell (which alignment alone reads as prose).
import type { TableRows } from '../../table-html';
import type { Box, HRule, Line, Word } from '../page-text';
import { union } from '../extract';
import { mergeH, TOL } from './grid';
import { cellText } from './ruled';
import { findTables } from './unruled';

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

/** A table read from a stack of rules: its rows (the header above the first rule, then one per record). */
export interface BandTable extends Box {
  rows: TableRows;
  words: Set<Word>;
}

/** Lines a record holds at most, and the longest a key column's cell may be (characters). */
const MAX_BAND_LINES = 8;
const KEY_CELL_CHARS = 40;
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
  for (const stack of ruleStacks(mergeH(rules, tol), body, tol)) {
    const x0 = stack[0]!.x0 - tol, x1 = stack[0]!.x1 + tol;
    const within = words.filter((w) => !taken.has(w) && w.x0 >= x0 && w.x1 <= x1);
    const bands: Word[][] = [];
    for (let i = 0; i + 1 < stack.length; i++) {
      const [a, b] = [stack[i]!.y, stack[i + 1]!.y];
      bands.push(within.filter((w) => (w.y0 + w.y1) / 2 > a && (w.y0 + w.y1) / 2 < b));
    }
    if (bands.length < 2 || bands.some((b) => !b.length)) continue;
    // the header: one line right above the first rule, inside the stack's width
    const top = stack[0]!.y;
    const headLine = lines.find((l) => l.y1 <= top + tol && top - l.y1 < 0.8 * body && l.x0 >= x0 && l.x1 <= x1);
    const head = headLine ? headLine.segs.flatMap((s) => s.words).filter((w) => !taken.has(w)) : [];
    // browsers and word processors pad cells by a few points: a gutter is narrower than an em, wider than a word space
    const cols = gutterColumns([...bands.flat(), ...head], 0.4 * body);
    if (cols.length < 2) continue;
    const cellsOf = (ws: Word[]): string[] => cols.map(([a, b]) => cellText(ws.filter((w) => w.x0 >= a - 0.01 && w.x1 <= b + 0.01)));
    const records = bands.map(cellsOf);
    if (bands.some((b) => lineCount(b, body) > MAX_BAND_LINES)) continue;
    if (records.filter((r) => r.filter(Boolean).length >= 2).length * 3 < records.length * 2) continue;
    if (!cols.some((_, k) => records.every((r) => r[k]!.length <= KEY_CELL_CHARS))) continue;
    if (!records.some((r) => r.some((c) => c.length > 60))) continue;
    // text beside the stack (a table side by side with it, a column) leaves the region to findTables
    const bottom = stack[stack.length - 1]!.y;
    if (words.some((w) => (w.y0 + w.y1) / 2 > top && (w.y0 + w.y1) / 2 < bottom && (w.x1 < x0 || w.x0 > x1))) continue;
    // a region alignment already reads as a table (short cells, record rules) stays with findTables
    const region = lines.filter((l) => (l.y0 + l.y1) / 2 > (headLine?.y0 ?? top) - tol && (l.y0 + l.y1) / 2 < bottom && l.x0 >= x0 && l.x1 <= x1);
    if (findTables(region, body).length) continue;
    const header = head.length ? cellsOf(head) : undefined;
    const rows: TableRows = (header && header.filter(Boolean).length >= 2 ? [header, ...records] : records).map((r) => r.map((text) => ({ text })));
    const mine = new Set([...bands.flat(), ...(header ? head : [])]);
    for (const w of mine) taken.add(w);
    out.push({ rows, words: mine, ...union([...mine]) });
  }
  return out;
}

/** Stacks of rules of one extent (ends within 2 tol), each rule at most 10 text sizes below the last; at most MAX_STACKS. */
function ruleStacks(rules: HRule[], body: number, tol: number): HRule[][] {
  const open = new Map<string, HRule[]>();
  const stacks: HRule[][] = [];
  for (const r of [...rules].sort((a, b) => a.y - b.y)) {
    if (r.x1 - r.x0 < 10 * body) continue;
    const key = `${Math.round(r.x0 / (2 * tol))}:${Math.round(r.x1 / (2 * tol))}`;
    const s = open.get(key);
    const last = s?.[s.length - 1];
    if (s && last && r.y - last.y <= 10 * body) { if (r.y - last.y > 0.5 * body) s.push(r); continue; }
    const fresh = [r];
    open.set(key, fresh);
    stacks.push(fresh);
  }
  return stacks.filter((s) => s.length >= 3).slice(0, MAX_STACKS);
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

function lineCount(words: Word[], body: number): number {
  const ys = [...new Set(words.map((w) => Math.round((w.y0 + w.y1) / body)))];
  return ys.length;
}
