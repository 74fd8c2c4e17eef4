// Wide word gaps inside justified paragraphs. A line is split into segments at gaps wider than about
// an em (columns, table cells), but a justified line can hold stretched spaces as wide: such gaps are
// gaps in running text, not gutters, when
// - a neighbouring line of the same paragraph (about the same extent, one segment there) runs across
//   them, or
// - they are the line's stretched spaces: three or more words apart by the same width (a justifier
//   stretches every space of a line alike, some just under the segment gap), and no neighbouring line
//   is cut into cells under them (a table's header row can be as even, its rows below are not),
// and in either case no neighbouring line is cut into cells lined up with the run's words (a table's
// rows of one-word cells in columns of one width are as even as a stretched line; rows padded apart
// are looked for a little further).
// Lines are page-wide, so on a page set in columns each column's part of a line is looked at on its
// own: a run of segments between wider gaps.
import type { Line, Segment, Word } from './page-text';
import { LIST_LABEL } from '../list-labels';

/** Widest gap (in text sizes) that can be a stretched space. */
const MAX_STRETCH_EM = 2;
/** Neighbouring lines are this close (baseline to baseline, in text sizes). */
const NEIGHBOUR_EM = 2.5;
/** A table's rows under a header row can be this far (its cells padded apart). */
const ROWS_EM = 4;
/** Stretched spaces of one line are this alike (points, or this share of an em if more). */
const SAME_GAP_PT = 1.5;
const SAME_GAP_EM = 0.12;

/**
 * Joins the segments of lines at gaps that are stretched spaces; `makeSegment` builds a segment from
 * words in any order. `gutters`: the x of the page's narrow column gutters (lines.ts narrowGutters).
 */
export function joinJustifiedGaps(lines: Line[], makeSegment: (words: Word[], rtl: boolean) => Segment, gutters: number[] = []): Line[] {
  const upright = lines.filter((l) => l.segs.every((s) => !s.words.some((w) => w.rotated)));
  for (let i = 0; i < upright.length; i++) {
    const line = upright[i]!;
    if (line.segs.length < 2) continue;
    const em = Math.max(...line.segs.map((s) => s.size), 1);
    const around = (reach: number): Line[] => {
      const out: Line[] = [];
      for (let j = i - 1; j >= 0 && line.y0 - upright[j]!.y0 < reach * em; j--) out.push(upright[j]!);
      for (let j = i + 1; j < upright.length && upright[j]!.y0 - line.y0 < reach * em; j++) out.push(upright[j]!);
      return out;
    };
    const near = around(NEIGHBOUR_EM), rows = around(ROWS_EM);
    const sameSize = (s: Segment) => Math.abs(s.size - em) < 0.2 * em;
    const out: Segment[] = [];
    let k = 0;
    while (k < line.segs.length) {
      // a run: segments apart by gaps narrow enough to be stretched spaces, in one direction, and
      // not across a page gutter (a stretched space can be wider than a narrow gutter beside it)
      let e = k;
      const across = (a: Segment, b: Segment) => gutters.some((g) => g > a.x1 - 1 && g < b.x0 + 1);
      while (e + 1 < line.segs.length && line.segs[e + 1]!.x0 - line.segs[e]!.x1 < MAX_STRETCH_EM * em && !!line.segs[e + 1]!.rtl === !!line.segs[k]!.rtl && !across(line.segs[e]!, line.segs[e + 1]!)) e++;
      const stretched = (run: Segment[]) => run.length > 1 && !rowsAround(run, rows, em) && (coveredByNeighbour(run, near, em, sameSize) || evenlyStretched(run, near, em));
      const join = (run: Segment[]): Segment[] => {
        if (stretched(run)) return [makeSegment(run.flatMap((s) => s.words), !!run[0]!.rtl)];
        // a narrow column gutter (under two ems) next to a stretched line: the widest gap, well over
        // the others, parts the run, and each side is looked at on its own
        const gaps = run.slice(1).map((r, g) => r.x0 - run[g]!.x1);
        if (gaps.length < 2) return run;
        const widest = gaps.indexOf(Math.max(...gaps));
        const others = gaps.filter((_, g) => g !== widest);
        if (gaps[widest]! < 1.4 * Math.max(...others)) return run;
        return [...join(run.slice(0, widest + 1)), ...join(run.slice(widest + 1))];
      };
      out.push(...join(line.segs.slice(k, e + 1)));
      k = e + 1;
    }
    line.segs = withinParagraph(out, near, line, em, sameSize, makeSegment, gutters);
  }
  return lines;
}

/**
 * A line of few long words in a narrow column, inside a paragraph: its spaces, stretched alike, can be
 * wider than MAX_STRETCH_EM ("sustainability   of   the"). Segments apart by less than this many text
 * sizes are one when their spaces are all alike and the lines right above and below it are each one
 * segment across them (a table's rows stand over and under rows cut into cells as they are).
 */
const MAX_PARAGRAPH_STRETCH_EM = 3.5;

function withinParagraph(segs: Segment[], near: Line[], line: Line, em: number, sameSize: (s: Segment) => boolean, makeSegment: (words: Word[], rtl: boolean) => Segment, gutters: number[]): Segment[] {
  const above = near.filter((n) => n.y0 < line.y0), below = near.filter((n) => n.y0 > line.y0);
  const gap = (a: Segment, b: Segment) => b.x0 - a.x1;
  const out: Segment[] = [];
  let k = 0;
  while (k < segs.length) {
    let e = k;
    // (spaces alike: a page gutter beside the line, a little wider, ends the run)
    const alike = (g: number) => k === e || Math.abs(g - gap(segs[k]!, segs[k + 1]!)) <= Math.max(SAME_GAP_PT, SAME_GAP_EM * em);
    while (e + 1 < segs.length && gap(segs[e]!, segs[e + 1]!) < MAX_PARAGRAPH_STRETCH_EM * em && alike(gap(segs[e]!, segs[e + 1]!)) && !!segs[e + 1]!.rtl === !!segs[k]!.rtl
      && !gutters.some((g) => g > segs[e]!.x1 - 1 && g < segs[e + 1]!.x0 + 1)) e++;
    const run = segs.slice(k, e + 1);
    const joined = run.length > 1 && evenSpaces(run, em) && [above, below].every((side) => coveredByNeighbour(run, side, em, sameSize));
    // (a run that is no such line may still hold one from its next segment on: the page's other
    // column's segment before a gutter as wide as the stretched spaces)
    if (joined) out.push(makeSegment(run.flatMap((s) => s.words), !!run[0]!.rtl));
    else out.push(segs[k]!);
    k = joined ? e + 1 : k + 1;
  }
  return out;
}

/** A neighbouring line's one segment spans the run (the same paragraph) and runs across each of its gaps. */
function coveredByNeighbour(run: Segment[], near: Line[], em: number, sameSize: (s: Segment) => boolean): boolean {
  const x0 = run[0]!.x0, x1 = run[run.length - 1]!.x1;
  return near.some((n) => n.segs.some((s) => sameSize(s) && Math.abs(s.x0 - x0) < 2 * em && Math.abs(s.x1 - x1) < 2 * em
    && run.slice(1).every((r, k) => s.x0 < run[k]!.x1 - em && s.x1 > r.x0 + em)));
}

/**
 * Three words or more whose every gap, inside the segments and between them, is alike: a line whose
 * every space the justifier stretched (some just under the segment gap, some just over it).
 */
function evenSpaces(segs: Segment[], em: number): boolean {
  // (a list item's label stands a tab stop before its text: its gap is no space)
  const all = segs.flatMap((s) => s.words);
  const words = all.length && LIST_LABEL.test(all[0]!.t) ? all.slice(1) : all;
  if (segs.length < 2 || words.length < 3) return false;
  const gaps = words.slice(1).map((w, k) => w.x0 - words[k]!.x1);
  return Math.max(...gaps) - Math.min(...gaps) <= Math.max(SAME_GAP_PT, SAME_GAP_EM * em);
}

/**
 * Every word after the run's first lines up (start, end or middle) with a segment of the other line: a
 * table's columns. The last word's end is not looked at: every line of a justified paragraph ends there.
 * A right-to-left run starts at its right: its first word is the rightmost, a word starts at its x1.
 */
function linedUp(run: Segment[], other: Segment[], em: number): boolean {
  const tol = 0.25 * em, mid = (s: Segment) => (s.x0 + s.x1) / 2;
  const rtl = !!run[0]!.rtl;
  const start = (s: Segment) => (rtl ? s.x1 : s.x0), end = (s: Segment) => (rtl ? s.x0 : s.x1);
  const inOrder = rtl ? [...run].reverse() : run;
  const last = inOrder[inOrder.length - 1];
  return inOrder.slice(1).every((s) => other.some((o) => Math.abs(start(o) - start(s)) < tol || (s !== last && Math.abs(end(o) - end(s)) < tol) || Math.abs(mid(o) - mid(s)) < tol));
}

/** The segments of a line within the run's extent. */
function within(run: Segment[], n: Line, em: number): Segment[] {
  const x0 = run[0]!.x0 - em, x1 = run[run.length - 1]!.x1 + em;
  return n.segs.filter((s) => s.x0 >= x0 && s.x1 <= x1);
}

/** A neighbouring line is cut into cells that line up with the run's: rows of a table, not a paragraph. */
function rowsAround(run: Segment[], near: Line[], em: number): boolean {
  return near.some((n) => { const w = within(run, n, em); return w.length > 1 && linedUp(run, w, em); });
}

/** The run is evenly stretched, and no neighbouring line is cut into cells within its extent other than evenly. */
function evenlyStretched(run: Segment[], near: Line[], em: number): boolean {
  if (!evenSpaces(run, em)) return false;
  return !near.some((n) => { const w = within(run, n, em); return w.length > 1 && !evenSpaces(w, em); });
}
