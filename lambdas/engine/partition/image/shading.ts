// Shaded table rows and header bands, flattened for OCR: the paper's brightness is estimated by a
// grayscale closing (a running maximum, then a running minimum, over a window wider than any text
// stroke: strokes and thin lines vanish, grey fills and their edges stay), and each pixel is divided
// by it, so grey fill becomes white and the text on it stays dark. Tesseract's global threshold
// otherwise splits a page of white, grey and black at the grey: a grey row turns black with its text,
// or the text of the white rows breaks up. Dark fills (below MIN_PAPER: white-on-black headers) are
// left as they are. Linear work: van Herk / Gil-Werman running extrema, four passes over the box.

/** Darkest background that is divided out (darker fills are inverted text, left alone). */
const MIN_PAPER = 96;
/** Lightest gray counted as shading (paper is lighter). */
const MAX_SHADE = 235;
/** Share of a box's background that must be shading before it is flattened. */
const MIN_SHADED = 0.02;

/**
 * Running max (or min: computed as the max of inverted values) over the window i-r .. i+r (clipped)
 * of n values at stride `step` from `off`, in place. g holds the extreme from the start of each
 * (2r+1)-block to i, h from i to the end of its block: any window is the tail of one block and the
 * head of the next.
 */
function running(a: Uint8Array, off: number, n: number, step: number, r: number, inv: number, g: Uint8Array, h: Uint8Array, src: Uint8Array): void {
  const k = 2 * r + 1;
  for (let i = 0, o = off; i < n; i++, o += step) src[i] = a[o]! ^ inv;
  for (let i = 0; i < n; i++) { const v = src[i]!; g[i] = i % k === 0 || g[i - 1]! < v ? v : g[i - 1]!; }
  for (let i = n - 1; i >= 0; i--) { const v = src[i]!; h[i] = i % k === k - 1 || i === n - 1 || h[i + 1]! < v ? v : h[i + 1]!; }
  const lastBlock = n - 1 - ((n - 1) % k);
  for (let i = 0, o = off; i < n; i++, o += step) {
    const lo = i - r, hi = i + r;
    let v: number;
    if (hi >= n - 1) {
      // the window runs to the end: h[lo] reaches the end of lo's block, g[n-1] covers the last block
      const l = lo < 0 ? 0 : lo;
      v = l >= lastBlock ? h[l]! : Math.max(h[l]!, g[n - 1]!);
    } else if (lo <= 0) v = g[hi]!; // hi < k: inside the first block
    else v = Math.max(h[lo]!, g[hi]!);
    a[o] = v ^ inv;
  }
}

/** Grayscale closing of a w × h gray image with a (2r+1)² square. */
export function closing(gray: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const out = gray.slice();
  const n = Math.max(w, h);
  const g = new Uint8Array(n), hh = new Uint8Array(n), src = new Uint8Array(n);
  for (const inv of [0, 255]) {
    for (let y = 0; y < h; y++) running(out, y * w, w, 1, r, inv, g, hh, src);
    for (let x = 0; x < w; x++) running(out, x, h, w, r, inv, g, hh, src);
  }
  return out;
}

/**
 * Flattens shading inside box [x0, x1) × [y0, y1) of an RGBA image (in place, as gray), when grey
 * fill covers a noticeable share of it. `r`: closing radius, wider than the thickest text stroke.
 * True when it changed the image.
 */
export function flattenShading(rgba: Uint8Array, width: number, box: { x0: number; y0: number; x1: number; y1: number }, r: number): boolean {
  const w = box.x1 - box.x0, h = box.y1 - box.y0;
  if (w <= 2 * r || h <= 2 * r) return false;
  const gray = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = ((box.y0 + y) * width + box.x0 + x) * 4;
      gray[y * w + x] = (rgba[o]! * 77 + rgba[o + 1]! * 150 + rgba[o + 2]! * 29) >> 8;
    }
  }
  const bg = closing(gray, w, h, r);
  let shaded = 0;
  for (const v of bg) if (v >= MIN_PAPER && v <= MAX_SHADE) shaded++;
  if (shaded < MIN_SHADED * bg.length) return false;
  for (let i = 0; i < gray.length; i++) {
    const b = bg[i]!;
    if (b < MIN_PAPER) continue;
    const v = Math.min(255, Math.round((gray[i]! * 255) / b));
    const o = ((box.y0 + Math.floor(i / w)) * width + box.x0 + (i % w)) * 4;
    rgba[o] = rgba[o + 1] = rgba[o + 2] = v;
  }
  return true;
}
