// Workbook writers for the spreadsheet tests, so no test needs SheetJS: xlsx (SpreadsheetML parts with
// inline strings, zipped with fflate), ods (content.xml) and xls (a BIFF8 Workbook stream in a compound file written by cfb).
// The BIFF8 writer is also a record kit ([MS-XLS] 2.4) for hand-built, hostile workbooks: records,
// strings and an SST that splits across CONTINUE records at any size, switching character width
// where a CONTINUE starts.
import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';

/** A cell: text, a number, a boolean, a date (UTC), a number with a display format, or empty. */
export type CellValue = string | number | boolean | Date | { v: number; z: string } | null;
export type Aoa = CellValue[][];
/** Sheets by name; a list of [name, rows] when a name must not be an object key (`__proto__`). */
export type Sheets = Record<string, Aoa> | [string, Aoa][];

const entries = (sheets: Sheets): [string, Aoa][] => (Array.isArray(sheets) ? sheets : Object.entries(sheets));
/** Merged ranges by sheet name: [first row, first column, last row, last column], 0-based. */
export type Merges = Record<string, [number, number, number, number][]>;
const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const colName = (c: number): string => (c >= 26 ? colName(Math.floor(c / 26) - 1) : '') + String.fromCharCode(65 + (c % 26));
/** Days since 1899-12-30 (the 1900 date system). */
const serial = (d: Date): number => (d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;

// ---------- xlsx ----------

export function xlsxWorkbook(sheets: Sheets, merges: Merges = {}): Uint8Array {
  const formats: string[] = [];
  const styleOf = (v: CellValue): number => {
    if (v instanceof Date) return 1;
    if (v && typeof v === 'object') {
      if (!formats.includes(v.z)) formats.push(v.z);
      return 2 + formats.indexOf(v.z);
    }
    return 0;
  };
  const files: Record<string, Uint8Array> = {};
  const list = entries(sheets);
  list.forEach(([name, aoa], i) => {
    const rows = aoa.map((row, r) => {
      const cells = row.map((v, c) => {
        if (v === null || v === '') return '';
        const ref = `${colName(c)}${r + 1}`;
        if (typeof v === 'string') return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(v)}</t></is></c>`;
        if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
        const n = v instanceof Date ? serial(v) : typeof v === 'number' ? v : v.v;
        return `<c r="${ref}" s="${styleOf(v)}"><v>${n}</v></c>`;
      });
      return `<row r="${r + 1}">${cells.join('')}</row>`;
    });
    const merged = (merges[name] ?? []).map(([r0, c0, r1, c1]) => `<mergeCell ref="${colName(c0)}${r0 + 1}:${colName(c1)}${r1 + 1}"/>`).join('');
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData>${merged ? `<mergeCells>${merged}</mergeCells>` : ''}</worksheet>`);
  });
  const sheetList = list.map(([name], i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  files['xl/workbook.xml'] = strToU8(`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheetList}</sheets></workbook>`);
  files['xl/_rels/workbook.xml.rels'] = strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`);
  const numFmts = formats.map((z, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeXml(z)}"/>`).join('');
  const xfs = ['<xf numFmtId="0"/>', '<xf numFmtId="14"/>', ...formats.map((_, i) => `<xf numFmtId="${164 + i}"/>`)].join('');
  files['xl/styles.xml'] = strToU8(`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts>${numFmts}</numFmts><cellXfs>${xfs}</cellXfs></styleSheet>`);
  files['[Content_Types].xml'] = strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
  return zipSync(files);
}

// ---------- ods ----------

export function odsWorkbook(sheets: Sheets, merges: Merges = {}): Uint8Array {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const cell = (v: CellValue): string => {
    if (v === null || v === '') return '<table:table-cell/>';
    if (typeof v === 'string') return `<table:table-cell office:value-type="string"><text:p>${escapeXml(v)}</text:p></table:table-cell>`;
    if (typeof v === 'boolean') return `<table:table-cell office:value-type="boolean" office:boolean-value="${v}"><text:p>${v}</text:p></table:table-cell>`;
    if (v instanceof Date) return `<table:table-cell office:value-type="date" office:date-value="${v.toISOString().slice(0, 19)}"><text:p>${v.toISOString()}</text:p></table:table-cell>`;
    const n = typeof v === 'number' ? v : v.v;
    return `<table:table-cell office:value-type="float" office:value="${n}"><text:p>${n}</text:p></table:table-cell>`;
  };
  // a merge's first cell spans its columns and rows, the cells it covers are covered-table-cell
  const spanned = (name: string, r: number, c: number, xml: string): string => {
    const m = (merges[name] ?? []).find(([r0, c0, r1, c1]) => r >= r0 && r <= r1 && c >= c0 && c <= c1);
    if (!m) return xml;
    if (r !== m[0] || c !== m[1]) return '<table:covered-table-cell/>';
    return xml.replace('<table:table-cell', `<table:table-cell table:number-columns-spanned="${m[3] - m[1] + 1}" table:number-rows-spanned="${m[2] - m[0] + 1}"`);
  };
  const tables = entries(sheets).map(([name, aoa]) =>
    `<table:table table:name="${escapeXml(name)}">${aoa.map((row, r) => `<table:table-row>${row.length ? row.map((v, c) => spanned(name, r, c, cell(v))).join('') : '<table:table-cell/>'}</table:table-row>`).join('')}</table:table>`);
  const content = `<office:document-content ${NS}><office:body><office:spreadsheet>${tables.join('')}</office:spreadsheet></office:body></office:document-content>`;
  return zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': strToU8(content) });
}

// ---------- xls (BIFF8) ----------

export const RT = {
  BOF: 0x0809, EOF: 0x000a, CODEPAGE: 0x0042, DATEMODE: 0x0022, FILEPASS: 0x002f, BOUNDSHEET: 0x0085, NAME: 0x0018,
  SST: 0x00fc, CONTINUE: 0x003c, FORMAT: 0x041e, XF: 0x00e0, LABELSST: 0x00fd, LABEL: 0x0204, NUMBER: 0x0203,
  RK: 0x027e, MULRK: 0x00bd, BOOLERR: 0x0205, FORMULA: 0x0006, STRING: 0x0207, MERGEDCELLS: 0x00e5,
} as const;

export const u8 = (v: number): Buffer => Buffer.from([v & 0xff]);
export const u16 = (v: number): Buffer => { const b = Buffer.alloc(2); b.writeUInt16LE(v & 0xffff); return b; };
export const u32 = (v: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32LE(v >>> 0); return b; };
export const f64 = (v: number): Buffer => { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; };

/** One record: type, 16-bit size, data (the size may be overridden to lie). */
export function record(type: number, data: Buffer = Buffer.alloc(0), size = data.length): Buffer {
  return Buffer.concat([u16(type), u16(size), data]);
}

const wide = (s: string): boolean => [...s].some((ch) => ch.charCodeAt(0) > 0xff);
const chars = (s: string, high: boolean): Buffer => (high ? Buffer.from(s, 'utf16le') : Buffer.from(s, 'latin1'));
/** XLUnicodeString: 16-bit count, flags, characters (UTF-16 only when needed). */
export const longStr = (s: string): Buffer => Buffer.concat([u16(s.length), u8(wide(s) ? 1 : 0), chars(s, wide(s))]);
/** ShortXLUnicodeString: 8-bit count, flags, characters. */
export const shortStr = (s: string): Buffer => Buffer.concat([u8(s.length), u8(wide(s) ? 1 : 0), chars(s, wide(s))]);

export interface SstString {
  text: string;
  /** Rich-text runs (4 bytes each) and extended (phonetic) bytes after the characters, to be skipped. */
  runs?: number;
  ext?: number;
}

/**
 * The SST record and its CONTINUE records, each at most `maxRecord` bytes of data (Excel: 8224). A
 * string header is never split; where characters are, the CONTINUE starts with a flags byte and each
 * piece is written compressed when its characters allow (so the width can switch between records).
 */
export function sst(strings: (string | SstString)[], maxRecord = 8224, declared = strings.length): Buffer {
  const records: Buffer[][] = [[u32(declared), u32(declared)]];
  let used = 8;
  const room = (): number => maxRecord - used;
  const put = (b: Buffer): void => {
    records[records.length - 1]!.push(b);
    used += b.length;
  };
  const fresh = (): void => {
    records.push([]);
    used = 0;
  };
  for (const item of strings) {
    const { text, runs = 0, ext = 0 } = typeof item === 'string' ? { text: item } : item;
    const headerLen = 3 + (runs ? 2 : 0) + (ext ? 4 : 0);
    if (room() < headerLen + 1) fresh();
    // the first piece's width goes in the header's flags
    let left = text;
    const piece = (space: number): { s: string; high: boolean } => {
      const narrow = left.slice(0, space);
      if (!wide(narrow)) return { s: narrow, high: false };
      return { s: left.slice(0, Math.floor(space / 2)), high: true };
    };
    let p = piece(room() - headerLen);
    put(Buffer.concat([u16(text.length), u8((p.high ? 1 : 0) | (runs ? 8 : 0) | (ext ? 4 : 0)), runs ? u16(runs) : Buffer.alloc(0), ext ? u32(ext) : Buffer.alloc(0)]));
    for (;;) {
      put(chars(p.s, p.high));
      left = left.slice(p.s.length);
      if (!left) break;
      fresh();
      const next = piece(room() - 1);
      put(u8(next.high ? 1 : 0));
      p = next;
    }
    // formatting runs and extended data: split anywhere, no flags byte
    let tail = Buffer.alloc(runs * 4 + ext, 0x5a);
    while (tail.length) {
      if (!room()) fresh();
      const n = Math.min(room(), tail.length);
      put(tail.subarray(0, n));
      tail = tail.subarray(n);
    }
  }
  return Buffer.concat(records.map((parts, i) => record(i ? RT.CONTINUE : RT.SST, Buffer.concat(parts))));
}

/** A BIFF8 BOF record of the given substream type (0x0005 globals, 0x0010 worksheet, 0x0020 chart). */
export const bof = (dt: number): Buffer => record(RT.BOF, Buffer.concat([u16(0x0600), u16(dt), u16(0x0dbb), u16(0x07cc), u32(0), u32(0x0206)]));
export const EOF = record(RT.EOF);
/** A cell record's first six bytes: row, column, XF index. */
export const cellHead = (r: number, c: number, xf = 0): Buffer => Buffer.concat([u16(r), u16(c), u16(xf)]);

export interface BiffSheet {
  name: string;
  /** The records between the sheet's BOF and EOF. */
  records: Buffer[];
  /** BOUNDSHEET sheet type (0 worksheet, 2 chart) and its substream's BOF type. */
  type?: number;
  dt?: number;
}

/**
 * A BIFF8 Workbook stream: globals (BOF, `globals` records, the BOUNDSHEETs with their offsets, EOF),
 * then each sheet's substream.
 */
export function biffStream(sheets: BiffSheet[], globals: Buffer[] = []): Buffer {
  const boundsheet = (offset: number, s: BiffSheet): Buffer =>
    record(RT.BOUNDSHEET, Buffer.concat([u32(offset), u8(0), u8(s.type ?? 0), shortStr(s.name)]));
  const head = Buffer.concat([bof(0x0005), ...globals]);
  const globalsLen = head.length + sheets.reduce((n, s) => n + boundsheet(0, s).length, 0) + EOF.length;
  const bodies = sheets.map((s) => Buffer.concat([bof(s.dt ?? 0x0010), ...s.records, EOF]));
  let at = globalsLen;
  const offsets = bodies.map((b) => { const o = at; at += b.length; return o; });
  return Buffer.concat([head, ...sheets.map((s, i) => boundsheet(offsets[i]!, s)), EOF, ...bodies]);
}

/** A compound file holding `stream` as its Workbook (or another name). */
export function oleFile(stream: Buffer, name = 'Workbook'): Uint8Array {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, name, stream);
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer);
}

/** An .xls of the sheets: strings through the SST (LABELSST), numbers, booleans, dates and formats through XF. */
export function xlsWorkbook(sheets: Sheets, opts: { date1904?: boolean; maxRecord?: number; merges?: Merges } = {}): Uint8Array {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const formats: string[] = [];
  // XF 0: General, 1: a built-in date (14), then one per custom format (ids from 164)
  const xfOf = (v: CellValue): number => {
    if (v instanceof Date) return 1;
    if (v && typeof v === 'object') {
      if (!formats.includes(v.z)) formats.push(v.z);
      return 2 + formats.indexOf(v.z);
    }
    return 0;
  };
  const biffSheets = entries(sheets).map(([name, aoa]): BiffSheet => {
    const records: Buffer[] = [];
    aoa.forEach((row, r) => row.forEach((v, c) => {
      if (v === null || v === '') return;
      if (typeof v === 'string') {
        if (!index.has(v)) index.set(v, strings.push(v) - 1);
        records.push(record(RT.LABELSST, Buffer.concat([cellHead(r, c), u32(index.get(v)!)])));
      } else if (typeof v === 'boolean') {
        records.push(record(RT.BOOLERR, Buffer.concat([cellHead(r, c), u8(v ? 1 : 0), u8(0)])));
      } else {
        const n = v instanceof Date ? serial(v) - (opts.date1904 ? 1462 : 0) : typeof v === 'number' ? v : v.v;
        records.push(record(RT.NUMBER, Buffer.concat([cellHead(r, c, xfOf(v)), f64(n)])));
      }
    }));
    const merged = opts.merges?.[name] ?? [];
    if (merged.length) records.push(record(RT.MERGEDCELLS, Buffer.concat([u16(merged.length), ...merged.map(([r0, c0, r1, c1]) => Buffer.concat([u16(r0), u16(r1), u16(c0), u16(c1)]))])));
    return { name, records };
  });
  const xf = (fmt: number): Buffer => record(RT.XF, Buffer.concat([u16(0), u16(fmt), Buffer.alloc(16)]));
  const globals = [
    record(RT.CODEPAGE, u16(1200)),
    record(RT.DATEMODE, u16(opts.date1904 ? 1 : 0)),
    ...formats.map((z, i) => record(RT.FORMAT, Buffer.concat([u16(164 + i), longStr(z)]))),
    xf(0), xf(14), ...formats.map((_, i) => xf(164 + i)),
    sst(strings, opts.maxRecord),
  ];
  return oleFile(biffStream(biffSheets, globals));
}

/** A workbook of the given kind ('xls' is BIFF8). */
export function workbook(kind: 'xlsx' | 'xls' | 'ods', sheets: Sheets, merges: Merges = {}): Uint8Array {
  return kind === 'xlsx' ? xlsxWorkbook(sheets, merges) : kind === 'ods' ? odsWorkbook(sheets, merges) : xlsWorkbook(sheets, { merges });
}
