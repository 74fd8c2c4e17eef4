// Lines and segments of a PDF page's text: words grouped into lines by their bands, each line split
// into segments (runs of words without a wide gap) in reading order. The extractor (extract.ts) builds
// a page's lines with it; the table and OCR code regroup words the same way.
import { isRtlLine, isRtlPage, logicalOrder } from './bidi';
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
 */
export function wordsToLines(words: Word[]): Line[] {
  const upright = words.filter((w) => !w.rotated);
  const sorted = upright.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const lines: { words: Word[]; y0: number; y1: number; size: number }[] = [];
  const open: typeof lines = [];
  for (const w of sorted) {
    const h = Math.max(w.y1 - w.y0, 0.1);
    let target: (typeof lines)[number] | undefined;
    for (let k = open.length - 1; k >= 0; k--) {
      const l = open[k]!;
      const overlap = Math.min(l.y1, w.y1) - Math.max(l.y0, w.y0);
      const lh = l.y1 - l.y0;
      if (overlap >= 0.5 * Math.min(h, lh) && Math.abs(w.size - l.size) <= 0.6 * Math.max(w.size, l.size) && !stacksOn(l.words, w)) { target = l; break; }
      if (w.y0 > l.y1 + 2 * lh) { open.splice(k, 1); }
    }
    if (target) {
      target.words.push(w);
      // The line's band follows its main text, not superscripts.
      if (w.size >= target.size * 0.9) { target.y0 = Math.min(target.y0, w.y0); target.y1 = Math.max(target.y1, w.y1); target.size = Math.max(target.size, w.size); }
    } else {
      const l = { words: [w], y0: w.y0, y1: w.y1, size: w.size };
      lines.push(l);
      open.push(l);
      if (open.length > 64) open.shift();
    }
  }
  const out: Line[] = [];
  const pageRtl = isRtlPage(sorted.map((w) => w.t));
  for (const l of lines) {
    l.words.sort((a, b) => a.x0 - b.x0);
    out.push(toLine(l.words, pageRtl));
  }
  for (const w of words) if (w.rotated) out.push(toLine([w]));
  out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return joinJustifiedGaps(out, (ws, rtl) => toSegment(logicalOrder([...ws].sort((a, b) => a.x0 - b.x0), rtl), rtl));
}

/**
 * Splits a line (words left to right) at wide gaps and backward jumps; the words of each segment go
 * in reading order (right to left in a line of a right-to-left script, bidi.ts).
 */
function toLine(words: Word[], pageRtl = false): Line {
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
      if (gap > SEGMENT_GAP_EM * em || vOverlap < -0.2 * em || prev.rotated || w.rotated) flush();
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
  return { words, text, size, ...union(words), ...(rtl ? { rtl } : {}) };
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
