// Page layout from positioned words (PDF text layer or OCR): table detection on runs of multi-cell
// lines, paragraph blocks by proximity (blocks.ts), reading order (reading-order.ts: recursive XY-cut, columns
// read top to bottom before the next column), then elements typed (block-types.ts) with emphasis,
// links and coordinates. Units are the page's own (points for PDF, pixels for OCR); thresholds scale
// with the text size.
import { appendAll, makeElement, type Coordinates, type Element } from '../../elements';
import { listItemText } from '../classify';
import { mirrorColumns, tableText, tableToHtml } from '../table-html';
import { hyphenatedWords } from './hyphens';
import { toSegment, union, wordsToLines } from './lines';
import type { Box, Line, RawPage, Segment } from './page-text';
import { findRuledTables } from './tables/ruled';
import { findTables } from './tables/unruled';
import { tableRows } from './tables/unruled-grid';
import { columnsOf } from './tables/segment-columns';
import { splitTable } from './tables/column-starts';
import { isFigure } from './tables/wrapped-cells';
import { beyondRules, ruleGutter, splitRows } from './tables/side-by-side';
import { extendToRules, findRuleBandTables, notesUnderBottomRule, recordRules, ruledAcross } from './tables/row-rules';
import { TITLE_SIZE_KEY } from '../hierarchy';
import { pageColumns } from './columns';
import { markBullets } from './bullets';
import { isRtlPage } from './bidi';
import { findFigures, shownPictures } from './figures';
import { joinFormulaPieces } from './formulas';
import { orderBlocks } from './reading-order';
import { joinMonoRuns, joinLabels } from './segment-joins';
import { boxedRegions } from './boxes';
import { addEmphasis, addLinks, type Block, classifyBlock } from './block-types';
import { blockText, buildBlocks, commonestSize, figureText, monoProse } from './blocks';

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

/** A word count. */
const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};


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
  return commonestSize(segs.map((s) => [Math.round(s.size * 2) / 2, s.text.length])) || median(segs.map((s) => s.size)) || 10;
}

/**
 * The blocks of a page column (or of the page's head, `head`): its unruled tables (findTables; in the
 * head only tables of figures or with rules drawn across them: authors and affiliations set side by
 * side line up as well) and its text.
 */
function columnBlocks(lines: Line[], { page, body, opts, listings }: { page: RawPage; body: number; opts: LayoutOptions; listings: boolean }, head = false): Block[] {
  const blocks: Block[] = [];
  const tables = opts.tables === false ? [] : findTables(lines, body, page, page.rules?.h).filter((t) => !head || t.formula || figureRows(lines.slice(t.start, t.end + 1)) || ruledAcross(lines.slice(t.start, t.end + 1), page.rules?.h ?? [], body, page.rules?.tol));
  let li = 0;
  const pending: Segment[] = [];
  tables.forEach((t, n) => {
    for (; li < t.start; li++) appendAll(pending, joinMonoRuns(joinLabels(lines[li]!.segs)));
    if (t.formula) {
      const rows = lines.slice(t.start, t.end + 1);
      blocks.push({ lines: rows.flatMap((r) => [...r.segs].sort((a, b) => a.x0 - b.x0)), size: body, formula: true, ...union(rows) });
      li = t.end + 1;
      return;
    }
    // A table whose records are bounded by rules runs down to its bottom rule.
    const end = page.rules ? extendToRules(lines, t.start, t.end, tables[n + 1]?.start ?? lines.length, page.rules.h, body, page.rules.tol) : t.end;
    let rows = lines.slice(t.start, end + 1);
    // Text beyond both ends of the table's rules is not in it; tables side by side whose own row
    // rules stop at a common gutter are read as two.
    const beyond = page.rules ? beyondRules(rows, page.rules.h, body) : undefined;
    if (beyond) { rows = beyond.inside; appendAll(pending, beyond.outside); }
    // and notes in smaller type under its bottom rule are text after it
    const notes = page.rules ? notesUnderBottomRule(rows, page.rules.h, page.rules.tol) : 0;
    // (each line one run of text: its words stood apart like cells only beside the table's rows)
    if (notes) { appendAll(pending, rows.slice(rows.length - notes).map((l) => toSegment(l.segs.flatMap((g) => g.words), !!l.segs[0]!.rtl))); rows = rows.slice(0, rows.length - notes); }
    const gutter = page.rules ? ruleGutter(rows, page.rules.h, body) : undefined;
    const parts = gutter === undefined ? [rows] : splitRows(rows, gutter);
    for (const whole of parts) {
      const cols = parts.length > 1 || end !== t.end || beyond || notes ? columnsOf(whole.flatMap((r) => r.segs)) : t.cols;
      const rules = page.rules && recordRules(whole, page.rules.h, page.rules.tol);
      let part = whole;
      let table = tableRows(part, cols, body, rules);
      // cells padded a few points apart, taken for one segment, split where other rows start a
      // column (born-digital text: OCR's positions are looser than a point), when no word is lost
      // (against the rows' own segment columns when the table's were found by such a split already)
      const ownSplit = () => { const own = columnsOf(part.flatMap((r) => r.segs)); return own.length < cols.length ? splitTable(part, own) : undefined; };
      const split = opts.ocr ? undefined : splitTable(part, cols) ?? ownSplit();
      const finer = split && tableRows(split.rows, split.cols, body, rules);
      if (split && finer && wordCount(tableText(finer)) >= wordCount(tableText(table))) {
        part = split.rows;
        table = finer;
      }
      blocks.push({ lines: part.flatMap((r) => r.segs), size: body, table, ...union(part) });
    }
    li = end + 1;
  });
  for (; li < lines.length; li++) appendAll(pending, joinMonoRuns(joinLabels(lines[li]!.segs)));
  appendAll(blocks, joinFormulaPieces(buildBlocks(pending, body, opts.ocr ? 0.35 : 0.2, opts.ocr ? 0.9 : 0.55, !opts.ocr, listings), blockText, body));
  return blocks;
}

/** Rows most of whose cells under the first row hold figures (two in five at least). */
function figureRows(rows: Line[]): boolean {
  const cells = rows.slice(1).flatMap((r) => r.segs.map((g) => g.text.trim()));
  return cells.length > 0 && cells.filter(isFigure).length >= 0.4 * cells.length;
}

/** Turns a page's words into elements in reading order. */
export function layoutPage(page: RawPage, opts: LayoutOptions): Element[] {
  const allSegs = page.lines.flatMap((l) => l.segs);
  if (!allSegs.length && !(opts.images && page.images.length)) return [];
  const body = bodySize(allSegs);
  const listings = !monoProse(allSegs);
  const compounds = hyphenatedWords(page.lines);
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
  // A box drawn around text with other text beside it is laid out on its own, as a column (boxes.ts).
  const boxed = opts.tables !== false && page.rules ? boxedRegions(allLines, page.rules, body) : undefined;
  if (boxed?.boxes.length) allLines = boxed.rest;
  // Unruled tables are looked for in each page column (columns.ts); blocks never cross columns anyway.
  const { head, columns } = opts.tables === false ? { head: [], columns: [allLines] } : pageColumns(allLines, body);
  if (boxed) columns.push(...boxed.boxes);
  const read = { page, body, opts, listings };
  // a table of figures set across the page's top above its columns stands in the page's head
  if (head.length) for (const b of columnBlocks(head, read, true)) blocks.push({ ...b, head: true });
  for (const lines of columns) appendAll(blocks, columnBlocks(lines, read));

  const imageBlocks: Block[] = pictures.map((im) => ({ lines: [], size: 0, ...im }));
  const ordered = orderBlocks([...blocks, ...imageBlocks], body, page);
  const out: Element[] = [];
  const langOpts = { layoutBlock: true, ...(opts.languages?.length ? { languages: opts.languages } : {}) };
  // the page's lowest text block, when it stands alone on its line (a folio, not a row of labels)
  const textBlocks = ordered.filter((b) => b.lines.length && !b.table && !b.figure && !b.formula);
  const lowestY = Math.max(...textBlocks.map((b) => b.y0));
  const onLowest = textBlocks.filter((b) => b.y1 > lowestY);
  const lowest = onLowest.length === 1 ? onLowest[0] : undefined;
  let formula: { el: Element; box: Box; number?: string } | undefined;
  const closeFormula = () => {
    if (formula?.number) formula.el.text = `${formula.el.text} ${formula.number}`;
    formula = undefined;
  };
  // (an OCR'd page's size is read from the glyphs' boxes, about two thirds of the font's: a nested
  // list's indent of half an inch is six of those)
  const listDepth = listNesting(opts.ocr ? 1.5 * body : body);
  for (const b of ordered) {
    const md: Record<string, unknown> = { page_number: page.page, ...opts.extra };
    if (opts.coordinates) md.coordinates = coordinatesOf(b, page, opts.coordinates);
    if (!b.lines.length || b.figure || b.table) closeFormula();
    if (!b.lines.length || b.figure) {
      out.push(makeElement('Image', b.figure ? figureText(b) : '', md));
      continue;
    }
    if (b.table) {
      // A table reads row by row, left to right (a merged cell once, where it starts), from the text
      // layer or OCR alike, as every other format writes a table and as a reader takes it in (issue
      // 29's decision: the library's own PDF Table text stacks each column, and its OCR'd table text
      // follows the OCR's lines, which two corpus outputs still show, see test/unit/partition/pdf.test.ts
      // and test/integration/partition/scan-tables.test.ts). The cell structure, with spans, is in
      // text_as_html.
      // A table of a right-to-left script is read from its right-hand column.
      const rows = isRtlPage(b.table.flatMap((r) => r.map((c) => c.text))) ? mirrorColumns(b.table) : b.table;
      const text = tableText(rows);
      if (!text) continue;
      out.push(makeElement('Table', text, opts.tableHtml === false ? md : { ...md, text_as_html: tableToHtml(rows) }));
      continue;
    }
    const raw = blockText(b, compounds);
    if (!raw) continue;
    const type = b.formula ? 'Formula' : classifyBlock(b, raw, page, body, langOpts, b === lowest);
    // a display formula's pieces in blocks of their own (a sum's limits under it) join it, and so
    // does its number at the right margin ("(2)"), after its text
    if (formula && ((type === 'Formula' && stacked(formula.box, b, body)) || (EQUATION_NUMBER.test(raw) && besideRight(formula.box, b)))) {
      if (type === 'Formula') formula.el.text = `${formula.el.text} ${raw}`;
      else formula.number = raw;
      formula.box = union([formula.box, b]);
      if (opts.coordinates) formula.el.metadata.coordinates = coordinatesOf(formula.box, page, opts.coordinates);
      continue;
    }
    closeFormula();
    if (type === 'Formula') {
      const el = makeElement('Formula', raw, md);
      out.push(el);
      formula = { el, box: { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 } };
      continue;
    }
    // a list item's bullet is layout, not text (the library's clean_bullets); a box to tick is the answer
    const text = type === 'ListItem' ? listItemText(raw) : raw;
    // a list item's depth from its indent among the items of its list (nested lists)
    if (type === 'ListItem') md.category_depth = listDepth(b);
    else listDepth(undefined);
    // the title's size ranks it among the document's titles (category_depth, hierarchy.ts)
    if (type === 'Title') md[TITLE_SIZE_KEY] = Math.round(b.size * (opts.sizeScale ?? 1) * 100) / 100;
    addEmphasis(b, md);
    addLinks(b, text, page, md);
    out.push(makeElement(type, text, md));
  }
  closeFormula();
  return out;
}

/**
 * Depths of a page's list items from their indents, in reading order: an item set further right than
 * the one before it (by up to four text sizes: a nested list's indent) is a level deeper, one set back
 * to an earlier item's indent is at that item's level. Anything else between items (`undefined`), an
 * item above the one before it (the next column) or far right of it starts a new list.
 */
function listNesting(body: number): (b: Box | undefined) => number {
  let indents: number[] = [];
  let last: Box | undefined;
  const tol = 0.4 * body;
  return (b) => {
    if (!b) { indents = []; last = undefined; return 0; }
    if (!last || b.y0 < last.y0 || b.x0 > indents[indents.length - 1]! + 4 * body) indents = [];
    while (indents.length && indents[indents.length - 1]! > b.x0 + tol) indents.pop();
    if (!indents.length || b.x0 > indents[indents.length - 1]! + tol) indents.push(b.x0);
    last = b;
    return indents.length - 1;
  };
}

/** An equation's number set at the right margin: "(2)", "(3.1)", "(4a)". */
const EQUATION_NUMBER = /^\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$/;
/** `b` sits right under or over `box`, across part of its width: a piece of the same display formula. */
const stacked = (box: Box, b: Box, body: number): boolean =>
  Math.max(b.y0 - box.y1, box.y0 - b.y1) < 0.8 * body && Math.min(box.x1, b.x1) > Math.max(box.x0, b.x0);
/** `b` stands to the right of `box`, within its height: an equation's number. */
const besideRight = (box: Box, b: Box): boolean => b.x0 >= box.x1 - 1 && b.y0 < box.y1 && b.y1 > box.y0;
