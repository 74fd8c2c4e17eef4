// Text-layer extraction from one PDF page with PDFium: words (with loose boxes, font size and
// bold/italic), grouped into PDFium's lines and split into segments at wide gaps (columns, table
// cells); link annotations; image objects. Coordinates: points, top-left origin, y down.
// Only word boundaries cross into wasm (a page's text comes out in one call), which keeps
// extraction at a few microseconds per word.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { heap, rawExports, type PdfDocument, Scratch } from './pdfium';
import { makeFrame, mapBox, type PageFrame, type QuarterTurn, turnOf, type UserBox } from './frame';
import { extractRules } from './tables/paths';
import { markGlue, mergeVertical, type ScriptWord } from './scripts';
import { type GlyphBox, hasRtlUnit, isRtlLine, isRtlPage, logicalOrder, rtlWordPieces } from './bidi';
import { joinJustifiedGaps } from './justified';
import type { Box, Line, PageLink, RawPage, Segment, Word } from './page-text';
import { glueMonospaced, glueTracked } from './tracking';
import { glueScripts } from './superscripts';

/** A word as PDFium reports it, in user space, before the page's reading frame is known. */
interface RawWord extends ScriptWord {
  /** Baseline origin (user space), when known. */
  origin?: [number, number];
  bold: boolean;
  italic: boolean;
  /** Indices of the word's first and last character in the text page. */
  chars: [number, number];
}

interface FontStyle { bold: boolean; italic: boolean; mono: boolean; dingbat: boolean }

const scratchByModule = new WeakMap<WrappedPdfiumModule, Scratch>();
function scratchFor(m: WrappedPdfiumModule): Scratch {
  let s = scratchByModule.get(m);
  if (!s) { s = new Scratch(m); scratchByModule.set(m, s); }
  return s;
}

const BOLD_NAME = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|,b$|-b$|\.b$/i;
const REGULAR_NAME = /roman|regu|book|light|thin|medium|normal/i;
const ITALIC_NAME = /italic|oblique|slanted|,i$|-i$|\.i$|kursiv/i;

function fontStyle(m: WrappedPdfiumModule, font: number, buf: number): FontStyle {
  if (!font) return { bold: false, italic: false, mono: false, dingbat: false };
  const weight = m.FPDFFont_GetWeight(font);
  const flags = m.FPDFFont_GetFlags(font);
  const n = m.FPDFFont_GetBaseFontName(font, buf, 256);
  let name = '';
  if (n > 1) name = m.pdfium.UTF8ToString(buf, Math.min(n, 256));
  const anglePtr = buf + 260;
  let angle = 0;
  if (m.FPDFFont_GetItalicAngle(font, anglePtr)) angle = heap(m).HEAP32[anglePtr >> 2]!;
  // A face named for its weight is that weight: PDFium estimates the weight from the descriptor's
  // StemV when the font gives none, and writers set StemV loosely (Ghostscript gives Times-Roman 139,
  // which PDFium reads as 695: every word of such a document came out bold). The estimate and the
  // ForceBold flag decide only for a name that says nothing ("F1", "Arial").
  const base = name.replace(/^[A-Z]{6}\+/, '');
  const bold = BOLD_NAME.test(base) || (!REGULAR_NAME.test(base) && (weight >= 600 || (flags & (1 << 18)) !== 0));
  const italic = angle !== 0 || (flags & (1 << 6)) !== 0 || ITALIC_NAME.test(name);
  // FixedPitch (flag bit 1), or a typewriter face named as such when the descriptor does not say
  const mono = (flags & 1) !== 0 || MONO_NAME.test(name.replace(/^[A-Z]{6}\+/, ''));
  return { bold, italic, mono, dingbat: DINGBAT_NAME.test(name) };
}

/**
 * Picture fonts: every glyph a symbol (ticks, boxes, arrows, bullets), which PDFium reports as the
 * letter of its code ("y", "n", "*"). Each such glyph is a word of its own, never part of the word
 * drawn against it ("yyPersons" is a row's two marks and its label).
 */
const DINGBAT_NAME = /wingdings|webdings|dingbats|marlett/i;

/** Monospaced faces by name (Courier, Consolas, the TeX typewriter fonts, "…Mono", "…Code"). */
const MONO_NAME = /courier|consol|menlo|monaco|mono|code|typewriter|^(?:cm|lm|sf)tt|^lmmono|^inconsolata/i;

const MARK = /\p{M}/u;

/**
 * What a symbol font's glyph without a Unicode name (PDFium reports its C1 control code, 0x80-0x9f:
 * checkboxes and boxes of forms and questionnaires) becomes in the text: one white square a run. The
 * layout and the classifier read it as a list marker at the start of a line (classify.ts UNICODE_BULLETS).
 */
export const SYMBOL_MARKER = '\u25a1';
const isSymbolCode = (c: number) => c >= 0x80 && c <= 0x9f;

/** Minimum gap (in font sizes) between words that splits a line into segments. */
const SEGMENT_GAP_EM = 1.1;

export function extractPage(doc: PdfDocument, index: number, opts: { images: boolean; links: boolean; rules?: boolean; art?: boolean }): RawPage {
  const m = doc.m;
  const scratch = scratchFor(m);
  const page = m.FPDF_LoadPage(doc.handle, index);
  const width = page ? m.FPDF_GetPageWidthF(page) : 612;
  const height = page ? m.FPDF_GetPageHeightF(page) : 792;
  const raw: RawPage = { page: index + 1, width, height, lines: [], links: [], images: [], chars: 0, unmapped: 0 };
  if (!page) return raw;
  const tp = m.FPDFText_LoadPage(page);
  try {
    const box = pageBox(m, scratch, page, width, height);
    const words = tp ? mergeVertical(extractText(m, scratch, tp, raw)) : [];
    markGlue(words);
    if (tp) glueTracked(words, (w) => innerGap(m, scratch, tp, w.chars));
    glueMonospaced(words);
    if (tp) glueScripts(words, (a, b) => { for (let i = a + 1; i < b; i++) if (!rawExports(m).FPDFText_IsGenerated(tp, i)) return true; return false; });
    const frame = makeFrame(dominantTurn(words), box);
    raw.width = frame.width;
    raw.height = frame.height;
    // Words wholly off the page are never seen (printer's marks, slug lines below the trim).
    raw.lines = wordsToLines(words.map((w) => toWord(w, frame)).filter((w) => w.x1 > 0 && w.y1 > 0 && w.x0 < frame.width && w.y0 < frame.height));
    if (opts.links) raw.links = extractLinks(m, scratch, doc, page, frame);
    if (opts.images) raw.images = extractImages(m, scratch, page, frame);
    if (opts.rules) {
      const r = extractRules(m, scratch.get(64), page, frame, opts.art ?? opts.images);
      if (r.warning) (raw.warnings ??= []).push(r.warning);
      else raw.rules = r;
    }
  } finally {
    if (tp) m.FPDFText_ClosePage(tp);
    m.FPDF_ClosePage(page);
  }
  return raw;
}

/** The page box in user space (crop box within the media box); the page size from the origin otherwise. */
function pageBox(m: WrappedPdfiumModule, scratch: Scratch, page: number, width: number, height: number): UserBox {
  const rect = scratch.get(64);
  if (rawExports(m).FPDF_GetPageBoundingBox(page, rect)) {
    const f = heap(m).HEAPF32, o = rect >> 2;
    const [l, t, r, b] = [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!];
    if (r - l > 1 && Math.abs(t - b) > 1) return [l, Math.min(t, b), r, Math.max(t, b)];
  }
  const rotation = m.FPDFPage_GetRotation(page);
  return rotation % 2 ? [0, 0, height, width] : [0, 0, width, height];
}

/** The direction most of the page's characters run in (ties: upright). */
function dominantTurn(words: RawWord[]): QuarterTurn {
  const n = [0, 0, 0, 0];
  for (const w of words) n[w.turn]! += w.t.length;
  let best = 0;
  for (let k = 1; k < 4; k++) if (n[k]! > n[best]! * 1.5) best = k;
  return best as QuarterTurn;
}

function toWord(r: RawWord, f: PageFrame): Word {
  const b = mapBox(f, r.box[0], r.box[1], r.box[2], r.box[3]);
  const w: Word = { t: r.t, ...b, size: r.size, bold: r.bold, italic: r.italic };
  if (r.glue) w.glue = true;
  if (r.mono) w.mono = true;
  if (r.vertical) {
    w.rotated = true;
    w.vertical = true;
  } else if (r.turn !== f.turn) {
    // Vertical text (rotated margins such as arXiv stamps) is kept apart from the body.
    w.rotated = true;
  } else if (r.origin) {
    // The vertical extent comes from the baseline and the effective size: loose boxes follow the
    // font's ascent/descent (several lines tall for math fonts) and ignore a scaling matrix.
    const baseline = f.map(r.origin[0], r.origin[1])[1];
    w.y0 = baseline - 0.8 * r.size;
    w.y1 = baseline + 0.22 * r.size;
  }
  return w;
}

function extractText(m: WrappedPdfiumModule, scratch: Scratch, tp: number, raw: RawPage): RawWord[] {
  const X = rawExports(m);
  const n = X.FPDFText_CountChars(tp);
  if (n <= 0) return [];
  raw.chars = n;
  // Scratch layout: [0,16) rect, [16,32) origin, [32,56) matrix, [64,330) font name, [512, ...) text.
  const base = scratch.get(512 + (n + 1) * 2);
  const rect = base;
  const originPtr = base + 16;
  const matPtr = base + 32;
  const nameBuf = base + 64;
  const textPtr = base + 512;
  const u16 = charCodes(n, X.FPDFText_GetText(tp, 0, n, textPtr), new Uint16Array(heap(m).HEAPU8.buffer, textPtr, n), (i) => X.FPDFText_GetUnicode(tp, i));
  const styles = new Map<number, FontStyle>();
  let lastObj = -1;
  let lastStyle: FontStyle = { bold: false, italic: false, mono: false, dingbat: false };
  const words: RawWord[] = [];
  let wordStart = -1;
  // Whether the space before the current word came only from PDFium (FPDFText_IsGenerated), i.e.
  // a gap between glyphs rather than a space in the content.
  let generatedGap = false;
  let sawRealGap = true;

  const looseBox = (i: number): [number, number, number, number] => {
    if (!X.FPDFText_GetLooseCharBox(tp, i, rect)) return [NaN, NaN, NaN, NaN];
    const f = heap(m).HEAPF32;
    const o = rect >> 2;
    return [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!]; // left, top, right, bottom
  };

  const charTurn = (i: number): QuarterTurn => {
    if (!X.FPDFText_GetMatrix(tp, i, matPtr)) return 0;
    const f = heap(m).HEAPF32, o = matPtr >> 2;
    return turnOf(f[o]!, f[o + 1]!);
  };
  // A glyph box seen along the text's direction: [advance position, cross position, glyph height].
  // The cross position is the box's middle: PDFium gives each character of a ligature glyph ("fi")
  // a box of its own, shorter than the line's, around the same middle.
  const along = (box: number[], k: QuarterTurn): [number, number, number] => {
    const midX = (box[0]! + box[2]!) / 2, midY = (box[1]! + box[3]!) / 2;
    switch (k) {
      case 1: return [box[3]!, midX, Math.abs(box[2]! - box[0]!)];
      case 2: return [-box[2]!, midY, Math.abs(box[1]! - box[3]!)];
      case 3: return [-box[1]!, midX, Math.abs(box[2]! - box[0]!)];
      default: return [box[0]!, midY, Math.abs(box[1]! - box[3]!)];
    }
  };

  /** The style of the font character i is drawn in (the last text object's, when it is the same). */
  const styleAt = (i: number): FontStyle => {
    const obj = X.FPDFText_GetTextObject(tp, i);
    if (obj === lastObj) return lastStyle;
    const font = obj ? X.FPDFTextObj_GetFont(obj) : 0;
    let st = styles.get(font);
    if (!st) { st = fontStyle(m, font, nameBuf); styles.set(font, st); }
    lastObj = obj;
    lastStyle = st;
    return st;
  };

  const endWord = (s: number, e: number) => {
    if (hasRtlUnit(u16, s, e)) { rtlWord(s, e); return; }
    // -- a picture font's glyphs at either end: each its own word, the rest a word again --
    if (e > s && (styleAt(s).dingbat || styleAt(e).dingbat)) {
      let start = s;
      for (let i = s; i <= e; i++) {
        if (!styleAt(i).dingbat) continue;
        if (i > start) plainWord(start, i - 1);
        plainWord(i, i);
        start = i + 1;
      }
      if (start <= e) plainWord(start, e);
      return;
    }
    plainWord(s, e);
  };

  // On a page with right-to-left text PDFium's bidi pass reorders a number's characters ("(2024"),
  // so a word's first and last characters need not be its ends: its box is all of theirs.
  const pageRtl = hasRtlUnit(u16, 0, n - 1);
  const spanBox = (s: number, e: number): [number, number, number, number] => {
    const box = looseBox(s);
    for (let i = s + 1; i <= e && !Number.isNaN(box[0]); i++) {
      const g = looseBox(i);
      if (Number.isNaN(g[0])) continue;
      box[0] = Math.min(box[0], g[0], g[2]); box[2] = Math.max(box[2], g[0], g[2]);
      box[1] = Math.max(box[1], g[1], g[3]); box[3] = Math.min(box[3], g[1], g[3]);
    }
    return box;
  };

  const plainWord = (s: number, e: number) => {
    const a = looseBox(s);
    const b = e === s ? a : looseBox(e);
    if (Number.isNaN(a[0]) || Number.isNaN(b[0])) return;
    const k = e > s ? charTurn(s) : 0;
    const [aPos, aCross, ah] = along(a, k);
    const h = ah || 1;
    const [bPos, bCross] = along(b, k);
    // PDFium joins a word hyphenated across lines ("ef-" / "ficient") without a line break, and
    // some PDFs draw one word's glyphs out of order: split such runs where the glyphs jump.
    if (e > s && (Math.abs(aCross - bCross) > 0.5 * h || bPos < aPos - 0.5 * h)) {
      let start = s;
      let prev = a;
      let [pPos, pCross] = [aPos, aCross];
      for (let i = s + 1; i <= e; i++) {
        const c = looseBox(i);
        if (Number.isNaN(c[0])) continue;
        const [cPos, cCross] = along(c, k);
        if (Math.abs(cCross - pCross) > 0.5 * h || cPos < pPos - 0.5 * h) {
          emitWord(start, i - 1, a === prev ? a : looseBox(start), prev);
          start = i;
        }
        prev = c;
        pPos = cPos; pCross = cCross;
      }
      emitWord(start, e, looseBox(start), prev);
      return;
    }
    if (pageRtl && e > s && k === 0 && e - s < 32) { const box = spanBox(s, e); emitWord(s, e, box, box); return; }
    emitWord(s, e, a, b);
  };

  // A word of a right-to-left script runs leftwards (digits inside it rightwards): its characters'
  // order is repaired and it splits only at line jumps and Latin-RTL contacts (bidi.ts).
  const rtlWord = (s: number, e: number) => {
    const idx: number[] = [], boxes: GlyphBox[] = [];
    for (let i = s; i <= e; i++) {
      if (u16[i] === 32) continue; // a generated space kept inside the word before a mark
      const b = looseBox(i);
      if (!Number.isNaN(b[0])) { idx.push(i); boxes.push(b); }
    }
    for (const piece of rtlWordPieces(idx.map((i) => u16[i]!), boxes)) {
      const box = boxes[piece[0]!]!.slice();
      for (const k of piece) {
        const g = boxes[k]!;
        box[0] = Math.min(box[0]!, g[0], g[2]); box[2] = Math.max(box[2]!, g[0], g[2]);
        box[1] = Math.max(box[1]!, g[1], g[3]); box[3] = Math.min(box[3]!, g[1], g[3]);
      }
      const order = piece.map((k) => idx[k]!);
      let first = order[0]!, last = order[0]!;
      for (const i of order) { first = Math.min(first, i); last = Math.max(last, i); }
      emitWord(first, last, box, box, order);
    }
  };

  const emitWord = (s: number, e: number, a: number[], b: number[], order?: number[]) => {
    let t = '';
    for (let j = 0; j <= (order ? order.length - 1 : e - s); j++) {
      const i = order ? order[j]! : s + j;
      const c = u16[i]!;
      // PDFium reports a line-end hyphen as 0x02, which FPDFText_GetText turns into 0xFFFE like
      // glyphs without a Unicode mapping: ask for the character itself to tell them apart.
      if (c === 2 || (c === 0xfffe && X.FPDFText_GetUnicode(tp, i) === 2)) t += '-';
      else if (c === 0xfffe || c === 0xffff || c === 0xfffd) raw.unmapped++;
      // -- a symbol font's glyph without a name (a C1 control code: a checkbox, a box): one marker --
      else if (isSymbolCode(c)) { if (!t.endsWith(SYMBOL_MARKER)) t += SYMBOL_MARKER; }
      else t += String.fromCharCode(c);
    }
    if (!t) return;
    // Effective size: the nominal font size scaled by the text matrix (PDFs that draw with a
    // 1pt font and a scaling matrix report 1 otherwise).
    const nominal = X.FPDFText_GetFontSize(tp, s);
    let scale = 1, turn: QuarterTurn = 0;
    if (X.FPDFText_GetMatrix(tp, s, matPtr)) {
      const f = heap(m).HEAPF32, o = matPtr >> 2;
      const [ma, mb, mc, md] = [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!];
      scale = Math.hypot(mc, md) || 1;
      turn = turnOf(ma, mb);
    }
    const size = nominal * scale || Math.abs(a[1]! - a[3]!) || 1;
    const style = styleAt(s);
    const x0 = Math.min(a[0]!, b[0]!, a[2]!, b[2]!);
    const x1 = Math.max(a[0]!, b[0]!, a[2]!, b[2]!);
    const top = Math.max(a[1]!, b[1]!, a[3]!, b[3]!);
    const bottom = Math.min(a[1]!, b[1]!, a[3]!, b[3]!);
    const w: RawWord = { t, box: [x0, bottom, x1, top], turn, size, bold: style.bold, italic: style.italic, chars: [s, e] };
    if (generatedGap && s === wordStart) w.gen = true;
    if (style.mono) w.mono = true;
    if (X.FPDFText_GetCharOrigin(tp, s, originPtr, originPtr + 8)) {
      const h64 = heap(m).HEAPF64;
      w.origin = [h64[originPtr >> 3]!, h64[(originPtr + 8) >> 3]!];
      // Vertical writing mode (scripts.ts, ScriptWord.vmode): the loose box reaches left of the origin.
      if (turn === 0 && w.origin[0] - Math.min(a[0]!, a[2]!) > 0.5 * size) w.vmode = true;
    }
    words.push(w);
  };

  for (let i = 0; i < n; i++) {
    const c = u16[i]!;
    const brk = c === 13 || c === 10;
    const space = c === 32 || c === 9 || c === 0xa0 || c === 0 || c === 0x3000;
    if (c === 0) raw.unmapped++;
    // PDFium puts a space before a combining mark drawn as its own text object after its letter
    // (Arabic tanween): a mark never starts a word.
    if (c === 32 && wordStart >= 0 && i + 1 < n && hasRtlUnit(u16, i - 1, i - 1) && MARK.test(String.fromCharCode(u16[i + 1]!))) continue;
    // -- a run of symbol codes is a word of its own: glued to the text after it, it would lend that
    // -- word its font's size and weight, and hide that the line starts with a marker --
    if (!brk && !space && wordStart >= 0 && isSymbolCode(c) !== isSymbolCode(u16[wordStart]!)) {
      endWord(wordStart, i - 1);
      wordStart = i;
      generatedGap = false;
      sawRealGap = false;
      continue;
    }
    if (brk || space) {
      if (wordStart >= 0) { endWord(wordStart, i - 1); wordStart = -1; }
      if (brk || !X.FPDFText_IsGenerated(tp, i)) sawRealGap = true;
    } else if (wordStart < 0) {
      wordStart = i;
      generatedGap = !sawRealGap;
      sawRealGap = false;
    }
  }
  if (wordStart >= 0) endWord(wordStart, n - 1);
  reachFollowingSpaces(words, u16, (i) => !X.FPDFText_IsGenerated(tp, i), looseBox);
  return mergeMarkers(words);
}

/**
 * One UTF-16 unit per character index (PDFium gives a character outside the BMP two indices, one per
 * surrogate). FPDFText_GetText leaves out a glyph without any character (a symbol drawn with code 0
 * and no Unicode mapping), which moved every later character onto the box of the one before it
 * ("D" of the next line left alone, "epartment"); when its count is short, each character is asked
 * for, the lost ones as unmapped (0xFFFE, as GetText reports them elsewhere).
 */
function charCodes(n: number, written: number, text: Uint16Array, unicode: (i: number) => number): Uint16Array {
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
function reachFollowingSpaces(words: RawWord[], u16: Uint16Array, real: (i: number) => boolean, box: (i: number) => number[]): void {
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
function mergeMarkers(words: RawWord[]): RawWord[] {
  const out: RawWord[] = [];
  const sameLine = (a: RawWord, b: RawWord) => a.turn === b.turn && Math.abs(a.box[1] - b.box[1]) < Math.max(a.size, b.size) && b.box[0] - a.box[2] < 2 * Math.max(a.size, b.size);
  for (const w of words) {
    const prev = out[out.length - 1];
    if (prev && prev.t === SYMBOL_MARKER && w.t === SYMBOL_MARKER && sameLine(prev, w)) {
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

/** Median gap (points) between the loose boxes of consecutive glyphs of an upright word; bounded work. */
function innerGap(m: WrappedPdfiumModule, scratch: Scratch, tp: number, [s, e]: [number, number]): number | undefined {
  if (e <= s || e - s > 64) return undefined;
  const X = rawExports(m);
  const rect = scratch.get(16);
  const gaps: number[] = [];
  let prevRight = NaN;
  for (let i = s; i <= e; i++) {
    if (!X.FPDFText_GetLooseCharBox(tp, i, rect)) { prevRight = NaN; continue; }
    const f = heap(m).HEAPF32, o = rect >> 2;
    const left = Math.min(f[o]!, f[o + 2]!), right = Math.max(f[o]!, f[o + 2]!);
    if (!Number.isNaN(prevRight)) gaps.push(left - prevRight);
    prevRight = right;
  }
  if (!gaps.length) return undefined;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/**
 * Groups words into lines by vertical overlap (content-stream order is not reading order in many
 * PDFs), sorts each line left to right and splits it into segments at wide gaps. Rotated words
 * each form their own line.
 */
/**
 * A word of the line's size already stands where `w` does: `w` is on the next line, though the line's
 * band reaches it (a larger heading in one page column spans two lines of the next column, and
 * their words were read as one line, interleaved). Marks, scripts and one-letter pieces may stack.
 */
function stacksOn(line: Word[], w: Word): boolean {
  if ([...w.t].length < 2) return false;
  for (let i = line.length - 1; i >= 0 && i >= line.length - 200; i--) {
    const o = line[i]!;
    if ([...o.t].length < 2 || Math.abs(o.size - w.size) > 0.2 * Math.max(o.size, w.size)) continue;
    if (Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0) > 0.5 * Math.min(o.x1 - o.x0, w.x1 - w.x0)) return true;
  }
  return false;
}

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

function extractLinks(m: WrappedPdfiumModule, scratch: Scratch, doc: PdfDocument, page: number, frame: PageFrame): PageLink[] {
  const out: PageLink[] = [];
  const base = scratch.get(4096);
  const posPtr = base, linkPtr = base + 8, rect = base + 16, urlBuf = base + 64;
  heap(m).HEAP32[posPtr >> 2] = 0;
  for (let guard = 0; guard < 10_000 && m.FPDFLink_Enumerate(page, posPtr, linkPtr); guard++) {
    const link = heap(m).HEAP32[linkPtr >> 2]!;
    const action = m.FPDFLink_GetAction(link);
    if (!action || m.FPDFAction_GetType(action) !== 3) continue; // 3: URI
    const len = m.FPDFAction_GetURIPath(doc.handle, action, urlBuf, 4000);
    if (len <= 1) continue;
    const url = m.pdfium.UTF8ToString(urlBuf, Math.min(len, 4000)).replace(/\0+$/, '');
    if (!m.FPDFLink_GetAnnotRect(link, rect)) continue;
    const f = heap(m).HEAPF32, o = rect >> 2;
    const [l, t, r, b] = [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!];
    out.push({ url, ...mapBox(frame, l, b, r, t) });
  }
  return out;
}

function extractImages(m: WrappedPdfiumModule, scratch: Scratch, page: number, frame: PageFrame): Box[] {
  const W = frame.width, H = frame.height;
  const X = rawExports(m);
  const out: Box[] = [];
  const count = Math.min(X.FPDFPage_CountObjects(page), 5000);
  const base = scratch.get(64);
  for (let i = 0; i < count; i++) {
    const obj = X.FPDFPage_GetObject(page, i);
    if (!obj || X.FPDFPageObj_GetType(obj) !== 3) continue; // 3: image
    if (!X.FPDFPageObj_GetBounds(obj, base, base + 4, base + 8, base + 12)) continue;
    const f = heap(m).HEAPF32, o = base >> 2;
    const [l, b, r, t] = [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!];
    const m0 = mapBox(frame, l, b, r, t);
    const box = { x0: Math.max(0, m0.x0), x1: Math.min(W, m0.x1), y0: Math.max(0, m0.y0), y1: Math.min(H, m0.y1) };
    if (box.x1 - box.x0 > 0 && box.y1 - box.y0 > 0) out.push(box);
  }
  return out;
}
