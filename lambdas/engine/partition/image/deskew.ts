// Skewed scans straightened before rules and OCR: a page fed a few degrees askew has its rules split
// into short steps (no long run on any pixel row) and its table rows drifting across the word boxes,
// so rows and columns mix. The skew is the angle whose sheared projection of the ink is sharpest
// (text baselines and ruling lines all run at it): ink pixels are projected onto the vertical axis
// along each candidate angle and the sum of squared bin counts is largest where lines line up.
// The page is then rotated back (bilinear, paper-white outside) and OCR'd straight; element
// coordinates are mapped back onto the uploaded image (their points then form a rotated box).
// Bounded: at most MAX_SAMPLES ink pixels × the candidate angles, one rotation of the page, and pages
// over MAX_DESKEW_PIXELS are not straightened.
import type { Element } from '../../elements';

/** Largest skew looked for, degrees either way. */
export const MAX_SKEW = 5;
/** Smallest skew corrected, degrees: below it rows stay apart anyway. */
const MIN_SKEW = 0.3;
/** Ink pixels projected per angle, at most (a sample of the page's ink). */
const MAX_SAMPLES = 150_000;
/** Pages larger than this (pixels) are not straightened (one more copy of the page in memory). */
export const MAX_DESKEW_PIXELS = 16_000_000;
/** How much sharper than the unrotated projection the best one must be. */
const MIN_GAIN = 1.1;

/** Sharpness (sum of squared bin counts) of the ink projected along `deg` (2-pixel bins). */
function sharpness(xs: Int32Array, ys: Int32Array, n: number, deg: number, w: number, h: number): number {
  const t = Math.tan((deg * Math.PI) / 180);
  const off = Math.ceil(Math.abs(t) * w) + 1;
  const bins = new Int32Array(((h + 2 * off) >> 1) + 2);
  for (let i = 0; i < n; i++) bins[(ys[i]! - xs[i]! * t + off) >> 1]!++;
  let s = 0;
  for (const c of bins) s += c * c;
  return s;
}

/**
 * The page's skew in degrees (clockwise: a line running down to the right), 0 when it is straight
 * or there is too little ink to tell.
 */
export function estimateSkew(gray: Uint8Array, w: number, h: number): number {
  let ink = 0;
  for (let i = 0; i < gray.length; i++) if (gray[i]! < 128) ink++;
  if (ink < 500) return 0;
  const step = Math.max(1, Math.ceil(ink / MAX_SAMPLES));
  const xs = new Int32Array(Math.ceil(ink / step)), ys = new Int32Array(xs.length);
  let n = 0, k = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (gray[y * w + x]! < 128 && k++ % step === 0) { xs[n] = x; ys[n++] = y; }
  const at = (deg: number) => sharpness(xs, ys, n, deg, w, h);
  let best = 0, bestS = at(0);
  const flat = bestS;
  for (let d = -MAX_SKEW; d <= MAX_SKEW + 1e-9; d += 0.1) { const s = at(d); if (s > bestS) { bestS = s; best = d; } }
  const coarse = best;
  for (let d = coarse - 0.1; d <= coarse + 0.1 + 1e-9; d += 0.02) { const s = at(d); if (s > bestS) { bestS = s; best = d; } }
  return Math.abs(best) >= MIN_SKEW && bestS >= MIN_GAIN * flat ? Math.round(best * 100) / 100 : 0;
}

/** Where pixel (x, y) of an image rotated clockwise by `deg` about its centre comes from. */
function source(x: number, y: number, w: number, h: number, deg: number): [number, number] {
  const a = (deg * Math.PI) / 180, cos = Math.cos(a), sin = Math.sin(a);
  const dx = x - w / 2, dy = y - h / 2;
  return [cos * dx + sin * dy + w / 2, -sin * dx + cos * dy + h / 2];
}

/** RGBA rotated clockwise by `deg` about the centre, same size, bilinear, white where nothing maps. */
export function rotateRgba(src: Uint8Array, w: number, h: number, deg: number): Uint8Array {
  const out = new Uint8Array(src.length).fill(255);
  const px = (x: number, y: number, c: number) => (x < 0 || y < 0 || x >= w || y >= h ? 255 : src[(y * w + x) * 4 + c]!);
  // source()'s mapping, its angle's cosine and sine taken once for the page rather than per pixel
  const a = (deg * Math.PI) / 180, cos = Math.cos(a), sin = Math.sin(a);
  for (let y = 0; y < h; y++) {
    const dy = y - h / 2;
    for (let x = 0; x < w; x++) {
      const dx = x - w / 2;
      const sx = cos * dx + sin * dy + w / 2, sy = -sin * dx + cos * dy + h / 2;
      const x0 = Math.floor(sx), y0 = Math.floor(sy), fx = sx - x0, fy = sy - y0;
      const o = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) {
        out[o + c] = Math.round((1 - fy) * ((1 - fx) * px(x0, y0, c) + fx * px(x0 + 1, y0, c)) + fy * ((1 - fx) * px(x0, y0 + 1, c) + fx * px(x0 + 1, y0 + 1, c)));
      }
    }
  }
  return out;
}

/** The page straightened (and its skew), or undefined when it is straight or too large to rotate. */
export function deskew(rgba: Uint8Array, gray: Uint8Array, w: number, h: number): { rgba: Uint8Array; angle: number } | undefined {
  if (w * h > MAX_DESKEW_PIXELS) return undefined;
  const angle = estimateSkew(gray, w, h);
  return angle ? { rgba: rotateRgba(rgba, w, h, -angle), angle } : undefined;
}

/** Element coordinates of the straightened page mapped back onto the page as uploaded (skew `angle`). */
export function unskewCoordinates(els: Element[], w: number, h: number, angle: number): void {
  for (const el of els) {
    const c = el.metadata.coordinates;
    if (c) c.points = c.points.map(([x, y]) => source(x, y, w, h, -angle).map((v) => Math.round(v * 100) / 100) as [number, number]);
  }
}
