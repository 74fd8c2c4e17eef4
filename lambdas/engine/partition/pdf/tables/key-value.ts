// Tables of terms and their descriptions (a command's options, a glossary, a parts list): two columns,
// the first of a few words, the second a description wrapped over lines set in at its own left edge.
// Alignment alone rejects them (their cells are long and wordy, as columns of prose are); what marks
// them is rows whose term and description start at the same two x, with the wrapped lines between.
// A term set closer to its description than a segment gap ("--output The file ...", LaTeX's 12 pt
// between columns at 11 pt) is parted at the description column.
import type { Line, Segment } from '../page-text';
import { toSegment } from '../lines';
import { ANY_LABEL } from '../../list-labels';

/** Rows a table of terms needs. */
const MIN_ROWS = 3;
/** Words a term holds at most. */
const TERM_WORDS = 4;
/** Words a description holds on average, at least, when none wraps (fewer: a plain table's cells). */
const DESCRIPTION_WORDS = 4;
/** Wrapped lines a description runs over at most before the next term. */
const MAX_WRAPPED = 8;

/**
 * The last line of a table of terms starting at line `i`, or undefined; rows whose term and description
 * meet closer than a segment gap are parted in place.
 */
export function keyValueRun(lines: Line[], i: number, body: number): number | undefined {
  const first = lines[i]!;
  if (!isTermRow(first)) return undefined;
  const kx = first.segs[0]!.x0, vx = first.segs[1]!.x0;
  const at = (x: number, to: number) => Math.abs(x - to) < 0.25 * body;
  let end = i, rows = 1, wrapped = 0, words = first.segs[1]!.words.length;
  for (let k = i + 1; k < lines.length && k - end <= MAX_WRAPPED + 1; k++) {
    const l = lines[k]!;
    if (l.y0 - lines[k - 1]!.y1 > 1.5 * body || l.segs.some((s) => s.words.some((w) => w.rotated))) break;
    if (isTermRow(l) && at(l.segs[0]!.x0, kx) && at(l.segs[1]!.x0, vx)) { rows++; end = k; words += l.segs[1]!.words.length; continue; }
    if (l.segs.length === 1 && at(l.x0, vx)) { wrapped++; continue; } // a description's wrapped line
    const parted = l.segs.length === 1 && at(l.x0, kx) ? partAt(l.segs[0]!, vx, body) : undefined;
    if (parted && isTermRow({ ...l, segs: parted })) { l.segs = parted; rows++; end = k; words += parted[1]!.words.length; continue; }
    break;
  }
  // the last description's wrapped lines
  while (end + 1 < lines.length && lines[end + 1]!.segs.length === 1 && at(lines[end + 1]!.x0, vx) && lines[end + 1]!.y0 - lines[end]!.y1 <= 1.5 * body) { end++; wrapped++; }
  // short descriptions on one line each are a plain table's cells: alignment reads them (with what
  // follows a blank row) as it reads any table
  if (!wrapped && words < DESCRIPTION_WORDS * rows) return undefined;
  return rows >= MIN_ROWS ? end : undefined;
}

function isTermRow(l: Line): boolean {
  if (l.segs.length !== 2) return false;
  const [term, desc] = l.segs as [Segment, Segment];
  return term.words.length <= TERM_WORDS && !ANY_LABEL.test(term.text.trim()) && desc.words.length >= 1 && /\p{L}/u.test(term.text);
}

/** The segment parted where a word starts at the description column, at least a word space after the one before. */
function partAt(s: Segment, vx: number, body: number): Segment[] | undefined {
  const k = s.words.findIndex((w, n) => n > 0 && Math.abs(w.x0 - vx) < 0.25 * body && w.x0 - s.words[n - 1]!.x1 >= 0.4 * body);
  if (k < 1) return undefined;
  return [toSegment(s.words.slice(0, k), s.rtl), toSegment(s.words.slice(k), s.rtl)];
}
