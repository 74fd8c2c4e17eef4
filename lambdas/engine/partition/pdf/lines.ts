// Lines and segments of a PDF page's text: words grouped into lines by their bands, each line split
// into segments (runs of words without a wide gap) in reading order. The extractor (extract.ts) builds
// a page's lines with it; the table and OCR code regroup words the same way.
import { isRtlLine, isRtlPage, logicalOrder, pairedBrackets } from './bidi';
import { joinJustifiedGaps } from './justified';
import type { Box, Line, Segment, Word } from './page-text';

/** Minimum gap (in font sizes) between words that splits a line into segments. */
export const SEGMENT_GAP_EM = 1.1;

/**
 * A word of the line's size already stands where `w` does: `w` is on the next line, though the line's
 * band reaches it (a larger heading in one page column spans two lines of the next column, and
 * their words were read as one line, interleaved). Marks, scripts and one-letter pieces may stack.
 * Runs for every word joining a line: positions first, text last, no allocation.
 */
function stacksOn(line: Word[], w: Word): boolean {
  if (!twoChars(w.t)) return false;
  const ww = w.x1 - w.x0;
  for (let i = line.length - 1; i >= 0 && i >= line.length - 200; i--) {
    const o = line[i]!;
    const overlap = Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0);
    if (overlap <= 0 || overlap <= 0.5 * Math.min(o.x1 - o.x0, ww)) continue;
    if (Math.abs(o.size - w.size) <= 0.2 * Math.max(o.size, w.size) && twoChars(o.t)) return true;
  }
  return false;
}

/**
 * Superscripts and subscripts glued to the word before them ("restoration[3]", "Ca2+", superscripts.ts),
 * each with the word it belongs to. Set above or below the band of its line, a script may share more
 * of the band of another column's line at about that height, opened first (lines open top down), so it
 * joins the line of its base word, not the line its band overlaps most.
 */
function scriptBases(words: Word[]): Map<Word, Word> {
  const bases = new Map<Word, Word>();
  // (a script with scripts of its own, smaller still, is a display formula's, e^{sim(q,p)}: its pieces
  // stand at several heights, which the formula code reads line by line, so none moves)
  const nested = new Set<Word>();
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!, prev = words[i - 1]!;
    if (!w.glue || w.rotated) continue;
    const base = bases.get(prev) ?? prev;
    if (base.rotated || !(w.size < 0.9 * base.size) || Math.min(w.y1, base.y1) <= Math.max(w.y0, base.y0)) continue;
    bases.set(w, base);
    if (bases.has(prev) && w.size < 0.9 * prev.size) nested.add(base);
  }
  for (const [w, base] of bases) if (nested.has(base)) bases.delete(w);
  return bases;
}

/**
 * The word of the line set just beside `w` (within a word space or so, where the two would be one
 * segment), of its size, stands clear of its band: `w` is on the next line. A line's band spans both columns of a
 * page where their lines stand at different heights (a column of smaller type, its lines closer), so
 * it reaches the next line's first word in one column ("[2]" of a reference list read into the line
 * above it) though that word's neighbour shows it is not at this height.
 */
function offNeighbour(line: Word[], w: Word): boolean {
  const h = Math.max(w.y1 - w.y0, 0.1);
  let near: Word | undefined, best = Infinity;
  for (let i = line.length - 1; i >= 0 && i >= line.length - 200; i--) {
    const o = line[i]!;
    const gap = Math.max(o.x0 - w.x1, w.x0 - o.x1);
    // (a word of the line right above or below it: pieces stacked, a fraction's numerator over its
    // denominator, whose words stand beside each other's as well)
    if (gap < 0) return false;
    if (gap > Math.max(o.size, w.size) || gap >= best) continue;
    near = o;
    best = gap;
  }
  // (of the same size and apart, not merely shifted: a formula's pieces beside each other, a fraction
  // by its equals sign, share part of their bands)
  if (!near || Math.abs(near.size - w.size) > 0.1 * Math.max(near.size, w.size)) return false;
  return Math.min(near.y1, w.y1) - Math.max(near.y0, w.y0) < 0.1 * Math.min(h, near.y1 - near.y0);
}

/** At least two characters (a surrogate pair is one). */
function twoChars(t: string): boolean {
  if (t.length !== 2) return t.length > 2;
  const c = t.charCodeAt(0);
  return c < 0xd800 || c > 0xdbff;
}

/**
 * Groups words into lines by vertical overlap (content-stream order is not reading order in many
 * PDFs), sorts each line left to right and splits it into segments at wide gaps. Rotated words
 * each form their own line.
 *
 * `gutters`: narrow page gutters to split lines at, given instead of looked for among these words
 * (narrowGutters): `[]` where only the lines' words and boxes are read. Words regrouped for their
 * segments look again, not at the page's: a table across the page hides a gutter of the text around
 * it (layout.ts reads the page less its tables), page text across a table's columns hides theirs.
 */
export function wordsToLines(words: Word[], opts: { gutters?: number[] } = {}): Line[] {
  const upright = words.filter((w) => !w.rotated);
  const scripts = scriptBases(words);
  const sorted = upright.filter((w) => !scripts.has(w)).sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const lines: { words: Word[]; y0: number; y1: number; size: number }[] = [];
  const open: typeof lines = [];
  const lineOf = new Map<Word, (typeof lines)[number]>();
  for (const w of sorted) {
    const h = Math.max(w.y1 - w.y0, 0.1);
    let target: (typeof lines)[number] | undefined;
    for (let k = open.length - 1; k >= 0; k--) {
      const l = open[k]!;
      const overlap = Math.min(l.y1, w.y1) - Math.max(l.y0, w.y0);
      const lh = l.y1 - l.y0;
      if (overlap >= 0.5 * Math.min(h, lh) && Math.abs(w.size - l.size) <= 0.6 * Math.max(w.size, l.size) && !stacksOn(l.words, w) && !offNeighbour(l.words, w)) { target = l; break; }
      if (w.y0 > l.y1 + 2 * lh) { open.splice(k, 1); }
    }
    if (target) {
      lineOf.set(w, target);
      target.words.push(w);
      // The line's band follows its main text, not superscripts.
      if (w.size >= target.size * 0.9) { target.y0 = Math.min(target.y0, w.y0); target.y1 = Math.max(target.y1, w.y1); target.size = Math.max(target.size, w.size); }
    } else {
      const l = { words: [w], y0: w.y0, y1: w.y1, size: w.size };
      lineOf.set(w, l);
      lines.push(l);
      open.push(l);
      if (open.length > 64) open.shift();
    }
  }
  for (const [w, base] of scripts) lineOf.get(base)?.words.push(w);
  const out: Line[] = [];
  const pageRtl = isRtlPage(sorted.map((w) => w.t));
  // (words at one x, a sub- and a superscript stacked, top first: the order lines take words in)
  for (const l of lines) l.words.sort((a, b) => a.x0 - b.x0 || a.y0 + a.y1 - (b.y0 + b.y1));
  const gutters = opts.gutters ?? narrowGutters(lines.map((l) => l.words));
  for (const l of lines) out.push(toLine(l.words, pageRtl, gutters));
  for (const w of words) if (w.rotated) out.push(toLine([w]));
  out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return joinJustifiedGaps(out, (ws, rtl) => toSegment(logicalOrder([...ws].sort((a, b) => a.x0 - b.x0), rtl), rtl), gutters);
}

/** A line parts at a narrow gutter where its gap there is at least this wide (ems). */
const MIN_GAP_AT_GUTTER_EM = 0.5;
/** Lines of running text ending at a narrow gutter, and lines starting at it, that make it one. */
const GUTTER_LINES = 6;
/** Words a run of running text holds (a line's part in one column). */
const GUTTER_RUN_WORDS = 4;
/** Bins per point of the page's width in which runs and words are counted. */
const BINS_PER_PT = 2;

/**
 * Page gutters narrower than a segment gap (LaTeX's article class sets two columns 10 pt apart, an em
 * of its body text): lines of both columns at one height then read as one segment, interleaving the
 * columns. A gutter is an x that many runs of running text end just before and many start just after
 * (the columns' justified edges), and that few words of any line cross (the lines that span the page:
 * title, abstract, a full-width caption). A page's margin has runs on one side only; a river of spaces
 * in one column is crossed by the column's other lines; a table's cells are not runs. Returns the x of
 * each gutter (the middle of its least crossed stretch).
 */
function narrowGutters(lines: Word[][]): number[] {
  let x1 = 0;
  for (const ws of lines) for (const w of ws) x1 = Math.max(x1, w.x1);
  if (!(x1 > 0) || x1 > 20_000 || lines.length < GUTTER_LINES) return [];
  const n = Math.ceil(x1 * BINS_PER_PT) + 2;
  const ends = new Uint16Array(n), starts = new Uint16Array(n), crossed = new Uint16Array(n);
  const bin = (x: number) => Math.min(n - 1, Math.max(0, Math.round(x * BINS_PER_PT)));
  for (const ws of lines) {
    let runStart = 0;
    for (let i = 0; i < ws.length; i++) {
      const w = ws[i]!, next = ws[i + 1];
      for (let k = bin(w.x0) + 1; k < bin(w.x1); k++) crossed[k]++;
      const em = Math.max(w.size, 1);
      // a run of words ends where the next word is a gutter's width away (or none follows)
      if (next && next.x0 - w.x1 < MIN_GAP_AT_GUTTER_EM * Math.max(em, next.size)) continue;
      if (i + 1 - runStart >= GUTTER_RUN_WORDS) {
        for (let k = bin(w.x1); k <= bin(w.x1 + SEGMENT_GAP_EM * em); k++) ends[k]++;
        const s = ws[runStart]!;
        for (let k = bin(s.x0 - SEGMENT_GAP_EM * Math.max(s.size, 1)); k <= bin(s.x0); k++) starts[k]++;
      }
      runStart = i + 1;
    }
  }
  const out: number[] = [];
  const ok = (k: number) => ends[k]! >= GUTTER_LINES && starts[k]! >= GUTTER_LINES && crossed[k]! <= Math.max(2, 0.25 * Math.min(ends[k]!, starts[k]!));
  for (let k = 0; k < n; k++) {
    if (!ok(k)) continue;
    // the middle of the run's least crossed stretch
    let best = k, bestEnd = k;
    for (; k + 1 < n && ok(k + 1); k++) {
      if (crossed[k + 1]! < crossed[best]!) best = bestEnd = k + 1;
      else if (crossed[k + 1]! === crossed[best]! && bestEnd === k) bestEnd = k + 1;
    }
    out.push((best + bestEnd) / 2 / BINS_PER_PT);
  }
  return out;
}

/**
 * Splits a line (words left to right) at wide gaps and backward jumps; the words of each segment go
 * in reading order (right to left in a line of a right-to-left script, bidi.ts).
 */
function toLine(words: Word[], pageRtl = false, gutters: number[] = []): Line {
  const segs: Segment[] = [];
  let cur: Word[] = [];
  const rtl = isRtlLine(words.map((w) => w.t), pageRtl);
  const flush = () => { if (cur.length) segs.push(toSegment(logicalOrder(cur, rtl), rtl)); cur = []; };
  for (const w of words) {
    const prev = cur[cur.length - 1];
    if (prev) {
      const gap = w.x0 - prev.x1;
      const em = Math.max(prev.size, w.size, 1);
      const vOverlap = Math.min(prev.y1, w.y1) - Math.max(prev.y0, w.y0);
      const atGutter = gap >= MIN_GAP_AT_GUTTER_EM * em && gutters.some((x) => prev.x1 <= x && x <= w.x0);
      if (gap > SEGMENT_GAP_EM * em || atGutter || vOverlap < -0.2 * em || prev.rotated || w.rotated) flush();
    }
    cur.push(w);
  }
  flush();
  return { segs, ...union(segs) };
}

export function toSegment(words: Word[], rtl = false): Segment {
  let size = 0;
  for (const w of words) size = Math.max(size, w.size);
  let text = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!, prev = words[i - 1];
    if (!prev) { text = w.t; continue; }
    // Glued glyphs stay glued only next to each other (sorting may have moved a word between them).
    const glued = w.glue && w.x0 >= prev.x0 && w.x0 - prev.x1 < Math.max(w.size, 1);
    text += (glued ? '' : ' ') + w.t;
  }
  return { words, text: rtl ? pairedBrackets(text) : text, size, ...union(words), ...(rtl ? { rtl } : {}) };
}

export function union(boxes: Box[]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const b of boxes) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
}

/** How much two boxes share of a line's band: their vertical overlap over the smaller height (negative apart). */
export function bandOverlap(a: Box, b: Box): number {
  return (Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)) / Math.min(a.y1 - a.y0, b.y1 - b.y0);
}
