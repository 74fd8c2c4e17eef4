// A small SpreadsheetML (.xlsx) cell reader on the bounded zip reader + the module's XML tokenizer, so
// untrusted workbooks are not handed to SheetJS 0.18 (the last npm release, with known advisories for
// crafted files). Sheets and shared strings are streamed through scanXml (no tree: a sheet part is
// tens of bytes per cell, a tree node hundreds) and cells are counted against MAX_WORKBOOK_CELLS as
// they are read. Values are rendered as the open-source library's pandas-based reader shows them:
// numbers unformatted (shortest round-trip), dates as "YYYY-MM-DD HH:MM:SS", booleans True/False,
// errors as text.
import { UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_STREAMED_XML_NODES, MAX_WORKBOOK_CELLS, MAX_WORKBOOK_TEXT_CHARS } from '../limits';
import { childElements, columnIndex, descendants, firstChild, parseXml, readZip, scanXml, unprefixed as local, zipText } from './common';
import { sheetChartParts, type ChartPart } from './charts';
import { DATE_FORMAT_IDS, excelDate, isDateFormatCode } from './serial-dates';
import { mainPartPath, partRelationships } from './ooxml-package';

export interface SheetCell {
  r: number;
  c: number;
  v: string;
}
/** Cells merged into one (0-based, inclusive): the value stands in the first, the rest are covered. */
export interface SheetMerge {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}
/** Merged ranges read per sheet at most (the grid itself is bounded by MAX_SHEET_GRID_CELLS). */
export const MAX_SHEET_MERGES = 100_000;
export interface SheetData {
  name: string;
  cells: SheetCell[];
  /** Merged ranges (xlsx mergeCell, ods spanned cells, xls MERGEDCELLS): colspan and rowspan in text_as_html. */
  merges?: SheetMerge[];
  /** The chart parts drawn on the sheet (xlsx, ods; an xlsx chartsheet has only these). */
  charts?: ChartPart[];
  /** What was left out of the sheet while reading it (said as the document's warnings). */
  warnings?: string[];
}

/** A date cell written as ISO 8601 text (t="d": "2024-03-01T09:30:00Z") read as a serial date reads. */
function isoDate(raw: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(raw.trim());
  return m ? `${m[1]} ${m[2] ?? '00:00'}${m[3] ?? ':00'}` : raw;
}

/** The shared string table, streamed: the text of each <si>'s <t> runs (phonetic guides skipped). */
function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const out: string[] = [];
  let cur: string | undefined;
  let inT = 0;
  let inPhonetic = 0;
  scanXml(xml, {
    open(name, _a, selfClosing) {
      if (selfClosing) return;
      const n = local(name);
      if (n === 'si') cur = '';
      else if (n === 't') inT++;
      else if (n === 'rPh' || n === 'phoneticPr') inPhonetic++;
    },
    close(name) {
      const n = local(name);
      if (n === 'si' && cur !== undefined) {
        out.push(cur);
        cur = undefined;
        if (out.length > MAX_WORKBOOK_CELLS) throw capExceeded('xlsx: the shared string table', MAX_WORKBOOK_CELLS, 'strings');
      } else if (n === 't') inT = Math.max(0, inT - 1);
      else if (n === 'rPh' || n === 'phoneticPr') inPhonetic = Math.max(0, inPhonetic - 1);
    },
    text(data) {
      if (cur !== undefined && inT && !inPhonetic) cur += data;
    },
  }, MAX_STREAMED_XML_NODES);
  return out;
}

/** Style index -> whether the cell's number format is a date. */
function dateStyles(xml: string | undefined): boolean[] {
  if (!xml) return [];
  const doc = parseXml(xml);
  const custom = new Map<number, string>();
  for (const f of descendants(doc, 'numFmt')) custom.set(Number(f.attribs['numFmtId']), f.attribs['formatCode'] ?? '');
  const root = firstChild(doc, 'styleSheet');
  const xfs = root ? firstChild(root, 'cellXfs') : undefined;
  return (xfs ? childElements(xfs, 'xf') : []).map((xf) => {
    const id = Number(xf.attribs['numFmtId'] ?? 0);
    const code = custom.get(id);
    return code !== undefined ? isDateFormatCode(code) : DATE_FORMAT_IDS.has(id);
  });
}

/**
 * A float as Python writes it, the way the library's and docling's readers show a cell's number: the
 * shortest digits, in exponent form ("3e-05", "1.5e+16") below 1e-4 and from 1e16 on.
 */
function pythonFloat(n: number): string {
  const abs = Math.abs(n);
  if (abs === 0 || (abs >= 1e-4 && abs < 1e16)) return String(n);
  // JavaScript writes "1.5e-7" where Python writes "1.5e-07": two exponent digits at least
  return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
}

/** A number of a reader that gives whole numbers as integers (pandas over xls and ods): all digits. */
export function pythonNumber(n: number): string {
  return Number.isInteger(n) ? BigInt(n).toString() : pythonFloat(n);
}

function renderNumber(v: string): string {
  // a whole number written out is read as an integer, all its digits
  if (/^-?\d+$/.test(v)) return v.replace(/^(-?)0+(?=\d)/, '$1');
  const n = Number(v);
  return Number.isFinite(n) ? pythonFloat(n) : v;
}

export function readXlsx(data: Uint8Array): SheetData[] {
  const files = readZip(data, 'xlsx', (n) => n.endsWith('.xml') || n.endsWith('.rels'));
  // the workbook part and its shared strings and styles where the relationships say (third-party
  // writers use other names: xl/SharedStrings.xml, xl/workbook2.xml), else at their usual names
  const main = mainPartPath(files, 'xl/workbook.xml');
  const wbXml = zipText(files, main);
  if (!wbXml) throw new UnprocessableDocument('xlsx: xl/workbook.xml is missing (not an Excel workbook?)');
  const wb = parseXml(wbXml);
  const wbRoot = firstChild(wb, 'workbook');
  const pr = wbRoot ? firstChild(wbRoot, 'workbookPr') : undefined;
  const date1904 = pr ? ['1', 'true'].includes(pr.attribs['date1904'] ?? '') : false;
  const rels = new Map<string, string>();
  const byType = new Map<string, string>();
  for (const r of partRelationships(files, main)) {
    if (r.external) continue;
    rels.set(r.id, r.target);
    byType.set(r.type.replace(/^.*\//, ''), r.target);
  }
  const related = (type: string, usual: string): string | undefined => zipText(files, byType.get(type) ?? usual) ?? zipText(files, usual);
  const strings = sharedStrings(related('sharedStrings', 'xl/sharedStrings.xml'));
  const dates = dateStyles(related('styles', 'xl/styles.xml'));
  const sheetsEl = wbRoot ? firstChild(wbRoot, 'sheets') : undefined;
  const out: SheetData[] = [];
  let counted = 0;
  const text = { chars: 0 };
  for (const sheet of sheetsEl ? childElements(sheetsEl, 'sheet') : []) {
    const name = sheet.attribs['name'] ?? `Sheet${out.length + 1}`;
    const rid = Object.entries(sheet.attribs).find(([k]) => k.endsWith(':id'))?.[1];
    const path = rid ? rels.get(rid) : undefined;
    const xml = path ? zipText(files, path) : undefined;
    const cells: SheetCell[] = [];
    const merges: SheetMerge[] = [];
    if (xml) readSheetCells(xml, name, { strings, normalized: [], text, dates, date1904, limit: MAX_WORKBOOK_CELLS - counted }, cells, merges);
    counted += cells.length;
    const charts = path ? sheetChartParts(files, path) : [];
    out.push({ name, cells, ...(charts.length ? { charts } : {}), ...(merges.length ? { merges } : {}) });
  }
  return out;
}

interface SheetContext {
  strings: string[];
  /** Shared strings with their white space folded, made once each: a string used by 100,000 cells is not folded 100,000 times. */
  normalized: (string | undefined)[];
  /** Characters of cell text so far, all sheets (MAX_WORKBOOK_TEXT_CHARS). */
  text: { chars: number };
  dates: boolean[];
  date1904: boolean;
  /** Cells this sheet may still add to the workbook. */
  limit: number;
}

/** The non-empty cells of one sheet part, streamed (rows and cells without r= follow the previous one). */
function readSheetCells(xml: string, sheetName: string, sc: SheetContext, cells: SheetCell[], merges: SheetMerge[]): void {
  let rowIdx = -1;
  let colIdx = -1;
  let cell: { t: string; s: number } | undefined;
  let value = '';
  let inline = '';
  let inV = 0;
  let inIs = 0;
  scanXml(xml, {
    open(name, a, selfClosing) {
      const n = local(name);
      if (n === 'row') {
        rowIdx = a['r'] ? Number(a['r']) - 1 : rowIdx + 1;
        colIdx = -1;
      } else if (n === 'c') {
        const ref = /^([A-Z]+)(\d+)$/.exec(a['r'] ?? '');
        colIdx = ref ? columnIndex(ref[1]!) : colIdx + 1;
        cell = selfClosing ? undefined : { t: a['t'] ?? 'n', s: Number(a['s'] ?? 0) };
        value = '';
        inline = '';
      } else if (n === 'mergeCell' && merges.length < MAX_SHEET_MERGES) {
        const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(a['ref'] ?? '');
        if (m) merges.push({ r0: Number(m[2]) - 1, c0: columnIndex(m[1]!), r1: Number(m[4]) - 1, c1: columnIndex(m[3]!) });
      } else if (!selfClosing && n === 'v') inV++;
      else if (!selfClosing && n === 'is') inIs++;
    },
    close(name) {
      const n = local(name);
      if (n === 'v') inV = Math.max(0, inV - 1);
      else if (n === 'is') inIs = Math.max(0, inIs - 1);
      else if (n === 'c' && cell) {
        const v = cell.t === 's' ? sharedText(Number(value), sc) : cellValue(cell.t, cell.s, value, inline, sc).replace(/\s+/g, ' ').trim();
        cell = undefined;
        if (!v) return;
        if (cells.length >= sc.limit) throw capExceeded(`xlsx: the workbook's cells (sheet "${sheetName}")`, MAX_WORKBOOK_CELLS, 'cells');
        // -- a 248 KB workbook can repeat one 60 MB shared string in 100,000 cells: the text is counted --
        if ((sc.text.chars += v.length) > MAX_WORKBOOK_TEXT_CHARS) throw capExceeded("xlsx: the text of the workbook's cells", MAX_WORKBOOK_TEXT_CHARS, 'characters');
        cells.push({ r: rowIdx, c: colIdx, v });
      }
    },
    text(data) {
      if (!cell) return;
      if (inIs) inline += data;
      else if (inV) value += data;
    },
  }, MAX_STREAMED_XML_NODES);
}

function sharedText(index: number, sc: SheetContext): string {
  const hit = sc.normalized[index];
  if (hit !== undefined) return hit;
  const v = (sc.strings[index] ?? '').replace(/\s+/g, ' ').trim();
  if (Number.isInteger(index) && index >= 0 && index < sc.strings.length) sc.normalized[index] = v;
  return v;
}

function cellValue(t: string, style: number, raw: string, inline: string, sc: SheetContext): string {
  if (t === 's') return sc.strings[Number(raw)] ?? '';
  if (t === 'inlineStr') return inline;
  if (t === 'b') return raw === '1' ? 'True' : raw === '0' ? 'False' : raw;
  if (t === 'd') return isoDate(raw);
  if (t === 'str' || t === 'e') return raw;
  if (raw === '') return '';
  return sc.dates[style] ? excelDate(Number(raw), sc.date1904) : renderNumber(raw);
}
