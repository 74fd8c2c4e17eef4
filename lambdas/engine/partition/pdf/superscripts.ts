// Superscripts and subscripts set against their word ("Shen¹", "a²", "H₂O"): PDFium ends a line of its
// text where the baseline or the size changes (a generated line end between the two glyphs), so
// "Shen1" came out as two words, "Shen 1", and a formula's "a2" as "a 2". A word that starts where the
// word before it in the content ends, on a shared band of the line, with only PDFium's generated
// characters between them (no space of the content), is glued to it, as the open-source library's
// text reads ("Zejiang Shen1"). A real line end never qualifies: the next line starts far from
// where the last one ended.
import type { ScriptWord } from './scripts';

/** Horizontal distance (ems of the larger size) within which the two touch. */
const TOUCH_EM = 0.1;

/** `contentSpace(a, b)`: some character strictly between text indices a and b is the content's own. */
export function glueScripts<W extends ScriptWord & { chars: [number, number] }>(words: W[], contentSpace: (a: number, b: number) => boolean): void {
  for (let i = 1; i < words.length; i++) {
    const p = words[i - 1]!, w = words[i]!;
    if (w.glue || p.turn !== 0 || w.turn !== 0 || p.vertical || w.vertical) continue;
    const big = Math.max(p.size, w.size, 1), small = Math.max(Math.min(p.size, w.size), 1);
    const gap = (w.box[0] - p.box[2]) / big;
    if (gap < -TOUCH_EM || gap > TOUCH_EM) continue;
    // boxes y-up: [left, bottom, right, top]; the two share part of a line's band
    const shared = Math.min(p.box[3], w.box[3]) - Math.max(p.box[1], w.box[1]);
    if (shared <= 0.2 * small) continue;
    // a break PDFium generated lies between them (adjacent indices: a split of the extractor's own)
    if (w.chars[0] - p.chars[1] < 2 || contentSpace(p.chars[1], w.chars[0])) continue;
    w.glue = true;
  }
}
