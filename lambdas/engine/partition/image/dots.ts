// Filled dots and squares of a page image: a list's bullets as a scanner or a rendering leaves them.
// OCR drops a bullet, or reads it as a letter or a sign ("e", "«", "+"), so a scanned list came out as
// one paragraph; the dots found here are matched to the lines' first words by ocr/layout.ts and become
// the same marks a born-digital PDF's drawn bullets are (pdf/bullets.ts).
// A dot is a blob of ink (8-connected dark pixels) about as wide as high and mostly filled: a letter's
// bowl ("o", "e") is hollow, a stem ("l", "i") is long, a period is smaller than any bullet (sizes are
// judged against the text beside a dot, where it is matched). Work is bounded: one labelling pass over
// at most MAX_DOT_PIXELS pixels (a larger image is scanned scaled down: a page at 200 dpi is not; a
// bullet stays a few pixels wide at half that), and a page with more than MAX_BLOBS blobs (a photo, a
// halftone) gives none.
import type { Box } from '../pdf/page-text';
import { resizeGray } from './bitmap';

/** Pixels scanned at most (a Letter page at 200 dpi is 3.7 million). */
export const MAX_DOT_PIXELS = 4_000_000;
/** Blobs looked at per page, at most. */
export const MAX_BLOBS = 100_000;
/** A pixel darker than this is ink. */
const INK = 140;
/** Share of its box a dot's ink fills at least (a disc fills π/4 of it, a square all). */
const MIN_FILL = 0.7;
/** A dot's sides differ by at most this factor. */
const MAX_ASPECT = 1.5;

/** Filled dots of a gray page, in its pixels: boxes at least 3 pixels and at most a 40th of the page's shorter side across. */
export function filledDots(gray: Uint8Array, width: number, height: number): Box[] {
  const k = Math.min(1, Math.sqrt(MAX_DOT_PIXELS / (width * height)));
  const w = Math.max(1, Math.round(width * k)), h = Math.max(1, Math.round(height * k));
  const g = k < 1 ? resizeGray(gray, width, height, w, h) : gray;
  const maxSide = Math.max(4, Math.min(w, h) / 40);
  // two-pass labelling with union-find over the runs' labels (8-connected)
  const label = new Int32Array(w * h);
  const parent: number[] = [0];
  const find = (a: number): number => { while (parent[a] !== a) { parent[a] = parent[parent[a]!]!; a = parent[a]!; } return a; };
  const join = (a: number, b: number) => { const ra = find(a), rb = find(b); if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb); };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (g[row + x]! >= INK) continue;
      const left = x > 0 ? label[row + x - 1]! : 0;
      let up = 0;
      if (y > 0) for (let dx = -1; dx <= 1; dx++) { const ux = x + dx; if (ux >= 0 && ux < w && label[row - w + ux]) { const l = label[row - w + ux]!; if (up && up !== l) join(up, l); up = l; } }
      let l = left || up;
      if (left && up && left !== up) join(left, up);
      if (!l) {
        if (parent.length > MAX_BLOBS) return [];
        l = parent.length;
        parent.push(l);
      }
      label[row + x] = l;
    }
  }
  // each blob's box and ink
  const n = parent.length;
  const x0 = new Int32Array(n).fill(w), y0 = new Int32Array(n).fill(h), x1 = new Int32Array(n).fill(-1), y1 = new Int32Array(n).fill(-1), ink = new Int32Array(n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const l = label[y * w + x]!;
      if (!l) continue;
      const r = find(l);
      ink[r]!++;
      if (x < x0[r]!) x0[r] = x;
      if (x > x1[r]!) x1[r] = x;
      if (y < y0[r]!) y0[r] = y;
      if (y > y1[r]!) y1[r] = y;
    }
  }
  const out: Box[] = [];
  for (let r = 1; r < n; r++) {
    if (parent[r] !== r) continue;
    const bw = x1[r]! - x0[r]! + 1, bh = y1[r]! - y0[r]! + 1;
    if (bw < 3 || bh < 3 || bw > maxSide || bh > maxSide || bw > MAX_ASPECT * bh || bh > MAX_ASPECT * bw) continue;
    if (ink[r]! < MIN_FILL * bw * bh) continue;
    out.push({ x0: x0[r]! / k, y0: y0[r]! / k, x1: (x1[r]! + 1) / k, y1: (y1[r]! + 1) / k });
  }
  return out;
}
