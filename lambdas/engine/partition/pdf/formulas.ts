// Display formulas in a PDF's text layer. A typeset formula is drawn in pieces: a fraction's
// numerator and denominator, a sum's limits, exponents set above the base line, each a run of its own.
// The layout read them as cells of a table (they line up) or as a handful of one-word paragraphs
// ("Tmix =" a Title, "2" and "+" UncategorizedText). Both are one Formula element, the library's
// type for them, in its place in the text.
import type { Box, Line, Segment } from './page-text';

/** Relations and operators of mathematics (a formula has one; labels of a slanted drawing do not). */
export const MATH = /[=<>\u2264\u2265\u2248\u2260\u2211\u220f\u222b\u2208\u2209\u2282\u2200\u2203\u2202\u2207\u221a\u00b1\u00d7\u00f7\u2212\u2192\u21d2]/;
/** Relations and big operators only: a "+" or "−" can open a list item, "=" or "∑" cannot. */
const RELATION = /[=<>\u2264\u2265\u2248\u2260\u2211\u220f\u222b\u2208\u2209\u2282\u221a\u21d2]/;
/** Mathematical alphanumeric symbols (italic x, bold A...): set in formulas only. */
const MATH_LETTER = /[\u{1D400}-\u{1D7FF}]/gu;

/**
 * Lines whose pieces line up like a table's cells and are a formula: on most of them words of several
 * sizes sit above or below each other (scripts; a table's row is set in one size), and one holds a
 * relation or an operator.
 */
export function formula(multi: Line[]): boolean {
  const scripted = (l: Line) => {
    const words = l.segs.flatMap((g) => g.words);
    const big = words.reduce((m, w) => (w.size > m.size ? w : m), words[0]!);
    return words.some((w) => w.size < big.size / 1.25 && Math.abs(w.y0 + w.y1 - big.y0 - big.y1) / 2 > 0.15 * big.size);
  };
  return multi.filter(scripted).length * 2 >= multi.length && multi.some((l) => l.segs.some((g) => MATH.test(g.text)));
}

/** A piece of a formula: a short run of symbols, numbers and one- to four-letter names. */
const PIECE = /^(?:[\p{L}\p{M}]{1,4}|[\p{N}.,]+|[=+\-\u2212\u00d7\u00b7/<>\u2264\u2265\u2248\u2260\u2211\u220f\u222b\u221a\u2202()[\]{}|^_'\u2032]|\s)+$/u;
const MAX_PIECE_CHARS = 14;

interface TextBlock extends Box { lines: Segment[]; formula?: boolean }

/**
 * Blocks (in the order they were built) that are a formula set in pieces, joined into one block marked
 * `formula`: two or more pieces, each within two text sizes of the one before and over the same
 * stretch of the page, one of them holding a relation. A block whose letters are mostly mathematical
 * alphanumerics (a formula set in Unicode math italic) is a formula by itself.
 */
export function joinFormulaPieces<B extends TextBlock>(blocks: B[], text: (b: B) => string, body: number): B[] {
  const out: B[] = [];
  const piece = (b: B) => { const t = text(b); return b.lines.length <= 2 && t.length <= MAX_PIECE_CHARS && PIECE.test(t); };
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const t = text(b);
    const letters = t.match(/\p{L}/gu)?.length ?? 0;
    if (letters && (t.match(MATH_LETTER)?.length ?? 0) >= 0.5 * letters) { out.push({ ...b, formula: true }); continue; }
    if (!piece(b)) { out.push(b); continue; }
    let j = i, box: Box = { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
    while (j + 1 < blocks.length && piece(blocks[j + 1]!)) {
      const n = blocks[j + 1]!;
      if (n.y0 - box.y1 > 2 * body || box.y0 - n.y1 > 2 * body || n.x0 > box.x1 + 4 * body || n.x1 < box.x0 - 4 * body) break;
      box = { x0: Math.min(box.x0, n.x0), y0: Math.min(box.y0, n.y0), x1: Math.max(box.x1, n.x1), y1: Math.max(box.y1, n.y1) };
      j++;
    }
    const group = blocks.slice(i, j + 1);
    if (group.length < 2 || !group.some((g) => RELATION.test(text(g)))) { out.push(b); continue; }
    // pieces top to bottom, each line left to right
    const lines = group.flatMap((g) => g.lines).sort((p, q) => (Math.abs(p.y0 - q.y0) < 0.5 * body ? p.x0 - q.x0 : p.y0 - q.y0));
    out.push({ ...b, ...box, lines, formula: true });
    i = j;
  }
  return out;
}
