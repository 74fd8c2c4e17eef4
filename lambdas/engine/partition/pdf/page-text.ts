// The text layer of a PDF page as the extractor (extract.ts) reads it and the layout, column, table and
// OCR code consume it: words, segments, lines, links and image boxes in page coordinates, and the drawn
// rules, marks and shapes (tables/paths.ts) in the same coordinates. Types only.

export interface Box { x0: number; y0: number; x1: number; y1: number }

export interface Word extends Box {
  t: string;
  size: number;
  bold: boolean;
  italic: boolean;
  rotated?: boolean;
  /** Follows the previous word without a space (letter-spaced CJK text). */
  glue?: boolean;
  /** Set in a monospaced (fixed-pitch) font: a code listing's or a terminal's text. */
  mono?: boolean;
  /** A column of vertical CJK writing, read top to bottom (also `rotated`: kept out of lines). */
  vertical?: boolean;
}

/** A run of words on one line without a wide gap. */
export interface Segment extends Box {
  words: Word[];
  text: string;
  size: number;
  /** The line reads right to left (its words are in that order, bidi.ts). */
  rtl?: boolean;
}

export interface Line extends Box {
  segs: Segment[];
}

export interface PageLink extends Box { url: string }

export interface RawPage {
  /** 1-based page number in the document. */
  page: number;
  width: number;
  height: number;
  lines: Line[];
  links: PageLink[];
  images: Box[];
  /** Characters in the text layer, and how many had no Unicode mapping (garbage text). */
  chars: number;
  unmapped: number;
  /** Drawn horizontal and vertical rules (table lines), when asked for. */
  rules?: Rules;
  /** Problems met on the page (e.g. too many drawn lines to look for ruled tables). */
  warnings?: string[];
}

/** A horizontal rule: y, from x0 to x1 (frame coordinates); a vertical one: x, from y0 to y1. */
export interface HRule { y: number; x0: number; x1: number }
export interface VRule { x: number; y0: number; y1: number }
/**
 * A small shape a list bullet or a form's box is drawn as (frame coordinates): a filled dot or square
 * ('disc'), a stroked circle ('circle'), a stroked square ('box').
 */
export interface Mark { x0: number; y0: number; x1: number; y1: number; kind: 'disc' | 'circle' | 'box' }
export interface Rules {
  h: HRule[];
  v: VRule[];
  /** Small filled dots and squares (list bullets drawn as shapes, not text). */
  marks?: Mark[];
  /**
   * Drawn shapes that are neither rules nor marks (frame coordinates): filled areas (a chart's bars, a
   * diagram's boxes), curves and slanted strokes (a plot's lines, arrows); figures.ts groups them.
   */
  art?: Art[];
  warning?: string;
  /** Distance within which lines are one line, in the page's units (grid.ts's TOL, in points, when absent). */
  tol?: number;
}

/** A drawn shape's box; `filled` for a filled area (else a stroked curve or slanted line); `picture` for a raster image (figures.ts). */
export interface Art extends Box { filled?: boolean; picture?: boolean }
