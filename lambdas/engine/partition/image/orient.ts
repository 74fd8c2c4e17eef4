// Scans fed sideways or upside down turned upright before OCR. Tesseract reads upright text: a page
// turned half round read nothing (an empty Image), one turned a quarter lost its table (its lines of
// text, read as vertical ones, sometimes came through). The page's orientation is read from its
// letters, as a reader would (the docstrum idea):
// - the ink's connected components of letter size are found, each paired with its nearest
//   neighbour of like size: inside words that neighbour is the next letter, so the pairs run along
//   the lines. Pairs mostly across the page's height mean the lines run down it (a quarter turn).
// - along a line, neighbouring letters share their baseline and differ at the top (ascenders and
//   capitals are far more frequent than descenders in Latin, Greek and Cyrillic text): pairs sharing
//   their top edge but not their bottom mean the baseline is above the letters (half a turn).
// Scripts without that contrast (Hangul and Han characters) give no clear vote and stay as they
// are. The caller checks a turned reading against the page as it came (OCR confidence), so a wrong
// vote costs time, not text. Bounded: one pass over the pixels (at most MAX_RUNS runs of ink), at
// most MAX_BOXES boxes into a grid of buckets; pages over MAX_TURN_PIXELS are read as they come.
import type { Element } from '../../elements';

/** Quarter turns clockwise that make the page upright: 0, 1 (90°), 2 (180°) or 3 (270°). */
export type Turns = 0 | 1 | 2 | 3;

interface Box { x0: number; y0: number; x1: number; y1: number }

/** Pages larger than this (pixels) are read as they come (turning one makes one more copy of it in memory). */
export const MAX_TURN_PIXELS = 16_000_000;
/** Most letter boxes looked at (a page of small print holds a few thousand). */
const MAX_BOXES = 20_000;
/** Fewest neighbour pairs for any vote. */
const MIN_PAIRS = 24;
/** How many times more pairs must run one way (along or across) than the other: Hangul and Han
 * characters, built of parts side by side and stacked, give no clear direction and are left alone. */
const DIRECTION_MAJORITY = 3;
/** How many times more side-by-side pairs must share one edge (bottom or top) than the other. */
const MAJORITY = 2;

/** Most ink runs looked at (a dense page at 200 dpi holds about 100,000); the rest of a page is left out. */
const MAX_RUNS = 400_000;

/**
 * Bounding boxes of the 8-connected ink components (gray < 128), found run by run with a union-find
 * over the runs of consecutive rows.
 */
export function inkComponents(gray: Uint8Array, w: number, h: number, maxRuns = MAX_RUNS): Box[] {
  // per run: its parent in the union-find and its box (plain number arrays: no object per run)
  const parent: number[] = [], rx0: number[] = [], rx1: number[] = [], ry: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]!]!; i = parent[i]!; }
    return i;
  };
  let prevFrom = 0, prevTo = 0; // the runs of the row above
  for (let y = 0; y < h && parent.length < maxRuns; y++) {
    const from = parent.length;
    const base = y * w;
    let p = prevFrom;
    for (let x = 0; x < w; x++) {
      if (gray[base + x]! >= 128) continue;
      const x0 = x;
      while (x + 1 < w && gray[base + x + 1]! < 128) x++;
      const id = parent.length;
      parent.push(id); rx0.push(x0); rx1.push(x + 1); ry.push(y);
      // runs of the row above touching this one (8-connected: one pixel of slack either side)
      while (p < prevTo && rx1[p]! < x0) p++;
      for (let q = p; q < prevTo && rx0[q]! <= x + 1; q++) {
        const a = find(id), b = find(q);
        if (a !== b) parent[a] = b;
      }
    }
    prevFrom = from; prevTo = parent.length;
  }
  const byRoot = new Map<number, Box>();
  for (let i = 0; i < parent.length; i++) {
    const r = find(i);
    const u = byRoot.get(r);
    if (!u) byRoot.set(r, { x0: rx0[i]!, y0: ry[i]!, x1: rx1[i]!, y1: ry[i]! + 1 });
    else { u.x0 = Math.min(u.x0, rx0[i]!); u.x1 = Math.max(u.x1, rx1[i]!); u.y0 = Math.min(u.y0, ry[i]!); u.y1 = Math.max(u.y1, ry[i]! + 1); }
  }
  return [...byRoot.values()];
}

/** Components the size of a letter: not specks, not rules, pictures or frames. */
function letterBoxes(boxes: Box[], w: number, h: number): Box[] {
  const big = Math.max(w, h) / 20;
  return boxes
    .filter((b) => {
      const bw = b.x1 - b.x0, bh = b.y1 - b.y0;
      return bw >= 3 && bh >= 3 && bw <= big && bh <= big && bw <= 5 * bh && bh <= 5 * bw;
    })
    .slice(0, MAX_BOXES);
}

/** Each box's nearest neighbour of like size (centres within three times its size), as index pairs. */
function neighbourPairs(boxes: Box[]): [number, number][] {
  if (!boxes.length) return [];
  const sizes = boxes.map((b) => Math.max(b.x1 - b.x0, b.y1 - b.y0)).sort((a, b) => a - b);
  const cell = Math.max(4, 3 * sizes[sizes.length >> 1]!);
  const grid = new Map<string, number[]>();
  const cx = (b: Box) => (b.x0 + b.x1) / 2, cy = (b: Box) => (b.y0 + b.y1) / 2;
  boxes.forEach((b, i) => {
    const k = `${Math.floor(cx(b) / cell)},${Math.floor(cy(b) / cell)}`;
    (grid.get(k) ?? grid.set(k, []).get(k)!).push(i);
  });
  const pairs: [number, number][] = [];
  boxes.forEach((b, i) => {
    const s = Math.max(b.x1 - b.x0, b.y1 - b.y0);
    const gx = Math.floor(cx(b) / cell), gy = Math.floor(cy(b) / cell);
    let best = -1, bestD = (3 * s) ** 2;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      for (const j of grid.get(`${gx + dx},${gy + dy}`) ?? []) {
        if (j === i) continue;
        const o = boxes[j]!, os = Math.max(o.x1 - o.x0, o.y1 - o.y0);
        if (os > 2 * s || s > 2 * os) continue;
        const d = (cx(o) - cx(b)) ** 2 + (cy(o) - cy(b)) ** 2;
        if (d < bestD) { bestD = d; best = j; }
      }
    }
    if (best >= 0) pairs.push([i, best]);
  });
  return pairs;
}

/** A box turned a quarter clockwise on a page `h` high (x' = h - y, y' = x). */
const quarter = (b: Box, h: number): Box => ({ x0: h - b.y1, y0: b.x0, x1: h - b.y0, y1: b.x1 });

/**
 * Votes of the neighbour pairs: `along` pairs side by side, `across` pairs one above the other;
 * among side-by-side pairs of like height, `base` share their bottom edge only, `top` their top only.
 */
function votes(boxes: Box[], pairs: [number, number][]): { along: number; across: number; base: number; top: number } {
  let along = 0, across = 0, base = 0, top = 0;
  for (const [i, j] of pairs) {
    const a = boxes[i]!, b = boxes[j]!;
    const dx = Math.abs((a.x0 + a.x1 - b.x0 - b.x1) / 2), dy = Math.abs((a.y0 + a.y1 - b.y0 - b.y1) / 2);
    if (dx > 2 * dy) along++;
    else if (dy > 2 * dx) across++;
    if (dx <= 2 * dy) continue;
    const h = Math.max(a.y1 - a.y0, b.y1 - b.y0);
    const tol = Math.max(1, 0.08 * h), apart = 0.2 * h;
    const dTop = Math.abs(a.y0 - b.y0), dBottom = Math.abs(a.y1 - b.y1);
    if (dBottom <= tol && dTop >= apart) base++;
    else if (dTop <= tol && dBottom >= apart) top++;
  }
  return { along, across, base, top };
}

/**
 * Quarter turns clockwise that bring a page's text upright, from its gray pixels; 0 when it reads
 * upright already or the letters give no clear vote.
 */
export function pageTurns(gray: Uint8Array, w: number, h: number): Turns {
  if (w * h > MAX_TURN_PIXELS) return 0;
  let boxes = letterBoxes(inkComponents(gray, w, h), w, h);
  const pairs = neighbourPairs(boxes);
  if (pairs.length < MIN_PAIRS) return 0;
  const v = votes(boxes, pairs);
  let turns = 0;
  if (v.across >= MIN_PAIRS && v.across > DIRECTION_MAJORITY * v.along) {
    // lines run down the page: look at it a quarter turned (its lines across), then decide which way
    boxes = boxes.map((b) => quarter(b, h));
    const q = votes(boxes, pairs);
    turns = q.top >= MIN_PAIRS / 2 && q.top > MAJORITY * q.base ? 3 : q.base >= MIN_PAIRS / 2 && q.base > MAJORITY * q.top ? 1 : 0;
  } else if (v.along >= MIN_PAIRS && v.along > DIRECTION_MAJORITY * v.across) {
    turns = v.top >= MIN_PAIRS / 2 && v.top > MAJORITY * v.base ? 2 : 0;
  }
  return turns as Turns;
}

/** RGBA pixels turned `turns` quarter turns clockwise (a quarter turn swaps width and height). */
export function turnRgba(src: Uint8Array, w: number, h: number, turns: Turns): { rgba: Uint8Array; width: number; height: number } {
  if (turns === 0) return { rgba: src, width: w, height: h };
  const [W, H] = turns === 2 ? [w, h] : [h, w];
  const out = new Uint32Array(w * h);
  const s32 = new Uint32Array(src.buffer, src.byteOffset, w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // where source pixel (x, y) lands
      const [X, Y] = turns === 1 ? [h - 1 - y, x] : turns === 2 ? [w - 1 - x, h - 1 - y] : [y, w - 1 - x];
      out[Y * W + X] = s32[y * w + x]!;
    }
  }
  return { rgba: new Uint8Array(out.buffer), width: W, height: H };
}

/** A point of the page turned `turns` quarters clockwise, mapped back onto the page as it came (w × h). */
export function unturnPoint(x: number, y: number, w: number, h: number, turns: Turns): [number, number] {
  if (turns === 1) return [y, h - x];
  if (turns === 2) return [w - x, h - y];
  if (turns === 3) return [w - y, x];
  return [x, y];
}

/** Element coordinates of the turned page mapped back onto the page as uploaded (w × h pixels). */
export function unturnCoordinates(els: Element[], w: number, h: number, turns: Turns): void {
  if (!turns) return;
  for (const el of els) {
    const c = el.metadata.coordinates;
    if (!c) continue;
    const pts = c.points.map(([x, y]) => unturnPoint(x, y, w, h, turns));
    // the box's corners in the usual order (top-left, bottom-left, bottom-right, top-right)
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    c.points = pts.length === 4 ? [[x0, y0], [x0, y1], [x1, y1], [x1, y0]] : pts;
    if (c.layout_width !== undefined) { c.layout_width = w; c.layout_height = h; }
  }
}
