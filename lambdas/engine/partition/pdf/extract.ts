// Text-layer extraction from one PDF page with PDFium: words (with loose boxes, font size and
// bold/italic), grouped into PDFium's lines and split into segments at wide gaps (columns, table
// cells); link annotations; image objects. Coordinates: points, top-left origin, y down.
// Only word boundaries cross into wasm (a page's text comes out in one call), which keeps
// extraction at a few microseconds per word.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { heap, rawExports, type PdfDocument, Scratch } from './pdfium';
import { makeFrame, mapBox, type PageFrame, type QuarterTurn, turnOf, type UserBox } from './frame';
import { extractRules } from './tables/paths';
import { markGlue, mergeVertical } from './scripts';
import { type GlyphBox, hasRtlUnit, rtlWordPieces } from './bidi';
import { wordsToLines } from './lines';
import type { Box, PageLink, RawPage, Word } from './page-text';
import { charCodes, controlGlyph, mergeMarkers, type RawWord, reachFollowingSpaces, SYMBOL_BULLET, SYMBOL_MARKER } from './raw-words';
import { glueMonospaced, glueTracked } from './tracking';
import { glueScripts } from './superscripts';

interface FontStyle { bold: boolean; italic: boolean; mono: boolean; dingbat: boolean; mathExtension?: boolean }

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
  return { bold, italic, mono, dingbat: DINGBAT_NAME.test(name), ...(MATH_EXTENSION_NAME.test(base) ? { mathExtension: true } : {}) };
}

/**
 * TeX's math extension fonts (cmex10 and its sizes): glyphs without Unicode names, which PDFium
 * reports as the letters and control codes of their slots ("X" for the displayed sum). The slots of
 * the big operators, radicals and delimiters, as the font's encoding places them.
 */
const MATH_EXTENSION_NAME = /^cmex\d+$/i;
const MATH_EXTENSION_GLYPHS: Record<number, string> = {
  0x00: '(', 0x01: ')', 0x02: '[', 0x03: ']', 0x08: '{', 0x09: '}', 0x10: '(', 0x11: ')', 0x12: '(', 0x13: ')', 0x1a: '{', 0x1b: '}',
  0x48: '∮', 0x49: '∮', 0x50: '∑', 0x51: '∏', 0x52: '∫', 0x53: '⋃', 0x54: '⋂', 0x58: '∑', 0x59: '∏', 0x5a: '∫', 0x5b: '⋃', 0x5c: '⋂',
  0x70: '√', 0x71: '√', 0x72: '√', 0x73: '√', 0x74: '√',
};

/**
 * Picture fonts: every glyph a symbol (ticks, boxes, arrows, bullets), which PDFium reports as the
 * letter of its code ("y", "n", "*"). Each such glyph is a word of its own, never part of the word
 * drawn against it ("yyPersons" is a row's two marks and its label).
 */
const DINGBAT_NAME = /wingdings|webdings|dingbats|marlett/i;

/** Monospaced faces by name (Courier, Consolas, the TeX typewriter fonts, "…Mono", "…Code"). */
const MONO_NAME = /courier|consol|menlo|monaco|mono|code|typewriter|^(?:cm|lm|sf)tt|^lmmono|^inconsolata/i;

const MARK = /\p{M}/u;

const isSymbolCode = (c: number) => c >= 0x80 && c <= 0x9f;

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
    if (tp) { const X = rawExports(m); glueScripts(words, (a, b) => { for (let i = a + 1; i < b; i++) if (!X.FPDFText_IsGenerated(tp, i)) return true; return false; }); }
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
  // Scratch layout: [0,16) rect, [16,32) origin, [32,56) matrix, [64,330) font name, [336,368) a glyph's box, [512, ...) text.
  const base = scratch.get(512 + (n + 1) * 2);
  const rect = base;
  const originPtr = base + 16;
  const matPtr = base + 32;
  const nameBuf = base + 64;
  const glyphPtr = base + 336;
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

  // A symbol glyph without a name: the glyph's own box against its line's height tells a list's
  // bullet (a dot about the x-height's middle, under half an em either way: TeX's math symbol font
  // draws itemize's bullet so) from a box to tick (most of an em tall) and from a glyph without ink.
  const symbolMark = (i: number): string => {
    const g = glyphBox(i);
    if (!g) return SYMBOL_MARKER;
    const em = X.FPDFText_GetFontSize(tp, i) * matrixScale(i);
    const dot = (d: number) => d > 0.05 * em && d < 0.5 * em; // inked (an empty glyph is no bullet), small
    return em > 0 && dot(g.right - g.left) && dot(g.top - g.bottom) ? SYMBOL_BULLET : SYMBOL_MARKER;
  };

  /** A character's glyph box (PDFium's tight box, in page space); null when PDFium has none. */
  const glyphBox = (i: number): { left: number; right: number; bottom: number; top: number } | null => {
    if (!X.FPDFText_GetCharBox(tp, i, glyphPtr, glyphPtr + 8, glyphPtr + 16, glyphPtr + 24)) return null;
    const h64 = heap(m).HEAPF64, o = glyphPtr >> 3;
    return { left: h64[o]!, right: h64[o + 1]!, bottom: h64[o + 2]!, top: h64[o + 3]! };
  };

  /** The text matrix's vertical scale at a character (PDFs that draw with a 1pt font and a scaling matrix). */
  const matrixScale = (i: number): number => {
    if (!X.FPDFText_GetMatrix(tp, i, matPtr)) return 1;
    const f = heap(m).HEAPF32, o = matPtr >> 2;
    return Math.hypot(f[o + 2]!, f[o + 3]!) || 1;
  };

  /** The character draws ink (not a control code written into a string, which has no glyph). */
  const inked = (i: number): boolean => {
    const g = glyphBox(i);
    return g !== null && g.right - g.left > 0.1 && g.top - g.bottom > 0.1;
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
      else if (isSymbolCode(c)) { const mark = symbolMark(i); if (!t.endsWith(mark)) t += mark; }
      else if (MATH_EXTENSION_GLYPHS[c] !== undefined && styleAt(i).mathExtension) t += MATH_EXTENSION_GLYPHS[c];
      else if (c < 0x20) t += controlGlyph(c, u16[i - 1], u16[i + 1]) ?? '';
      else t += String.fromCharCode(c);
    }
    // A soft hyphen draws nothing inside a word (a browser writes every one into the text) and is
    // only the mark of the break before a drawn hyphen at a line's end; one that ends the word is
    // the hyphen drawn there (hyphens.ts joins the word across the break).
    if (t.includes('\u00ad')) t = t.replace(/\u00ad(?=.)/gsu, '');
    if (!t) return;
    // Effective size: the nominal font size scaled by the text matrix (PDFs that draw with a
    // 1pt font and a scaling matrix report 1 otherwise).
    const nominal = X.FPDFText_GetFontSize(tp, s);
    const scale = matrixScale(s);
    const turn = charTurn(s);
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
    // PDFium's line breaks are generated, and a CR or LF written into a string draws nothing: both
    // break the line; a font's own inked glyph at code 0x0A or 0x0D (OT1's "Ω" and "fl" in a bitmap
    // font without names) is a glyph (controlGlyph)
    const brk = (c === 13 || c === 10) && (X.FPDFText_IsGenerated(tp, i) !== 0 || !inked(i));
    // code 0 is no glyph, but a math extension font's left parenthesis
    const zero = c === 0 && !styleAt(i).mathExtension;
    const space = c === 32 || c === 9 || c === 0xa0 || zero || c === 0x3000;
    if (zero) raw.unmapped++;
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
  // (a space in the content: not generated by PDFium, and drawn by a text object of the page; the
  // space between a right-to-left cell and the next a browser prints has none)
  reachFollowingSpaces(words, u16, (i) => !X.FPDFText_IsGenerated(tp, i) && X.FPDFText_GetTextObject(tp, i) !== 0, looseBox);
  return mergeMarkers(words);
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
