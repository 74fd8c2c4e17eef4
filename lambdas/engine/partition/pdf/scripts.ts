// Scripts written without spaces between words (Han, Kana, Thai, ...) and vertical CJK text in the
// PDF text layer. PDFium inserts a "generated" space wherever two glyphs stand apart, which splits
// tracked (letter-spaced) CJK text into one word per glyph ("日 本 語"), and it reports vertical
// writing (Identity-V fonts) as upright glyphs stacked downwards, one word each. These passes run on
// the words of a page in content-stream order, before layout.
import type { QuarterTurn } from './frame';

/** Characters of scripts that put no spaces between words, with their punctuation and full-width forms. */
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\u30fc\uff00-\uffef]/u;
const HANGUL = /\p{Script=Hangul}/u;
/** CJK glyphs that may be set vertically (Han, Kana, Hangul and CJK punctuation). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\u30fc\uff00-\uffef]/u;

const noSpaceScript = (ch: string | undefined): boolean => !!ch && NO_SPACE.test(ch);

const lastChar = (s: string): string | undefined => { const a = [...s.slice(-2)]; return a[a.length - 1]; };
const firstChar = (s: string): string | undefined => s.codePointAt(0) === undefined ? undefined : String.fromCodePoint(s.codePointAt(0)!);

/** The separator between two pieces of text that follow each other (words, or lines of a paragraph). */
export function separator(before: string, after: string): string {
  return noSpaceScript(lastChar(before)) && noSpaceScript(firstChar(after)) ? '' : ' ';
}

/** Joins pieces of text, with spaces only where the scripts on both sides use them. */
export function joinText(parts: string[]): string {
  let out = '';
  for (const p of parts) {
    if (!p) continue;
    out = out ? out + separator(out, p) + p : p;
  }
  return out;
}

/** A word as extraction sees it, in PDF user space (y up): [left, bottom, right, top]. */
export interface ScriptWord {
  t: string;
  box: [number, number, number, number];
  turn: QuarterTurn;
  size: number;
  /** The separator before this word was only PDFium's generated spaces (no space in the content). */
  gen?: boolean;
  /** Joins the previous word without a space. */
  glue?: boolean;
  /** Set in a monospaced (fixed-pitch) font. */
  mono?: boolean;
  /**
   * PDFium laid the glyph out in vertical writing mode: its font's CMap is vertical (Identity-V or
   * another -V CMap, WMode 1). PDFium gives no direct call for it, but its loose box of such a glyph
   * reaches about an em to the left of the glyph's origin (measured), where a horizontal glyph's box
   * starts at its origin.
   */
  vmode?: boolean;
  vertical?: boolean;
}

/** Largest gap (in ems) between two glyphs that can still be letter spacing. */
const MAX_TRACKING_EM = 0.6;

/**
 * Marks words that continue the previous one without a space. PDFium generates a space wherever
 * glyphs stand apart, so in letter-spaced (tracked) CJK or Hangul text every glyph becomes a word:
 * on such a run (mostly one-glyph words linked by generated spaces) the gaps no wider than the
 * tracking are glued, and wider ones stay word breaks (Hangul uses spaces; a CJK line may hold a
 * deliberate gap). Generated gaps between longer words are positioned spaces and are kept.
 */
export function markGlue(words: ScriptWord[]): void {
  for (let i = 1; i < words.length;) {
    if (!trackedPair(words[i - 1]!, words[i]!)) { i++; continue; }
    let j = i;
    while (j < words.length && trackedPair(words[j - 1]!, words[j]!)) j++;
    const chain = words.slice(i - 1, j);
    const singles = chain.filter((w) => [...w.t].length === 1).length;
    if (singles >= 0.6 * chain.length) {
      const gaps = chain.slice(1).map((w, k) => w.box[0] - chain[k]!.box[2]);
      const track = Math.min(...gaps);
      chain.slice(1).forEach((w, k) => { if (gaps[k]! <= track + 0.15 * w.size) w.glue = true; });
    }
    i = j + 1;
  }
}

/** Glyphs that typesetters letter-space: CJK, Hangul, Thai. */
const trackable = (ch: string | undefined): boolean => !!ch && (NO_SPACE.test(ch) || HANGUL.test(ch));

function trackedPair(p: ScriptWord, w: ScriptWord): boolean {
  return !!w.gen && sameLine(p, w) && trackable(lastChar(p.t)) && trackable(firstChar(w.t)) && w.box[0] - p.box[2] < MAX_TRACKING_EM * Math.max(p.size, w.size);
}

function sameLine(p: ScriptWord, w: ScriptWord): boolean {
  if (p.turn !== 0 || w.turn !== 0 || p.vertical || w.vertical) return false;
  const h = Math.max(p.size, w.size, 1);
  return Math.abs(p.box[1] - w.box[1]) < 0.3 * h && w.box[0] >= p.box[2] - 0.2 * h;
}

/**
 * Merges runs of CJK glyphs stacked downwards in content order (vertical writing) into one
 * vertical word each, top to bottom. A run is glyphs set in vertical writing mode (`vmode`) whose
 * boxes share a column and follow each other with at most a small gap. One-glyph cells of a table
 * column stacked as closely are set horizontally and stay apart.
 */
export function mergeVertical<W extends ScriptWord>(words: W[]): W[] {
  const out: W[] = [];
  for (let i = 0; i < words.length;) {
    let j = i + 1;
    while (j < words.length && stacked(words[j - 1]!, words[j]!)) j++;
    if (j - i >= 2) {
      const run = words.slice(i, j);
      const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const w of run) { b[1] = Math.min(b[1], w.box[1]); b[3] = Math.max(b[3], w.box[3]); }
      // PDFium's loose box of a vertical glyph is two ems wide, centred on the glyph's origin,
      // which is the left edge of the glyph (measured): the column is one em from there.
      const first = run[0]!;
      b[0] = (first.box[0] + first.box[2]) / 2;
      b[2] = b[0] + first.size;
      out.push({ ...run[0]!, t: run.map((w) => w.t).join(''), box: b, vertical: true, glue: false });
    } else {
      out.push(words[i]!);
    }
    i = j;
  }
  return out;
}

function stacked(p: ScriptWord, w: ScriptWord): boolean {
  if (p.turn !== 0 || w.turn !== 0 || !p.vmode || !w.vmode) return false;
  // One glyph each (a UTF-16 length of 1 or 2; cheap checks first, this runs on every word pair).
  if (w.t.length > 2 || (!p.vertical && p.t.length > 2) || !CJK.test(w.t) || !CJK.test(lastChar(p.t) ?? '')) return false;
  if ([...w.t].length > 1 || (!p.vertical && [...p.t].length > 1)) return false;
  const s = Math.max(p.size, w.size, 1);
  const overlap = Math.min(p.box[2], w.box[2]) - Math.max(p.box[0], w.box[0]);
  const below = p.box[1] - w.box[3]; // gap from the previous glyph's bottom down to this glyph's top
  return overlap > 0.5 * Math.min(p.box[2] - p.box[0], w.box[2] - w.box[0]) && below > -0.3 * s && below < 0.5 * s;
}
