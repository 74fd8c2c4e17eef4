// A small SpreadsheetML (.xlsx) cell reader on fflate + the module's XML reader, so untrusted
// workbooks are not handed to SheetJS 0.18 (the last npm release, with known advisories for crafted
// files). Values are rendered as the open-source library's pandas-based reader shows them: numbers
// unformatted (shortest round-trip), dates as "YYYY-MM-DD HH:MM:SS", booleans True/False, errors as text.
import { posix } from 'node:path';
import { UnprocessableDocument } from '../../../domain/errors';
import { attr, childElements, descendants, firstChild, isTag, localName, parseXml, readZip, textContent, zipText, type DomElement } from './common';

export interface SheetCell {
  r: number;
  c: number;
  v: string;
}
export interface SheetData {
  name: string;
  cells: SheetCell[];
}

const MAX_CELLS_PER_SHEET = 5_000_000;

function colIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Built-in number formats that are dates/times (ECMA-376 18.8.30 and common locale ids). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|m\]|s\]|hh\]|mm\]|ss\])[^\]]*\]/gi, '')
    .split(';')[0]!;
  return /[dmyhs]/i.test(bare) && !/general/i.test(bare);
}

function excelDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial + (date1904 ? 1462 : 0)) * 86_400_000) + Date.UTC(1899, 11, 30);
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(serial);
  return d.toISOString().replace('T', ' ').slice(0, 19);
}

function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const out: string[] = [];
  const root = firstChild(parseXml(xml), 'sst');
  for (const si of root ? childElements(root, 'si') : []) {
    let s = '';
    const walk = (el: DomElement): void => {
      for (const c of el.children) {
        if (!isTag(c)) continue;
        const n = localName(c);
        if (n === 'rPh' || n === 'phoneticPr') continue; // phonetic guides are not cell text
        if (n === 't') s += textContent(c);
        else walk(c);
      }
    };
    walk(si);
    out.push(s);
  }
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

function renderNumber(v: string): string {
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : v;
}

export function readXlsx(data: Uint8Array): SheetData[] {
  const files = readZip(data, 'xlsx', (n) => n.endsWith('.xml') || n.endsWith('.rels'));
  const wbXml = zipText(files, 'xl/workbook.xml');
  if (!wbXml) throw new UnprocessableDocument('xlsx: xl/workbook.xml is missing (not an Excel workbook?)');
  const wb = parseXml(wbXml);
  const wbRoot = firstChild(wb, 'workbook');
  const pr = wbRoot ? firstChild(wbRoot, 'workbookPr') : undefined;
  const date1904 = pr ? ['1', 'true'].includes(pr.attribs['date1904'] ?? '') : false;
  const rels = new Map<string, string>();
  const relsRoot = firstChild(parseXml(zipText(files, 'xl/_rels/workbook.xml.rels') ?? ''), 'Relationships');
  for (const r of relsRoot ? childElements(relsRoot, 'Relationship') : []) {
    const target = r.attribs['Target'] ?? '';
    rels.set(r.attribs['Id'] ?? '', target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target)));
  }
  const strings = sharedStrings(zipText(files, 'xl/sharedStrings.xml'));
  const dates = dateStyles(zipText(files, 'xl/styles.xml'));
  const sheetsEl = wbRoot ? firstChild(wbRoot, 'sheets') : undefined;
  const out: SheetData[] = [];
  for (const sheet of sheetsEl ? childElements(sheetsEl, 'sheet') : []) {
    const name = sheet.attribs['name'] ?? `Sheet${out.length + 1}`;
    const rid = Object.entries(sheet.attribs).find(([k]) => k.endsWith(':id'))?.[1];
    const path = rid ? rels.get(rid) : undefined;
    const xml = path ? zipText(files, path) : undefined;
    const cells: SheetCell[] = [];
    if (xml) {
      const root = firstChild(parseXml(xml), 'worksheet');
      const sheetData = root ? firstChild(root, 'sheetData') : undefined;
      let rowIdx = -1;
      for (const row of sheetData ? childElements(sheetData, 'row') : []) {
        rowIdx = row.attribs['r'] ? Number(row.attribs['r']) - 1 : rowIdx + 1;
        let colIdx = -1;
        for (const c of childElements(row, 'c')) {
          const ref = /^([A-Z]+)(\d+)$/.exec(c.attribs['r'] ?? '');
          colIdx = ref ? colIndex(ref[1]!) : colIdx + 1;
          const t = c.attribs['t'] ?? 'n';
          const vEl = firstChild(c, 'v');
          const raw = vEl ? textContent(vEl) : '';
          let v: string;
          if (t === 's') v = strings[Number(raw)] ?? '';
          else if (t === 'inlineStr') v = textContent(firstChild(c, 'is') ?? c);
          else if (t === 'b') v = raw === '1' ? 'True' : raw === '0' ? 'False' : raw;
          else if (t === 'str' || t === 'e' || t === 'd') v = raw;
          else if (raw === '') v = '';
          else {
            const style = Number(attr(c, 's') ?? 0);
            v = dates[style] ? excelDate(Number(raw), date1904) : renderNumber(raw);
          }
          v = v.replace(/\s+/g, ' ').trim();
          if (!v) continue;
          if (cells.length >= MAX_CELLS_PER_SHEET) throw new UnprocessableDocument(`sheet "${name}" has too many cells`);
          cells.push({ r: rowIdx, c: colIdx, v });
        }
      }
    }
    out.push({ name, cells });
  }
  return out;
}
