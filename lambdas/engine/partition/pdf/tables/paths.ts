// Drawn table lines from a page's vector graphics, read through PDFium: stroked path segments that
// run horizontally or vertically, and thin filled rectangles (many producers draw rules as filled
// bars). Curves, diagonal lines and large filled areas (cell shading, chart bars) are not rules.
// Coordinates are the page's reading frame (frame.ts). Work is bounded: a page with more than
// MAX_SEGMENTS path segments (a chart, a map) is skipped with a warning.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { PageFrame } from '../frame';
import { heap, rawExports } from '../pdfium';
import type { Art, Box, Rules } from '../page-text';

export type { Art, HRule, Mark, Rules, VRule } from '../page-text';

export const MAX_SEGMENTS = 10_000;
/** Drawn shapes kept for figures at most, a page. */
const MAX_ART = 4000;
/** Page objects visited at most (text objects included), nested forms counted. */
const MAX_OBJECTS = 50_000;
/** A filled rectangle at most this thick (points) is a rule. */
const THIN = 3;
/** Slope tolerance: a segment is horizontal when |dy| ≤ this (points) over its length. */
const AXIS_TOL = 1;
const MIN_RULE = 2;
/** A filled dot or square this size (points, each side) can be a list bullet; at most MAX_MARKS a page. */
const MARK_MIN = 1.2, MARK_MAX = 9;
const MAX_MARKS = 2000;

const OBJ_PATH = 2, OBJ_SHADING = 4, OBJ_FORM = 5;
const SEG_LINETO = 0, SEG_BEZIERTO = 1, SEG_MOVETO = 2;

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** m1 then m2 (PDF row-vector convention: p' = p × m1 × m2). */
const concat = (m1: Matrix, m2: Matrix): Matrix => [
  m1[0] * m2[0] + m1[1] * m2[2], m1[0] * m2[1] + m1[1] * m2[3],
  m1[2] * m2[0] + m1[3] * m2[2], m1[2] * m2[1] + m1[3] * m2[3],
  m1[4] * m2[0] + m1[5] * m2[2] + m2[4], m1[4] * m2[1] + m1[5] * m2[3] + m2[5],
];
/** The point (x, y) through m (p' = p × m). */
const apply = (m: Matrix, x: number, y: number): [number, number] => [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];

/** `art`: also keep the drawn shapes figures are made of (only the output with pictures looks for figures). */
export function extractRules(m: WrappedPdfiumModule, buf: number, page: number, frame: PageFrame, art = true): Rules {
  const X = rawExports(m);
  const out: Rules = { h: [], v: [] };
  let segments = 0, objects = 0;
  let over = false;

  const matrixOf = (obj: number): Matrix => {
    if (!X.FPDFPageObj_GetMatrix(obj, buf)) return IDENTITY;
    const f = heap(m).HEAPF32, o = buf >> 2;
    return [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!, f[o + 4]!, f[o + 5]!];
  };
  const addArt = (b: Art) => { if (art && (out.art ??= []).length < MAX_ART) out.art.push(b); };
  /** Adds a rule; false when the segment is slanted (art, not a rule). */
  const addSegment = (ax: number, ay: number, bx: number, by: number): boolean => {
    const [x0, y0] = frame.map(ax, ay);
    const [x1, y1] = frame.map(bx, by);
    const dx = Math.abs(x1 - x0), dy = Math.abs(y1 - y0);
    if (dy <= AXIS_TOL && dx >= MIN_RULE) out.h.push({ y: (y0 + y1) / 2, x0: Math.min(x0, x1), x1: Math.max(x0, x1) });
    else if (dx <= AXIS_TOL && dy >= MIN_RULE) out.v.push({ x: (x0 + x1) / 2, y0: Math.min(y0, y1), y1: Math.max(y0, y1) });
    else return dx < MIN_RULE && dy < MIN_RULE;
    return true;
  };
  /** The frame box of a path's points. */
  const boxOf = (pts: number[]): Box => {
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (let i = 0; i < pts.length; i += 2) {
      const [fx, fy] = frame.map(pts[i]!, pts[i + 1]!);
      bx0 = Math.min(bx0, fx); bx1 = Math.max(bx1, fx); by0 = Math.min(by0, fy); by1 = Math.max(by1, fy);
    }
    return { x0: bx0, y0: by0, x1: bx1, y1: by1 };
  };

  const path = (obj: number, parent: Matrix) => {
    const n = X.FPDFPath_CountSegments(obj);
    if (n <= 0) return;
    segments += n;
    if (segments > MAX_SEGMENTS) { over = true; return; }
    if (!X.FPDFPath_GetDrawMode(obj, buf, buf + 4)) return;
    const fillMode = heap(m).HEAP32[buf >> 2]!, stroke = heap(m).HEAP32[(buf + 4) >> 2]!;
    if (!fillMode && !stroke) return; // clipping or invisible
    // a white (or transparent) fill paints the paper over: a background or a form's field, not art
    let paints = false;
    if (fillMode && X.FPDFPageObj_GetFillColor(obj, buf + 32, buf + 36, buf + 40, buf + 44)) {
      const c = heap(m).HEAP32, o = (buf + 32) >> 2;
      paints = c[o + 3]! > 0 && Math.min(c[o]!, c[o + 1]!, c[o + 2]!) < 240;
    }
    const mt = concat(matrixOf(obj), parent);
    const pts: number[] = [];
    const kinds: number[] = [];
    const closes: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const seg = X.FPDFPath_GetPathSegment(obj, i);
      if (!seg || !X.FPDFPathSegment_GetPoint(seg, buf, buf + 4)) continue;
      const f = heap(m).HEAPF32;
      const x = f[buf >> 2]!, y = f[(buf + 4) >> 2]!;
      pts.push(...apply(mt, x, y));
      kinds.push(X.FPDFPathSegment_GetType(seg));
      closes.push(!!X.FPDFPathSegment_GetClose(seg));
    }
    if (stroke) {
      // a small closed outline (a circle or square: a nested list's hollow bullet) is a mark
      if (kinds.length >= 4 && (closes[closes.length - 1] || kinds.includes(SEG_BEZIERTO))) {
        let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
        for (let i = 0; i < kinds.length; i++) {
          const [fx, fy] = frame.map(pts[2 * i]!, pts[2 * i + 1]!);
          bx0 = Math.min(bx0, fx); bx1 = Math.max(bx1, fx); by0 = Math.min(by0, fy); by1 = Math.max(by1, fy);
        }
        const w = bx1 - bx0, h = by1 - by0;
        if (w >= MARK_MIN && h >= MARK_MIN && w <= MARK_MAX && h <= MARK_MAX && w < 1.6 * h && h < 1.6 * w) {
          if ((out.marks ??= []).length < MAX_MARKS) out.marks.push({ x0: bx0, y0: by0, x1: bx1, y1: by1, kind: kinds.includes(SEG_BEZIERTO) ? 'circle' : 'box' });
          return;
        }
      }
      let sx = NaN, sy = NaN, px = NaN, py = NaN, slanted = false;
      for (let i = 0; i < kinds.length; i++) {
        const x = pts[2 * i]!, y = pts[2 * i + 1]!;
        if (kinds[i] === SEG_LINETO && !Number.isNaN(px)) slanted = !addSegment(px, py, x, y) || slanted;
        if (kinds[i] === SEG_MOVETO) { sx = x; sy = y; }
        px = x; py = y;
        if (closes[i] && !Number.isNaN(sx)) { slanted = !addSegment(x, y, sx, sy) || slanted; px = sx; py = sy; }
        if (kinds[i] === SEG_BEZIERTO) { /* a curve is not a rule; the pen just moves */ }
      }
      // a curve or a slanted line (a plot's line, an arrow, a pie's edge) is drawn art, and so is a
      // painted area with an outline (a bar drawn with its edge)
      if (slanted || kinds.includes(SEG_BEZIERTO)) addArt({ ...boxOf(pts), ...(paints ? { filled: true } : {}) });
      else if (paints) {
        const b = boxOf(pts);
        if (b.x1 - b.x0 > THIN && b.y1 - b.y0 > THIN) addArt({ ...b, filled: true });
      }
      return;
    }
    // Filled only: each sub-path that is a thin axis-aligned box is a rule along its long side
    // (producers often draw all of a table's lines as one path of thin bars).
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, points = 0, curved = false;
    const flush = () => {
      const w = x1 - x0, h = y1 - y0;
      const dot = points >= 3 && w >= MARK_MIN && h >= MARK_MIN && w <= MARK_MAX && h <= MARK_MAX && w < 1.6 * h && h < 1.6 * w;
      if (dot) {
        if ((out.marks ??= []).length < MAX_MARKS) out.marks.push({ x0, y0, x1, y1, kind: 'disc' });
      } else if (points >= 3 && points <= 6 && !curved && h <= THIN && w >= MIN_RULE && w > h) out.h.push({ y: (y0 + y1) / 2, x0, x1 });
      else if (points >= 3 && points <= 6 && !curved && w <= THIN && h >= MIN_RULE && h > w) out.v.push({ x: (x0 + x1) / 2, y0, y1 });
      else if (paints && points >= 3 && w > THIN && h > THIN) addArt({ x0, y0, x1, y1, filled: true }); // a filled area: a bar, a shape, a shading
      x0 = y0 = Infinity; x1 = y1 = -Infinity; points = 0; curved = false;
    };
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] === SEG_MOVETO) flush();
      if (kinds[i] === SEG_BEZIERTO) curved = true;
      const [fx, fy] = frame.map(pts[2 * i]!, pts[2 * i + 1]!);
      x0 = Math.min(x0, fx); x1 = Math.max(x1, fx); y0 = Math.min(y0, fy); y1 = Math.max(y1, fy);
      points++;
    }
    flush();
  };

  // a small shaded disc or square (a slide's list bullet drawn as a lit ball) is a mark
  const shading = (obj: number, parent: Matrix) => {
    if (!X.FPDFPageObj_GetBounds(obj, buf, buf + 4, buf + 8, buf + 12)) return;
    const f = heap(m).HEAPF32, o = buf >> 2;
    const [l, b, r, t] = [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!];
    const box = boxOf([...apply(parent, l, b), ...apply(parent, r, t)]);
    const w = box.x1 - box.x0, h = box.y1 - box.y0;
    if (w >= MARK_MIN && h >= MARK_MIN && w <= MARK_MAX && h <= MARK_MAX && w < 1.6 * h && h < 1.6 * w && (out.marks ??= []).length < MAX_MARKS) out.marks.push({ ...box, kind: 'disc' });
  };

  const walk = (obj: number, parent: Matrix, depth: number) => {
    if (over || ++objects > MAX_OBJECTS) { over = true; return; }
    const type = X.FPDFPageObj_GetType(obj);
    if (type === OBJ_PATH) path(obj, parent);
    else if (type === OBJ_SHADING) shading(obj, parent);
    else if (type === OBJ_FORM && depth < 8) {
      const mt = concat(matrixOf(obj), parent);
      const k = X.FPDFFormObj_CountObjects(obj);
      for (let i = 0; i < k && !over; i++) walk(X.FPDFFormObj_GetObject(obj, i), mt, depth + 1);
    }
  };
  const count = X.FPDFPage_CountObjects(page);
  for (let i = 0; i < count && !over; i++) walk(X.FPDFPage_GetObject(page, i), IDENTITY, 0);
  if (over) return { h: [], v: [], warning: `more than ${MAX_SEGMENTS} drawn line segments (a chart or map?): ruled tables not looked for` };
  return out;
}
