// Spreadsheet serial dates (days since 1899-12-30, or 1904-01-01 in a 1904 workbook) and the number
// formats that show a number as a date or time: shared by the workbook readers (xlsx, xls) and the
// DrawingML chart reader (a chart's date categories are cached as serials with their format code).

/** Built-in number formats that are dates/times (ECMA-376 18.8.30 and common locale ids). */
export const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

export function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|m\]|s\]|hh\]|mm\]|ss\])[^\]]*\]/gi, '')
    .split(';')[0]!;
  return /[dmyhs]/i.test(bare) && !/general/i.test(bare);
}

export function excelDate(serial: number, date1904: boolean): string {
  // a serial under one day is a time of day (a schedule's "9:30 AM"): read as openpyxl and pandas
  // show a time, without the epoch's date
  if (serial >= 0 && serial < 1) {
    const seconds = Math.round(serial * 86_400);
    if (seconds < 86_400) return new Date(seconds * 1000).toISOString().slice(11, 19);
  }
  const ms = Math.round((serial + (date1904 ? 1462 : 0)) * 86_400_000) + Date.UTC(1899, 11, 30);
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(serial);
  return d.toISOString().replace('T', ' ').slice(0, 19);
}
