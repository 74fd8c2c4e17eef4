// Cells set closer than a segment gap. A borderless table whose cells are padded by a few points (a
// word processor's default cell margins, a browser's table printed) sets its columns barely further
// apart than words, or nearer, and the line's segmenting (lines.ts) takes two cells for one: "North 12"
// where the row above starts "12"'s column with a segment of its own and the rows below start a word
// there. Such a word starts a column: the row is split there.
import { toSegment } from '../lines';
import { columnsOf } from './segment-columns';
import type { Box, Line, Segment, Word } from '../page-text';

/**
 * How near (points) a word's left edge is to another row's to start at the same place; a right edge
 * (a right-to-left word's start) varies more with the last glyph's shape.
 */
const TOLERANCE = 1;
const RTL_TOLERANCE = 1.5;
/** Rows of a table split at most (a page of tables set close holds far fewer). */
const MAX_ROWS = 400;
/** Rounds of splitting at most (each can only add segments; a table settles in two or three). */
const MAX_ROUNDS = 4;
/** Segments of more words are left whole: a title or a line of prose across the table, not cells. */
const MAX_WORDS = 6;
/** A gap narrower than this (in ems) is a word space however the rows line up ("Mr. Smith"). */
const MIN_GAP_EM = 0.2;
/** A gap repeated in other rows splits cells when this many word spaces wide. */
const WIDE_GAP = 1.5;

/**
 * The table's rows split at column starts (splitAtColumnStarts) and its columns, when the split changes
 * two rows and a quarter of them at least, finds more columns than `cols`, and two thirds of the rows
 * have the most cells; else undefined. The
 * columns are those of the rows with the most cells (a header centred over its column, or spanning
 * two, would join them: the grid places it).
 */
export function splitTable(rows: Line[], cols: [number, number][]): { rows: Line[]; cols: [number, number][] } | undefined {
  // (each word is looked for in every other row: a bound keeps a hostile page of ten thousand rows fast)
  if (rows.length > MAX_ROWS) return undefined;
  const split = splitAtColumnStarts(rows);
  // set close, the table's columns merge on many rows; one row split (a header over two columns whose
  // words happen to start at both) is no such table
  const changed = split.filter((r, k) => r !== rows[k]).length;
  if (changed < 2 || changed < rows.length / 4) return undefined;
  // the split makes the rows alike: two thirds of them have the most cells (prose in columns taken
  // for a table, or a column of labels whose words happen to line up, comes out ragged)
  const most = Math.max(...split.map((r) => r.segs.length));
  const full = split.filter((r) => r.segs.length === most);
  if (full.length < 2 || full.length < (2 / 3) * split.length) return undefined;
  const splitCols = columnsOf(full.flatMap((r) => r.segs));
  return splitCols.length > cols.length ? { rows: split, cols: splitCols } : undefined;
}

/**
 * The rows with each segment (of a few words) split before a word that starts a column: another row
 * has a cell (a segment) starting at its left edge and at least two others a word, within a point; or
 * two others start a word there after text ending at different places; or, after a gap half again as
 * wide as a word space, the segment ends where other rows' cells end (a right-aligned cell). What
 * comes before the word starts where at least two other rows start a word too (a bullet hung before a
 * list's text does not). The gap may be narrower than a word space (a browser pads cells by a pixel).
 * A gap half again as wide as a word space that two other rows have too, both its edges within a
 * point, splits as well (right-aligned figures before a column). Rows of words turned on their side are
 * left as they are; a table of right-to-left rows is split mirrored (its cells start at their right edges).
 */
export function splitAtColumnStarts(rows: Line[]): Line[] {
  // a right-to-left table's cells start at their right edges: its rows are split mirrored
  if (rows.filter((r) => r.segs.some((s) => s.rtl)).length * 2 > rows.length) {
    const m = mirror(rows);
    return unmirror(splitRounds(m.rows, RTL_TOLERANCE), rows, m.original);
  }
  return splitRounds(rows);
}

function splitRounds(rows: Line[], tol = TOLERANCE): Line[] {
  // a split makes a cell start that was not (the header's "Spring" once "Spring Autumn" is split, so
  // "North 12" splits): split again until nothing changes
  let out = rows;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = splitOnce(out, tol);
    if (next.every((r, k) => r === out[k])) break;
    out = next;
  }
  return out;
}

function splitOnce(rows: Line[], tol: number): Line[] {
  const segStarts = rows.map((r) => r.segs.map((s) => s.x0));
  const rowWords = rows.map((r) => r.segs.flatMap((s) => s.words));
  const wordStarts = rowWords.map((ws) => ws.map((w) => w.x0));
  const wordEnds = rowWords.map((ws) => ws.map((w) => w.x1));
  const segEnds = rows.map((r) => r.segs.map((s) => s.x1));
  const space = wordSpace(rows);
  const wide = (a: number, b: number) => space !== undefined && b - a >= WIDE_GAP * space;
  const rowsAt = (starts: number[][], x: number, row: number): number => {
    let n = 0;
    for (let k = 0; k < rows.length; k++) if (k !== row && starts[k]!.some((s) => Math.abs(s - x) <= tol)) n++;
    return n;
  };
  const startsCell = (x: number, row: number) => rowsAt(segStarts, x, row) >= 1 && rowsAt(wordStarts, x, row) >= 2;
  const startsWords = (x: number, row: number) => rowsAt(wordStarts, x, row) >= 2;
  // or two other rows start a word there after text that ends elsewhere in each, one of them a wide
  // gap before it (a column's cells of different widths before it; a date's "March" follows days of
  // one width, "Transaction Code" and "Designated Payment" words of nearly one width: no column)
  const startsColumn = (x: number, end: number, row: number): boolean => {
    const ends = [end];
    for (let k = 0; k < rows.length; k++) {
      if (k === row) continue;
      const ws = rowWords[k]!;
      const at = ws.findIndex((w) => Math.abs(w.x0 - x) <= tol);
      if (at >= 0) ends.push(at > 0 ? ws[at - 1]!.x1 : -Infinity);
    }
    return ends.length >= 3 && Math.max(...ends) - Math.min(...ends) > tol && wide(Math.min(...ends), x);
  };
  // a right-aligned cell after a wide gap: what follows ends where another row's cell ends and two
  // others' words ("Office" | "Years" over figures set right)
  const endsCell = (x: number, row: number) => rowsAt(segEnds, x, row) >= 1 && rowsAt(wordEnds, x, row) >= 2;
  // the same gap, both its edges, in two other rows: a right-aligned column's figures ("7 | 91,000"
  // over "3 | 64,500"), when wider than a word space by half (a date's "March | 2020" is not)
  const sameGap = (a: number, b: number, row: number): boolean => {
    if (!wide(a, b)) return false;
    let n = 0;
    for (let k = 0; k < rows.length; k++) {
      if (k === row) continue;
      const ends = wordEnds[k]!, starts = wordStarts[k]!;
      if (ends.some((e) => Math.abs(e - a) <= tol) && starts.some((x) => Math.abs(x - b) <= tol) && ++n >= 2) return true;
    }
    return false;
  };
  return rows.map((r, k) => {
    if (r.segs.some((s) => s.rtl || s.words.some((w) => w.rotated))) return r;
    const segs: Segment[] = [];
    let split = false;
    for (const s of r.segs) {
      if (s.words.length > MAX_WORDS) {
        segs.push(s);
        continue;
      }
      let cur: Word[] = [];
      // the segment ends where other rows' cells end: a right-aligned cell may follow a wide gap in it
      const endsAtCell = endsCell(s.words[s.words.length - 1]!.x1, k);
      s.words.forEach((w, j) => {
        const prev = s.words[j - 1];
        if (prev && w.x0 - prev.x1 > MIN_GAP_EM * Math.max(w.size, prev.size, 1) && (((startsCell(w.x0, k) || startsColumn(w.x0, prev.x1, k) || (wide(prev.x1, w.x0) && endsAtCell)) && startsWords(cur[0]!.x0, k)) || sameGap(prev.x1, w.x0, k))) {
          segs.push(toSegment(cur));
          cur = [];
          split = true;
        }
        cur.push(w);
      });
      segs.push(cur.length === s.words.length ? s : toSegment(cur));
    }
    return split ? { ...r, segs } : r;
  });
}

/**
 * The rows seen in a mirror (x becomes -x), each segment's words and each line's segments left to
 * right there, none right-to-left: a right-to-left cell's start, its right edge, becomes a left
 * edge. `original` maps each mirrored word back.
 */
function mirror(rows: Line[]): { rows: Line[]; original: Map<Word, Word> } {
  const original = new Map<Word, Word>();
  const flip = <B extends Box>(b: B): B => ({ ...b, x0: -b.x1, x1: -b.x0 });
  const out = rows.map((r) => {
    const segs = r.segs.map((s) => {
      const words = s.words.map((w) => { const m = flip(w); original.set(m, w); return m; }).sort((a, b) => a.x0 - b.x0);
      return toSegment(words);
    }).sort((a, b) => a.x0 - b.x0);
    return { ...flip(r), segs };
  });
  return { rows: out, original };
}

/**
 * Split mirrored rows back in the page's coordinates: a row left whole is the original row; a split
 * one's pieces hold the original words in their segment's order (a right-to-left segment's logical
 * order), each piece right-to-left when its segment was, the segments left to right.
 */
function unmirror(split: Line[], rows: Line[], original: Map<Word, Word>): Line[] {
  return split.map((r, k) => {
    const row = rows[k]!;
    if (r.segs.length === row.segs.length) return row;
    const home = new Map<Word, { seg: Segment; at: number }>();
    for (const seg of row.segs) seg.words.forEach((w, at) => home.set(w, { seg, at }));
    const segs = r.segs.map((piece) => {
      const words = piece.words.map((m) => original.get(m)!).sort((a, b) => home.get(a)!.at - home.get(b)!.at);
      return toSegment(words, !!home.get(words[0]!)!.seg.rtl);
    }).sort((a, b) => a.x0 - b.x0);
    return { ...row, segs };
  });
}

/**
 * The rows' word space: the lower quartile of the gaps between words of a segment (cells taken for
 * one segment add wider gaps; undefined without any).
 */
export function wordSpace(rows: Line[]): number | undefined {
  const gaps: number[] = [];
  for (const r of rows) for (const s of r.segs) for (let j = 1; j < s.words.length; j++) gaps.push(s.words[j]!.x0 - s.words[j - 1]!.x1);
  if (!gaps.length) return undefined;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 2]!;
}
