// Letter-spaced (tracked) text in alphabetic scripts. PDFium generates a space wherever two glyphs
// stand apart by more than about an eighth of an em, so a word set with wide tracking (TJ adjustments
// between its glyphs, as spaced-out or justified text is often written) comes out in pieces:
// "F U N C T I O N _ I D", or "F UN CTION_ID" where the spacing hovers around that threshold. A gap
// is tracking, not a word break, when it is about as wide as the spacing between the glyphs inside
// the pieces it separates (a word space adds at least a fifth of an em to the tracking); between
// single glyphs, when a run of them is evenly spaced. Runs in content-stream order, after markGlue.
import type { ScriptWord } from './scripts';

/** Generated gaps wider than this (ems) are word breaks whatever the tracking. */
const MAX_TRACK_EM = 0.35;
/**
 * A gap within this much (ems) of the tracking inside the pieces is tracking too. Gaps are measured
 * between PDFium's glyph boxes, which follow the glyph outlines (side bearings vary by a few
 * hundredths of an em), not the advance widths.
 */
const SAME_EM = 0.12;
/** Glyphs set at least this far apart (ems) are tracked; kerned text has gaps near zero. */
const MIN_TRACK_EM = 0.06;
/** Single-glyph pieces evenly spaced to within this (ems), and 0.04-0.2 em apart, are one tracked word. */
const EVEN_EM = 0.1;
const MIN_SINGLES_EM = 0.04;
const MAX_SINGLES_EM = 0.2;
/**
 * A gap this narrow (ems) next to a piece of one or two glyphs, in capitals, digits and underscores
 * on both sides, is a letter gap: kerning that varies around PDFium's threshold (~0.12 em) leaves
 * such short pieces ("F UN CTION_ID"). Not in lower-case text: the glyph boxes of justified prose
 * can stand as close ("of the" 0.05-0.16 em apart in a two-column paper).
 */
const NARROW_EM = 0.17;

const ALNUM = /[\p{L}\p{N}_]/u;
const lastChar = (s: string): string => { const a = [...s.slice(-2)]; return a[a.length - 1] ?? ''; };
const firstChar = (s: string): string => (s.codePointAt(0) === undefined ? '' : String.fromCodePoint(s.codePointAt(0)!));

function sameLine(p: ScriptWord, w: ScriptWord): boolean {
  if (p.turn !== 0 || w.turn !== 0 || p.vertical || w.vertical) return false;
  const h = Math.max(p.size, w.size, 1);
  return Math.abs(p.box[1] - w.box[1]) < 0.3 * h && Math.abs(p.size - w.size) < 0.2 * h;
}

/** A generated gap between two pieces of letters or digits on one line, in ems; undefined otherwise. */
function gapEm(p: ScriptWord, w: ScriptWord): number | undefined {
  if (!w.gen || w.glue || !sameLine(p, w)) return undefined;
  if (!ALNUM.test(lastChar(p.t)) || !ALNUM.test(firstChar(w.t))) return undefined;
  const em = Math.max(p.size, w.size, 1);
  const g = (w.box[0] - p.box[2]) / em;
  return g >= -0.05 && g <= MAX_TRACK_EM ? g : undefined;
}

/**
 * Marks the pieces of tracked words as glued to the piece before them. `innerGap` gives the median
 * gap between consecutive glyphs inside a word (points), undefined for a single glyph; it is asked
 * only for words next to a narrow generated gap.
 */
export function glueTracked<W extends ScriptWord>(words: W[], innerGap: (w: W) => number | undefined): void {
  const inner = new Map<W, number | undefined>();
  const track = (w: W) => { if (!inner.has(w)) inner.set(w, [...w.t].length > 1 ? innerGap(w) : undefined); return inner.get(w); };
  for (let i = 1; i < words.length; i++) {
    const p = words[i - 1]!, w = words[i]!;
    const g = gapEm(p, w);
    if (g === undefined) continue;
    const em = Math.max(p.size, w.size, 1);
    const t = [track(p), track(w)].filter((x): x is number => x !== undefined).map((x) => x / em);
    const short = ([...p.t].length <= 2 || [...w.t].length <= 2) && !/\p{Ll}/u.test(p.t + w.t);
    if (t.length) {
      const tr = Math.max(...t);
      if ((tr >= MIN_TRACK_EM && Math.abs(g - tr) <= SAME_EM) || (short && g <= NARROW_EM)) w.glue = true;
      continue;
    }
    // Both single glyphs: a run of evenly and narrowly spaced ones ("T I T L E", "o f").
    if (g < MIN_SINGLES_EM || g > MAX_SINGLES_EM) continue;
    let lo = g, hi = g, j = i + 1;
    while (j < words.length && [...words[j]!.t].length === 1) {
      const gj = gapEm(words[j - 1]!, words[j]!);
      if (gj === undefined || gj < MIN_SINGLES_EM || gj > MAX_SINGLES_EM || Math.max(hi, gj) - Math.min(lo, gj) > EVEN_EM) break;
      lo = Math.min(lo, gj); hi = Math.max(hi, gj);
      j++;
    }
    for (let k = i; k < j; k++) words[k]!.glue = true;
    i = j - 1;
  }
}

/**
 * A generated gap narrower than this (ems) between two runs of a monospaced font is no word break:
 * a space there is a whole glyph advance (0.5-0.6 em), and code listings set on a fixed column grid
 * (syntax-highlighted tokens each placed on their own) leave gaps of a few hundredths to about a
 * quarter of an em between tokens: "console" | ".log" | "(add".
 */
const MONO_JOIN_EM = 0.3;

/** Marks the runs of monospaced text that PDFium split at such gaps as glued to the run before them. */
export function glueMonospaced<W extends ScriptWord>(words: W[]): void {
  for (let i = 1; i < words.length; i++) {
    const p = words[i - 1]!, w = words[i]!;
    if (!w.gen || w.glue || !p.mono || !w.mono || !sameLine(p, w)) continue;
    const g = (w.box[0] - p.box[2]) / Math.max(p.size, w.size, 1);
    if (g >= -0.05 && g < MONO_JOIN_EM) w.glue = true;
  }
}
