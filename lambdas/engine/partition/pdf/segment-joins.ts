// Segments of one line joined again where a gap between them is not a column's or a cell's: a number
// label and its heading, a bullet and its item, the space-aligned words of a code listing. layout.ts
// runs them on each line.
import { union } from './lines';
import { LONE_BULLET } from '../list-labels';
import type { Segment } from './page-text';

/** A section or page number on its own: "1", "2.3", "4.", "IV". */
const NUMBER_LABEL = /^(?:\d{1,3}(?:\.\d{1,3})*\.?|[IVX]{1,4}\.?)$/;

/**
 * Segments of one line, with a leading label joined to the text that follows it on the same line: a
 * number ("1 | Introduction", "2 | Z. Shen et al."), as a layout model boxes a numbered heading or a
 * running head as one region, while the word gap after the number splits the line into segments; and
 * a bullet's glyph, which word processors set a tab stop (an em and a half, more than a segment gap)
 * before the item's text ("• | Nitrate levels fell"), in a symbol font of its own size. A
 * right-to-left line's label stands right of its text.
 */
export function joinLabels(segs: Segment[]): Segment[] {
  if (segs.length < 2) return segs;
  // (a right-to-left line's label stands at its right: its last segment, the text left of it)
  const rtl = !!segs[0]!.rtl;
  const a = rtl ? segs[segs.length - 1]! : segs[0]!, b = rtl ? segs[segs.length - 2]! : segs[1]!;
  const h = Math.max(Math.min(a.size, b.size), 1);
  const gap = rtl ? a.x0 - b.x1 : b.x0 - a.x1;
  const bullet = LONE_BULLET.test(a.text.trim());
  if (!(bullet || NUMBER_LABEL.test(a.text.trim())) || NUMBER_LABEL.test(b.text.trim()) || !/\p{L}/u.test(b.text)) return segs;
  if (gap < 0 || gap > 4 * h || (!bullet && Math.abs(a.size - b.size) > 0.3 * Math.max(a.size, b.size))) return segs;
  if (a.words.some((w) => w.rotated) || b.words.some((w) => w.rotated)) return segs;
  // an "o" set as a bullet is the white bullet it stands for (the classifier's list marks know it)
  const label = bullet && a.text.trim() === 'o' ? { ...a, text: '\u25e6', words: a.words.map((w) => ({ ...w, t: '\u25e6' })) } : a;
  const joined: Segment = { ...union([a, b]), words: [...label.words, ...b.words], text: `${label.text} ${b.text}`, size: bullet ? b.size : Math.max(a.size, b.size), ...(rtl ? { rtl } : {}) };
  return rtl ? [...segs.slice(0, -2), joined] : [joined, ...segs.slice(2)];
}

/** Spaces (of a monospaced font's advance, about 0.6 em) a code line may hold in a row. */
const MONO_RUN_SPACES = 8;

/**
 * Segments of one line set in a monospaced font, a few spaces apart ("data0  up  10.0.0.1/24"): a
 * code listing or a terminal's output aligns its words with runs of spaces, which split the line
 * into segments as wide gaps do. Joined again (lines alignment reads as a table are taken before).
 */
export function joinMonoRuns(segs: Segment[]): Segment[] {
  if (segs.length < 2) return segs;
  const out: Segment[] = [segs[0]!];
  for (const s of segs.slice(1)) {
    const p = out[out.length - 1]!;
    const mono = (g: Segment) => g.words.every((w) => w.mono && !w.rotated);
    const gap = s.x0 - p.x1;
    if (mono(p) && mono(s) && gap >= 0 && gap <= MONO_RUN_SPACES * 0.6 * Math.max(p.size, s.size, 1) && Math.abs(p.size - s.size) <= 0.1 * Math.max(p.size, s.size)) {
      out[out.length - 1] = { ...union([p, s]), words: [...p.words, ...s.words], text: `${p.text} ${s.text}`, size: Math.max(p.size, s.size) };
    } else out.push(s);
  }
  return out;
}
