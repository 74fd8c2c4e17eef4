// Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, ...) in positioned text. Lines are
// built from word positions, left to right: an RTL line is read right to left, with runs of Latin
// words (and the numbers that follow them) kept left to right inside it, as the Unicode
// bidirectional algorithm (UAX #9) displays them (`logicalOrder`, on whole words: PDF text layer
// and OCR alike). Inside a word, PDFium already gives the characters of a line in logical order
// (its own bidi pass); `rtlWordPieces` repairs what that pass gets wrong: the characters of one
// glyph, marks, and punctuation drawn as its own object.

/** A letter of a right-to-left script. */
const RTL_LETTER = /(?=\p{L})[\p{scx=Hebrew}\p{scx=Arabic}\p{scx=Syriac}\p{scx=Thaana}\p{scx=Nko}\p{scx=Samaritan}\p{scx=Mandaic}\p{scx=Adlam}\p{scx=Hanifi_Rohingya}\p{scx=Mende_Kikakui}\p{scx=Imperial_Aramaic}\p{scx=Phoenician}\p{scx=Avestan}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const ANY_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** Whether UTF-16 code units [s, e] hold a character of a right-to-left script (a quick test on extracted text). */
export function hasRtlUnit(u16: ArrayLike<number>, s: number, e: number): boolean {
  for (let i = s; i <= e; i++) {
    const c = u16[i]!;
    if ((c >= 0x0590 && c <= 0x08ff) || (c >= 0xfb1d && c <= 0xfefc && (c <= 0xfdff || c >= 0xfe70))) return true;
    // High surrogates of U+10800-U+10FFF and U+1E800-U+1EFFF.
    if (c === 0xd802 || c === 0xd803 || c === 0xd83a || c === 0xd83b) return true;
  }
  return false;
}

/** Bidi class of a word, from its first strong character: R (right to left), L, a number (EN), or neutral. */
export type WordClass = 'R' | 'L' | 'EN' | 'N';

export function wordClass(t: string): WordClass {
  // Cheap path: most words of most pages are Latin with no right-to-left character at all.
  if (!ANY_RTL.test(t)) return LETTER.test(t) ? 'L' : DIGIT.test(t) ? 'EN' : 'N';
  for (const ch of t) {
    if (RTL_LETTER.test(ch)) return 'R';
    if (LETTER.test(ch)) return 'L';
  }
  return DIGIT.test(t) ? 'EN' : 'N';
}

/** Letters of right-to-left scripts and other letters in some texts. */
export function letterCounts(texts: string[]): { r: number; l: number } {
  let r = 0, l = 0;
  for (const t of texts) {
    if (!ANY_RTL.test(t)) { if (LETTER.test(t)) for (const ch of t) if (LETTER.test(ch)) l++; continue; }
    for (const ch of t) {
      if (RTL_LETTER.test(ch)) r++;
      else if (LETTER.test(ch)) l++;
    }
  }
  return { r, l };
}

/**
 * Whether a line (its words' texts) reads right to left. A line of one script reads its way; a line
 * mixing RTL words and others reads the way of most of its letters when they are three times the
 * others, else the way of the page (`pageRtl`): a Hebrew sentence may hold as many Latin letters
 * as Hebrew ones.
 */
export function isRtlLine(texts: string[], pageRtl = false): boolean {
  if (!texts.some((t) => ANY_RTL.test(t))) return false;
  const { r, l } = letterCounts(texts);
  if (!r) return false;
  if (r >= 3 * l) return true;
  if (l >= 3 * r) return false;
  return pageRtl;
}

/** Whether a page's words are mostly of right-to-left scripts. */
export function isRtlPage(texts: string[]): boolean {
  if (!texts.some((t) => ANY_RTL.test(t))) return false;
  const { r, l } = letterCounts(texts);
  return r > l;
}

/**
 * Words of one line (or one segment of it) in reading order, given left to right. In a line that
 * reads right to left, the words go right to left except runs that read left to right: Latin
 * words, with the numbers and punctuation between them and the numbers right after them ("Python
 * 3"), stay in their left-to-right order. In a left-to-right line a run of RTL words (with what
 * stands between them) is read right to left. Lines without RTL letters come back as given.
 */
/** Paired brackets: opening, closing. */
const PAIRS: [string, string][] = [['(', ')'], ['[', ']'], ['{', '}'], ['\u00ab', '\u00bb'], ['\u2039', '\u203a']];

/**
 * A right-to-left text with its bracket pairs the right way round. Some text layers give each bracket
 * as the glyph drawn, and a right-to-left run draws an opening bracket with its mirror image, so the
 * logical text reads ") 2025 (" or "]note["; PDFium mirrors them back for some producers and not for
 * others. A closing bracket whose opening one comes after it is such a pair: both are mirrored back.
 */
export function pairedBrackets(text: string): string {
  if (!/[()[\]{}\u00ab\u00bb\u2039\u203a]/u.test(text)) return text;
  const chars = [...text];
  for (const [open, close] of PAIRS) {
    const opened: number[] = [], closed: number[] = [];
    chars.forEach((c, i) => {
      if (c === close) { if (opened.length) opened.pop(); else closed.push(i); }
      else if (c === open) {
        const j = closed.pop();
        if (j === undefined) opened.push(i);
        else { chars[j] = open; chars[i] = close; }
      }
    });
  }
  return chars.join('');
}

export function logicalOrder<T extends { t: string }>(visual: T[], rtl: boolean): T[] {
  if (visual.length < 2 || (!rtl && !visual.some((w) => ANY_RTL.test(w.t)))) return visual;
  const cls = visual.map((w) => wordClass(w.t));
  if (!rtl && !cls.includes('R')) return visual;
  const strong: WordClass = rtl ? 'L' : 'R';
  // Runs against the line's direction, as [start, end] in visual order.
  const runs: [number, number][] = [];
  for (let i = 0; i < visual.length; i++) {
    if (cls[i] !== strong) continue;
    // Up to the next word of the line's own direction (each word is visited at most twice).
    let end = i;
    for (let k = i + 1; k < visual.length && cls[k] !== (rtl ? 'R' : 'L'); k++) {
      // An RTL line keeps a number after Latin words in the run; an LTR line reverses only between RTL words.
      if (cls[k] === strong || (rtl && cls[k] === 'EN')) end = k;
    }
    runs.push([i, end]);
    i = end;
  }
  if (!rtl) {
    const out = [...visual];
    for (const [a, b] of runs) for (let k = a; k <= b; k++) out[k] = visual[a + b - k]!;
    return out;
  }
  // Right to left, each run emitted whole in its own (left-to-right) order.
  const out: T[] = [];
  let r = runs.length - 1;
  for (let i = visual.length - 1; i >= 0; i--) {
    const run = r >= 0 && runs[r]![1] === i ? runs[r--]! : undefined;
    if (run) { for (let k = run[0]; k <= run[1]; k++) out.push(visual[k]!); i = run[0]; }
    else out.push(visual[i]!);
  }
  return out;
}

const isRtlLetterUnit = (c: number): boolean => RTL_LETTER.test(String.fromCharCode(c));
const isMarkUnit = (c: number): boolean => MARK.test(String.fromCharCode(c));
const isLetterUnit = (c: number): boolean => LETTER.test(String.fromCharCode(c));
const MARK = /\p{M}/u;
const appendAll = (out: number[], xs: number[]) => { for (const x of xs) out.push(x); };

/** A glyph's box in user space as PDFium gives it: left, top, right, bottom. */
export type GlyphBox = [number, number, number, number];

/**
 * A word of a right-to-left script as PDFium extracts it, repaired: `units` are its characters (one
 * UTF-16 unit each, in PDFium's order) and `boxes` their glyph boxes. PDFium reorders a line's
 * characters into logical order one character at a time, so the characters of one glyph (an Arabic
 * lam-alef ligature maps to two) and a combining mark drawn after its letter come out reversed:
 * characters sharing one glyph box are put back in order and a mark that stands before the letter
 * it sits on goes after it. The word is split where it jumps to another line and where a Latin
 * letter touches an RTL one (a missing space: "Pythonمن"). Returns the pieces as index lists.
 */
export function rtlWordPieces(units: number[], boxes: GlyphBox[]): number[][] {
  const n = units.length;
  const cls = units.map((c) => (isRtlLetterUnit(c) ? 'R' : isLetterUnit(c) ? 'L' : 'N'));
  const pieces: number[][] = [];
  let cur: number[] = [];
  for (let i = 0; i < n; i++) {
    if (cur.length) {
      const p = boxes[i - 1]!, b = boxes[i]!;
      const h = Math.max(Math.abs(p[1] - p[3]), Math.abs(b[1] - b[3]), 0.1);
      const jump = Math.abs((p[1] + p[3]) / 2 - (b[1] + b[3]) / 2) > 0.5 * h;
      const turn = (cls[i - 1] === 'L' && cls[i] === 'R') || (cls[i - 1] === 'R' && cls[i] === 'L');
      if (jump || turn) { pieces.push(cur); cur = []; }
    }
    cur.push(i);
  }
  if (cur.length) pieces.push(cur);
  return pieces.map((piece) => repairOrder(piece, units, boxes));
}

const sameBox = (a: GlyphBox, b: GlyphBox): boolean => Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[2] - b[2]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;

function repairOrder(piece: number[], units: number[], boxes: GlyphBox[]): number[] {
  const rtlish = (i: number) => isRtlLetterUnit(units[i]!) || isMarkUnit(units[i]!);
  // Characters of one glyph (identical boxes), all of the RTL script: reversed.
  const glyphs: number[] = [];
  for (let k = 0; k < piece.length;) {
    let j = k + 1;
    if (rtlish(piece[k]!)) while (j < piece.length && rtlish(piece[j]!) && sameBox(boxes[piece[k]!]!, boxes[piece[j]!]!)) j++;
    for (let q = j - 1; q >= k; q--) glyphs.push(piece[q]!);
    k = j;
  }
  // A run of marks before the letter whose glyph it sits on: after that letter.
  const within = (x: number, b: GlyphBox) => x >= Math.min(b[0], b[2]) && x <= Math.max(b[0], b[2]);
  const out: number[] = [];
  for (let k = 0; k < glyphs.length;) {
    if (!isMarkUnit(units[glyphs[k]!]!)) { out.push(glyphs[k++]!); continue; }
    let j = k;
    while (j < glyphs.length && isMarkUnit(units[glyphs[j]!]!)) j++;
    const m = boxes[glyphs[k]!]!;
    const cx = (m[0] + m[2]) / 2;
    const before = j < glyphs.length && isRtlLetterUnit(units[glyphs[j]!]!) && within(cx, boxes[glyphs[j]!]!)
      && !(k > 0 && within(cx, boxes[glyphs[k - 1]!]!));
    if (before) out.push(glyphs[j]!);
    for (let q = k; q < j; q++) out.push(glyphs[q]!);
    k = before ? j + 1 : j;
  }
  return visualToLogical(out, units, boxes);
}

/** Characters that stick to a number (currency, percent, degree, sign: UAX #9 class ET). */
const NUMBER_AFFIX = /[%\u066a\u2030\u2031$\u00a2-\u00a5\u20a0-\u20cf\u00b0#+\u2212]/u;

/**
 * The characters of an RTL word in logical order from their positions: right to left, with runs of
 * Latin letters and numbers (with the separators between them and the signs they carry) left to
 * right. PDFium orders a line's characters by its own bidi pass per line, which loses a comma drawn
 * as its own text object beside a number ("،2023" for "2023،"). A glyph's characters and the
 * marks after a letter move as one cluster.
 */
function visualToLogical(order: number[], units: number[], boxes: GlyphBox[]): number[] {
  const clusters: number[][] = [];
  for (const i of order) {
    const last = clusters[clusters.length - 1];
    if (last && (isMarkUnit(units[i]!) || sameBox(boxes[last[0]!]!, boxes[i]!))) last.push(i);
    else clusters.push([i]);
  }
  if (clusters.length < 2) return order;
  const center = (c: number[]) => (boxes[c[0]!]![0] + boxes[c[0]!]![2]) / 2;
  // Left to right; on a tie the later character first, so that reading right to left keeps PDFium's order.
  const visual = clusters.map((c, k) => ({ c, k, x: center(c) })).sort((a, b) => a.x - b.x || b.k - a.k);
  const cls = visual.map(({ c }) => {
    const u = units[c[0]!]!;
    const ch = String.fromCharCode(u);
    return isRtlLetterUnit(u) ? 'R' : LETTER.test(ch) ? 'L' : DIGIT.test(ch) ? 'EN' : NUMBER_AFFIX.test(ch) ? 'ET' : 'N';
  });
  const ltr = (k: number) => cls[k] === 'L' || cls[k] === 'EN';
  const out: number[] = [];
  for (let i = visual.length - 1; i >= 0; i--) {
    // A left-to-right run ends here (at its right end): find its start, going left.
    const endsRun = ltr(i) || (cls[i] === 'ET' && i > 0 && cls[i - 1] === 'EN');
    if (!endsRun) { appendAll(out, visual[i]!.c); continue; }
    let start = i;
    // Up to the next RTL letter: every Latin letter or digit joins, and the neutrals between them;
    // a sign joins only right before the number's first digit ("$5").
    for (let k = i - 1; k >= 0 && cls[k] !== 'R'; k--) {
      if (ltr(k) || (cls[k] === 'ET' && k + 1 === start && cls[start] === 'EN')) start = k;
    }
    for (let k = start; k <= i; k++) appendAll(out, visual[k]!.c);
    i = start;
  }
  return out;
}
