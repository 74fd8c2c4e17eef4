// A one-page PDF with a code listing set as syntax highlighters and LaTeX's listings package write
// it: each token drawn on its own at its column of a fixed grid slightly wider than the monospaced
// font's advance (columns of 0.62 em for Courier's 0.6), keywords in the bold face. Tokens next to
// each other in the source stand a few hundredths of an em apart per character before them (TJ
// adjustments); a space in the source is a whole empty column. The fonts declare widths from '!' on, no space (as
// subset fonts often do), so PDFium cannot measure gaps against a space. A line of prose in a
// proportional face is drawn the same way, word by word, 0.15 em apart.
import { onePagePdf } from './pdf-writer';

const COLUMN_EM = 0.62;
const SIZE = 10;
const KEYWORDS = new Set(['function', 'return', 'const']);

/** Splits a source line into tokens: runs of word characters, single punctuation marks, spaces. */
function tokens(line: string): { col: number; t: string }[] {
  const out: { col: number; t: string }[] = [];
  for (const m of line.matchAll(/\w+|[^\w\s]/g)) out.push({ col: m.index!, t: m[0] });
  return out;
}

const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);

export function codeListingPdf(code: string[], prose: string[]): Uint8Array {
  const ops: string[] = [];
  let y = 700;
  for (const line of code) {
    // one TJ per line and font run: each token moved to its column by an adjustment (1/1000 em)
    let x = 72, font = '', parts: string[] = [];
    const flush = () => { if (parts.length) ops.push(`BT /${font} ${SIZE} Tf 72 ${y} Td [${parts.join(' ')}] TJ ET`); parts = []; };
    for (const { col, t } of tokens(line)) {
      const f = KEYWORDS.has(t) ? 'F2' : 'F1';
      const target = 72 + col * COLUMN_EM * SIZE;
      if (f !== font) { flush(); font = f; x = 72; }
      parts.push(`${(-(target - x) * 1000 / SIZE).toFixed(0)} (${esc(t)})`);
      x = target + [...t].length * 0.6 * SIZE;
    }
    flush();
    y -= 14;
  }
  y -= 20;
  for (const line of prose) {
    const parts = line.split(' ').map((w, i) => `${i ? -150 : 0} (${esc(w)})`);
    ops.push(`BT /F3 ${SIZE} Tf 72 ${y} Td [${parts.join(' ')}] TJ ET`);
    y -= 14;
  }
  return onePagePdf(ops.join('\n'), [
    `<< /Type /Font /Subtype /Type1 /BaseFont /Courier ${widths(() => 600)} >>`,
    `<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold ${widths(() => 600)} >>`,
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica ${widths((c) => 400 + (c % 7) * 50)} >>`,
  ]);
}

/**
 * Widths (1/1000 em) of the printable characters from '!' to '~'; the space has none. PDFium takes
 * a font whose widths are all equal for fixed-pitch, so the proportional face's vary.
 */
const widths = (w: (code: number) => number) => `/FirstChar 33 /LastChar 126 /Widths [${Array.from({ length: 94 }, (_, i) => w(33 + i)).join(' ')}]`;
