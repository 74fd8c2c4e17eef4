// Ruling lines of a scanned page or an image, from its pixels: a pixel darker than the paper on both
// sides of it, just beyond a line's greatest thickness, is line ink (a ridge); every row is scanned for
// long runs of it (small breaks of a scanned line bridged), runs on neighbouring rows that overlap are
// one stroke, and a stroke that stays thin is a rule. Columns are scanned the same way on the
// transposed ridges. Text never makes such runs (letters leave gaps); shaded bands, filled areas and
// photos make no ridges inside them. The rules feed the same grid builder as the lines drawn in a
// born-digital PDF (pdf/tables/grid.ts).
// Work is bounded: two passes over the pixels, and a page with more than MAX_RUNS long runs (a
// halftone photo, a hatched chart) or MAX_SEGMENTS strokes is skipped with a warning.
import { MAX_SEGMENTS, type HRule, type Rules, type VRule } from '../pdf/tables/paths';
import type { Box } from '../pdf/page-text';
import { deflateSync } from 'node:zlib';
import { resizeGray, rgbaToPng, toGray } from './bitmap';
import { filledDots } from './dots';
import { flattenShading } from './shading';

/** Long dark runs looked at per page, at most (per direction). */
export const MAX_RUNS = 200_000;
/** Pixels scanned for rules at most: a larger image is scanned scaled down. */
export const MAX_SCAN_PIXELS = 16_000_000;

export interface RuleScanOptions {
  /** Shortest rule, pixels. */
  minLength: number;
  /** Thickest rule, pixels: thicker strokes are filled areas. */
  maxThickness: number;
  /** Light pixels bridged inside a run (a scanned line is rarely unbroken). */
  maxGap?: number;
  /** Widest gap between the dashes (or dots) of a dashed rule; 0 or absent: solid rules only. */
  dashGap?: number;
}

/** Share of a run's pixels that are ink. */
const MIN_FILL = 0.85;
/** How much darker than the paper on both sides of it a pixel of a rule is (gray levels). */
const CONTRAST = 40;

/**
 * Ink of thin lines along one axis: a pixel with paper (lighter by CONTRAST) within d pixels on each
 * side across the axis, d just beyond a rule's greatest thickness. A light gray rule counts; the inside
 * of a shaded band, a thick bar or a filled block does not; a rule along the edge of a shaded band still
 * does. Written transposed for vertical lines, so both directions scan rows.
 */
function ridge(at: (x: number, y: number) => number, x: number, y: number, d: number, vertical: boolean): boolean {
  const light = at(x, y) + CONTRAST;
  let before = false, after = false;
  for (let k = 1; k <= d && !before; k++) before = (vertical ? at(x - k, y) : at(x, y - k)) >= light;
  for (let k = 1; k <= d && before && !after; k++) after = (vertical ? at(x + k, y) : at(x, y + k)) >= light;
  return before && after;
}

function ridges(gray: Uint8Array, w: number, h: number, d: number, vertical: boolean): Uint8Array {
  const out = new Uint8Array(w * h);
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 255 : gray[y * w + x]!);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const g = gray[y * w + x]!;
      if (g > 255 - CONTRAST) continue;
      // Where a line of the other direction crosses there is no paper nearby: that gap is bridged
      // (maxGap) or the pieces are merged later (mergeStrokes).
      if (ridge(at, x, y, d, vertical)) out[vertical ? x * h + y : y * w + x] = 1;
    }
  }
  return out;
}

/** A thin stroke along one axis: from a0 to a1 (inclusive), across from c0 to c1 (inclusive). */
export interface RuleStroke { a0: number; a1: number; c0: number; c1: number }

/** A stroke being built: its extent and, per row from y0, the pixels its runs cover. */
interface Stroke { x0: number; x1: number; y0: number; lastRow: number; cover: number[] }

/**
 * Thin strokes along rows of a 0/1 bitmap (w × h, row-major), or undefined when the page holds more
 * long runs than MAX_RUNS. A stroke's thickness is that of its core, the rows that run along most of
 * it: glyph bits touching a rule (descenders, text set close to the line) neither thicken it nor get
 * painted out with it.
 */
function rowStrokes(bin: Uint8Array, w: number, h: number, o: RuleScanOptions, dark: Dark): RuleStroke[] | undefined {
  const gap = o.maxGap ?? 2;
  const out: RuleStroke[] = [];
  let open: Stroke[] = [];
  let runs = 0;
  const close = (s: Stroke) => {
    const max = Math.max(...s.cover);
    const core = s.cover.map((c, i) => (c >= 0.5 * max ? i : -1)).filter((i) => i >= 0);
    const c0 = s.y0 + core[0]!, c1 = s.y0 + core[core.length - 1]!;
    if (c1 - c0 + 1 <= o.maxThickness) out.push({ a0: s.x0, a1: s.x1, c0, c1 });
  };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const next: Stroke[] = [];
    let x = 0;
    while (x < w) {
      if (!bin[row + x]) { x++; continue; }
      const start = x;
      let end = x, light = 0, ink = 1;
      for (x++; x < w; x++) {
        if (bin[row + x]) { end = x; light = 0; ink++; } else if (++light > gap) break;
      }
      // A rule is solid ink with rare breaks; a row through text (bars of E, L, T a few pixels
      // apart) is not. Else it may be a dashed or dotted rule: regular pieces with short gaps.
      if (end - start + 1 < o.minLength || ink < MIN_FILL * (end - start + 1)) {
        const dashed = dashedRun(bin, y, start, w, o, dark);
        if (dashed.end < 0) { x = Math.max(x, dashed.next); continue; }
        end = dashed.end; x = end + 1;
      }
      if (++runs > MAX_RUNS) return undefined;
      // The stroke of the previous row this run continues (they overlap), else a new one.
      const s = open.find((t) => t.x0 <= end && t.x1 >= start);
      if (s) {
        s.x0 = Math.min(s.x0, start); s.x1 = Math.max(s.x1, end); s.lastRow = y;
        const i = y - s.y0;
        s.cover[i] = (s.cover[i] ?? 0) + end - start + 1;
        if (!next.includes(s)) next.push(s);
      } else next.push({ x0: start, x1: end, y0: y, lastRow: y, cover: [end - start + 1] });
    }
    for (const s of open) if (s.lastRow !== y) close(s);
    open = next;
    if (open.length > MAX_SEGMENTS) return undefined;
  }
  for (const s of open) close(s);
  return out;
}

/** Fewest dashes (or dots) a dashed rule has. */
const MIN_DASHES = 5;

/**
 * A dashed or dotted rule starting at `start` on a row of the ridge bitmap: pieces of ink (1-pixel
 * breaks bridged) at most `dashGap` apart, at least MIN_DASHES of them, spanning minLength, at a
 * regular pitch and of regular length (three in four within 35% of the median; the end pieces may
 * be cut short), with paper beside it (clear()). A row through text has pieces of every length at
 * every pitch. `end` is -1 when it is not a rule; `next` is where the scan goes on (past the pieces
 * looked at, so each pixel is looked at once, but not past a long piece: that may be a solid rule).
 */
function dashedRun(bin: Uint8Array, y: number, start: number, w: number, o: RuleScanOptions, dark: Dark): { end: number; next: number } {
  const maxGap = o.dashGap ?? 0;
  const row = y * w;
  const starts: number[] = [], lengths: number[] = [];
  let x = start, end = start, ink = 0;
  while (x < w && bin[row + x]) {
    let e = x;
    for (let n = x + 1; n < w && (bin[row + n] || (n - e <= 1 && n + 1 < w && bin[row + n + 1])); n++) if (bin[row + n]) e = n;
    // A piece as long as a rule is no dash: the chain ends before it and the scan goes on from it.
    if (starts.length && e - x + 1 >= o.minLength) break;
    starts.push(x);
    lengths.push(e - x + 1);
    ink += e - x + 1;
    end = e;
    x = e + 1;
    while (x < w && x - e - 1 < maxGap && !bin[row + x]) x++;
  }
  const next = end + 1;
  if (starts.length < MIN_DASHES || end - start + 1 < o.minLength || ink > MIN_FILL * (end - start + 1)) return { end: -1, next };
  const regular = (vs: number[]) => {
    const m = [...vs].sort((a, b) => a - b)[vs.length >> 1]!;
    return vs.filter((d) => d >= 0.65 * m && d <= 1.35 * m).length >= 0.75 * vs.length;
  };
  const ok = regular(starts.slice(1).map((s, i) => s - starts[i]!)) && regular(lengths.slice(1, -1)) && clear(y, start, end, starts, lengths, o, dark);
  return ok ? { end, next } : { end: -1, next };
}

/** Ink (dark) pixel at a along a scan row, c across (the row index): transposed for vertical lines. */
type Dark = (a: number, c: number) => boolean;
/** Gray level below which a pixel is ink, for the corridor beside a dashed rule. */
const DARK = 110;

/**
 * Paper on both sides of a dashed rule: beyond the line's own thickness (the rows its dashes' middles
 * stay dark), a corridor as wide as the thickest rule holds at most 5% ink. A pixel row through text
 * (the bars of e, t, f) or a pixel column through a column of figures (their stems, one a row, at a
 * row's pitch) has letters right beside it.
 */
function clear(y: number, start: number, end: number, starts: number[], lengths: number[], o: RuleScanOptions, dark: Dark): boolean {
  const mids = starts.map((s, i) => s + (lengths[i]! >> 1));
  const t = Math.ceil(o.maxThickness);
  for (const dir of [-1, 1]) {
    let k = 1;
    while (k <= t && mids.filter((m) => dark(m, y + dir * k)).length * 2 >= mids.length) k++;
    let ink = 0;
    for (let j = k; j < k + t; j++) for (let a = start; a <= end; a++) if (dark(a, y + dir * j)) ink++;
    if (ink > 0.05 * t * (end - start + 1)) return false;
  }
  return true;
}

export interface RuleStrokes { h: RuleStroke[]; v: RuleStroke[]; warning?: string }

/** Thin horizontal and vertical strokes of a gray image (pixel coordinates, top-left origin). */
export function detectStrokes(gray: Uint8Array, width: number, height: number, o: RuleScanOptions): RuleStrokes {
  const d = Math.ceil(o.maxThickness) + 1;
  const ink = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && gray[y * width + x]! < DARK;
  const hs = rowStrokes(ridges(gray, width, height, d, false), width, height, o, ink);
  const vs = hs && rowStrokes(ridges(gray, width, height, d, true), height, width, o, (a, c) => ink(c, a));
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

/** Collinear strokes (centres within tol) that overlap or nearly touch (gaps up to 1.5 × tol) as one. */
export function mergeStrokes(strokes: RuleStroke[], tol: number): RuleStroke[] {
  const sorted = [...strokes].sort((a, b) => a.c0 + a.c1 - b.c0 - b.c1 || a.a0 - b.a0);
  const bands: RuleStroke[][] = [];
  for (const s of sorted) {
    const band = bands[bands.length - 1];
    if (band && Math.abs((s.c0 + s.c1) / 2 - (band[0]!.c0 + band[0]!.c1) / 2) <= tol) band.push(s);
    else bands.push([s]);
  }
  const out: RuleStroke[] = [];
  for (const band of bands) {
    band.sort((a, b) => a.a0 - b.a0);
    let cur: RuleStroke | undefined;
    for (const s of band) {
      if (cur && s.a0 <= cur.a1 + 1.5 * tol) { cur.a1 = Math.max(cur.a1, s.a1); cur.c0 = Math.min(cur.c0, s.c0); cur.c1 = Math.max(cur.c1, s.c1); }
      else { if (cur) out.push(cur); cur = { ...s }; }
    }
    if (cur) out.push(cur);
  }
  return out;
}

/**
 * A table's lines: merged strokes that cross at least two strokes of the other direction (within tol)
 * - a rule between two columns, a column line between two rules. An underline, a long glyph stroke
 * or a run of small text touching one cell border does not.
 */
export function crossingStrokes(s: RuleStrokes, tol: number): RuleStrokes {
  const h = mergeStrokes(s.h, tol), v = mergeStrokes(s.v, tol);
  if (h.length * v.length > 4_000_000) return { h: [], v: [] };
  const hk = new Uint16Array(h.length), vk = new Uint16Array(v.length);
  h.forEach((a, i) => v.forEach((b, j) => {
    if (b.c0 - tol <= a.a1 && b.c1 + tol >= a.a0 && a.c0 - tol <= b.a1 && a.c1 + tol >= b.a0) { hk[i]++; vk[j]++; }
  }));
  return { h: h.filter((_, i) => hk[i]! >= 2), v: v.filter((_, j) => vk[j]! >= 2) };
}

export interface TableLines {
  /** The table lines as rules (pixel units, with the grid tolerance for this image). */
  rules: Rules;
  /** The pixels (RGBA) with the table lines painted white, when there were any: OCR reads cells better without them. */
  cleaned?: Uint8Array;
}

/**
 * Table lines of a page image, scaled to its size (a page is ~40 rule-lengths across: longer than any
 * glyph stroke of its body text, shorter than a table's row or column).
 */
export function tableLines(rgba: Uint8Array, width: number, height: number, gray = toGray(rgba, width, height)): TableLines {
  // Big images are scanned at most MAX_SCAN_PIXELS large (bounded time); strokes are scaled back.
  const k = Math.min(1, Math.sqrt(MAX_SCAN_PIXELS / (width * height)));
  const sw = Math.max(1, Math.round(width * k)), sh = Math.max(1, Math.round(height * k));
  const side = Math.min(sw, sh);
  const scanned = detectStrokes(k < 1 ? resizeGray(gray, width, height, sw, sh) : gray, sw, sh, {
    minLength: Math.max(12, side / 40), maxThickness: Math.max(3, side / 200), maxGap: Math.max(2, Math.round(side / 500)),
    dashGap: Math.max(4, Math.round(side / 80)),
  });
  const up = (r: RuleStroke): RuleStroke => ({ a0: Math.floor(r.a0 / k), a1: Math.ceil((r.a1 + 1) / k) - 1, c0: Math.floor(r.c0 / k), c1: Math.ceil((r.c1 + 1) / k) - 1 });
  const strokes = k < 1 ? { ...scanned, h: scanned.h.map(up), v: scanned.v.map(up) } : scanned;
  const tol = Math.max(2, side / 300) / k;
  const grid = crossingStrokes(strokes, tol);
  const rules: Rules = { ...toRules({ ...grid, ...(strokes.warning ? { warning: strokes.warning } : {}) }), tol };
  if (!grid.h.length) return { rules };
  const out = rgba.slice();
  const pad = Math.max(1, Math.round(side / 600 / k));
  // A line is painted in the paper beside it (the lighter side; the median of seven samples over
  // three line widths either way, so a crossing line or a glyph touching it does not darken it), so a rule along a shaded row
  // leaves the shading whole and a column rule crossing shaded and white rows takes the shade of each.
  const g = (x: number, y: number) => gray[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  const paint = (s: RuleStroke, vertical: boolean) => {
    const n = s.a1 - s.a0 + 1;
    const beside = Array.from({ length: n }, (_, i) => vertical
      ? Math.max(g(s.c0 - pad - 1, s.a0 + i), g(s.c1 + pad + 1, s.a0 + i))
      : Math.max(g(s.a0 + i, s.c0 - pad - 1), g(s.a0 + i, s.c1 + pad + 1)));
    const reach = 3 * (Math.ceil(Math.max(3, side / 200) / k) + 2 * pad);
    const near = new Uint8Array(7);
    for (let i = 0; i < n; i++) {
      // The median of up to seven samples (those on the line: clamping would weigh its ends, where
      // the crossing rule is, several times).
      let m = 0;
      for (let j = -3; j <= 3; j++) { const at = i + Math.round((j * reach) / 3); if (at >= 0 && at < n) near[m++] = beside[at]!; }
      const v = near.subarray(0, m).sort()[m >> 1]!;
      for (let c = s.c0 - pad; c <= s.c1 + pad; c++) {
        const x = vertical ? c : s.a0 + i, y = vertical ? s.a0 + i : c;
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const o = (y * width + x) * 4;
        out[o] = out[o + 1] = out[o + 2] = v; out[o + 3] = 255;
      }
    }
  };
  for (const s of grid.h) paint(s, false);
  for (const s of grid.v) paint(s, true);
  // Grey-filled rows and bands of the tables flattened to white for OCR (image/shading.ts).
  const x0 = Math.max(0, Math.min(...grid.h.map((s) => s.a0), ...grid.v.map((s) => s.c0)));
  const x1 = Math.min(width, Math.max(...grid.h.map((s) => s.a1), ...grid.v.map((s) => s.c1)) + 1);
  const y0 = Math.max(0, Math.min(...grid.v.map((s) => s.a0), ...grid.h.map((s) => s.c0)));
  const y1 = Math.min(height, Math.max(...grid.v.map((s) => s.a1), ...grid.h.map((s) => s.c1)) + 1);
  flattenShading(out, width, { x0, y0, x1, y1 }, Math.max(3, Math.round(side / 400 / k)));
  return { rules, cleaned: out };
}

/**
 * The PNG OCR should read (the page with its table lines painted out, else `png` itself), the rules,
 * and the page's filled dots (image/dots.ts: list bullets OCR drops). `gray`: the page's gray pixels, when
 * the caller has them already.
 */
export function ocrInputWithLines(rgba: Uint8Array, width: number, height: number, png: Uint8Array, gray = toGray(rgba, width, height)): { png: Uint8Array; rules: Rules; cleaned?: Uint8Array; dots: Box[] } {
  const lines = tableLines(rgba, width, height, gray);
  const dots = filledDots(gray, width, height);
  if (!lines.cleaned) return { png, rules: lines.rules, dots };
  return { png: rgbaToPng(lines.cleaned, width, height, (b) => deflateSync(b, { level: 1 })), rules: lines.rules, cleaned: lines.cleaned, dots };
}
