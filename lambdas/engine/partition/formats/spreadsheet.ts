// Tabular formats. csv/tsv: one Table (delimiter sniffed for csv: comma, semicolon, pipe, tab).
// xlsx, ods and xls (own readers: xlsx-reader.ts, ods-reader.ts, xls-reader.ts): per sheet, each table found by sheet-tables.ts
// (islands cut at empty rows, and at empty columns between side-by-side tables) becomes a Table;
// single-cell rows leading or trailing an island become text elements (Title/NarrativeText/ListItem
// by the text heuristics), as the open-source library's subtable detection does, and a one-row island
// of words right above a table is its Title. page_number is the sheet index, page_name the sheet name.
// A sheet's charts (xlsx, ods) follow its cells: their title and cached data (charts.ts).
import { appendAll, makeElement, type Element } from '../../elements';
import type { FormatPartitioner } from '../types';
import { isBulletedText, isPossibleNarrativeText, isPossibleNumberedList, isPossibleTitle, stripBullet } from '../classify';
import { capExceeded, MAX_SHEET_GRID_CELLS, MAX_TABLE_CELLS } from '../limits';
import { corrupt, decodeText, escapeHtml } from './common';
import { readXlsx, type SheetCell, type SheetData, type SheetMerge } from './xlsx-reader';
import { tableText, tableToHtml, type TableRows } from '../table-html';
import { readXls } from './xls-reader';
import { sheetTables, type Box } from './sheet-tables';
import { readOds } from './ods-reader';
import { chartElements, fillFromCells, readChart, type CellLookup } from './charts';
import { readOdfChart } from './odf-charts';

// ---------- delimited text ----------

/**
 * RFC 4180 parsing with quotes; rows of raw cell strings (blank rows dropped). Cells are found with
 * indexOf and taken as slices, not built a character at a time: a 49 MB CSV parses in about a second.
 * More than `maxCells` cells is a 413.
 */
export function parseDelimited(text: string, delimiter: string, maxCells = MAX_TABLE_CELLS): string[][] {
  const rows: string[][] = [];
  const n = text.length;
  const d = delimiter.charCodeAt(0);
  let cells = 0;
  let row: string[] = [];
  let i = 0;
  const endRow = (): void => {
    if (row.some((c) => c.trim() !== '')) {
      rows.push(row);
      cells += row.length;
      if (cells > maxCells) throw capExceeded('the table\'s cell count', maxCells, 'cells');
    }
    row = [];
  };
  while (i < n) {
    let cell: string;
    if (text.charCodeAt(i) === 34 /* " */) {
      // quoted: up to the closing quote ("" is an escaped quote), then anything up to the delimiter
      let j = i + 1;
      let parts: string[] | undefined;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          cell = (parts ? parts.join('') : '') + text.slice(j);
          i = n;
          break;
        }
        if (text.charCodeAt(q + 1) === 34) {
          (parts ??= []).push(text.slice(j, q + 1));
          j = q + 2;
          continue;
        }
        cell = (parts ? parts.join('') : '') + text.slice(j, q);
        i = q + 1;
        break;
      }
      const stop = nextStop(text, i, d);
      if (stop > i) cell += text.slice(i, stop);
      i = stop;
    } else {
      const stop = nextStop(text, i, d);
      cell = text.slice(i, stop);
      i = stop;
    }
    row.push(cell);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      if (i >= n) row.push('');
      continue;
    }
    // a line break ends the row (\r\n as one)
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    endRow();
  }
  if (row.length) endRow();
  return rows;
}

/** Index of the next delimiter or line break at or after `from` (the text's length if none). */
function nextStop(text: string, from: number, d: number): number {
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === d || c === 10 || c === 13) return k;
  }
  return text.length;
}

/** Like csv.Sniffer: the candidate giving the most consistent, > 1 column count over the first lines. */
export function sniffDelimiter(text: string): string {
  const sample = text.slice(0, 20_000);
  let best = ',';
  let bestScore = -1;
  for (const d of [',', ';', '\t', '|']) {
    const rows = parseDelimited(sample, d).slice(0, 20);
    if (!rows.length) continue;
    const counts = rows.map((r) => r.length);
    const mode = counts.sort((a, b) => counts.filter((x) => x === b).length - counts.filter((x) => x === a).length)[0]!;
    if (mode < 2) continue;
    const consistent = rows.filter((r) => r.length === mode).length / rows.length;
    const score = consistent * 10 + Math.min(mode, 5) / 10;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

const HTML_SPECIAL = /[&<>"]/;
const INNER_SPACE = /\s\s|[\t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** The cell without surrounding white space; most cells have none, and trim() copies every one. */
function trimmed(cell: string): string {
  const n = cell.length;
  if (n === 0) return cell;
  const a = cell.charCodeAt(0), b = cell.charCodeAt(n - 1);
  return a > 32 && a < 127 && b > 32 && b < 127 ? cell : cell.trim();
}

function rowsToTable(rows: string[][], md: Record<string, unknown> = {}): Element | undefined {
  // a loop, not Math.max(...rows): spreading a million rows as arguments overflows the stack
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  // text and HTML built in one pass over the cells (the same output as tableText/tableToHtml on the
  // padded grid, without copying the grid), each row joined on its own and the rows then joined: one
  // array of every tag and cell (15 million pieces for a 49 MB CSV) took 3 s to fill and join, a
  // string a row under 1 s
  const trs: string[] = new Array(rows.length);
  const lines: string[] = [];
  const tds: string[] = new Array(width);
  const words: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    words.length = 0;
    for (let c = 0; c < width; c++) {
      const cell = c < r.length ? trimmed(r[c]!) : '';
      // the regular expressions only run on cells that need them (most cells are plain)
      tds[c] = cell && HTML_SPECIAL.test(cell) ? escapeHtml(cell) : cell;
      if (cell) words.push(INNER_SPACE.test(cell) ? cell.replace(/\s+/g, ' ') : cell);
    }
    trs[i] = `<tr><td>${tds.join('</td><td>')}</td></tr>`;
    if (words.length) lines.push(words.join(' '));
  }
  const html = `<table>${trs.join('')}</table>`;
  const text = lines.join(' ');
  if (!text) return undefined;
  return makeElement('Table', text, { ...md, text_as_html: html });
}

function partitionDelimited(fixed?: string): FormatPartitioner {
  return async (data, ctx) => {
    const text = decodeText(data, ctx.options.encoding);
    const delimiter = fixed ?? sniffDelimiter(text);
    const table = rowsToTable(parseDelimited(text, delimiter));
    return table ? [table] : [];
  };
}

export const partitionCsv = partitionDelimited();
export const partitionTsv = partitionDelimited('\t');

// ---------- workbooks ----------

function textElement(text: string, md: Record<string, unknown>, languages?: string[]): Element {
  // a lone number ("-337", "12.5") is a value, not a bullet or numbered item
  if (/^[-+]?\d[\d,]*(\.\d+)?%?$/.test(text)) return makeElement('UncategorizedText', text, md);
  if (isBulletedText(text)) return makeElement('ListItem', stripBullet(text) || text, md);
  if (isPossibleNumberedList(text)) return makeElement('ListItem', text, md);
  if (isPossibleNarrativeText(text, { languages })) return makeElement('NarrativeText', text, md);
  if (isPossibleTitle(text, { languages })) return makeElement('Title', text, md);
  return makeElement('UncategorizedText', text, md);
}

function sheetElements(cells: SheetCell[], index: number, name: string, languages?: string[], merges: SheetMerge[] = []): Element[] {
  // bounds from the cells actually present (a sheet's declared range is often far larger)
  let r0 = Infinity;
  let c0 = Infinity;
  let r1 = -1;
  let c1 = -1;
  for (const { r, c } of cells) {
    r0 = Math.min(r0, r);
    c0 = Math.min(c0, c);
    r1 = Math.max(r1, r);
    c1 = Math.max(c1, c);
  }
  if (!cells.length) return [];
  const nRows = r1 - r0 + 1;
  const nCols = c1 - c0 + 1;
  if (nRows * nCols > MAX_SHEET_GRID_CELLS) throw capExceeded(`sheet "${name}" (${nRows}x${nCols} cells)`, MAX_SHEET_GRID_CELLS, 'cells');
  const grid: string[][] = Array.from({ length: nRows }, () => Array<string>(nCols).fill(''));
  for (const { r, c, v } of cells) grid[r - r0]![c - c0] = v;
  const md = { page_number: index, page_name: name };
  const out: Element[] = [];
  const boxes = sheetTables(grid, nRows, nCols);
  boxes.forEach((box, k) => {
    const rows = grid.slice(box.r0, box.r1 + 1).map((row) => row.slice(box.c0, box.c1 + 1));
    const single = (row: string[]): boolean => row.filter(Boolean).length === 1;
    const leading: string[] = [];
    const trailing: string[] = [];
    while (rows.length && single(rows[0]!)) leading.push(rows.shift()!.find(Boolean)!);
    while (rows.length && single(rows[rows.length - 1]!)) trailing.unshift(rows.pop()!.find(Boolean)!);
    for (const t of leading) out.push(textElement(t, md, languages));
    if (rows.length === 1 && !trailing.length && isHeadingRow(rows[0]!) && startsTableBelow(boxes[k + 1], box)) {
      // a one-row island of words right above a table heads it (a table of one row says nothing)
      out.push(makeElement('Title', rows[0]!.filter(Boolean).join(' '), md));
    } else if (rows.length) {
      // merged cells inside the table, on the grid (its first row below the text rows taken off)
      const top = box.r0 + leading.length;
      const inside = merges
        .map((m) => ({ r0: m.r0 - r0 - top, c0: m.c0 - c0 - box.c0, r1: m.r1 - r0 - top, c1: m.c1 - c0 - box.c0 }))
        .filter((m) => m.r0 >= 0 && m.c0 >= 0 && m.r1 < rows.length && m.c1 < rows[0]!.length && (m.r1 > m.r0 || m.c1 > m.c0));
      const table = inside.length ? spannedTable(rows, inside, md) : rowsToTable(rows, md);
      if (table) out.push(table);
    }
    for (const t of trailing) out.push(textElement(t, md, languages));
  });
  return out;
}

/**
 * A sheet's table with merged cells: each merge one cell with its colspan and rowspan where it starts
 * (its value, once), the cells it covers left out, as an HTML table writes it.
 */
function spannedTable(rows: string[][], merges: SheetMerge[], md: Record<string, unknown>): Element | undefined {
  const origin = new Map<string, SheetMerge>();
  const covered = new Set<string>();
  for (const m of merges) {
    const key = `${m.r0},${m.c0}`;
    if (covered.has(key) || origin.has(key)) continue;
    origin.set(key, m);
    for (let r = m.r0; r <= m.r1; r++) for (let c = m.c0; c <= m.c1; c++) if (r !== m.r0 || c !== m.c0) covered.add(`${r},${c}`);
  }
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const table: TableRows = rows.map((row, r) => {
    const cells: TableRows[number] = [];
    for (let c = 0; c < width; c++) {
      if (covered.has(`${r},${c}`)) continue;
      const m = origin.get(`${r},${c}`);
      cells.push({ text: row[c] ?? '', ...(m ? { colspan: m.c1 - m.c0 + 1, rowspan: m.r1 - m.r0 + 1 } : {}) });
    }
    return cells;
  });
  const text = tableText(table);
  return text ? makeElement('Table', text, { ...md, text_as_html: tableToHtml(table) }) : undefined;
}

/** Two to six short cells of words (no numbers): a caption or heading row, not data. */
function isHeadingRow(row: string[]): boolean {
  const cells = row.filter(Boolean);
  return cells.length >= 2 && cells.length <= 6 && cells.every((c) => c.length <= 80 && /\p{L}/u.test(c) && !/^[-+(]?[\d.,]+%?\)?$/.test(c));
}

/** The next table starts below `box` and shares columns with it (it is what the heading is over). */
function startsTableBelow(next: Box | undefined, box: Box): boolean {
  return !!next && next.r0 > box.r1 && next.r1 > next.r0 && next.c0 <= box.c1 && box.c0 <= next.c1;
}

function partitionWorkbook(kind: 'xlsx' | 'xls' | 'ods'): FormatPartitioner {
  return async (data, ctx) => {
    let sheets: SheetData[];
    try {
      sheets = kind === 'xlsx' ? readXlsx(data) : kind === 'ods' ? readOds(data) : readXls(data);
    } catch (err) {
      return corrupt(kind, err);
    }
    const out: Element[] = [];
    // a DrawingML chart without cached data reads its ranges from the workbook's cells
    const fromCells = (xml: string) => fillFromCells(readChart(xml), workbookCells(sheets));
    sheets.forEach((sheet, i) => {
      appendAll(out, sheetElements(sheet.cells, i + 1, sheet.name, ctx.options.languages, sheet.merges));
      // the sheet's charts after its cells (a chartsheet has only charts)
      const md = { page_number: i + 1, page_name: sheet.name };
      for (const w of sheet.warnings ?? []) ctx.warn(`${kind} sheet "${sheet.name}": ${w}`);
      for (const c of sheet.charts ?? []) {
        const [xml, read] = c.format === 'biff' ? ['', () => c.data] : [c.xml, c.format === 'odf' ? readOdfChart : fromCells];
        appendAll(out, chartElements(xml, md, (m) => ctx.warn(m), `${kind} sheet "${sheet.name}"`, read));
      }
    });
    return out;
  };
}

/** A lookup of the workbook's cells by sheet name (built once, on the first chart that asks). */
function workbookCells(sheets: SheetData[]): CellLookup {
  let bySheet: Map<string, Map<number, string>> | undefined;
  return (sheet, r, c) => {
    bySheet ??= new Map(sheets.map((s) => [s.name, new Map(s.cells.map((x) => [x.r * 16_384 + x.c, x.v] as [number, string]))]));
    return bySheet.get(sheet)?.get(r * 16_384 + c);
  };
}

export const partitionXlsx = partitionWorkbook('xlsx');
export const partitionXls = partitionWorkbook('xls');
export const partitionOds = partitionWorkbook('ods');
