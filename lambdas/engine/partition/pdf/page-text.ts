// The text layer of a PDF page as the extractor (extract.ts) reads it and the layout, column, table and
// OCR code consume it: words, segments, lines, links and image boxes in page coordinates. Types only.
import type { Rules } from './tables/paths';

export interface Box { x0: number; y0: number; x1: number; y1: number }

export interface Word extends Box {
  t: string;
  size: number;
  bold: boolean;
  italic: boolean;
  rotated?: boolean;
  /** Follows the previous word without a space (letter-spaced CJK text). */
  glue?: boolean;
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
