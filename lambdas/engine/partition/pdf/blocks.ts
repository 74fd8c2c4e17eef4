// Paragraph blocks of a page's text lines: which line goes on which paragraph (line spacing, sizes,
// indents, sentence ends, bullets, headings set apart), and a block's text once its lines are known.
// layout.ts calls these per column after tables are taken out.
import { union, wordsToLines } from './lines';
import type { Box, Segment } from './page-text';
import { hyphenJoin } from './hyphens';
import { joinText, separator } from './scripts';
import { pairedBrackets } from './bidi';
import { isVertical } from './reading-order';
import { allCaps, type Block } from './block-types';
import { LINE_BULLET_START, NUMBERED_START } from '../list-labels';

/** A short line whose letters are all capitals (small capitals read as capitals): "IV. CONCLUSION". */
function capsHeading(text: string): boolean {
  return allCaps(text) && text.split(' ').length <= 8;
}

/** The size that weighs most (sizes as rounded by the caller; the first to reach the most on a tie), undefined for none. */
export function commonestSize(weighted: [size: number, weight: number][]): number | undefined {
  const by = new Map<number, number>();
  for (const [size, n] of weighted) by.set(size, (by.get(size) ?? 0) + n);
  let best: number | undefined, most = -1;
  for (const [size, n] of by) if (n > most) { best = size; most = n; }
  return best;
}

/** The size most of a segment's letters are set in. */
function textSize(s: Segment): number {
  const weighted: [number, number][] = [];
  for (const w of s.words) {
    const n = (w.t.match(/\p{L}/gu) ?? []).length;
    if (n) weighted.push([Math.round(w.size * 10) / 10, n]);
  }
  return commonestSize(weighted) ?? s.size;
}

/** A subsection's number before its heading: "2.2.", "3.1.4". */
const SUBSECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2})+\.?\s/;

/** Largest gap between the lines of a right-to-left paragraph, in text sizes. */
const RTL_LINE_GAP = 0.9;
/** Largest gap between the lines of a code listing, in text sizes (a blank line in it is wider). */
const LISTING_LINE_GAP = 0.9;

/** Every word of the line in a monospaced font, none turned. */
const monoLine = (s: Segment) => s.words.every((w) => w.mono && !w.rotated);

/**
 * A line alone in its block set larger than the line under it: a heading over its paragraph. Where
 * sizes are the fonts' own, 15% larger (a subsection heading 10.9 pt over 9 pt text; a bullet's or a
 * mark's glyph does not count), not when both lines are in capitals (small capitals set most letters
 * smaller: "TABLE I" over "DRIFT BY SENSOR TYPE" of one caption). Where OCR estimates them from the
 * glyphs' boxes (looser), a third larger, a few words, over a longer line ("Survey results" over its
 * paragraph).
 */
function sizeHeading(line: Segment, next: Segment, exactSizes: boolean): boolean {
  if (exactSizes) return textSize(line) >= 1.15 * textSize(next) && !/[.,;]$/.test(line.text) && !(capsHeading(line.text) && capsHeading(next.text));
  return line.size >= 1.35 * next.size && line.words.length <= 8 && !/[.,;:]$/.test(line.text) && next.x1 - next.x0 > line.x1 - line.x0;
}

/** Most of the page's text is set in a monospaced font (a typescript, a terminal capture, a plain-text file printed). */
export function monoProse(segs: Segment[]): boolean {
  let mono = 0, all = 0;
  for (const s of segs) for (const w of s.words) { all += w.t.length; if (w.mono) mono += w.t.length; }
  return mono > 0.5 * all;
}

/** Groups segments into paragraph blocks (stream order first, geometry decides). */
export function buildBlocks(segs: Segment[], body: number, sizeTolerance = 0.2, lineGap = 0.55, exactSizes = true, listings = true): Block[] {
  const blocks: Block[] = [];
  const open: Block[] = [];
  const rotatedOpen: Block[] = [];
  for (const s of segs) {
    let target: Block | undefined;
    if (s.words.some((w) => w.rotated)) {
      // Vertical text: one block per column of glyphs, read top to bottom; vertical CJK writing
      // also takes the next column to its left into the same paragraph.
      const em = Math.max(body, s.size);
      const r = rotatedOpen.find((b) => Math.abs(b.x0 - s.x0) < em && s.y0 - b.y1 < 3 * em)
        ?? (isVertical(s) ? rotatedOpen.find((b) => isVertical(b.lines[0]!) && Math.abs(Math.max(s.x0 - b.x1, b.x0 - s.x1)) < s.size && s.y0 < b.y1 && s.y1 > b.y0) : undefined);
      if (r) {
        r.lines.push(s);
        Object.assign(r, union([r, s]));
      } else {
        const b: Block = { lines: [s], size: s.size, x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1 };
        blocks.push(b);
        rotatedOpen.push(b);
      }
      continue;
    }
    if (!s.words.some((w) => w.rotated)) {
      for (let k = open.length - 1; k >= Math.max(0, open.length - 10); k--) {
        const b = open[k]!;
        const last = b.lines[b.lines.length - 1]!;
        const h = Math.max(Math.min(last.size, s.size), 1);
        const vgap = s.y0 - last.y1;
        // Right-to-left lines align on the right: the tests on where lines start and stop are
        // mirrored. Arabic and Hebrew fonts set lines further apart (tall marks, deep descenders).
        const rtl = !!(s.rtl && last.rtl);
        // (a code listing's lines stand further apart where its page sets text loosely: a web page's
        // code block printed, its line height 1.5)
        const listing = listings && monoLine(s) && b.lines.every(monoLine);
        if (vgap > (rtl ? Math.max(lineGap, RTL_LINE_GAP) : listing ? Math.max(lineGap, LISTING_LINE_GAP) : lineGap) * h || vgap < -0.6 * h) continue;
        if (Math.abs(s.size - last.size) > sizeTolerance * Math.max(s.size, last.size)) continue;
        const overlap = Math.min(s.x1, b.x1) - Math.max(s.x0, b.x0);
        if (overlap <= 0) continue;
        // A code listing amid proportional text: its lines are indented by nesting, not by paragraph,
        // and hold no headings, bullets or sentences, so set close under a listing's line, in a
        // monospaced font too, a line belongs to it (the rules below would split a function's body from
        // its first line as a paragraph from its heading).
        if (listing) { target = b; break; }
        // Line starts and ends along the writing direction (x mirrored for right-to-left lines).
        const start = (x: Box) => (rtl ? -x.x1 : x.x0), end = (x: Box) => (rtl ? -x.x0 : x.x1);
        // (right-to-left lines set flush left, their ends aligned, are one paragraph's: a converter's
        // right-to-left paragraph aligned to the left keeps its short last line at the left)
        const endsAligned = rtl && Math.abs(end(s) - end(last)) < 0.5 * h;
        if (start(s) > start(last) + 0.6 * (last.x1 - last.x0) && start(s) > start(b) + 4 * h && !endsAligned) continue;
        // A line alone in its block, then a line set further in whose first word would have fit after
        // it: a heading over an indented paragraph, or a term over its definition (the first line of
        // a hanging list item is full: its next word did not fit).
        const first = s.words[0];
        if (!rtl && first && b.lines.length === 1 && s.x0 > last.x0 + 1.5 * h && last.x1 + 0.3 * h + (first.x1 - first.x0) < s.x1) continue;
        // A short line alone in its block, in capitals (or small capitals), over a line that is not: a
        // heading ("I. INTRODUCTION", "REFERENCES") over its section's first paragraph.
        if (b.lines.length === 1 && capsHeading(last.text) && !capsHeading(s.text)) continue;
        // so is one whose text is set larger than the line under it (sizeHeading)
        if (b.lines.length === 1 && sizeHeading(last, s, exactSizes)) continue;
        const lastBold = last.words.every((w) => w.bold);
        const sBold = s.words.every((w) => w.bold);
        // (a bold sentence that runs on into the line under it, the rest of that line in regular
        // type, is one paragraph: a questionnaire's bold question and its "(select all that apply)")
        const boldRunsOn = lastBold && !!s.words[0]?.bold && !/[.!?:;]$/.test(last.text) && (b.lines.length > 1 || last.x1 - last.x0 > 25 * h);
        if (lastBold !== sBold && !boldRunsOn && (lastBold || b.lines.length > 1)) continue;
        // so does a short italic line alone in its block over upright text, numbered as a subsection
        // or set larger, without closing punctuation: an italic subsection heading ("2.2. Field
        // measurements") over its first paragraph (an italic note of the text's size stays with it)
        if (b.lines.length === 1 && last.words.every((w) => w.italic) && !s.words[0]?.italic && !/[.,;:!?]$/.test(last.text) && end(last) < end(s) - 4 * h
          && (SUBSECTION_NUMBER.test(last.text) || textSize(last) > 1.03 * textSize(s))) continue;
        // A line opening with a middle dot continues a line that already uses it as a separator
        // ("Keywords: A \u00b7 B \u00b7" / "\u00b7 C \u00b7 D"), it is not a bullet.
        const dotContinues = /^\u00b7\s/.test(s.text) && / \u00b7 /.test(last.text);
        if ((LINE_BULLET_START.test(s.text) && !dotContinues) || NUMBERED_START.test(s.text)) continue;
        // Paragraph ends: the previous line stops short after closing punctuation, or this line is
        // indented after a line that ends a sentence.
        const endsSentence = /[.!?:\u201d"')\]\u061f\u06d4]$/.test(last.text);
        if (endsSentence && end(last) < end(b) - 2 * h && b.x1 - b.x0 > 10 * h) continue;
        // a few words without closing punctuation set back to the left of a block whose line ends a
        // sentence: the next term of a definition list (its definition set in under it), not the
        // rest of an indented paragraph (whose last line closes with punctuation)
        if (endsSentence && start(s) < start(b) - 0.7 * h && s.words.length <= 4 && !/[.!?:;,؟۔]$/.test(s.text)) continue;
        // (against the line before as well: the lines of a paragraph with a hanging indent, a reference
        // "[1] A. Author, ..." whose line ends "vol.", all stand that far in)
        if (endsSentence && start(s) > start(b) + 0.7 * h && start(s) > start(last) + 0.7 * h && start(s) < start(b) + 4 * h && b.lines.length > 1) continue;
        // a line set back out to where the block's first line starts, after the indented lines of a
        // hanging paragraph that end a sentence: the next such paragraph (the next reference); in a
        // code listing, whose lines stand at the margin but a continued statement's, it is its next line
        const hanging = b.lines.length > 1 && b.lines.slice(1).every((l) => start(l) > start(b.lines[0]!) + 0.7 * h);
        if (endsSentence && hanging && start(s) < start(last) - 0.7 * h && Math.abs(start(s) - start(b.lines[0]!)) < 0.7 * h) continue;
        // so when the block is a paragraph's last line alone (run on from the foot of the column
        // before), stopping short of where the indented line goes on to (a reference's first line
        // set on to the margin, its next lines hanging, is no paragraph's end)
        if (endsSentence && b.lines.length === 1 && start(s) > start(last) + 0.7 * h && start(s) < start(last) + 4 * h && end(s) > end(last) + 2 * h) continue;
        if (last.words.some((w) => w.rotated)) continue;
        target = b;
        break;
      }
    }
    if (target) {
      target.lines.push(s);
      target.x0 = Math.min(target.x0, s.x0); target.x1 = Math.max(target.x1, s.x1);
      target.y0 = Math.min(target.y0, s.y0); target.y1 = Math.max(target.y1, s.y1);
      target.size = Math.max(target.size, s.size);
    } else {
      const b: Block = { lines: [s], size: s.size, x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1 };
      blocks.push(b);
      open.push(b);
      if (open.length > 12) open.shift();
    }
  }
  return blocks;
}

/** A figure's labels line by line, left to right: "0 50 100 Text Table Figure". */
export function figureText(b: Block): string {
  const lines = wordsToLines(b.lines.flatMap((s) => s.words));
  return lines.map((l) => joinText(l.segs.map((s) => s.text))).join(' ').replace(/\s+/g, ' ').trim();
}

/** A block's text, its lines joined (hyphenation, CJK wrapping, right-to-left brackets). */
export function blockText(b: Block, compounds: ReadonlySet<string> = new Set()): string {
  // Vertical CJK columns read right to left; line breaks inside CJK text are not word breaks.
  if (b.lines.every(isVertical)) return joinText([...b.lines].sort((p, q) => q.x0 - p.x0 || p.y0 - q.y0).map((l) => l.text));
  if (b.lines.every((l) => l.words.every((w) => w.rotated))) return b.lines.map((l) => l.text).join(' ');
  // A CJK line that runs to the block's right edge wraps mid-sentence and joins the next without a
  // space; a shorter one (a heading above a subtitle) ends there.
  let out = '';
  let prev: Segment | undefined;
  for (const l of b.lines) {
    const t = l.text.replace(/\s+/g, ' ').trim();
    if (!t) continue;
    const wraps = !!prev && prev.x1 >= b.x1 - prev.size;
    out = !prev ? t : (wraps && hyphenJoin(out, t, compounds)) || out + (wraps ? separator(out, t) : ' ') + t;
    prev = l;
  }
  // (a bracket pair of a right-to-left paragraph may open in one segment and close in another)
  return b.lines.some((l) => l.rtl) ? pairedBrackets(out) : out;
}
