// Boxed regions of a page: a rectangle drawn around text that has other text beside it, on the same
// lines: a sidebar, an infobox floated beside a paragraph (a web page printed to PDF), a callout in a
// report. Lines are grouped by height across the whole page, so the box's rows ran into the lines of
// the paragraph beside it, and its cells were read as columns of that paragraph. The box's text is laid
// out on its own, as a page column is (its tables, paragraphs and lists found among its own lines), and
// the rest of the page without it. A box with nothing beside it needs nothing: its lines are its own.
import { wordsToLines } from './lines';
import type { Box, HRule, Line, Rules, VRule, Word } from './page-text';

/** Rules looked at on a page: past this many, the page is a form or a drawing, not boxes in text. */
const MAX_RULES = 600;
/** Distance within which rule ends meet (points) where the page does not say. */
const TOL = 2;
/** Boxes looked into on a page, the largest first. */
const MAX_BOXES = 40;

/** Collinear rule pieces joined: Chromium and word processors draw a box's side in pieces, a cell's border each. */
function joinPieces<R>(rules: R[], at: (r: R) => number, from: (r: R) => number, to: (r: R) => number, tol: number): { at: number; from: number; to: number }[] {
  const sorted = rules.map((r) => ({ at: at(r), from: from(r), to: to(r) })).sort((a, b) => a.at - b.at || a.from - b.from);
  const out: { at: number; from: number; to: number }[] = [];
  for (const r of sorted) {
    const same = out.findLast((o) => Math.abs(o.at - r.at) <= tol && r.from <= o.to + tol);
    if (same) same.to = Math.max(same.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

/**
 * Rectangles closed by four rules, at least a line tall and a few words wide, that stand free: their
 * sides end at their corners and no other rule meets them from outside. A table's cells and rows make
 * rectangles too, but their rules run on to the next cell.
 */
function rectangles(h: HRule[], v: VRule[], body: number, tol: number): Box[] {
  const hs = joinPieces(h, (r) => r.y, (r) => r.x0, (r) => r.x1, tol);
  const vs = joinPieces(v, (r) => r.x, (r) => r.y0, (r) => r.y1, tol);
  const near = (a: number, b: number) => Math.abs(a - b) <= tol;
  const out: Box[] = [];
  for (let i = 0; i < vs.length; i++) {
    const l = vs[i]!;
    for (let j = i + 1; j < vs.length; j++) {
      const r = vs[j]!;
      if (r.at - l.at < 3 * body || !near(l.from, r.from) || !near(l.to, r.to)) continue;
      const y0 = Math.max(l.from, r.from), y1 = Math.min(l.to, r.to);
      if (y1 - y0 < 1.5 * body) continue;
      const side = (y: number) => hs.find((t) => near(t.at, y) && near(t.from, l.at) && near(t.to, r.at));
      const top = side(y0), bottom = side(y1);
      if (!top || !bottom) continue;
      // another rule ending on the outline, or crossing it
      const meets = hs.some((t) => t !== top && t !== bottom && t.at > y0 - tol && t.at < y1 + tol && ((t.from < l.at - tol && t.to > l.at - tol) || (t.to > r.at + tol && t.from < r.at + tol))) ||
        vs.some((u) => u !== l && u !== r && u.at > l.at - tol && u.at < r.at + tol && ((u.from < y0 - tol && u.to > y0 - tol) || (u.to > y1 + tol && u.from < y1 + tol)));
      if (!meets) out.push({ x0: l.at, y0, x1: r.at, y1 });
    }
  }
  return out;
}

const inside = (w: Box, b: Box) => {
  const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
  return cx > b.x0 && cx < b.x1 && cy > b.y0 && cy < b.y1;
};

/** A word across one of the box's sides: the rectangle is drawn over the text (a highlight, a mark), it holds none. */
const crosses = (w: Box, b: Box) =>
  (w.y1 > b.y0 && w.y0 < b.y1 && ((w.x0 < b.x0 && w.x1 > b.x0) || (w.x0 < b.x1 && w.x1 > b.x1))) ||
  (w.x1 > b.x0 && w.x0 < b.x1 && ((w.y0 < b.y0 && w.y1 > b.y0 + 0.5 * (w.y1 - w.y0)) || (w.y0 < b.y1 - 0.5 * (w.y1 - w.y0) && w.y1 > b.y1)));

/**
 * The page's lines less the boxes that have text beside them, and each such box's own lines (outermost
 * boxes only: a box inside one is laid out with it).
 */
export function boxedRegions(lines: Line[], rules: Rules, body: number): { rest: Line[]; boxes: Line[][] } {
  const none = { rest: lines, boxes: [] };
  if (rules.h.length + rules.v.length > MAX_RULES || rules.v.length < 2) return none;
  const tol = rules.tol ?? TOL;
  const words: Word[] = lines.flatMap((l) => l.segs.flatMap((s) => s.words));
  const chosen: { box: Box; words: Set<Word> }[] = [];
  const rects = rectangles(rules.h, rules.v, body, tol).sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0));
  for (const box of rects.slice(0, MAX_BOXES)) {
    if (chosen.some((c) => box.x0 >= c.box.x0 - tol && box.x1 <= c.box.x1 + tol && box.y0 >= c.box.y0 - tol && box.y1 <= c.box.y1 + tol)) continue;
    const held = words.filter((w) => inside(w, box));
    if (held.length < 2 || words.some((w) => crosses(w, box))) continue;
    const mine = new Set(held);
    // text beside it: a line holding words in the box and words out of it
    const beside = lines.some((l) => {
      let inBox = false, out = false;
      for (const s of l.segs) for (const w of s.words) (mine.has(w) ? (inBox = true) : (out = true));
      return inBox && out;
    });
    if (beside) chosen.push({ box, words: mine });
  }
  if (!chosen.length) return none;
  const taken = new Set(chosen.flatMap((c) => [...c.words]));
  // rotated words keep their own lines (wordsToLines reads upright words only)
  const rotated = lines.filter((l) => l.segs.some((s) => s.words.some((w) => w.rotated && !taken.has(w))));
  return {
    rest: [...wordsToLines(words.filter((w) => !taken.has(w))), ...rotated],
    boxes: chosen.map((c) => wordsToLines([...c.words])),
  };
}
