// Figures drawn as vector art (a chart, a plot, a diagram): the shapes of a page that are neither
// rules nor marks (paths.ts: filled areas, curves, slanted strokes), grouped with the rules that touch
// them (a chart's axes and ticks), make a region; the short texts set in it (tick labels, a legend, a
// diagram's box labels) are the figure's text, one Image element, not a run of one-word titles. As a
// layout model boxes a picture and the library gives its text to the Image element. A raster picture
// with labels set in text on it (a plot exported as a bitmap, its labels overlaid) is such a figure too.
// Not a figure: a filled area that holds text (a table's shaded row, a coloured box behind a
// paragraph) is a background; a region whose text reads as running text (a long line, much text), or
// that covers most of the page, is not taken; a caption ("Figure 2: ...") stays outside.
import { CAPTION_START } from '../classify';
import type { Box, Line, Segment } from './page-text';
import type { Art, Rules } from './tables/paths';

/** Shapes this close (in text sizes) belong to one figure. */
const JOIN_EM = 0.6;
/** Labels this far beside and above or below the shapes (in text sizes) still belong to the figure (tick labels, an axis title). */
const LABEL_X_EM = 2.5;
const LABEL_Y_EM = 3;
/** A label beside the shapes reaches at most this far from them (a legend's entries). */
const MAX_LABEL_EM = 15;
/** A figure is at least this large (in text sizes, each side). */
const MIN_SIDE_EM = 4;
/** Shapes a figure has at least (bars, curves...). */
const MIN_SHAPES = 3;
/** A label has at most this many words; a figure's labels no more characters in all. */
const MAX_LABEL_WORDS = 10;
const MAX_TEXT_CHARS = 800;
/** Largest share of the page a figure region (or a shape in it) may cover: more is a page's background. */
const MAX_PAGE_SHARE = 0.85;
/**
 * The share of the page a raster picture covers to be shown as an Image: smaller is an icon or a
 * rule drawn as a bitmap, larger is the page's scan or background.
 */
const PICTURE_SHARE = { min: 0.02, max: 0.95 };
const share = (b: Box, page: { width: number; height: number }): number => ((b.x1 - b.x0) * (b.y1 - b.y0)) / (page.width * page.height);

/** The raster pictures of a page shown as Image elements (PICTURE_SHARE). */
export function shownPictures(images: Box[], page: { width: number; height: number }): Box[] {
  return images.filter((b) => share(b, page) >= PICTURE_SHARE.min && share(b, page) <= PICTURE_SHARE.max);
}

export interface Figure extends Box {
  /** The segments set in the figure, taken out of the page's text. */
  segs: Segment[];
  /** The pictures (raster images) it is made of: the figure's Image stands for them. */
  pictures: Box[];
}

const overlaps = (a: Box, b: Box, pad: number): boolean => a.x0 - pad < b.x1 && b.x0 - pad < a.x1 && a.y0 - pad < b.y1 && b.y0 - pad < a.y1;
/** `s` starts within `dx` beside and `dy` above or below `b`. */
const near = (s: Box, b: Box, dx: number, dy: number): boolean =>
  Math.max(b.x0 - s.x1, s.x0 - b.x1, 0) <= dx && Math.max(b.y0 - s.y1, s.y0 - b.y1, 0) <= dy;
const inside = (s: Box, b: Box, padX = 0, padY = padX): boolean => s.x0 >= b.x0 - padX && s.x1 <= b.x1 + padX && s.y0 >= b.y0 - padY && s.y1 <= b.y1 + padY;

/**
 * Figures of a page, and its lines without their text. `pictures` are the page's raster images shown
 * as Image elements: one with labels set on or beside it (a plot exported as a bitmap with its axes in
 * text) is a figure too.
 */
export function findFigures(lines: Line[], rules: Rules, body: number, page: { width: number; height: number }, pictures: Box[] = []): { figures: Figure[]; lines: Line[] } {
  const art = rules.art ?? [];
  if (!art.length && !pictures.length) return { figures: [], lines };
  const segs = lines.flatMap((l) => l.segs);
  // a filled area that holds text is a background (shading, a box behind a paragraph), not art
  const holdsText = textIndex(segs, 0.2 * body);
  const drawn = art.filter((a) => share(a, page) < MAX_PAGE_SHARE && !(a.filled && holdsText(a)));
  const pics = pictures.filter((p) => share(p, page) < MAX_PAGE_SHARE);
  const original = new Map<Box, Box>();
  const shapes: Art[] = [...drawn, ...pics.map((p) => { const a = { ...p, picture: true }; original.set(a, p); return a; })];
  if (!shapes.length) return { figures: [], lines };
  // the page's header and footer strips keep their text (a logo beside the running head)
  const strips = (s: Box) => s.y1 <= page.height * 0.07 || s.y0 >= page.height * 0.93;
  // rules and marks join a group of shapes (axes, ticks, a legend's swatches) but do not make one
  const items: Box[] = [...shapes, ...rules.h.map((r) => ({ x0: r.x0, x1: r.x1, y0: r.y - 0.5, y1: r.y + 0.5 })),
    ...rules.v.map((r) => ({ x0: r.x - 0.5, x1: r.x + 0.5, y0: r.y0, y1: r.y1 })), ...(rules.marks ?? [])];
  const groups = cluster(items, shapes.length, JOIN_EM * body, rules);
  const figures: Figure[] = [];
  const taken = new Set<Segment>();
  for (const g of groups) {
    // a picture, three shapes or more (bars, curves, boxes), or a plotted line with the axes it is
    // drawn on; boxes all of one size and nothing else are a form's fields or a grid of tiles, not a chart
    if (!g.pictures.length && g.shapes < MIN_SHAPES && !(g.lines >= 1 && g.axes)) continue;
    if (!g.pictures.length && !g.lines && g.sameSize) continue;
    const region = g.box;
    const w = region.x1 - region.x0, h = region.y1 - region.y0;
    if (w < MIN_SIDE_EM * body || h < MIN_SIDE_EM * body || share(region, page) > MAX_PAGE_SHARE) continue;
    // labels: short texts inside the shapes' box, or beside it in plain text no larger than the body
    // that is not a line of a paragraph (a heading, a caption, the last line of a paragraph just
    // outside a picture are the page's text)
    // (a picture alone takes only the text set on it: beside a bitmap is the page's text, a running head)
    const drawnToo = g.shapes > g.pictures.length;
    const label = (s: Segment): boolean => s.words.length <= MAX_LABEL_WORDS && !CAPTION_START.test(s.text) && (inside(s, region)
      || (drawnToo && !s.words.every((w) => w.bold) && !strips(s) && s.size <= 1.1 * body && near(s, region, LABEL_X_EM * body, LABEL_Y_EM * body)
        && inside(s, region, MAX_LABEL_EM * body) && !inParagraph(s, segs)));
    const own = segs.filter((s) => !taken.has(s) && label(s));
    if (proseLines(own) >= 2) continue;
    // a grid of rules with most of the text inside it is a table (with drawn icons in its cells), not a chart
    if (g.grid && own.filter((s) => inside(s, g.grid!)).length * 2 > own.length) continue;
    // no labels: drawn decoration, or a picture without text (left out, as before)
    if (!own.length || own.reduce((n, s) => n + s.text.length, 0) > MAX_TEXT_CHARS) continue;
    // a segment that only grazes the region (running text beside the figure) keeps the figure off it
    const mine = new Set(own);
    if (segs.some((s) => !mine.has(s) && !CAPTION_START.test(s.text) && overlaps(s, region, -0.2 * body) && s.words.length > MAX_LABEL_WORDS)) continue;
    for (const s of own) taken.add(s);
    const box = own.reduce((b, s) => ({ x0: Math.min(b.x0, s.x0), y0: Math.min(b.y0, s.y0), x1: Math.max(b.x1, s.x1), y1: Math.max(b.y1, s.y1) }), region);
    figures.push({ ...box, segs: own, pictures: g.pictures.map((b) => original.get(b) ?? b) });
  }
  if (!taken.size) return { figures, lines };
  const rest = lines.map((l) => ({ ...l, segs: l.segs.filter((s) => !taken.has(s)) })).filter((l) => l.segs.length);
  return { figures, lines: rest };
}

/**
 * Whether a box holds a segment (within `pad`): segments sorted by top, a binary search for those
 * that start inside the box's band, so that testing every shape of a page stays near-linear.
 */
function textIndex(segs: Segment[], pad: number): (b: Box) => boolean {
  const byTop = [...segs].sort((a, b) => a.y0 - b.y0);
  return (b: Box) => {
    let lo = 0, hi = byTop.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (byTop[mid]!.y0 < b.y0 - pad) lo = mid + 1; else hi = mid; }
    for (let i = lo; i < byTop.length && byTop[i]!.y0 <= b.y1 + pad; i++) if (inside(byTop[i]!, b, pad)) return true;
    return false;
  };
}

/** A line of running text: three or more words of three letters or more. */
const prose = (s: Segment): boolean => s.words.filter((w) => /^\p{L}{3,}[,.;:!?]?$/u.test(w.t)).length >= 3;

/** A line set right above or below a long line of running text: a line of its paragraph. */
function inParagraph(s: Segment, segs: Segment[]): boolean {
  return segs.some((t) => t !== s && (t.words.length > MAX_LABEL_WORDS || prose(t)) && t.x0 < s.x1 && s.x0 < t.x1
    && Math.max(t.y0 - s.y1, s.y0 - t.y1) < 0.8 * s.size && Math.abs(t.size - s.size) < 0.2 * s.size);
}

/** Lines of running text set right under another (a paragraph among pictures, not a figure's labels). */
function proseLines(segs: Segment[]): number {
  const lines = segs.filter(prose).sort((a, b) => a.y0 - b.y0);
  let n = 0;
  lines.forEach((a, i) => {
    if (lines.slice(i + 1).some((b) => b.y0 > a.y0 + 0.5 * a.size && b.y0 - a.y1 < 0.8 * a.size && b.x0 < a.x1 && a.x0 < b.x1)) n++;
  });
  return n;
}

/**
 * Boxes grouped by nearness (within `pad`); the first `nShapes` items are shapes, the rest rules,
 * which join groups but do not make one: a rule joins a shape near it, and a rule it touches (a
 * chart's axes meet at a corner). Sorted sweep along x with union-find: near-linear for the usual
 * page, bounded by the shape cap.
 */
function cluster(items: Box[], nShapes: number, pad: number, rules: Rules): Group[] {
  const parent = items.map((_, i) => i);
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]!]!; i = parent[i]!; } return i; };
  const order = items.map((_, i) => i).sort((a, b) => items[a]!.x0 - items[b]!.x0);
  const active: number[] = [];
  for (const i of order) {
    const b = items[i]!;
    for (let k = active.length - 1; k >= 0; k--) {
      const j = active[k]!;
      if (items[j]!.x1 + pad < b.x0) { active.splice(k, 1); continue; }
      if (overlaps(b, items[j]!, i < nShapes || j < nShapes ? pad : 1)) parent[find(i)] = find(j);
    }
    active.push(i);
  }
  const groups = new Map<number, Omit<Group, 'axes' | 'sameSize'> & { h: number; v: number; rules?: Box; size?: [number, number]; sizes: boolean }>();
  const grow = (a: Box | undefined, b: Box): Box => (a ? { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) } : { ...b });
  items.forEach((b, i) => {
    const r = find(i);
    let g = groups.get(r);
    if (!g) groups.set(r, g = { box: { ...b }, shapes: 0, lines: 0, pictures: [], h: 0, v: 0, sizes: true });
    g.box = grow(g.box, b);
    if (i < nShapes) {
      g.shapes++;
      if ((b as Art).picture) { g.pictures.push(b); return; }
      if (!(b as Art).filled) g.lines++;
      const size: [number, number] = [b.x1 - b.x0, b.y1 - b.y0];
      if (!g.size) g.size = size;
      else if (Math.abs(g.size[0] - size[0]) > 1 || Math.abs(g.size[1] - size[1]) > 1) g.sizes = false;
    }
    else {
      g.rules = grow(g.rules, b);
      if (i < nShapes + rules.h.length) g.h++;
      else if (i < nShapes + rules.h.length + rules.v.length) g.v++;
    }
  });
  return [...groups.values()].map((g) => ({ box: g.box, shapes: g.shapes, lines: g.lines, pictures: g.pictures, sameSize: g.sizes, axes: g.h >= 1 && g.v >= 1, ...(g.h >= 2 && g.v >= 2 && g.rules ? { grid: g.rules } : {}) }));
}

interface Group {
  box: Box;
  /** Shapes in the group (rules not counted), and of them those stroked (not filled: a plotted line, a curve). */
  shapes: number;
  lines: number;
  /** The pictures among its shapes. */
  pictures: Box[];
  /** Its filled shapes are all of one size. */
  sameSize: boolean;
  /** Rules both ways among them (a chart's axes). */
  axes: boolean;
  /** The box of its rules when they cross as a grid (two or more each way). */
  grid?: Box;
}
