// Words of a PDF page's text layer set by hand for layout tests: boxes on a line, each letter a fixed
// width and a fixed space between words, as a PDF's text layer gives them to wordsToLines (pdf/lines.ts).
import type { Word } from '../../lambdas/engine/partition/pdf/page-text';

export interface WordType {
  /** Text size: each word's height. */
  size: number;
  /** A letter's width (half the size when absent). */
  char?: number;
  /** The space between two words (0.3 of the size when absent). */
  space?: number;
  bold?: boolean;
}

/**
 * Lines set in one type: `(text, x, y, x1?)` gives the words of `text` from x on the line whose top is
 * y, and when x1 is given, justified to end there (its spaces stretched alike, as pdfTeX sets them).
 */
export function typeset({ size, char = 0.5 * size, space = 0.3 * size, bold = false }: WordType) {
  return (text: string, x: number, y: number, x1?: number): Word[] => {
    const parts = text.split(' ');
    const natural = parts.reduce((n, t) => n + char * t.length, 0) + space * (parts.length - 1);
    const gap = x1 === undefined || parts.length < 2 ? space : space + (x1 - x - natural) / (parts.length - 1);
    let cx = x;
    return parts.map((t) => {
      const w: Word = { t, x0: cx, x1: cx + char * t.length, y0: y, y1: y + size, size, bold, italic: false };
      cx = w.x1 + gap;
      return w;
    });
  };
}
