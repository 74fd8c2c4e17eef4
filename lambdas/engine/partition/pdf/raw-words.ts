// Passes over a page's words as PDFium reports them (user space, content order), before the page's
// reading frame is known: the character codes behind the words, spaces a lost glyph left stranded,
// and a form's symbol markers. extract.ts runs them; they touch no wasm memory themselves.
import { SEGMENT_GAP_EM } from './lines';
import type { ScriptWord } from './scripts';

/** A word as PDFium reports it, in user space, before the page's reading frame is known. */
export interface RawWord extends ScriptWord {
  /** Baseline origin (user space), when known. */
  origin?: [number, number];
  bold: boolean;
  italic: boolean;
  /** Indices of the word's first and last character in the text page. */
  chars: [number, number];
}

/**
 * What a symbol font's glyph without a Unicode name (PDFium reports its C1 control code, 0x80-0x9f:
 * checkboxes and boxes of forms and questionnaires) becomes in the text: one white square a run. The
 * layout and the classifier read it as a list marker at the start of a line (list-labels.ts UNICODE_BULLETS).
 */
export const SYMBOL_MARKER = '\u25a1';

/**
 * Glyphs that PDFium reports as their bare control code (0x0B-0x1F): fonts without a Unicode mapping
 * or glyph names, above all the bitmap (Type 3) fonts pdfTeX embeds for LaTeX's T1-encoded text where
 * the scalable ones are missing, whose "fi" came out as U+001C ("\u001crst", "o\u001ecer"). Read with
 * the T1 (Cork) encoding those fonts use: quotes, dashes, dotless i and j, and the ligatures ff fi fl
 * ffi ffl at 0x1B-0x1F. Codes 0x0B-0x0F are T1's cedilla, ogonek and quotes, but inside a word they
 * are the older OT1 encoding's ligatures (ff fi fl ffi ffl).
 */
const T1_LOW: Record<number, string> = {
  0x0b: '\u00b8', 0x0c: '\u02db', 0x0d: '\u201a', 0x0e: '\u2039', 0x0f: '\u203a',
  0x10: '\u201c', 0x11: '\u201d', 0x12: '\u201e', 0x13: '\u00ab', 0x14: '\u00bb', 0x15: '\u2013', 0x16: '\u2014', 0x17: '',
  0x18: '0', 0x19: '\u0131', 0x1a: '\u0237', 0x1b: 'ff', 0x1c: 'fi', 0x1d: 'fl', 0x1e: 'ffi', 0x1f: 'ffl',
};
const OT1_LIGATURES: Record<number, string> = { 0x0b: 'ff', 0x0c: 'fi', 0x0d: 'fl', 0x0e: 'ffi', 0x0f: 'ffl' };
const isLetter = (c: number | undefined) => c !== undefined && /\p{L}/u.test(String.fromCharCode(c));

/** The text of a glyph reported as control code `c` (0x0B-0x1F), between the codes before and after it; undefined for others. */
export function controlGlyph(c: number, before: number | undefined, after: number | undefined): string | undefined {
  if (c < 0x0b || c > 0x1f) return undefined;
  if (c <= 0x0f && (isLetter(before) || isLetter(after))) return OT1_LIGATURES[c];
  return T1_LOW[c];
}

/** What a symbol font's small unnamed glyph (a dot under half an em, a list's bullet) becomes in the text. */
export const SYMBOL_BULLET = '\u2022';

/**
 * One UTF-16 unit per character index (PDFium gives a character outside the BMP two indices, one per
 * surrogate). FPDFText_GetText leaves out a glyph without any character (a symbol drawn with code 0
 * and no Unicode mapping), which moved every later character onto the box of the one before it
 * ("D" of the next line left alone, "epartment"); when its count is short, each character is asked
 * for, the lost ones as unmapped (0xFFFE, as GetText reports them elsewhere).
 */
export function charCodes(n: number, written: number, text: Uint16Array, unicode: (i: number) => number): Uint16Array {
  if (written === n + 1) return text.slice();
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) { const c = unicode(i); out[i] = c === 0 || c > 0xffff ? 0xfffe : c; }
  return out;
}

/**
 * A word reaches the space that follows it in the content, so that a wide gap the content fills with
 * one space is not read as a column gap. Fonts whose ToUnicode map leaves glyphs out (or maps them to
 * a space) open such gaps: PDFium drops the glyph without a trace (a hole as wide as the glyph between
 * the word and its space), or reports it as a space as wide as the glyph (and drops the real space
 * after it). One lost letter at a word's end split a line into two segments, then read as two columns
 * or two paragraphs. Where two words follow each other in the content with one real space between
 * them and the space hugs the second word, the first word's box is stretched to the space when a hole
 * of at most a font size and a half lies between them, or over the space when the space itself fills
 * the gap. A table cell's trailing space hugs its own word and leaves the gap to the next cell open.
 * Only words set wide apart are looked at: a glyph box lookup for a few words a page.
 */
export function reachFollowingSpaces(words: RawWord[], u16: Uint16Array, real: (i: number) => boolean, box: (i: number) => number[]): void {
  for (let k = 0; k + 1 < words.length; k++) {
    const a = words[k]!, b = words[k + 1]!;
    const sp = a.chars[1] + 1;
    if (b.chars[0] !== sp + 1 || u16[sp] !== 32 || a.turn !== 0 || b.turn !== 0) continue;
    const size = Math.max(a.size, b.size, 1);
    if (Math.abs(a.box[1] - b.box[1]) > 0.3 * size) continue;
    const ltr = b.box[0] >= a.box[2];
    const gap = ltr ? b.box[0] - a.box[2] : a.box[0] - b.box[2];
    if (gap <= SEGMENT_GAP_EM * size || gap > 3 * size || !real(sp)) continue;
    const g = box(sp);
    if (Number.isNaN(g[0])) continue;
    const sx0 = Math.min(g[0]!, g[2]!), sx1 = Math.max(g[0]!, g[2]!);
    const near = 0.3 * size;
    // Along the reading direction: the space's edge toward `a` and its edge toward `b`.
    const [toA, toB] = ltr ? [sx0 - a.box[2], b.box[0] - sx1] : [a.box[0] - sx1, sx0 - b.box[2]];
    if (Math.abs(toB) >= near || toA <= -near || toA > 1.5 * size) continue;
    if (ltr) a.box[2] = toA < near ? sx1 : sx0;
    else a.box[0] = toA < near ? sx0 : sx1;
  }
}

/**
 * Symbol markers (SYMBOL_MARKER words) next to each other on a line are one marker (a box and the tick
 * drawn over it), and a marker takes the size and weight of the text it opens: the box's own font would
 * make its line look larger and bold, and split the line from the lines of its item that follow.
 */
export function mergeMarkers(words: RawWord[]): RawWord[] {
  const out: RawWord[] = [];
  const sameLine = (a: RawWord, b: RawWord) => a.turn === b.turn && Math.abs(a.box[1] - b.box[1]) < Math.max(a.size, b.size) && b.box[0] - a.box[2] < 2 * Math.max(a.size, b.size);
  // a small unnamed glyph (read as a bullet, extract.ts) drawn over a box is its tick
  const over = (a: RawWord, b: RawWord) => b.box[0] <= a.box[2] && a.box[0] <= b.box[2];
  const marker = (a: RawWord, b: RawWord) => (a.t === SYMBOL_MARKER && (b.t === SYMBOL_MARKER || (b.t === SYMBOL_BULLET && over(a, b)))) || (a.t === SYMBOL_BULLET && b.t === SYMBOL_MARKER && over(a, b));
  for (const w of words) {
    const prev = out[out.length - 1];
    if (prev && marker(prev, w) && sameLine(prev, w)) {
      prev.t = SYMBOL_MARKER;
      prev.box = [Math.min(prev.box[0], w.box[0]), Math.min(prev.box[1], w.box[1]), Math.max(prev.box[2], w.box[2]), Math.max(prev.box[3], w.box[3])];
      continue;
    }
    if (prev && prev.t === SYMBOL_MARKER && w.t !== SYMBOL_MARKER && sameLine(prev, w)) {
      prev.size = w.size;
      prev.bold = w.bold;
      prev.italic = w.italic;
    }
    out.push(w);
  }
  return out;
}
