// Page layout from positioned words (PDF text layer or OCR): table detection on runs of multi-cell
// lines, paragraph blocks by proximity, reading order by recursive XY-cut (vertical cuts first, so
// columns are read top to bottom before the next column), then elements with emphasis, links and
// coordinates. Units are the page's own (points for PDF, pixels for OCR); thresholds scale with the
// text size.
import { appendAll, makeElement, type Coordinates, type Element, type ElementType } from '../../elements';
import { CAPTION_START, classifyText, isPageNumberLike, isPossibleNarrativeText, isPossibleTitle, listItemText, underNonAlphaRatio, type ClassifyOptions } from '../classify';
import { mirrorColumns, tableText, tableToHtml, type TableRows } from '../table-html';
import { union, wordsToLines } from './extract';
import type { Box, Line, RawPage, Segment } from './page-text';
import { findRuledTables } from './tables/ruled';
import { columnsOf, findTables, tableRows } from './tables/unruled';
import { ruleGutter, splitRows } from './tables/side-by-side';
import { extendToRules, findRuleBandTables, recordRules } from './tables/row-rules';
import { joinText, separator } from './scripts';
import { TITLE_SIZE_KEY } from '../hierarchy';
import { pageColumns } from './columns';
import { markBullets } from './bullets';
import { isRtlPage } from './bidi';
import { findFigures, shownPictures } from './figures';
import { joinFormulaPieces } from './formulas';

export interface Block extends Box {
  lines: Segment[];
  size: number;
  table?: TableRows;
  /** A figure drawn as vector art: its lines are the labels set in it (figures.ts). */
  figure?: boolean;
  /** A display formula whose pieces line up like a table's cells (tables/unruled.ts `formula`). */
  formula?: boolean;
}

export interface LayoutOptions {
  languages?: string[];
  coordinates?: 'PointSpace' | 'PixelSpace';
  /** Emit Image elements for large images (hi_res-like output). */
  images?: boolean;
  /** Look for tables (Table elements); `tableHtml` adds their cell structure as text_as_html. */
  tables?: boolean;
  tableHtml?: boolean;
  /** Extra metadata for every element of the page (e.g. partitioner_note). */
  extra?: Record<string, unknown>;
  /** Words come from OCR: looser size matching between lines of a paragraph. */
  ocr?: boolean;
  /** Points per unit of the page (an OCR'd PDF page: 72 / its rendering DPI), so title sizes of text-layer and OCR'd pages compare. */
  sizeScale?: number;
}

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

/** "1. ", "2) ", "(a) ", "iv. " at the start of a line: a new list item. */
/** A section number and its heading: "2. Offices", "3) Results", "4.1. Scope". */
const NUMBERED_HEADING = /^\d{1,2}(\.\d{1,2})*[.)]\s+\p{L}/u;
const NUMBERED_START = /^(\d{1,2}[.)]|\(\d{1,2}\)|\([a-z]\)|[ivx]{1,4}\.)\s+\S/;
const BULLET_START = /^[\u0095\u2022\u2023\u2043\u2219\u25cb\u25cf\u25e6\u25aa\u25a0\u25a1\u2610-\u2612\uf0b7\uf0a7\u27a2\u00b7*\-\u2013]\s|^[\u2022\u25cf\u25aa\u25a1\uf0b7]/;

/** A section or page number on its own: "1", "2.3", "4.", "IV". */
const NUMBER_LABEL = /^(?:\d{1,3}(?:\.\d{1,3})*\.?|[IVX]{1,4}\.?)$/;

/**
 * Segments of one line, with a leading number label joined to the text that follows it on the same
 * line ("1 | Introduction", "2 | Z. Shen et al."): a layout model boxes a numbered heading or a running
 * head as one region, while the word gap after the number splits the line into segments.
 */
export function joinNumberLabels(segs: Segment[]): Segment[] {
  if (segs.length < 2) return segs;
  const a = segs[0]!, b = segs[1]!;
  const h = Math.max(Math.min(a.size, b.size), 1);
  const gap = b.x0 - a.x1;
  if (!NUMBER_LABEL.test(a.text.trim()) || NUMBER_LABEL.test(b.text.trim()) || !/\p{L}/u.test(b.text)) return segs;
  if (gap < 0 || gap > 4 * h || Math.abs(a.size - b.size) > 0.3 * Math.max(a.size, b.size)) return segs;
  if (a.words.some((w) => w.rotated) || b.words.some((w) => w.rotated)) return segs;
  const joined: Segment = { ...union([a, b]), words: [...a.words, ...b.words], text: `${a.text} ${b.text}`, size: Math.max(a.size, b.size) };
  return [joined, ...segs.slice(2)];
}

/** Spaces (of a monospaced font's advance, about 0.6 em) a code line may hold in a row. */
const MONO_RUN_SPACES = 8;

/**
 * Segments of one line set in a monospaced font, a few spaces apart ("data0  up  10.0.0.1/24"): a
 * code listing or a terminal's output aligns its words with runs of spaces, which split the line
 * into segments as wide gaps do. Joined again (lines alignment reads as a table are taken before).
 */
export function joinMonoRuns(segs: Segment[]): Segment[] {
  if (segs.length < 2) return segs;
  const out: Segment[] = [segs[0]!];
  for (const s of segs.slice(1)) {
    const p = out[out.length - 1]!;
    const mono = (g: Segment) => g.words.every((w) => w.mono && !w.rotated);
    const gap = s.x0 - p.x1;
    if (mono(p) && mono(s) && gap >= 0 && gap <= MONO_RUN_SPACES * 0.6 * Math.max(p.size, s.size, 1) && Math.abs(p.size - s.size) <= 0.1 * Math.max(p.size, s.size)) {
      out[out.length - 1] = { ...union([p, s]), words: [...p.words, ...s.words], text: `${p.text} ${s.text}`, size: Math.max(p.size, s.size) };
    } else out.push(s);
  }
  return out;
}

/** Largest gap between the lines of a right-to-left paragraph, in text sizes. */
const RTL_LINE_GAP = 0.9;

/** Groups segments into paragraph blocks (stream order first, geometry decides). */
function buildBlocks(segs: Segment[], body: number, sizeTolerance = 0.2, lineGap = 0.55): Block[] {
  const blocks: Block[] = [];
  const open: Block[] = [];
  const rotatedOpen: Block[] = [];
  for (const s of segs) {
    let target: Block | undefined;
    if (s.words.some((w) => w.rotated)) {
      // Vertical text: one block per column of glyphs, read top to bottom; vertical CJK writing
      // also takes the next column to its left into the same paragraph.
      const em = Math.max(body, s.size);
      const r = rotatedOpen.find((b) => Math.abs(b.x0 - s.x0) < em && s.y0 - b.y1 < 3 * em)
        ?? (isVertical(s) ? rotatedOpen.find((b) => isVertical(b.lines[0]!) && Math.abs(Math.max(s.x0 - b.x1, b.x0 - s.x1)) < s.size && s.y0 < b.y1 && s.y1 > b.y0) : undefined);
      if (r) {
        r.lines.push(s);
        Object.assign(r, union([r, s]));
      } else {
        const b: Block = { lines: [s], size: s.size, x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1 };
        blocks.push(b);
        rotatedOpen.push(b);
      }
      continue;
    }
    if (!s.words.some((w) => w.rotated)) {
      for (let k = open.length - 1; k >= Math.max(0, open.length - 10); k--) {
        const b = open[k]!;
        const last = b.lines[b.lines.length - 1]!;
        const h = Math.max(Math.min(last.size, s.size), 1);
        const vgap = s.y0 - last.y1;
        // Right-to-left lines align on the right: the tests on where lines start and stop are
        // mirrored. Arabic and Hebrew fonts set lines further apart (tall marks, deep descenders).
        const rtl = !!(s.rtl && last.rtl);
        if (vgap > (rtl ? Math.max(lineGap, RTL_LINE_GAP) : lineGap) * h || vgap < -0.6 * h) continue;
        if (Math.abs(s.size - last.size) > sizeTolerance * Math.max(s.size, last.size)) continue;
        const overlap = Math.min(s.x1, b.x1) - Math.max(s.x0, b.x0);
        if (overlap <= 0) continue;
        // Line starts and ends along the writing direction (x mirrored for right-to-left lines).
        const start = (x: Box) => (rtl ? -x.x1 : x.x0), end = (x: Box) => (rtl ? -x.x0 : x.x1);
        if (start(s) > start(last) + 0.6 * (last.x1 - last.x0) && start(s) > start(b) + 4 * h) continue;
        // A line alone in its block, then a line set further in whose first word would have fit after
        // it: a heading over an indented paragraph, or a term over its definition (the first line of
        // a hanging list item is full: its next word did not fit).
        const first = s.words[0];
        if (!rtl && first && b.lines.length === 1 && s.x0 > last.x0 + 1.5 * h && last.x1 + 0.3 * h + (first.x1 - first.x0) < s.x1) continue;
        const lastBold = last.words.every((w) => w.bold);
        const sBold = s.words.every((w) => w.bold);
        if (lastBold !== sBold && (lastBold || b.lines.length > 1)) continue;
        // A line opening with a middle dot continues a line that already uses it as a separator
        // ("Keywords: A \u00b7 B \u00b7" / "\u00b7 C \u00b7 D"), it is not a bullet.
        const dotContinues = /^\u00b7\s/.test(s.text) && / \u00b7 /.test(last.text);
        if ((BULLET_START.test(s.text) && !dotContinues) || NUMBERED_START.test(s.text)) continue;
        // Paragraph ends: the previous line stops short after closing punctuation, or this line is
        // indented after a line that ends a sentence.
        const endsSentence = /[.!?:\u201d"')\]\u061f\u06d4]$/.test(last.text);
        if (endsSentence && end(last) < end(b) - 2 * h && b.x1 - b.x0 > 10 * h) continue;
        if (endsSentence && start(s) > start(b) + 0.7 * h && start(s) < start(b) + 4 * h && b.lines.length > 1) continue;
        if (last.words.some((w) => w.rotated)) continue;
        target = b;
        break;
      }
    }
    if (target) {
      target.lines.push(s);
      target.x0 = Math.min(target.x0, s.x0); target.x1 = Math.max(target.x1, s.x1);
      target.y0 = Math.min(target.y0, s.y0); target.y1 = Math.max(target.y1, s.y1);
      target.size = Math.max(target.size, s.size);
    } else {
      const b: Block = { lines: [s], size: s.size, x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1 };
      blocks.push(b);
      open.push(b);
      if (open.length > 12) open.shift();
    }
  }
  return blocks;
}

/** Recursive XY-cut: vertical (column) cuts first, then horizontal bands; else top-to-bottom. */
export function readingOrder<T extends Box>(items: T[], body: number): T[] {
  if (items.length <= 1) return items;
  const v = cut(items, 'x', Math.max(0.5 * body, 2));
  if (v.length > 1) return v.flatMap((g) => readingOrder(g, body));
  const h = cut(items, 'y', 0.01);
  if (h.length > 1) {
    // Consecutive bands that share column gutters are one multi-column region (e.g. a row of
    // figures above two text columns): merge them so columns are read top to bottom. So is a band
    // that only continues one column of the region above (a column running on below the other one's
    // end, cut off where both happen to have a paragraph gap).
    const merged: T[][] = [];
    const vGap = Math.max(0.5 * body, 2);
    for (const band of h) {
      const prev = merged[merged.length - 1];
      if (prev && cut(prev, 'x', vGap).length > 1 && cut([...prev, ...band], 'x', vGap).length > 1
        && (cut(band, 'x', vGap).length > 1 || continuesColumn(prev, band, body))) {
        appendAll(prev, band);
      } else {
        merged.push([...band]);
      }
    }
    if (merged.length > 1) return merged.flatMap((g) => readingOrder(g, body));
    return readingOrder(merged[0]!, body);
  }
  return [...items].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Reading order of a page's blocks. A page written mostly vertically (Japanese, Chinese) or in a
 * right-to-left script (Arabic, Hebrew) reads its columns right to left: the XY-cut runs on the
 * page mirrored left to right.
 */
function orderBlocks(blocks: Block[], body: number, width: number): Block[] {
  let rightToLeft = 0, all = 0;
  for (const b of blocks) for (const l of b.lines) { all += l.text.length; if (isVertical(l) || l.rtl) rightToLeft += l.text.length; }
  if (rightToLeft <= 0.5 * all) return readingOrder(blocks, body);
  const mirrored = blocks.map((b) => ({ ...b, x0: width - b.x1, x1: width - b.x0, block: b }));
  return readingOrder(mirrored, body).map((m) => m.block);
}

/** The band starts within a few lines below the items of the region above that it stands under. */
function continuesColumn(region: Box[], band: Box[], body: number): boolean {
  const x0 = Math.min(...band.map((b) => b.x0)), x1 = Math.max(...band.map((b) => b.x1));
  const above = region.filter((r) => r.x0 < x1 && r.x1 > x0);
  if (!above.length) return false;
  const top = Math.min(...band.map((b) => b.y0));
  return top - Math.max(...above.map((r) => r.y1)) <= 3 * body;
}

function cut<T extends Box>(items: T[], axis: 'x' | 'y', minGap: number): T[][] {
  const lo = axis === 'x' ? 'x0' : 'y0';
  const hi = axis === 'x' ? 'x1' : 'y1';
  const sorted = [...items].sort((a, b) => a[lo] - b[lo]);
  const groups: T[][] = [];
  let cur: T[] = [];
  let maxHi = -Infinity;
  for (const it of sorted) {
    if (cur.length && it[lo] > maxHi + minGap) { groups.push(cur); cur = []; }
    cur.push(it);
    maxHi = Math.max(maxHi, it[hi]);
  }
  if (cur.length) groups.push(cur);
  return groups;
}

const isVertical = (s: Segment): boolean => s.words.length > 0 && s.words.every((w) => w.vertical);

/** A figure's labels line by line, left to right: "0 50 100 Text Table Figure". */
function figureText(b: Block): string {
  const lines = wordsToLines(b.lines.flatMap((s) => s.words));
  return lines.map((l) => joinText(l.segs.map((s) => s.text))).join(' ').replace(/\s+/g, ' ').trim();
}

function blockText(b: Block): string {
  // Vertical CJK columns read right to left; line breaks inside CJK text are not word breaks.
  if (b.lines.every(isVertical)) return joinText([...b.lines].sort((p, q) => q.x0 - p.x0 || p.y0 - q.y0).map((l) => l.text));
  if (b.lines.every((l) => l.words.every((w) => w.rotated))) return b.lines.map((l) => l.text).join(' ');
  // A CJK line that runs to the block's right edge wraps mid-sentence and joins the next without a
  // space; a shorter one (a heading above a subtitle) ends there.
  let out = '';
  let prev: Segment | undefined;
  for (const l of b.lines) {
    const t = l.text.replace(/\s+/g, ' ').trim();
    if (!t) continue;
    out = prev ? out + (prev.x1 >= b.x1 - prev.size ? separator(out, t) : ' ') + t : t;
    prev = l;
  }
  return out;
}

function coordinatesOf(b: Box, page: RawPage, system: 'PointSpace' | 'PixelSpace'): Coordinates {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  if (system === 'PointSpace') {
    const H = page.height;
    return {
      points: [[r(b.x0), r(H - b.y0)], [r(b.x0), r(H - b.y1)], [r(b.x1), r(H - b.y1)], [r(b.x1), r(H - b.y0)]],
      system, layout_width: r(page.width), layout_height: r(page.height),
    };
  }
  return {
    points: [[r(b.x0), r(b.y0)], [r(b.x0), r(b.y1)], [r(b.x1), r(b.y1)], [r(b.x1), r(b.y0)]],
    system, layout_width: Math.round(page.width), layout_height: Math.round(page.height),
  };
}

/** Body text size of a page: the most common segment size weighted by characters. */
function bodySize(segs: Segment[]): number {
  const w = new Map<number, number>();
  for (const s of segs) {
    const k = Math.round(s.size * 2) / 2;
    w.set(k, (w.get(k) ?? 0) + s.text.length);
  }
  let best = 0, bestW = -1;
  for (const [k, n] of w) if (n > bestW) { best = k; bestW = n; }
  return best || median(segs.map((s) => s.size)) || 10;
}

/** Turns a page's words into elements in reading order. */
export function layoutPage(page: RawPage, opts: LayoutOptions): Element[] {
  const allSegs = page.lines.flatMap((l) => l.segs);
  if (!allSegs.length && !(opts.images && page.images.length)) return [];
  const body = bodySize(allSegs);
  const blocks: Block[] = [];
  let allLines = page.lines;
  // large images are Image elements (hi_res-like output)
  let pictures = opts.images ? shownPictures(page.images, page) : [];
  if (opts.images && (page.rules?.art?.length || pictures.length)) {
    // figures first (as pictures): their labels are neither list items, table cells nor paragraphs
    const found = findFigures(allLines, page.rules ?? { h: [], v: [] }, body, page, pictures);
    for (const f of found.figures) blocks.push({ lines: f.segs, size: body, figure: true, x0: f.x0, y0: f.y0, x1: f.x1, y1: f.y1 });
    const inFigures = new Set(found.figures.flatMap((f) => f.pictures));
    pictures = pictures.filter((p) => !inFigures.has(p));
    allLines = found.lines;
  }
  if (page.rules?.marks) markBullets(allLines, page.rules.marks);
  if (opts.tables !== false && page.rules) {
    // Ruled tables first: their words leave the text flow before alignment is looked at.
    const words = allLines.flatMap((l) => l.segs.flatMap((s) => s.words));
    const ruled = findRuledTables(page.rules, words, (w) => (page.warnings ??= []).push(w));
    // Records between rules that hold running text (alignment alone reads them as prose).
    const taken = new Set(ruled.flatMap((t) => [...t.words]));
    const rest = ruled.length ? wordsToLines(words.filter((w) => !taken.has(w))) : allLines;
    const banded = findRuleBandTables(rest, page.rules.h, body, page.rules.tol);
    const found = [...ruled, ...banded];
    if (found.length) {
      for (const t of found) blocks.push({ lines: wordsToLines(words.filter((w) => t.words.has(w))).flatMap((l) => l.segs), size: body, table: t.rows, x0: t.x0, y0: t.y0, x1: t.x1, y1: t.y1 });
      for (const t of banded) for (const w of t.words) taken.add(w);
      allLines = banded.length ? wordsToLines(words.filter((w) => !taken.has(w))) : rest;
    }
  }
  // Unruled tables are looked for in each page column (columns.ts); blocks never cross columns anyway.
  for (const lines of opts.tables === false ? [allLines] : pageColumns(allLines, body)) {
    const tables = opts.tables === false ? [] : findTables(lines, body);
    let li = 0;
    const pending: Segment[] = [];
    tables.forEach((t, n) => {
      for (; li < t.start; li++) appendAll(pending, joinMonoRuns(joinNumberLabels(lines[li]!.segs)));
      if (t.formula) {
        const rows = lines.slice(t.start, t.end + 1);
        blocks.push({ lines: rows.flatMap((r) => [...r.segs].sort((a, b) => a.x0 - b.x0)), size: body, formula: true, ...union(rows) });
        li = t.end + 1;
        return;
      }
      // A table whose records are bounded by rules runs down to its bottom rule.
      const end = page.rules ? extendToRules(lines, t.start, t.end, tables[n + 1]?.start ?? lines.length, page.rules.h, body, page.rules.tol) : t.end;
      const rows = lines.slice(t.start, end + 1);
      // Tables side by side whose own row rules stop at a common gutter are read as two.
      const gutter = page.rules ? ruleGutter(rows, page.rules.h, body) : undefined;
      const parts = gutter === undefined ? [rows] : splitRows(rows, gutter);
      for (const part of parts) {
        const cols = parts.length > 1 || end !== t.end ? columnsOf(part.flatMap((r) => r.segs)) : t.cols;
        const table = tableRows(part, cols, body, page.rules && recordRules(part, page.rules.h, page.rules.tol));
        blocks.push({ lines: part.flatMap((r) => r.segs), size: body, table, ...union(part) });
      }
      li = end + 1;
    });
    for (; li < lines.length; li++) appendAll(pending, joinMonoRuns(joinNumberLabels(lines[li]!.segs)));
    appendAll(blocks, joinFormulaPieces(buildBlocks(pending, body, opts.ocr ? 0.35 : 0.2, opts.ocr ? 0.9 : 0.55), blockText, body));
  }

  const imageBlocks: Block[] = pictures.map((im) => ({ lines: [], size: 0, ...im }));
  const ordered = orderBlocks([...blocks, ...imageBlocks], body, page.width);
  const out: Element[] = [];
  const langOpts = { layoutBlock: true, ...(opts.languages?.length ? { languages: opts.languages } : {}) };
  // the page's lowest text block, when it stands alone on its line (a folio, not a row of labels)
  const textBlocks = ordered.filter((b) => b.lines.length && !b.table && !b.figure && !b.formula);
  const lowestY = Math.max(...textBlocks.map((b) => b.y0));
  const onLowest = textBlocks.filter((b) => b.y1 > lowestY);
  const lowest = onLowest.length === 1 ? onLowest[0] : undefined;
  for (const b of ordered) {
    const md: Record<string, unknown> = { page_number: page.page, ...opts.extra };
    if (opts.coordinates) md.coordinates = coordinatesOf(b, page, opts.coordinates);
    if (!b.lines.length || b.figure) {
      out.push(makeElement('Image', b.figure ? figureText(b) : '', md));
      continue;
    }
    if (b.table) {
      // Text-layer tables read row by row, left to right (a merged cell once, where it starts), as
      // every other format writes a table and as a reader takes it in (a decision of an earlier issue:
      // the library's own PDF Table text stacks each column, which one corpus output still shows, see
      // test/unit/partition/pdf.test.ts). OCR'd tables keep the OCR's line order (a wrapped or
      // row-spanning header read line by line, as the library's OCR'd table text reads). The cell
      // structure, with spans, is in text_as_html.
      // A table of a right-to-left script is read from its right-hand column.
      const rows = isRtlPage(b.table.flatMap((r) => r.map((c) => c.text))) ? mirrorColumns(b.table) : b.table;
      const text = opts.ocr ? blockText(b) : tableText(rows);
      if (!text) continue;
      out.push(makeElement('Table', text, opts.tableHtml === false ? md : { ...md, text_as_html: tableToHtml(rows) }));
      continue;
    }
    const raw = blockText(b);
    if (!raw) continue;
    if (b.formula) { out.push(makeElement('Formula', raw, md)); continue; }
    const type = classifyBlock(b, raw, page, body, langOpts, b === lowest);
    // a list item's bullet is layout, not text (the library's clean_bullets); a box to tick is the answer
    const text = type === 'ListItem' ? listItemText(raw) : raw;
    // the title's size ranks it among the document's titles (category_depth, hierarchy.ts)
    if (type === 'Title') md[TITLE_SIZE_KEY] = Math.round(b.size * (opts.sizeScale ?? 1) * 100) / 100;
    addEmphasis(b, md);
    addLinks(b, text, page, md);
    out.push(makeElement(type, text, md));
  }
  return out;
}

function classifyBlock(b: Block, text: string, page: RawPage, body: number, langOpts: ClassifyOptions, lowest: boolean): ElementType {
  const inTop = b.y1 <= page.height * 0.07;
  const inBottom = b.y0 >= page.height * 0.93;
  if ((inTop || inBottom) && text.length <= 100) {
    if (isPageNumberLike(text)) return 'PageNumber';
    return inTop ? 'Header' : 'Footer';
  }
  // The folio a few lines under the body (LaTeX sets it about an inch above the page's edge): the
  // page's lowest text, in its bottom fifth, one short line that reads as a page number.
  if (lowest && b.y0 >= page.height * 0.8 && b.lines.length === 1 && isPageNumberLike(text)) return 'PageNumber';
  // Captions ("Figure 3: ...", "Table 1. ...", "FIG. 2 – ...") as the layout model labels them.
  if (CAPTION_START.test(text) && text.length <= 400) return 'FigureCaption';
  let type = classifyText(text, langOpts);
  // A long sentence-like block is body text to a layout model even when the verb stand-in finds no
  // verb ("2 For instance, the score ... drops from above 80% to less than 40%.").
  if (type === 'UncategorizedText' && text.split(' ').length >= 12 && /[.!?]["')\]]?$/.test(text) && isPossibleNarrativeText(text, { ...langOpts, languages: ['und'] })) type = 'NarrativeText';
  // So is any other run of eight words or more (an author line, affiliations, keywords): the
  // library's hi_res types a text region by its layout label, Text, whatever its verbs or capitals.
  if (type === 'UncategorizedText' && text.split(' ').length >= 8 && !underNonAlphaRatio(text)) type = 'NarrativeText';
  const words = b.lines.flatMap((l) => l.words);
  const allBold = words.length > 0 && words.every((w) => w.bold);
  const larger = b.size >= body * 1.15;
  if (type === 'NarrativeText' && (allBold || larger) && b.lines.length <= 3 && !/[.:;,]$/.test(text) && isPossibleTitle(text, langOpts)) type = 'Title';
  if (type === 'Title' && !allBold && !larger && text.split(' ').length > 6 && b.lines.length > 1) type = 'NarrativeText';
  // a sentence of five words or more, closed by its full stop, in the body's weight and size
  if (type === 'Title' && !allBold && !larger && text.split(' ').length >= 5 && /[.!?]$/.test(text) && !/^\d+(\.\d+)*\.?\s/.test(text)) type = 'NarrativeText';
  // A numbered section heading ("2. Offices") set larger than the body: a title, not a list item.
  if (type === 'ListItem' && larger && NUMBERED_HEADING.test(text) && b.lines.length <= 2 && text.split(' ').length <= 12 && !/[.:;,]$/.test(text)) type = 'Title';
  // So is one set bold in the body size on a line of its own ("1. Introduction" of a report set with
  // troff or a word processor): a few words without closing punctuation.
  if (type === 'ListItem' && allBold && NUMBERED_HEADING.test(text) && b.lines.length === 1 && text.split(' ').length <= 8 && !/[.:;,!?]$/.test(text)) type = 'Title';
  return type;
}

function addEmphasis(b: Block, md: Record<string, unknown>): void {
  const contents: string[] = [];
  const tags: string[] = [];
  let run: string[] = [];
  let runTag = '';
  const flush = () => { if (run.length) { contents.push(run.join(' ')); tags.push(runTag); } run = []; runTag = ''; };
  for (const l of b.lines) {
    for (const w of l.words) {
      const tag = w.bold ? 'b' : w.italic ? 'i' : '';
      if (tag !== runTag) flush();
      if (tag) { runTag = tag; run.push(w.t); }
    }
  }
  flush();
  if (contents.length) { md.emphasized_text_contents = contents; md.emphasized_text_tags = tags; }
}

function addLinks(b: Block, text: string, page: RawPage, md: Record<string, unknown>): void {
  if (!page.links.length) return;
  const urls: string[] = [], texts: string[] = [], starts: number[] = [];
  for (const link of page.links) {
    if (link.x1 < b.x0 || link.x0 > b.x1 || link.y1 < b.y0 || link.y0 > b.y1) continue;
    const inside: string[] = [];
    for (const l of b.lines) {
      for (const w of l.words) {
        const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
        if (cx >= link.x0 - 1 && cx <= link.x1 + 1 && cy >= link.y0 - 1 && cy <= link.y1 + 1) inside.push(w.t);
      }
    }
    if (!inside.length) continue;
    const lt = inside.join(' ');
    urls.push(link.url);
    texts.push(lt);
    starts.push(text.indexOf(lt));
  }
  if (urls.length) { md.link_urls = urls; md.link_texts = texts; md.link_start_indexes = starts; }
}
