// Legacy Excel workbook (.xls) cell reader: BIFF8 (Excel 97-2003) and BIFF5 (Excel 5.0/95). The OLE
// compound file is opened with `cfb` and its Workbook (or Book) stream walked once, record by record
// ([MS-XLS] 2.4), so untrusted workbooks are not handed to SheetJS 0.18 (the last npm release, with a
// prototype-pollution advisory for crafted files). Nothing read from the file becomes an object key:
// sheets, strings and formats live in arrays and Maps, and sheet names are only ever values.
// Read: the globals (BOUNDSHEET, SST with its CONTINUE records, FORMAT, XF, DATEMODE, EXTERNSHEET, CODEPAGE for BIFF5
// byte strings, FILEPASS refused) and each worksheet's LABELSST, LABEL, RSTRING, NUMBER, RK, MULRK,
// BOOLERR and FORMULA cached results (a string result from the STRING record after it). Values are
// rendered as the xlsx and ods readers render them (the library's pandas view): numbers unformatted,
// dates "YYYY-MM-DD HH:MM:SS", booleans True/False, errors as their text. Charts (a chart sheet's, or
// drawn on a worksheet) are read by xls-charts.ts from their substreams. Not read: formulas themselves,
// merges, comments, BIFF2-4 files (a 422). Each record is bounds-checked (a short one is a
// 422), strings are at most 65,535 characters by their length field, and the string table, the sheet
// list, the cells and their text (a shared string repeated by reference) count against the workbook
// caps; the walk is linear in the stream's size.
import CFB from 'cfb';
import iconv from 'iconv-lite';
import { UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_WORKBOOK_CELLS, MAX_WORKBOOK_SHEETS, MAX_WORKBOOK_TEXT_CHARS, MAX_XLS_CHARTS } from '../limits';
import { MAX_SHEET_MERGES, pythonNumber, type SheetData } from './xlsx-reader';
import { DATE_FORMAT_IDS, excelDate, isDateFormatCode } from './serial-dates';
import { BiffChartReader, CHART_RT, chartData, refCells, type BiffChart, type CellRef, type RecordCursor } from './xls-charts';

const RT = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  CODEPAGE: 0x0042,
  DATEMODE: 0x0022,
  BOUNDSHEET: 0x0085,
  EXTERNSHEET: 0x0017,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  FORMAT: 0x041e,
  XF: 0x00e0,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  BOOLERR: 0x0205,
  FORMULA: 0x0006,
  STRING: 0x0207,
  MERGEDCELLS: 0x00e5,
} as const;
/** BOF record types of BIFF2, 3 and 4 (not read). */
const OLD_BOFS = new Set([0x0009, 0x0209, 0x0409]);
/** BOF substream types ([MS-XLS] 2.4.21 dt). */
const DT_GLOBALS = 0x0005;
const DT_CHART = 0x0020;
const DT_VB_MODULE = 0x0006;

const ERRORS = new Map([[0x00, '#NULL!'], [0x07, '#DIV/0!'], [0x0f, '#VALUE!'], [0x17, '#REF!'], [0x1d, '#NAME?'], [0x24, '#NUM!'], [0x2a, '#N/A'], [0x2b, '#GETTING_DATA']]);
/** XF records beyond this are not kept (a cell's XF index is 16 bits). */
const MAX_XFS = 65_536;

function bad(what: string): never {
  throw new UnprocessableDocument(`xls: ${what}`);
}

/**
 * A little-endian reader over one record's data, or over a record and its CONTINUE records joined
 * (`breaks` are the offsets where each CONTINUE's data starts). Every read is bounds-checked.
 */
class Cursor {
  pos = 0;
  private next = 0;
  constructor(readonly b: Uint8Array, private readonly breaks: number[] = []) {}
  get left(): number {
    return this.b.length - this.pos;
  }
  private need(n: number): void {
    if (this.pos + n > this.b.length) bad('a record ends inside a value (truncated or corrupt workbook)');
  }
  u8(): number {
    this.need(1);
    return this.b[this.pos++]!;
  }
  u16(): number {
    this.need(2);
    const v = this.b[this.pos]! | (this.b[this.pos + 1]! << 8);
    this.pos += 2;
    return v;
  }
  u32(): number {
    return this.u16() + this.u16() * 0x10000;
  }
  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    return this.b.subarray(this.pos, (this.pos += n));
  }
  /**
   * `cch` characters, Latin-1 (compressed) or UTF-16LE by `high`. Where a CONTINUE record splits the
   * characters, its data starts with a new flags byte that may switch the width ([MS-XLS] 2.5.293).
   */
  chars(cch: number, high: boolean): string {
    let out = '';
    let left = cch;
    for (;;) {
      while (this.next < this.breaks.length && this.breaks[this.next]! < this.pos) this.next++;
      const stop = this.next < this.breaks.length ? this.breaks[this.next]! : this.b.length;
      const n = Math.min(left, high ? (stop - this.pos) >> 1 : stop - this.pos);
      if (n > 0) {
        const raw = Buffer.from(this.b.buffer, this.b.byteOffset + this.pos, high ? n * 2 : n);
        out += raw.toString(high ? 'utf16le' : 'latin1');
        this.pos += high ? n * 2 : n;
        left -= n;
      }
      if (left === 0) return out;
      if (this.pos !== stop || stop === this.b.length) bad('a string runs past its record (truncated or corrupt workbook)');
      high = (this.u8() & 0x01) !== 0;
      this.next++;
    }
  }
}

interface Sheet extends SheetData {
  /** The sheet's substream holds no cells to read (a chart or a VBA module). */
  skip: boolean;
  /** Its charts as read from their records (a chart sheet's own, or those drawn on a worksheet). */
  biffCharts: BiffChart[];
}

interface Globals {
  biff: 5 | 8;
  /** iconv encoding of BIFF5 byte strings. */
  codepage: string;
  date1904: boolean;
  sst: string[];
  formats: Map<number, string>;
  /** XF index → whether its number format shows a date. */
  dateXf: boolean[];
  xfFormats: number[];
  /** EXTERNSHEET: each XTI entry's first sheet (what a 3-D reference's index points to). */
  xti: number[];
}

function encodingOf(cp: number): string {
  if (cp === 367) return 'ascii';
  if (cp === 10000 || cp === 0x8000) return 'macintosh';
  const name = `cp${cp}`;
  return cp !== 1200 && cp !== 0x8001 && iconv.encodingExists(name) ? name : 'windows-1252';
}

/** XLUnicodeString (BIFF8: 16-bit count, flags, characters) or a BIFF5 byte string with a 16-bit count. */
function longString(c: Cursor, g: Globals): string {
  const cch = c.u16();
  if (g.biff === 5) return iconv.decode(Buffer.from(c.bytes(cch)), g.codepage);
  return c.chars(cch, (c.u8() & 0x01) !== 0);
}

/** ShortXLUnicodeString (BIFF8: 8-bit count, flags, characters) or a BIFF5 byte string with an 8-bit count. */
function shortString(c: Cursor, g: Globals): string {
  const cch = c.u8();
  if (g.biff === 5) return iconv.decode(Buffer.from(c.bytes(cch)), g.codepage);
  return c.chars(cch, (c.u8() & 0x01) !== 0);
}

/** The shared string table: XLUnicodeRichExtendedStrings over the SST record and its CONTINUEs. */
function readSst(c: Cursor, sst: string[]): void {
  c.skip(4); // cstTotal
  const declared = c.u32();
  // the declared count is only an upper bound: the loop stops where the data does
  for (let i = 0; i < declared && c.left > 0; i++) {
    if (sst.length >= MAX_WORKBOOK_CELLS) throw capExceeded('xls: the shared string table', MAX_WORKBOOK_CELLS, 'strings');
    const cch = c.u16();
    const flags = c.u8();
    const runs = flags & 0x08 ? c.u16() : 0;
    const ext = flags & 0x04 ? c.u32() : 0;
    sst.push(c.chars(cch, (flags & 0x01) !== 0));
    c.skip(runs * 4);
    c.skip(ext);
  }
}

const scratch = new DataView(new ArrayBuffer(8));
function rkValue(rk: number): number {
  let v: number;
  if (rk & 0x02) v = (rk | 0) >> 2;
  else {
    scratch.setUint32(0, 0, true);
    scratch.setUint32(4, (rk & 0xfffffffc) >>> 0, true);
    v = scratch.getFloat64(0, true);
  }
  return rk & 0x01 ? v / 100 : v;
}

function numberText(v: number, xf: number, g: Globals): string {
  if (!Number.isFinite(v)) return '';
  let date = g.dateXf[xf];
  if (date === undefined) {
    const id = g.xfFormats[xf] ?? 0;
    const code = g.formats.get(id);
    date = g.dateXf[xf] = code !== undefined ? isDateFormatCode(code) : DATE_FORMAT_IDS.has(id);
  }
  return date ? excelDate(v, g.date1904) : pythonNumber(v);
}

/** A record's data joined with the CONTINUE records right after it (`end`: where the next record starts). */
function withContinues(s: Uint8Array, start: number, end: number): { cursor: Cursor; end: number } {
  const parts = [s.subarray(start, end)];
  const breaks: number[] = [];
  let total = end - start;
  while (end + 4 <= s.length && (s[end]! | (s[end + 1]! << 8)) === RT.CONTINUE) {
    const len = s[end + 2]! | (s[end + 3]! << 8);
    if (end + 4 + len > s.length) bad('a CONTINUE record runs past the end of the stream');
    breaks.push(total);
    parts.push(s.subarray(end + 4, end + 4 + len));
    total += len;
    end += 4 + len;
  }
  return { cursor: new Cursor(parts.length === 1 ? parts[0]! : Buffer.concat(parts), breaks), end };
}

function openStream(data: Uint8Array): Uint8Array {
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(data, { type: 'buffer' });
  } catch (err) {
    bad(`not a readable OLE compound file (${(err as Error).message})`);
  }
  const entry = CFB.find(cfb, '/Workbook') ?? CFB.find(cfb, '/Book') ?? CFB.find(cfb, 'Workbook') ?? CFB.find(cfb, 'Book');
  const content = entry?.content;
  if (!content || !content.length) bad('the Workbook stream is missing (not an Excel 97-2003 or 5.0/95 workbook?)');
  return content instanceof Uint8Array ? content : Uint8Array.from(content);
}

export function readXls(data: Uint8Array): SheetData[] {
  const ole = data.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => data[i] === b);
  if (!ole) bad('not an Excel 97-2003 workbook (OLE compound file signature missing)');
  const s = openStream(data);
  const n = s.length;
  const u16 = (o: number): number => s[o]! | (s[o + 1]! << 8);
  if (n < 4 || OLD_BOFS.has(u16(0))) bad(n < 4 ? 'the Workbook stream is empty' : 'Excel 2.x-4.x (BIFF2-4) workbooks are not supported');
  if (u16(0) !== RT.BOF) bad('the Workbook stream does not start with a BOF record');

  const g: Globals = { biff: 8, codepage: 'windows-1252', date1904: false, sst: [], formats: new Map(), dateXf: [], xfFormats: [], xti: [] };
  const sheets: Sheet[] = [];
  const sheetAt = new Map<number, Sheet>();
  let cells = 0;
  let chars = 0;
  let depth = 0;
  let inGlobals = false;
  let globalsDone = false;
  let sheet: Sheet | undefined;
  let pendingString: { r: number; c: number } | undefined;
  /** The chart substream being read (a chart sheet's at depth 1, one drawn on a worksheet at depth 2). */
  let charts = 0;
  let chart: { reader: BiffChartReader; depth: number; owner: Sheet; broken?: boolean } | undefined;
  const chartText = {
    short: (c: RecordCursor) => shortString(c as Cursor, g),
    long: (c: RecordCursor) => longString(c as Cursor, g),
    num: (v: number, xf: number) => numberText(v, xf, g),
  };

  const add = (r: number, c: number, text: string): void => {
    const v = text.replace(/\s+/g, ' ').trim();
    if (!v || !sheet) return;
    if (++cells > MAX_WORKBOOK_CELLS) throw capExceeded(`xls: the workbook's cells (sheet "${sheet.name}")`, MAX_WORKBOOK_CELLS, 'cells');
    if ((chars += v.length) > MAX_WORKBOOK_TEXT_CHARS) throw capExceeded('xls: the text of the workbook\'s cells', MAX_WORKBOOK_TEXT_CHARS, 'characters');
    sheet.cells.push({ r, c, v });
  };

  for (let pos = 0; pos + 4 <= n; ) {
    const type = u16(pos);
    const size = u16(pos + 2);
    const start = pos + 4;
    let end = start + size;
    if (end > n) {
      // padding after the last substream is tolerated; a record cut short inside one is not
      if (globalsDone && depth === 0) break;
      bad(`record 0x${type.toString(16).padStart(4, '0')} at offset ${pos} runs past the end of the stream`);
    }
    const rec = new Cursor(s.subarray(start, end));

    if (type === RT.BOF || OLD_BOFS.has(type)) {
      if (OLD_BOFS.has(type)) bad('Excel 2.x-4.x (BIFF2-4) substreams are not supported');
      const vers = rec.u16();
      const dt = rec.u16();
      if (++depth === 1) {
        if (!inGlobals && !globalsDone && pos === 0) {
          if (dt !== DT_GLOBALS) bad('the Workbook stream does not start with the workbook globals');
          g.biff = vers === 0x0500 ? 5 : 8;
          inGlobals = true;
        } else {
          sheet = sheetAt.get(pos);
          if (sheet && dt === DT_CHART && g.biff === 8) chart = { reader: new BiffChartReader(), depth, owner: sheet };
          if (sheet && (dt === DT_CHART || dt === DT_VB_MODULE)) sheet.skip = true;
          if (sheet?.skip) sheet = undefined;
        }
      } else if (dt === DT_CHART && sheet && !chart && g.biff === 8) {
        chart = { reader: new BiffChartReader(), depth, owner: sheet };
      }
    } else if (type === RT.EOF) {
      if (chart && depth === chart.depth) {
        if (chart.broken) (chart.owner.warnings ??= []).push('a chart whose records could not be read is left out');
        else if (charts++ < MAX_XLS_CHARTS) chart.owner.biffCharts.push(chart.reader.chart);
        else if (charts === MAX_XLS_CHARTS + 1) (chart.owner.warnings ??= []).push(`charts beyond the first ${MAX_XLS_CHARTS} of the workbook are left out`);
        chart = undefined;
      }
      if (depth > 0 && --depth === 0) {
        if (inGlobals) globalsDone = true;
        inGlobals = false;
        sheet = undefined;
        pendingString = undefined;
      }
    } else if (chart && depth === chart.depth) {
      // a chart's record that cannot be read drops the chart, not the workbook; its cached points count as cells
      const point = type === CHART_RT.NUMBER || type === CHART_RT.LABEL || type === CHART_RT.BOOLERR;
      if (point && ++cells > MAX_WORKBOOK_CELLS) throw capExceeded(`xls: the workbook's cells and chart points`, MAX_WORKBOOK_CELLS, 'cells');
      if (!chart.broken) {
        try {
          chart.reader.record(type, rec, chartText);
        } catch (err) {
          if (!(err instanceof UnprocessableDocument)) throw err;
          chart.broken = true;
        }
      }
    } else if (depth === 1 && inGlobals) {
      switch (type) {
        case RT.FILEPASS:
          bad('the workbook is encrypted (password-protected)');
        case RT.CODEPAGE:
          g.codepage = encodingOf(rec.u16());
          break;
        case RT.DATEMODE:
          g.date1904 = rec.u16() === 1;
          break;
        case RT.EXTERNSHEET:
          if (g.biff === 8) for (let k = rec.u16(); k > 0 && rec.left >= 6; k--) { rec.skip(2); g.xti.push(rec.u16()); rec.skip(2); }
          break;
        case RT.BOUNDSHEET: {
          if (sheets.length >= MAX_WORKBOOK_SHEETS) throw capExceeded('xls: the workbook\'s sheet count', MAX_WORKBOOK_SHEETS, 'sheets');
          const offset = rec.u32();
          rec.skip(2); // visibility, sheet type
          const entry: Sheet = { name: shortString(rec, g), cells: [], skip: false, biffCharts: [] };
          sheets.push(entry);
          sheetAt.set(offset, entry);
          break;
        }
        case RT.SST: {
          // the table goes on in the CONTINUE records that follow it
          const joined = withContinues(s, start, end);
          end = joined.end;
          readSst(joined.cursor, g.sst);
          break;
        }
        case RT.FORMAT: {
          const id = rec.u16();
          const code = g.biff === 5 ? shortString(rec, g) : longString(rec, g);
          g.formats.set(id, code);
          break;
        }
        case RT.XF:
          rec.skip(2); // font
          if (g.xfFormats.length < MAX_XFS) g.xfFormats.push(rec.u16());
          break;
      }
    } else if (depth === 1 && sheet) {
      switch (type) {
        case RT.LABELSST: {
          const r = rec.u16();
          const c = rec.u16();
          rec.skip(2);
          add(r, c, g.sst[rec.u32()] ?? '');
          pendingString = undefined;
          break;
        }
        case RT.LABEL:
        case RT.RSTRING: {
          const r = rec.u16();
          const c = rec.u16();
          rec.skip(2);
          add(r, c, longString(rec, g));
          pendingString = undefined;
          break;
        }
        case RT.NUMBER: {
          const r = rec.u16();
          const c = rec.u16();
          const xf = rec.u16();
          const b = rec.bytes(8);
          add(r, c, numberText(new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true), xf, g));
          pendingString = undefined;
          break;
        }
        case RT.RK: {
          const r = rec.u16();
          const c = rec.u16();
          const xf = rec.u16();
          add(r, c, numberText(rkValue(rec.u32()), xf, g));
          pendingString = undefined;
          break;
        }
        case RT.MULRK: {
          const r = rec.u16();
          const c0 = rec.u16();
          const count = Math.floor((size - 6) / 6);
          for (let k = 0; k < count; k++) {
            const xf = rec.u16();
            add(r, c0 + k, numberText(rkValue(rec.u32()), xf, g));
          }
          pendingString = undefined;
          break;
        }
        case RT.BOOLERR: {
          const r = rec.u16();
          const c = rec.u16();
          rec.skip(2);
          const value = rec.u8();
          const isError = rec.u8() === 1;
          add(r, c, isError ? (ERRORS.get(value) ?? '#ERR') : value ? 'True' : 'False');
          pendingString = undefined;
          break;
        }
        case RT.FORMULA: {
          const r = rec.u16();
          const c = rec.u16();
          const xf = rec.u16();
          const result = rec.bytes(8);
          pendingString = undefined;
          if (result[6] === 0xff && result[7] === 0xff) {
            // not a number: the result's type in its first byte
            if (result[0] === 0) pendingString = { r, c };
            else if (result[0] === 1) add(r, c, result[2] ? 'True' : 'False');
            else if (result[0] === 2) add(r, c, ERRORS.get(result[2]!) ?? '#ERR');
          } else add(r, c, numberText(new DataView(result.buffer, result.byteOffset, 8).getFloat64(0, true), xf, g));
          break;
        }
        case RT.MERGEDCELLS: {
          // a count, then each range: first row, last row, first column, last column
          const count = Math.min(rec.u16(), Math.floor((size - 2) / 8));
          for (let k = 0; k < count && (sheet.merges ??= []).length < MAX_SHEET_MERGES; k++) {
            const r0 = rec.u16(), r1 = rec.u16(), c0 = rec.u16(), c1 = rec.u16();
            if (r1 >= r0 && c1 >= c0) sheet.merges.push({ r0, c0, r1, c1 });
          }
          break;
        }
        case RT.STRING: {
          // a formula's string result; in BIFF8 its characters may go on in CONTINUE records
          const joined = withContinues(s, start, end);
          end = joined.end;
          const text = longString(joined.cursor, g);
          if (pendingString) add(pendingString.r, pendingString.c, text);
          pendingString = undefined;
          break;
        }
      }
    }
    pos = end;
  }
  if (!globalsDone && !sheets.length) bad('the workbook globals are incomplete (truncated workbook)');
  return sheets.map((s) => {
    const out: SheetData = { name: s.name, cells: s.cells };
    if (s.warnings) out.warnings = s.warnings;
    if (s.merges?.length) out.merges = s.merges;
    const charts = s.biffCharts.map((c) => ({ format: 'biff' as const, data: chartData(c, (ref, limit) => refTexts(ref, limit, s)) }));
    if (charts.length) out.charts = charts;
    return out;
  });

  /** A chart reference's cell texts: on the sheet its XTI entry names, or the chart's own sheet. */
  function refTexts(ref: CellRef, limit: number, owner: Sheet): string[] {
    const target = ref.ixti === undefined ? owner : sheets[g.xti[ref.ixti] ?? -1];
    if (!target) return [];
    const index = cellIndex(target);
    return refCells(ref, limit).map(([r, c]) => index.get(r * 0x10000 + c) ?? '');
  }
}

const cellIndexes = new WeakMap<Sheet, Map<number, string>>();
/** A sheet's cells by row and column (built once a sheet, for its charts' references). */
function cellIndex(s: Sheet): Map<number, string> {
  let m = cellIndexes.get(s);
  if (!m) {
    m = new Map();
    for (const { r, c, v } of s.cells) m.set(r * 0x10000 + c, v);
    cellIndexes.set(s, m);
  }
  return m;
}
