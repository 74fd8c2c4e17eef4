// OpenDocument spreadsheet (.ods) cell reader: content.xml streamed through the module's XML tokenizer
// (no tree), on the bounded zip reader. Values as the xlsx reader gives them (the library's pandas
// view): numbers unformatted, dates "YYYY-MM-DD HH:MM:SS", booleans True/False, else the cell's text.
// Repeated rows and columns (ODF's run-length encoding: a sheet ends with a row repeated a million
// times) are expanded only where they hold text, and every cell counts against MAX_WORKBOOK_CELLS.
// Charts embedded on a sheet (draw:object) come with the sheet, read by odf-charts.ts.
import { UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_STREAMED_XML_NODES, MAX_WORKBOOK_CELLS } from '../limits';
import { readZip, scanXml, unprefixed as local, zipText } from './common';
import { isOdfChart, objectPart } from './odf-charts';
import { MAX_SHEET_MERGES, pythonNumber, type SheetCell, type SheetData } from './xlsx-reader';

const repeat = (v: string | undefined): number => Math.max(1, Math.min(Number(v ?? 1) || 1, 1_048_576));

function cellValue(a: Record<string, string>, text: string): string {
  const type = a['office:value-type'];
  if ((type === 'float' || type === 'percentage' || type === 'currency') && a['office:value'] !== undefined) {
    const n = Number(a['office:value']);
    return Number.isFinite(n) ? pythonNumber(n) : text;
  }
  // a time of day ("PT09H30M00S", shown "9:30 AM") as pandas reads it: "09:30:00"
  const time = type === 'time' ? /^PT(\d+)H(\d+)M(\d+)(?:\.\d+)?S$/.exec(a['office:time-value'] ?? '') : null;
  if (time && Number(time[1]) < 24) return time.slice(1, 4).map((x) => x.padStart(2, '0').slice(-2)).join(':');
  if (type === 'boolean' && a['office:boolean-value'] !== undefined) return a['office:boolean-value'] === 'true' ? 'True' : 'False';
  if (type === 'date' && a['office:date-value']) {
    const d = a['office:date-value'];
    return /^\d{4}-\d\d-\d\d$/.test(d) ? `${d} 00:00:00` : d.replace('T', ' ').slice(0, 19);
  }
  return text;
}

export function readOds(data: Uint8Array): SheetData[] {
  const xml = zipText(readZip(data, 'ods', (n) => n === 'content.xml'), 'content.xml');
  if (!xml) throw new UnprocessableDocument('ods: content.xml is missing (not an OpenDocument spreadsheet?)');
  const sheets: SheetData[] = [];
  let sheet: SheetData | undefined;
  let row = 0;
  let col = 0;
  let rowRepeat = 1;
  let rowCells: SheetCell[] = [];
  let cell: { a: Record<string, string>; text: string; paras: number; repeat: number } | undefined;
  let skip = 0; // inside an annotation or a covered cell's content
  let count = 0;
  /** The embedded objects each sheet draws (once each), read after the cells: "Object 1/content.xml". */
  const objects = new Map<SheetData, Set<string>>();
  const add = (c: SheetCell): void => {
    if (++count > MAX_WORKBOOK_CELLS) throw capExceeded(`ods: the workbook's cells (sheet "${sheet!.name}")`, MAX_WORKBOOK_CELLS, 'cells');
    sheet!.cells.push(c);
  };
  scanXml(xml, {
    open(name, a, selfClosing) {
      const n = local(name);
      if (skip) {
        if (!selfClosing) skip++;
        return;
      }
      if (n === 'object' && name.startsWith('draw:') && sheet && a['xlink:href']) {
        const part = objectPart(a['xlink:href']);
        if (!objects.has(sheet)) objects.set(sheet, new Set());
        objects.get(sheet)!.add(part);
      }
      if (n === 'table' && name.startsWith('table:')) {
        sheet = { name: a['table:name'] ?? `Sheet${sheets.length + 1}`, cells: [] };
        sheets.push(sheet);
        row = 0;
      } else if (n === 'table-row' && sheet) {
        col = 0;
        rowCells = [];
        rowRepeat = repeat(a['table:number-rows-repeated']);
        if (selfClosing) row += rowRepeat;
      } else if ((n === 'table-cell' || n === 'covered-table-cell') && sheet) {
        const times = repeat(a['table:number-columns-repeated']);
        if (selfClosing || n === 'covered-table-cell') {
          if (!selfClosing) skip = 1;
          col += times;
        } else {
          cell = { a, text: '', paras: 0, repeat: times };
          // a cell spanning columns or rows (the cells it covers follow as covered-table-cell)
          const cs = repeat(a['table:number-columns-spanned']), rs = repeat(a['table:number-rows-spanned']);
          if ((cs > 1 || rs > 1) && times === 1 && (sheet.merges ??= []).length < MAX_SHEET_MERGES) sheet.merges.push({ r0: row, c0: col, r1: row + rs - 1, c1: col + cs - 1 });
        }
      } else if (cell && n === 'p') {
        if (cell.paras++ > 0) cell.text += '\n';
      } else if (cell && n === 's') cell.text += ' '.repeat(Math.min(repeat(a['text:c']), 100));
      else if (cell && (n === 'tab' || n === 'line-break')) cell.text += n === 'tab' ? '\t' : '\n';
      else if (cell && (n === 'annotation' || n === 'note') && !selfClosing) skip = 1;
    },
    close(name) {
      const n = local(name);
      if (skip) {
        skip--;
        return;
      }
      if (n === 'table-cell' && cell) {
        const v = cellValue(cell.a, cell.text).replace(/\s+/g, ' ').trim();
        if (v) {
          if (rowCells.length + cell.repeat > MAX_WORKBOOK_CELLS) throw capExceeded(`ods: the workbook's cells (sheet "${sheet!.name}")`, MAX_WORKBOOK_CELLS, 'cells');
          for (let k = 0; k < cell.repeat; k++) rowCells.push({ r: row, c: col + k, v });
        }
        col += cell.repeat;
        cell = undefined;
      } else if (n === 'table-row' && sheet) {
        // a repeated row is expanded only when it holds text
        for (let k = 0; k < (rowCells.length ? rowRepeat : 0); k++) for (const c of rowCells) add({ r: row + k, c: c.c, v: c.v });
        row += rowRepeat;
        rowCells = [];
      } else if (n === 'table' && name.startsWith('table:')) sheet = undefined;
    },
    text(data) {
      if (cell && !skip) cell.text += data;
    },
  }, MAX_STREAMED_XML_NODES);
  readCharts(data, objects);
  return sheets;
}

/** The charts among the objects a sheet draws (an embedded object may be a formula or a picture). */
function readCharts(data: Uint8Array, objects: Map<SheetData, Set<string>>): void {
  if (!objects.size) return;
  const wanted = new Set([...objects.values()].flatMap((s) => [...s]));
  const files = readZip(data, 'ods', (n) => wanted.has(n));
  for (const [sheet, parts] of objects) {
    for (const name of parts) {
      const part = zipText(files, name);
      if (part && isOdfChart(part)) (sheet.charts ??= []).push({ xml: part, format: 'odf' });
    }
  }
}
