// OCR word boxes → the same positioned-word page model the PDF text layer uses, so paragraphs,
// columns, simple tables and classification come from one layout engine (pdf/layout.ts).
// Coordinates are pixels of the OCR'd image (PixelSpace).
import type { Element } from '../../elements';
import { bandOverlap, toSegment, union } from '../pdf/lines';
import type { Box, Line, RawPage, Word } from '../pdf/page-text';
import { layoutPage } from '../pdf/layout';
import { isRtlLine, isRtlPage, logicalOrder, wordClass } from '../pdf/bidi';
import type { Mark, Rules } from '../pdf/tables/paths';
import type { OcrLine, OcrResult, OcrWord } from './tesseract';

/** Words below this confidence are noise (speckles, picture textures). */
const MIN_WORD_CONFIDENCE = 30;

/** Marks that never stand alone in running text (a dash or a plus between words may: a separator). */
const STRAY_MARKS = /^[~_^`'"\u2018\u2019\u201c\u201d,.:;!\u00a6]+$/u;

/**
 * Words kept: confident ones, and less confident ones that read as a word (three letters or more, a
 * stop after it, and at most two marks after that: a footnote's raised number read as "storm.!").
 * Short low-confidence fragments are usually speckles or bits of rotated text, and unsure marks
 * alone within a line are the blank between words read as something.
 */
const keepWord = (lineWords: number) => (w: OcrWord, i: number): boolean =>
  (w.confidence >= MIN_WORD_CONFIDENCE || (w.confidence >= 15 && /^[\p{L}\p{N}]{3,}[.,;:]?[!'\u2019"*\d]{0,2}$/u.test(w.text)))
  && !(w.text.length <= 3 && w.confidence < 70 && lineWords <= 2)
  // marks alone, read unsure within a line ("~~" in the blank between two table headers): a line's
  // first may be its bullet
  && !(i > 0 && w.confidence < 60 && STRAY_MARKS.test(w.text));

/** Where a gap from `end` to `next` really starts: past the words left out that fill it, each within `gap` of the last. */
function bridged(end: number, next: number, left: OcrWord[], gap: number): number {
  for (const d of left) if (d.x0 >= end - 1 && d.x1 <= next + 1 && d.x0 - end <= gap) end = Math.max(end, d.x1);
  return end;
}

/** What OCR reads a list's bullet as, besides the marks the classifier takes for bullets already. */
const BULLET_MISREAD = /^[eoa\u00ab\u00bb\u00b0\u00a9\u00ae@\u00a2]$/u;

/**
 * The first words of lines that are a list's bullets read as a letter or a sign ("e The difference
 * ..."): unsure, set apart from the line's next word, and in two lines or more at one x with their
 * texts starting at one x too (a list). Read as "\u2022".
 */
function misreadBullets(lines: OcrLine[]): Set<OcrWord> {
  const cands = lines.flatMap((l) => {
    const [b, next] = l.words;
    if (!b || !next || !BULLET_MISREAD.test(b.text) || b.confidence >= 80) return [];
    const h = Math.max(next.y1 - next.y0, 1);
    return next.x0 - b.x1 >= 0.5 * h ? [{ b, next, h }] : [];
  });
  const out = new Set<OcrWord>();
  for (const c of cands) {
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.5 * c.h;
    if (cands.some((d) => d !== c && near(d.b.x0, c.b.x0) && near(d.next.x0, c.next.x0))) out.add(c.b);
  }
  return out;
}

/** A dot is a bullet when it is this wide at least and at most (text sizes: a period is smaller), and ends at most MAX_DISTANCE sizes before its line's first word. */
const DOT_MIN = 0.25, DOT_MAX = 0.6;
const MAX_DISTANCE = 2.5;

/**
 * Bullets among the page's filled dots (image/dots.ts), which OCR drops or misreads: a dot at the
 * middle of a line's height ending a little before its first word becomes a drawn mark, as a
 * born-digital PDF's bullets are (pdf/bullets.ts); a first word of one or two characters that a dot
 * fills (the bullet read as "e" or "«"), set apart from the next word, is read as "\u2022". A
 * right-to-left item's bullet stands right of its first word.
 */
function dotBullets(lines: OcrLine[], kept: OcrWord[][], dots: Box[], sizeOf: (words: OcrWord[]) => number, pageRtl: boolean): { marks: Mark[]; words: Set<OcrWord> } {
  const marks: Mark[] = [], words = new Set<OcrWord>();
  if (!dots.length) return { marks, words };
  const byY = [...dots].sort((a, b) => a.y0 - b.y0);
  lines.forEach((l, li) => {
    const ws = [...kept[li]!].sort((a, b) => a.x0 - b.x0);
    // the line's first words as read: from the right in a right-to-left line
    const rtl = ws.length > 0 && isRtlLine(ws.map((w) => w.text), pageRtl);
    const [first, next] = rtl ? [...ws].reverse() : ws;
    if (!first) return;
    const size = sizeOf(ws);
    const before = (d: Box) => (rtl ? d.x0 >= first.x1 - 1 && d.x0 - first.x1 <= MAX_DISTANCE * size : d.x1 <= first.x0 + 1 && first.x0 - d.x1 <= MAX_DISTANCE * size);
    const apart = !next || (rtl ? first.x0 - next.x1 : next.x0 - first.x1) >= 0.3 * size;
    const mid = (l.y0 + l.y1) / 2, band = 0.3 * (l.y1 - l.y0);
    const fits = (d: Box) => {
      const dw = d.x1 - d.x0, dh = d.y1 - d.y0;
      return dw >= DOT_MIN * size && dh >= DOT_MIN * size && dw <= DOT_MAX * size && dh <= DOT_MAX * size && Math.abs((d.y0 + d.y1) / 2 - mid) <= band;
    };
    for (const d of byY) {
      if (d.y0 > l.y1) break;
      if (d.y1 < l.y0 || !fits(d)) continue;
      const cx = (d.x0 + d.x1) / 2;
      if (before(d)) { marks.push({ ...d, kind: 'disc' }); break; }
      if (first.text.length <= 2 && cx > first.x0 && cx < first.x1 && first.x1 - first.x0 <= 1.5 * (d.x1 - d.x0) && apart) { words.add(first); break; }
    }
  });
  return { marks, words };
}

export function ocrToRawPage(ocr: OcrResult, page: number, width: number, height: number, rules?: Rules, dots: Box[] = []): RawPage {
  const lines: Line[] = [];
  const pageRtl = isRtlPage(ocr.lines.flatMap((l) => l.words.map((w) => w.text)));
  // Line size from its tallest words (ascenders plus descenders), stable from line to line.
  const sizeOf = (kept: OcrWord[]) => {
    const hs = kept.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
    return Math.max(hs[Math.min(hs.length - 1, Math.floor(hs.length * 0.9))]! * 0.75, 1);
  };
  // a line's words kept on their own merit, then with the words read as bullets (kept whatever their confidence)
  const keepable = ocr.lines.map((l) => { const keep = keepWord(l.words.length); return l.words.map((w, i) => keep(w, i)); });
  const keptWith = (bullets: Set<OcrWord>) => ocr.lines.map((l, li) => l.words.filter((w, i) => keepable[li]![i] || bullets.has(w)));
  const misread = misreadBullets(ocr.lines);
  const dotted = dotBullets(ocr.lines, keptWith(misread), dots, sizeOf, pageRtl);
  const bullets = new Set([...misread, ...dotted.words]);
  const keptWords = keptWith(bullets);
  const sizes = keptWords.filter((k) => k.length).map(sizeOf).sort((a, b) => a - b);
  const pageSize = sizes.length ? sizes[sizes.length >> 1]! : 1;
  ocr.lines.forEach((l, li) => {
    const kept = keptWords[li]!;
    if (!kept.length) return;
    // a line of running words with no letter reaching below the baseline reads smaller (its tallest
    // words lack descenders): within 40% under the page's common size it is body text, set in that
    // size (a justified line's space after a sentence split it, and its paragraph parted there);
    // smaller print with descenders, a note's, and a row of figures (cells a few spaces apart) keep their own
    const own = sizeOf(kept);
    const chars = kept.map((w) => w.text).join('');
    const running = (chars.match(/\p{Ll}/gu)?.length ?? 0) >= 0.6 * chars.length && !/[gjpqy,;()[\]{}]/.test(chars);
    const size = running && own >= 0.6 * pageSize && own < pageSize ? pageSize : own;
    const words: Word[] = kept.map((w) => ({ t: bullets.has(w) ? '\u2022' : w.text, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1, size, bold: false, italic: false }));
    // A line with right-to-left words may come in reading order: its words go left to right, then
    // each segment in reading order again (bidi.ts). Other lines keep the OCR's order (the words
    // of a line of text turned on its side share one x).
    const rtl = isRtlLine(words.map((w) => w.t), pageRtl);
    if (rtl || words.some((w) => wordClass(w.t) === 'R')) words.sort((a, b) => a.x0 - b.x0);
    // Split at wide gaps (columns, table cells): more than ~2 character heights (heading numbers
    // such as "1  Introduction" stay with their text).
    // A word left out (too unsure) between two words bridges their gap: the gap it leaves is no
    // column's. Not a table's rule read as a glyph ("|", "l"), which stands in a gap between cells.
    const keptSet = new Set(kept);
    const left = l.words.filter((w) => !keptSet.has(w) && /[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(w.text) && !RULE_GLYPHS.test(w.text)).sort((a, b) => a.x0 - b.x0);
    const gap = 2.2 * size;
    const segs = [];
    let cur: Word[] = [];
    for (const w of words) {
      const prev = cur[cur.length - 1];
      if (prev && w.x0 - bridged(prev.x1, w.x0, left, gap) > gap) { segs.push(toSegment(logicalOrder(cur, rtl), rtl)); cur = []; }
      cur.push(w);
    }
    if (cur.length) segs.push(toSegment(logicalOrder(cur, rtl), rtl));
    lines.push({ segs, ...union(segs) });
  });
  const withMarks = dotted.marks.length ? { h: [], v: [], ...rules, marks: [...(rules?.marks ?? []), ...dotted.marks] } : rules;
  return { page, width, height, lines: acrossPage(lines), links: [], images: [], chars: 0, unmapped: 0, ...(withMarks ? { rules: withMarks } : {}) };
}

/**
 * OCR lines side by side at one height as one line across the page, top to bottom, as the text layer
 * groups its lines (pdf/extract.ts wordsToLines): the OCR reads a table that spans a page's column
 * gutter as one block a side, and its rows came out as two tables, the left halves and the right
 * halves. Page columns and tables are then found as on a text-layer page (columns.ts, tables/).
 */
function acrossPage(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const l of [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)) {
    const h = l.y1 - l.y0;
    // (of like height: a stamp set on its side in the margin spans many lines and is none of them)
    const k = out.findIndex((o) => bandOverlap(o, l) > 0.5 && Math.min(o.y1 - o.y0, h) > 0.5 * Math.max(o.y1 - o.y0, h)
      && Math.abs(o.y0 + o.y1 - l.y0 - l.y1) < 0.5 * Math.min(o.y1 - o.y0, h) && !o.segs.some((g) => g.x0 < l.x1 && l.x0 < g.x1));
    if (k < 0) { out.push(l); continue; }
    const segs = [...out[k]!.segs, ...l.segs].sort((a, b) => a.x0 - b.x0);
    out[k] = { segs, ...union(segs) };
  }
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/** What a ruling line reads as when OCR meets one. */
const RULE_GLYPHS = /^[|_\-\u2013\u2014=~!\[\]()lI]+$/;

/**
 * Two readings of a page with table lines: `cleaned` (lines painted out, cells read best) and
 * `original`. Tesseract drops a lone short word in a large empty box (a "5" alone in a cell) once the
 * cell's frame is gone, while the original reading has it as part of a row: words of the original
 * reading that no cleaned word overlaps are added (rule glyphs aside, and words a table line runs
 * through: the dashes of a dashed rule read as "1", "!", "ㅣ").
 */
export function mergeReadings(cleaned: OcrResult, original: OcrResult, rules?: Rules): OcrResult {
  const boxes = cleaned.lines.flatMap((l) => l.words);
  const overlaps = (w: OcrWord) => boxes.some((b) => b.x0 < w.x1 && w.x0 < b.x1 && b.y0 < w.y1 && w.y0 < b.y1);
  const m = rules?.tol ?? 2; // a dash read as a glyph may sit a pixel or two beside the line's centre
  const onRule = (w: OcrWord) =>
    !!rules && (rules.v.some((r) => r.x > w.x0 - m && r.x < w.x1 + m && r.y0 < w.y1 && w.y0 < r.y1) || rules.h.some((r) => r.y > w.y0 - m && r.y < w.y1 + m && r.x0 < w.x1 && w.x0 < r.x1));
  const added: OcrLine[] = [];
  for (const l of original.lines) {
    const words = l.words.filter((w) => w.confidence >= MIN_WORD_CONFIDENCE && !RULE_GLYPHS.test(w.text) && !overlaps(w) && !onRule(w));
    if (!words.length) continue;
    added.push({ words, x0: Math.min(...words.map((w) => w.x0)), y0: Math.min(...words.map((w) => w.y0)), x1: Math.max(...words.map((w) => w.x1)), y1: Math.max(...words.map((w) => w.y1)) });
  }
  return added.length ? { ...cleaned, lines: [...cleaned.lines, ...added] } : cleaned;
}

/** True when OCR found real text (not just noise from a photo or a drawing). */
export function hasRealText(ocr: OcrResult): boolean {
  let good = 0;
  for (const l of ocr.lines) for (const w of l.words) if (w.confidence >= 60 && /\p{L}{3,}/u.test(w.text)) good++;
  return good >= 3;
}

/** Characters of the words read with confidence (60 or more): how much of a page a reading got. */
export function wellReadChars(ocr: OcrResult): number {
  let n = 0;
  for (const l of ocr.lines) for (const w of l.words) if (w.confidence >= 60) n += w.text.length;
  return n;
}

/** A reading with real text at a mean confidence of 60 or more (a page upside down reads about 30). */
export function readsWell(ocr: OcrResult): boolean {
  return hasRealText(ocr) && ocr.confidence >= 60;
}

export function ocrPageElements(
  ocr: OcrResult,
  page: number,
  width: number,
  height: number,
  opts: {
    coordinates: boolean;
    languages: string[];
    /** Cell structure of tables as text_as_html (tables themselves are always looked for). */
    tableHtml: boolean;
    extra?: Record<string, unknown>;
    /** Lines drawn in the OCR'd image (image/rules.ts): ruled tables come from their grid. */
    rules?: Rules;
    /** Filled dots of the image (image/dots.ts): bullets of list items OCR dropped or misread. */
    dots?: Box[];
    warn?: (message: string) => void;
    /** Points per pixel when the image is a rendered PDF page (layout.ts LayoutOptions.sizeScale). */
    sizeScale?: number;
  },
): Element[] {
  if (opts.rules?.warning) opts.warn?.(opts.rules.warning);
  const raw = ocrToRawPage(ocr, page, width, height, opts.rules, opts.dots);
  return layoutPage(raw, {
    languages: opts.languages,
    coordinates: opts.coordinates ? 'PixelSpace' : undefined,
    tables: true,
    tableHtml: opts.tableHtml,
    extra: opts.extra,
    ocr: true,
    ...(opts.sizeScale ? { sizeScale: opts.sizeScale } : {}),
  });
}
