// Ruling lines of a scanned page or an image, from its pixels: the page is binarized (Otsu), every
// row is scanned for long runs of dark pixels (small breaks of a scanned line bridged), runs on
// neighbouring rows that overlap are one stroke, and a stroke that stays thin is a rule. Columns are
// scanned the same way on the transposed bitmap. Text never makes such runs (letters leave gaps),
// filled areas and photos make thick strokes and are dropped. The rules feed the same grid builder
// as the lines drawn in a born-digital PDF (pdf/tables/grid.ts).
// Work is bounded: one pass per direction over the pixels, and a page with more than MAX_RUNS long
// runs (a halftone photo, a hatched chart) or MAX_SEGMENTS strokes is skipped with a warning.
import { MAX_SEGMENTS, type HRule, type Rules, type VRule } from '../pdf/tables/paths';
import { deflateSync } from 'node:zlib';
import { rgbaToPng, toGray } from './bitmap';

/** Long dark runs looked at per page, at most (per direction). */
export const MAX_RUNS = 200_000;

export interface RuleScanOptions {
  /** Shortest rule, pixels. */
  minLength: number;
  /** Thickest rule, pixels: thicker strokes are filled areas. */
  maxThickness: number;
  /** Light pixels bridged inside a run (a scanned line is rarely unbroken). */
  maxGap?: number;
}

/** Otsu's threshold of a gray image, clamped so a blank or a dark page still separates ink from paper. */
export function otsuThreshold(gray: Uint8Array): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < gray.length; i++) hist[gray[i]!]++;
  const total = gray.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * hist[v]!;
  let wB = 0, sumB = 0, best = 0, bestT = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB, mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) { best = between; bestT = t; }
  }
  return Math.min(200, Math.max(60, bestT));
}

interface Stroke { x0: number; x1: number; y0: number; y1: number; lastRow: number }

/**
 * Thin strokes along rows of a 0/1 bitmap (w × h, row-major): [along0, along1, across-mid] per stroke,
 * or undefined when the page holds more long runs than MAX_RUNS.
 */
/** A thin stroke along one axis: from a0 to a1 (inclusive), across from c0 to c1 (inclusive). */
export interface RuleStroke { a0: number; a1: number; c0: number; c1: number }

function rowStrokes(bin: Uint8Array, w: number, h: number, o: RuleScanOptions): RuleStroke[] | undefined {
  const gap = o.maxGap ?? 2;
  const out: RuleStroke[] = [];
  let open: Stroke[] = [];
  let runs = 0;
  const close = (s: Stroke) => {
    if (s.y1 - s.y0 + 1 <= o.maxThickness) out.push({ a0: s.x0, a1: s.x1, c0: s.y0, c1: s.y1 });
  };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const next: Stroke[] = [];
    let x = 0;
    while (x < w) {
      if (!bin[row + x]) { x++; continue; }
      const start = x;
      let end = x, light = 0;
      for (x++; x < w; x++) {
        if (bin[row + x]) { end = x; light = 0; } else if (++light > gap) break;
      }
      if (end - start + 1 < o.minLength) continue;
      if (++runs > MAX_RUNS) return undefined;
      // The stroke of the previous row this run continues (they overlap), else a new one.
      const s = open.find((t) => t.lastRow === y - 1 && t.x0 <= end && t.x1 >= start);
      if (s) {
        s.x0 = Math.min(s.x0, start); s.x1 = Math.max(s.x1, end); s.y1 = y; s.lastRow = y;
        if (!next.includes(s)) next.push(s);
      } else next.push({ x0: start, x1: end, y0: y, y1: y, lastRow: y });
    }
    for (const s of open) if (s.lastRow !== y) close(s);
    open = next;
    if (open.length > MAX_SEGMENTS) return undefined;
  }
  for (const s of open) close(s);
  return out;
}

export interface RuleStrokes { h: RuleStroke[]; v: RuleStroke[]; warning?: string }

/** Thin horizontal and vertical strokes of a gray image (pixel coordinates, top-left origin). */
export function detectStrokes(gray: Uint8Array, width: number, height: number, o: RuleScanOptions): RuleStrokes {
  const t = otsuThreshold(gray);
  const bin = new Uint8Array(width * height);
  for (let i = 0; i < bin.length; i++) bin[i] = gray[i]! < t ? 1 : 0;
  const hs = rowStrokes(bin, width, height, o);
  let vs: RuleStroke[] | undefined;
  if (hs) {
    const tr = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) tr[x * height + y] = bin[y * width + x]!;
    vs = rowStrokes(tr, height, width, o);
  }
  if (!hs || !vs || hs.length + vs.length > MAX_SEGMENTS) {
    return { h: [], v: [], warning: 'too many long strokes in the image (a photo or a chart?): ruled tables not looked for' };
  }
  return { h: hs, v: vs };
}

export const toRules = (s: RuleStrokes): Rules => ({
  h: s.h.map((r): HRule => ({ y: (r.c0 + r.c1) / 2, x0: r.a0, x1: r.a1 + 1 })),
  v: s.v.map((r): VRule => ({ x: (r.c0 + r.c1) / 2, y0: r.a0, y1: r.a1 + 1 })),
  ...(s.warning ? { warning: s.warning } : {}),
});

/** Horizontal and vertical rules of a gray image (pixel coordinates, top-left origin). */
export function detectRules(gray: Uint8Array, width: number, height: number, o: RuleScanOptions): Rules {
  return toRules(detectStrokes(gray, width, height, o));
}

/**
 * The strokes that cross a stroke of the other direction (within tol): a table's lines, as opposed to
 * an underline or a long glyph stroke on its own.
 */
export function crossingStrokes(s: RuleStrokes, tol: number): RuleStrokes {
  if (s.h.length * s.v.length > 4_000_000) return { h: [], v: [] };
  const hk = new Uint8Array(s.h.length), vk = new Uint8Array(s.v.length);
  s.h.forEach((h, i) => s.v.forEach((v, j) => {
    if (v.c0 - tol <= h.a1 && v.c1 + tol >= h.a0 && h.c0 - tol <= v.a1 && h.c1 + tol >= v.a0) { hk[i] = 1; vk[j] = 1; }
  }));
  return { h: s.h.filter((_, i) => hk[i]), v: s.v.filter((_, j) => vk[j]) };
}

export interface TableLines {
  /** Every thin stroke as a rule (pixel units, with the grid tolerance for this image). */
  rules: Rules;
  /** The pixels (RGBA) with the table lines painted white, when there were any: OCR reads cells better without them. */
  cleaned?: Uint8Array;
}

/**
 * Table lines of a page image, scaled to its size (a page is ~40 rule-lengths across: longer than any
 * glyph stroke of its body text, shorter than a table's row or column).
 */
export function tableLines(rgba: Uint8Array, width: number, height: number): TableLines {
  const side = Math.min(width, height);
  const tol = Math.max(2, side / 300);
  const strokes = detectStrokes(toGray(rgba, width, height), width, height, {
    minLength: Math.max(12, side / 40), maxThickness: Math.max(3, side / 200), maxGap: Math.max(1, Math.round(side / 800)),
  });
  const rules: Rules = { ...toRules(strokes), tol };
  const grid = crossingStrokes(strokes, tol);
  if (!grid.h.length) return { rules };
  const out = rgba.slice();
  const pad = Math.max(1, Math.round(side / 600));
  const paint = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = Math.max(0, y0); y <= Math.min(height - 1, y1); y++) out.fill(255, (y * width + Math.max(0, x0)) * 4, (y * width + Math.min(width - 1, x1) + 1) * 4);
  };
  for (const s of grid.h) paint(s.a0, s.a1, s.c0 - pad, s.c1 + pad);
  for (const s of grid.v) paint(s.c0 - pad, s.c1 + pad, s.a0, s.a1);
  return { rules, cleaned: out };
}

/** The PNG OCR should read (the page with its table lines painted out, else `png` itself) and the rules. */
export function ocrInputWithLines(rgba: Uint8Array, width: number, height: number, png: Uint8Array): { png: Uint8Array; rules: Rules; cleaned?: Uint8Array } {
  const lines = tableLines(rgba, width, height);
  if (!lines.cleaned) return { png, rules: lines.rules };
  return { png: rgbaToPng(lines.cleaned, width, height, (b) => deflateSync(b, { level: 1 })), rules: lines.rules, cleaned: lines.cleaned };
}
